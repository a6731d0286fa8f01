/** The text rules of validation, each with the words that tell a model how to fix it, and how a value is quoted. */

import { type JsonObject, own } from "../core/json.ts";
import { LIMITS } from "../core/types.ts";

/** Returns undefined, so a reader can report and give up in one `return`. */
export type Report = (path: string, message: string) => undefined;

interface TextRule {
	/** The field as a noun: "a label". */
	noun: string;
	max: number;
	/** Line breaks allowed; every other text is one line. */
	multiLine?: boolean;
	required?: boolean;
	/** Headers are counted as characters on screen, not UTF-16 units. */
	codePoints?: boolean;
	/** Undefined: a blank text counts as absent. */
	blankFix?: string;
	lengthFix: string;
	lineBreakFix?: string;
}

const RULES = {
	question: {
		noun: "a question",
		max: LIMITS.question,
		required: true,
		blankFix: "Write the decision the user should make, as one line.",
		lengthFix: `Ask one decision in one short line and move background into "context".`,
		lineBreakFix: `Put background into "context".`,
	},
	context: {
		noun: "context",
		max: LIMITS.context,
		multiLine: true,
		lengthFix: "Keep only what the user needs to decide.",
	},
	header: {
		noun: "a header",
		max: LIMITS.header,
		codePoints: true,
		blankFix: `Give a short tab label such as "Database", or leave "header" out.`,
		lengthFix: `Use a short tab label such as "Database".`,
	},
	id: {
		noun: "an id",
		max: LIMITS.id,
		blankFix: `Give a short key such as "db", or leave "id" out.`,
		lengthFix: `Use a short key such as "db".`,
	},
	label: {
		noun: "a label",
		max: LIMITS.label,
		required: true,
		blankFix: "Every option needs a visible label.",
		lengthFix: `Shorten the label and move detail into "description".`,
		lineBreakFix: `Move detail into "description".`,
	},
	value: {
		noun: "a value",
		max: LIMITS.value,
		blankFix: `Leave "value" out to get the label back.`,
		lengthFix: `Use a short machine value; put explanations into "description".`,
	},
	description: {
		noun: "a description",
		max: LIMITS.description,
		multiLine: true,
		lengthFix: `Shorten it; code or a diff belongs in "preview" (single-select only).`,
	},
	preview: { noun: "a preview", max: LIMITS.preview, multiLine: true, lengthFix: "Show only the relevant excerpt." },
	reason: {
		noun: "a reason",
		max: LIMITS.reason,
		lengthFix: `Say in one short line why you ask; background belongs in a question's "context".`,
		lineBreakFix: `Write it as one line; background belongs in a question's "context".`,
	},
} satisfies Record<string, TextRule>;

/**
 * The field `name` trimmed, every rule it breaks reported; undefined when absent, not a string, or blank meaning
 * absent.
 */
export function readText(
	object: JsonObject,
	path: string,
	name: keyof typeof RULES,
	report: Report,
): string | undefined {
	const rule: TextRule = RULES[name];
	const value = own(object, name);
	const at = path === "" ? name : `${path}.${name}`;
	if (value === undefined) return rule.required ? report(at, `missing. ${rule.blankFix ?? ""}`) : undefined;
	if (typeof value !== "string") return report(at, `expected a string, got ${describe(value)}.`);
	const text = rule.multiLine ? value.trimEnd() : value.trim();
	if (text.trim() === "") {
		if (rule.blankFix !== undefined) report(at, `blank. ${rule.blankFix}`);
		return rule.blankFix === undefined ? undefined : text;
	}
	const length = rule.codePoints ? [...text].length : text.length;
	if (length > rule.max) report(at, `${length} characters; the limit is ${rule.max}. ${rule.lengthFix}`);
	const problem = rule.multiLine ? undefined : lineProblem(text);
	if (problem === "line break")
		report(at, `contains a line break; ${rule.noun} is one line. ${rule.lineBreakFix ?? "Remove it."}`);
	else if (problem !== undefined)
		report(at, `contains the control character ${problem}; ${rule.noun} takes plain text only. Remove it.`);
	return text;
}

/**
 * Not plain one-line text: C0 and C1 controls, DEL, bidi embeddings/overrides/isolates, the line/paragraph separators.
 */
export const CONTROL = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/** "line break", the code point of the first other control ("U+001B"), or undefined for clean text. */
function lineProblem(text: string): string | undefined {
	const found = CONTROL.exec(text);
	if (found === null) return undefined;
	if (/[\n\r\u2028\u2029]/.test(text)) return "line break";
	return `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

const QUOTE_LIMIT = 40;
// What JSON.stringify leaves raw but a terminal or a reader would trip on.
const INVISIBLE = /[\x7f-\x9f\xad\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** JSON-quoted, invisible characters made visible, cut after QUOTE_LIMIT characters. */
export function quote(text: string): string {
	const cut = [...text].slice(0, QUOTE_LIMIT).join("");
	const quoted = JSON.stringify(cut).replace(
		INVISIBLE,
		(char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
	);
	return cut.length < text.length ? `${quoted}…` : quoted;
}

export function describe(value: unknown): string {
	if (value === null) return "null";
	if (value === undefined) return "nothing";
	if (typeof value === "string") return `the string ${quote(value)}`;
	if (typeof value === "number" || typeof value === "boolean") return `the ${typeof value} ${String(value)}`;
	if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
	if (typeof value === "object") return "an object";
	return `a ${typeof value}`;
}
