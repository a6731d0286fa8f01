/**
 * Models arrive with the habits of other ask tools (docs/tool.md, "Calls shaped by other tools' habits"): each one
 * recognised is folded into the canonical shape, with a notice where the model should learn. The walk is here, the
 * rules in normalize/; anything else is copied for validate.ts to report.
 */

import { isObject, type JsonObject } from "../core/json.ts";
import { fitHeaders, fitLabels, labelAsHeader, splitQuestion } from "./normalize/fit.ts";
import { followUpOptions } from "./normalize/follow-up.ts";
import { dropOtherOptions } from "./normalize/other.ts";
import {
	booleanFromText,
	field,
	firstPresent,
	isFiniteNumber,
	numberAsString,
	parseJsonText,
	setIfPresent,
} from "./normalize/read.ts";
import { descriptionWithoutMarker, withoutRecommendedMarker } from "./normalize/recommended.ts";
import type { Issue } from "../core/schema.ts";

/**
 * `notices`: sentences for the model about what was changed; `problems`: what no normalisation can keep the meaning of,
 * reported before the validator's issues.
 */
type Findings = { notices: string[]; problems: Issue[] };

/** `params`: the canonical shape where the input allowed it, still unvalidated; `problems` only when there are some. */
export function normalizeArguments(raw: unknown): { params: unknown; notices: string[]; problems?: Issue[] } {
	try {
		const findings: Findings = { notices: [], problems: [] };
		const params = normalizeRoot(parseJsonText(raw), findings);
		const { notices, problems } = findings;
		return problems.length > 0 ? { params, notices, problems } : { params, notices };
	} catch {
		// Only an exotic object (a throwing getter, a revoked Proxy) gets here; the validator reports what it can read of
		// it.
		return { params: raw, notices: [] };
	}
}

function normalizeRoot(raw: unknown, findings: Findings): unknown {
	if (!isObject(raw)) return raw;
	const out: JsonObject = {};
	let questions = parseJsonText(field(raw, "questions"));
	// A lone question object, sent without the array around it.
	if (
		questions === undefined &&
		["question", "prompt", "options", "choices", "follow_up"].some((key) => field(raw, key) !== undefined)
	)
		questions = [raw];
	if (isObject(questions)) questions = [questions];
	if (Array.isArray(questions)) {
		// Array.from, not map: a hole must reach the validator as a missing question, not vanish.
		const normalized = Array.from(questions, (question, index) => normalizeQuestion(question, index, findings));
		fitHeaders(normalized, findings.notices);
		out.questions = normalized;
	} else if (questions !== undefined) {
		out.questions = questions;
	}
	setIfPresent(out, "reason", field(raw, "reason"));
	const metadata = field(raw, "metadata");
	if (metadata !== undefined) out.metadata = isObject(metadata) ? normalizeMetadata(metadata) : metadata;
	return out;
}

/** Other tools' names the model should learn ours for (older aliases are folded silently). */
const TAUGHT_ALIASES: Readonly<Record<string, string>> = {
	title: "question",
	follow_up: "options",
	multiple: "multiSelect",
	multi_select: "multiSelect",
	allow_other: "allowOther",
	isOther: "allowOther",
	allowFreeformInput: "allowOther",
};

function normalizeQuestion(raw: unknown, index: number, findings: Findings): unknown {
	if (!isObject(raw)) return raw;
	const out: JsonObject = {};
	const aliases: string[] = [];
	const read = (...keys: string[]): unknown => {
		const found = firstPresent(raw, ...keys);
		if (found !== undefined && TAUGHT_ALIASES[found.key] !== undefined)
			aliases.push(`"${found.key}" as "${TAUGHT_ALIASES[found.key]}"`);
		return found?.value;
	};
	setIfPresent(out, "id", numberAsString(field(raw, "id")));
	setIfPresent(out, "header", firstPresent(raw, "header", "label")?.value);
	setIfPresent(out, "question", read("question", "prompt", "title"));
	setIfPresent(out, "context", field(raw, "context"));
	const fromFollowUp = field(raw, "options") === undefined && field(raw, "choices") === undefined;
	const given = parseJsonText(read("options", "choices", "follow_up"));
	const options = fromFollowUp && given !== undefined ? followUpOptions(given) : given;
	const markedDescriptions: number[] = [];
	const normalized = Array.isArray(options)
		? Array.from(options, (option, at) => normalizeOption(option, () => markedDescriptions.push(at)))
		: options;
	setIfPresent(out, "options", normalized);
	setIfPresent(out, "multiSelect", booleanFromText(read("multiSelect", "multiple", "multi_select")));
	setIfPresent(out, "allowOther", booleanFromText(read("allowOther", "allow_other", "isOther", "allowFreeformInput")));
	setIfPresent(out, "required", booleanFromText(field(raw, "required")));
	applyQuestionType(out, field(raw, "type"), index, findings.notices);
	if (booleanFromText(field(raw, "isSecret")) === true) {
		findings.problems.push({
			path: `questions[${index}].isSecret`,
			message:
				"ask_user cannot hide what the user types: the answer is shown, kept in the session and sent to you. Ask the " +
				"user to put the secret in an environment variable or a file and tell you its name.",
		});
	}
	if (aliases.length > 0)
		findings.notices.push(`questions[${index}]: read ${aliases.join(", ")}; use the canonical names.`);
	splitQuestion(out, index, findings.notices);
	labelAsHeader(out, index, findings.notices);
	if (Array.isArray(out.options)) {
		if (out.allowOther !== false) dropOtherOptions(out, index, findings.notices);
		keepFirstRecommended(out.options as unknown[], index, findings.notices);
		fitLabels(out.options as unknown[], index, findings.notices);
	}
	for (const at of markedDescriptions)
		findings.notices.push(
			`questions[${index}].options[${at}]: read "(Recommended)" in the description as "recommended": true.`,
		);
	return out;
}

/** Gemini CLI's `type`: "text" asks for the user's words; "yesno" offers the two answers. */
function applyQuestionType(question: JsonObject, type: unknown, index: number, notices: string[]): void {
	if (type === "text" && Array.isArray(question.options) && question.options.length > 0) {
		question.options = [];
		notices.push(`questions[${index}]: "type": "text" asks for the user's own words, so its options were left out.`);
	} else if (type === "yesno" && question.options === undefined) {
		question.options = [{ label: "Yes" }, { label: "No" }];
		notices.push(`questions[${index}]: "type": "yesno" became the options "Yes" and "No".`);
	}
}

/** `onMarkedDescription`: a "(Recommended)" in the description became the flag. */
function normalizeOption(option: unknown, onMarkedDescription: () => void): unknown {
	const raw = typeof option === "string" || isFiniteNumber(option) ? { label: String(option) } : option;
	if (!isObject(raw)) return raw;
	const out: JsonObject = {};
	const label = numberAsString(firstPresent(raw, "label", "text", "name", "title")?.value);
	const value = numberAsString(firstPresent(raw, "value", "id")?.value);
	setIfPresent(out, "label", label);
	setIfPresent(out, "value", value);
	setIfPresent(out, "description", field(raw, "description"));
	setIfPresent(out, "preview", field(raw, "preview"));
	setIfPresent(out, "recommended", booleanFromText(field(raw, "recommended")));
	if (typeof label === "string") {
		const cleaned = withoutRecommendedMarker(label);
		if (cleaned !== undefined) {
			out.label = cleaned;
			out.recommended = true;
			// A value copied from the label follows the label it was copied from.
			if (typeof value === "string" && value.trim() === label.trim()) out.value = cleaned;
		}
	}
	if (typeof out.description === "string") {
		const cleaned = descriptionWithoutMarker(out.description);
		if (cleaned !== undefined) {
			if (cleaned === "") delete out.description;
			else out.description = cleaned;
			out.recommended = true;
			onMarkedDescription();
		}
	}
	return out;
}

/** The first option marked keeps the mark, and the model is told. */
function keepFirstRecommended(options: unknown[], index: number, notices: string[]): void {
	const marked = options.flatMap((option, at) => (isObject(option) && option.recommended === true ? [at] : []));
	if (marked.length < 2) return;
	for (const at of marked.slice(1)) (options[at] as JsonObject).recommended = false;
	notices.push(`questions[${index}]: kept options[${marked[0]}] as the one recommended option; mark at most one.`);
}

function normalizeMetadata(raw: JsonObject): JsonObject {
	const out: JsonObject = {};
	setIfPresent(out, "source", field(raw, "source"));
	setIfPresent(out, "flowId", field(raw, "flowId"));
	const tags = field(raw, "tags");
	setIfPresent(out, "tags", Array.isArray(tags) ? [...tags] : tags);
	return out;
}
