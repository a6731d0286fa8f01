/**
 * Validation of ask_user arguments: every violation at once, with its path and fix; else the form with its defaults
 * filled in.
 */

import { isObject, type JsonObject, own } from "../core/json.ts";
import type { Issue } from "../core/schema.ts";
import { type AskForm, type AskMetadata, type AskOption, type AskQuestion, LIMITS } from "../core/types.ts";
import { describe, quote, type Report, readText } from "./validate-text.ts";

type ValidationResult = { ok: true; form: AskForm } | { ok: false; issues: Issue[] };

export class AskUserInputError extends Error {
	override readonly name = "AskUserInputError";

	/** `notices`: what normalisation changed, so a model sees why, e.g., a question is left with one option. */
	constructor(
		readonly issues: Issue[],
		notices: readonly string[] = [],
	) {
		super([issuesText(issues), ...notices.map((notice) => `Note: ${notice}`)].join("\n"));
	}
}

/** More lines than this would bury the first problems; the count still says how many there are. */
const MAX_LISTED_ISSUES = 40;

function issuesText(issues: Issue[]): string {
	const count = issues.length;
	const problems = count === 1 ? "1 problem" : `${count} problems`;
	const lines = [
		`ask_user was not called: ${problems} in the arguments. Fix ${count === 1 ? "it" : "them"} and call ask_user ` +
			`again:`,
		...issues.slice(0, MAX_LISTED_ISSUES).map((issue) => `- ${issue.path}: ${issue.message}`),
	];
	if (count > MAX_LISTED_ISSUES) lines.push(`- …and ${count - MAX_LISTED_ISSUES} more of the same kinds.`);
	return lines.join("\n");
}

export function validateParams(params: unknown): ValidationResult {
	try {
		return validateRoot(params);
	} catch {
		// Only an exotic object (a throwing getter, a revoked Proxy) gets here.
		return {
			ok: false,
			issues: [{ path: "arguments", message: "could not be read as JSON. Send plain JSON arguments." }],
		};
	}
}

/** Complete only when no issue was reported; its names as the model gave them, if usable. */
type QuestionAsRead = Omit<AskQuestion, "id" | "header"> & {
	path: string;
	id: string | undefined;
	header: string | undefined;
};

function validateRoot(params: unknown): ValidationResult {
	const issues: Issue[] = [];
	const report: Report = (path, message) => void issues.push({ path, message });
	if (!isObject(params)) {
		report("arguments", `expected an object like {"questions": [...]}, got ${describe(params)}.`);
		return { ok: false, issues };
	}
	const questions = readQuestions(own(params, "questions"), report);
	checkUniqueAcrossQuestions(questions, report);
	const reason = readText(params, "", "reason", report);
	const metadata = readMetadata(own(params, "metadata"), report);
	if (issues.length > 0) return { ok: false, issues };
	const form: AskForm = { questions: withDefaultNames(questions) };
	if (reason) form.reason = reason;
	if (metadata !== undefined) form.metadata = metadata;
	return { ok: true, form };
}

function readQuestions(value: unknown, report: Report): QuestionAsRead[] {
	const { minQuestions: min, maxQuestions: max } = LIMITS;
	if (!Array.isArray(value)) {
		const wanted = `an array of ${min}-${max} question objects`;
		report(
			"questions",
			value === undefined ? `missing. Pass "questions": ${wanted}.` : `expected ${wanted}, got ${describe(value)}.`,
		);
		return [];
	}
	if (value.length < min) report("questions", `empty. Ask ${min}-${max} questions.`);
	if (value.length > max)
		report(
			"questions",
			`${value.length} questions; the limit is ${max}. Ask the ${max} that block you now, the rest in a later call.`,
		);
	return value.flatMap((item, index) => readQuestion(item, `questions[${index}]`, report) ?? []);
}

function readQuestion(value: unknown, path: string, report: Report): QuestionAsRead | undefined {
	if (!isObject(value))
		return report(path, `expected a question object with "question" (and "options"), got ${describe(value)}.`);
	const id = readText(value, path, "id", report);
	if (id?.startsWith("$"))
		report(`${path}.id`, `${quote(id)} starts with "$", which is reserved. Use letters, digits, "-" or "_".`);
	else if (id !== undefined && RESERVED_IDS.has(id))
		report(`${path}.id`, `${quote(id)} is a reserved name. Choose another id, or leave "id" out.`);
	const header = readText(value, path, "header", report);
	const question = readText(value, path, "question", report) ?? "";
	const context = readText(value, path, "context", report);
	const given = own(value, "options");
	const textOnly = given === undefined || (Array.isArray(given) && given.length === 0);
	// A text-only question has one answer, the text: it cannot be multi-select, whatever the call says.
	const multiSelect = readBoolean(value, path, "multiSelect", false, report) && !textOnly;
	const allowOther = readBoolean(value, path, "allowOther", true, report);
	const options = textOnly ? [] : readOptions(given, `${path}.options`, multiSelect, allowOther, report);
	const fix =
		`Give ${LIMITS.minOptions}-${LIMITS.maxOptions} options, or drop "allowOther": false to ask for free ` + `text.`;
	if (!allowOther && textOnly)
		report(`${path}.allowOther`, `false on a question without options leaves nothing to answer. ${fix}`);
	const required = readBoolean(value, path, "required", true, report);
	return {
		path,
		id,
		header,
		question,
		...(context !== undefined && { context }),
		options,
		multiSelect,
		allowOther,
		required,
	};
}

function readOptions(
	value: unknown,
	path: string,
	multiSelect: boolean,
	allowOther: boolean,
	report: Report,
): AskOption[] {
	const { minOptions: min, maxOptions: max } = LIMITS;
	if (!Array.isArray(value)) {
		report(path, `expected an array of ${min}-${max} option objects like {"label": "..."}, got ${describe(value)}.`);
		return [];
	}
	// One option is a choice only beside the free-text row ("Proceed with the defaults", or say what instead).
	if (value.length === 1 && !allowOther) {
		report(
			path,
			`1 option and "allowOther": false leave the user no choice. Give ${min}-${max} options, or drop "allowOther": ` +
				`false so the user can answer in their own words.`,
		);
	}
	if (value.length > max)
		report(
			path,
			`${value.length} options; the limit is ${max}. Keep the ${max} likeliest; the user can still type anything else.`,
		);
	const options: AskOption[] = [];
	const labelOwners = new Map<string, number>();
	const valueOwners = new Map<string, number>();
	let recommendedAt: number | undefined;
	value.forEach((item, index) => {
		const at = `${path}[${index}]`;
		const option = readOption(item, at, multiSelect, report);
		if (option === undefined) return;
		options.push(option);
		const labelOwner = option.label === "" ? undefined : claim(labelOwners, option.label.toLowerCase(), index);
		if (labelOwner !== undefined)
			report(
				`${at}.label`,
				`${quote(option.label)} repeats the label of options[${labelOwner}] (compared ignoring case). Make every ` +
					`label distinct.`,
			);
		const valueOwner = option.value === "" ? undefined : claim(valueOwners, option.value, index);
		if (valueOwner !== undefined) {
			const fix = "Give every option its own value so the answer maps back to one option.";
			report(
				`${at}.value`,
				`${quote(option.value)} is already the value of options[${valueOwner}] (a value defaults to the label). ${fix}`,
			);
		}
		if (option.recommended && recommendedAt !== undefined)
			report(
				`${at}.recommended`,
				`options[${recommendedAt}] is already recommended. Mark at most one option per question.`,
			);
		if (option.recommended) recommendedAt ??= index;
	});
	return options;
}

function readOption(value: unknown, path: string, multiSelect: boolean, report: Report): AskOption | undefined {
	if (!isObject(value)) return report(path, `expected an option object like {"label": "..."}, got ${describe(value)}.`);
	const label = readText(value, path, "label", report) ?? "";
	const optionValue = own(value, "value") === undefined ? label : (readText(value, path, "value", report) ?? "");
	const description = readText(value, path, "description", report);
	const preview = readText(value, path, "preview", report);
	if (preview !== undefined && multiSelect)
		report(
			`${path}.preview`,
			`previews are shown only in single-select questions. Remove "preview" or drop "multiSelect": true.`,
		);
	const recommended = readBoolean(value, path, "recommended", false, report);
	return {
		label,
		value: optionValue,
		...(description !== undefined && { description }),
		...(preview !== undefined && { preview }),
		recommended,
	};
}

function readMetadata(value: unknown, report: Report): AskMetadata | undefined {
	if (value === undefined) return undefined;
	if (!isObject(value))
		return report(
			"metadata",
			`expected an object {"source"?, "flowId"?, "tags"?}, got ${describe(value)}. Leave "metadata" out if there is ` +
				`none.`,
		);
	const metadata: AskMetadata = {};
	for (const key of ["source", "flowId"] as const) {
		const text = own(value, key);
		if (typeof text === "string") metadata[key] = text;
		else if (text !== undefined) report(`metadata.${key}`, `expected a string, got ${describe(text)}.`);
	}
	const tags = own(value, "tags");
	if (Array.isArray(tags)) {
		tags.forEach(
			(tag, index) =>
				typeof tag !== "string" && report(`metadata.tags[${index}]`, `expected a string, got ${describe(tag)}.`),
		);
		metadata.tags = tags.filter((tag): tag is string => typeof tag === "string");
	} else if (tags !== undefined) report("metadata.tags", `expected an array of strings, got ${describe(tags)}.`);
	return metadata;
}

function readBoolean(object: JsonObject, path: string, name: string, fallback: boolean, report: Report): boolean {
	const value = own(object, name);
	if (value === undefined) return fallback;
	if (typeof value === "boolean") return value;
	report(`${path}.${name}`, `expected true or false, got ${describe(value)}.`);
	return fallback;
}

// ── Ids and headers ────────────────────────────────────────────────────────

/**
 * Ids key the answers: `$` is reserved for our own keys, and Object.prototype's names would find something nobody
 * answered.
 */
const RESERVED_IDS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

function checkUniqueAcrossQuestions(questions: QuestionAsRead[], report: Report): void {
	const headerOwners = new Map<string, string>();
	const idOwners = new Map<string, string>();
	for (const { path, header, id } of questions) {
		const headerOwner = header ? claim(headerOwners, header.toLowerCase(), path) : undefined;
		if (headerOwner !== undefined) {
			report(
				`${path}.header`,
				`${quote(header ?? "")} is already the header of ${headerOwner} (compared ignoring case). Give every tab its ` +
					`own label.`,
			);
		}
		const idOwner = id ? claim(idOwners, id, path) : undefined;
		if (idOwner !== undefined)
			report(
				`${path}.id`,
				`${quote(id ?? "")} is already the id of ${idOwner}. Give every question its own id, or leave "id" out.`,
			);
	}
}

/** Records `owner` as the first to use `key`; returns whoever was first, when that is someone else. */
function claim<Owner>(owners: Map<string, Owner>, key: string, owner: Owner): Owner | undefined {
	const first = owners.get(key);
	if (first === undefined) owners.set(key, owner);
	return first;
}

/** Missing headers become "Q1".."Q4" and ids the header's slug, else "q1".."q4", never repeating one. */
function withDefaultNames(questions: QuestionAsRead[]): AskQuestion[] {
	const headers = new Set(questions.flatMap(({ header }) => (header === undefined ? [] : [header.toLowerCase()])));
	const ids = new Set(questions.flatMap(({ id }) => (id === undefined ? [] : [id])));
	return questions.map(({ path: _path, id: givenId, header: givenHeader, ...rest }, index) => {
		const header = givenHeader ?? firstFree(`Q${index + 1}`, (name) => headers.has(name.toLowerCase()));
		headers.add(header.toLowerCase());
		const base = (givenHeader !== undefined && slugOf(givenHeader)) || `q${index + 1}`;
		const id = givenId ?? firstFree(base, (name) => ids.has(name) || RESERVED_IDS.has(name));
		ids.add(id);
		return { id, header, ...rest };
	});
}

function firstFree(base: string, taken: (name: string) => boolean): string {
	let name = base;
	for (let n = 2; taken(name); n++) name = `${base}-${n}`;
	return name;
}

/** "Auth method" → "auth-method", "Café" → "cafe"; "" when nothing ASCII is left (e.g. "数据库"). */
export function slugOf(text: string): string {
	return text
		.normalize("NFKD")
		.replace(/\p{M}+/gu, "")
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, "-")
		.replace(/^-+/, "")
		.slice(0, 24)
		.replace(/-+$/, "");
}
