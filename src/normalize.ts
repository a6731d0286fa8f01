/**
 * Argument normalisation ("Shapes that other ask tools taught models").
 *
 * Models arrive with habits from other ask tools. This folds each habit we
 * recognise into the canonical shape, so the first call succeeds, and says
 * what it changed when the change is one the model should learn from:
 *
 * - a single question at the top level, or `questions` given as one object;
 * - `questions` / `options` sent as a JSON string;
 * - pi's questionnaire names: question `prompt` → `question`, `label` → `header`;
 *   option `id` → `value`; option `text` / `name` / `title` → `label`;
 *   `choices` → `options`;
 * - options given as bare strings (or numbers) → `{ label }`;
 * - an explicit "Other"-style option: dropped, with a notice (the free-text
 *   row is automatic), unless the model set `allowOther: false` — then it is a
 *   real choice and stays;
 * - a "(Recommended)" marker on a label → `recommended: true` (the marker wins
 *   over an explicit false), marker removed; a value equal to the marked label
 *   follows the cleaned label;
 * - "true" / "false" strings → booleans; `null` on an optional field → absent
 *   (strict-mode function calling sends null for every field it leaves out).
 *
 * Anything else is copied as found for validate.ts to report. Only known
 * fields are copied, so extra fields disappear. Never throws, never mutates.
 */

import { isObject, type JsonObject, own } from "./json.ts";
import { LIMITS } from "./types.ts";

export interface NormalizedArguments {
	/** The canonical shape where the input allowed it; still unvalidated. */
	params: unknown;
	/** Sentences for the model about what was changed. */
	notices: string[];
}

export function normalizeArguments(raw: unknown): NormalizedArguments {
	try {
		const notices: string[] = [];
		return { params: normalizeRoot(parseJsonText(raw), notices), notices };
	} catch {
		// Only an exotic object (a throwing getter, a revoked Proxy) gets here;
		// the validator reports what it can read of it.
		return { params: raw, notices: [] };
	}
}


function normalizeRoot(raw: unknown, notices: string[]): unknown {
	if (!isObject(raw)) return raw;
	const out: JsonObject = {};
	let questions = parseJsonText(field(raw, "questions"));
	if (questions === undefined && looksLikeQuestion(raw)) questions = [raw];
	if (isObject(questions)) questions = [questions];
	if (Array.isArray(questions)) {
		// Array.from, not map: a hole must reach the validator as a missing question, not vanish.
		out.questions = Array.from(questions, (question, index) => normalizeQuestion(question, index, notices));
	} else if (questions !== undefined) {
		out.questions = questions;
	}
	const metadata = field(raw, "metadata");
	if (metadata !== undefined) out.metadata = isObject(metadata) ? normalizeMetadata(metadata) : metadata;
	return out;
}

function looksLikeQuestion(raw: JsonObject): boolean {
	return ["question", "prompt", "options", "choices"].some((key) => field(raw, key) !== undefined);
}

function normalizeQuestion(raw: unknown, index: number, notices: string[]): unknown {
	if (!isObject(raw)) return raw;
	const out: JsonObject = {};
	setIfPresent(out, "id", numberAsString(field(raw, "id")));
	setIfPresent(out, "header", firstPresent(raw, "header", "label"));
	setIfPresent(out, "question", firstPresent(raw, "question", "prompt"));
	setIfPresent(out, "context", field(raw, "context"));
	const options = parseJsonText(firstPresent(raw, "options", "choices"));
	setIfPresent(out, "options", Array.isArray(options) ? Array.from(options, (option) => normalizeOption(option)) : options);
	setIfPresent(out, "multiSelect", booleanFromText(field(raw, "multiSelect")));
	setIfPresent(out, "allowOther", booleanFromText(field(raw, "allowOther")));
	setIfPresent(out, "required", booleanFromText(field(raw, "required")));
	if (Array.isArray(out.options) && out.allowOther !== false) dropOtherOptions(out, index, notices);
	return out;
}

function normalizeOption(option: unknown): unknown {
	const raw = typeof option === "string" || isFiniteNumber(option) ? { label: String(option) } : option;
	if (!isObject(raw)) return raw;
	const out: JsonObject = {};
	const label = numberAsString(firstPresent(raw, "label", "text", "name", "title"));
	const value = numberAsString(firstPresent(raw, "value", "id"));
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
	return out;
}

function normalizeMetadata(raw: JsonObject): JsonObject {
	const out: JsonObject = {};
	setIfPresent(out, "source", field(raw, "source"));
	setIfPresent(out, "flowId", field(raw, "flowId"));
	const tags = field(raw, "tags");
	setIfPresent(out, "tags", Array.isArray(tags) ? [...tags] : tags);
	return out;
}

// ── "Other" options ────────────────────────────────────────────────────────

/**
 * Labels that ask for the user's own words, compared after NFKC, lower-casing
 * and collapsing spaces. Each may carry a request to type, in parentheses or
 * after ":" / "," / "-" / "—" ("Other (please specify)", "Other: describe"),
 * and trailing dots, an ellipsis, "?" or "!". A label that names something
 * ("Other: BSD", "Other (BSD)", "Other browsers") is a real choice and stays.
 * "None of the above" is NOT here: it is an answer in itself.
 */
export const OTHER_OPTION_LABELS: readonly string[] = [
	"other",
	"others",
	"other answer",
	"other option",
	"something else",
	"type something",
	"type your own",
	"type your own answer",
	"write your own",
	"write your own answer",
	"enter your own",
	"your own answer",
	"custom answer",
	"custom response",
	"其他",
	"其它",
];

const PLEASE_TYPE = "(?:please )?(?:specify|describe|explain|elaborate|tell (?:me|us)|type|write|enter)[^()]{0,30}";
const OTHER_LABEL = new RegExp(
	`^(?:${OTHER_OPTION_LABELS.join("|")})(?: ?\\(${PLEASE_TYPE}\\)| ?[:,\\-–—] ?${PLEASE_TYPE})?[ .…:!?]*$`,
	"u",
);

/** Long enough for any label OTHER_LABEL can match; longer labels skip the work. */
const MAX_OTHER_LABEL = 80;
/** A label with these inside is not plain text; the validator has something to say about it. */
const CONTROL = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

export function isOtherOptionLabel(label: string): boolean {
	const text = label.trim();
	if (text.length === 0 || text.length > MAX_OTHER_LABEL || CONTROL.test(text)) return false;
	return OTHER_LABEL.test(text.normalize("NFKC").toLowerCase().replace(/\s+/g, " "));
}

function dropOtherOptions(question: JsonObject, index: number, notices: string[]): void {
	const options = question.options as unknown[];
	const dropped: string[] = [];
	const kept = options.filter((option) => {
		const label = isObject(option) ? option.label : undefined;
		if (typeof label !== "string" || !isOtherOptionLabel(label)) return true;
		dropped.push(quoteLabel(label));
		return false;
	});
	if (dropped.length === 0) return;
	question.options = kept;
	if (question.allowOther === undefined) question.allowOther = true;
	const what = dropped.length === 1 ? `the option ${dropped[0]}` : `the options ${dropped.join(", ")}`;
	notices.push(`questions[${index}]: removed ${what} — ask_user always offers a free-text row; don't add one.`);
}

// A dropped label passed isOtherOptionLabel, so it is short and has no controls.
function quoteLabel(label: string): string {
	return JSON.stringify(label.trim());
}

// ── "(Recommended)" markers ────────────────────────────────────────────────

// Bounded whitespace keeps both patterns linear on a label of any length.
const MARKED_LABEL_MAX = 4 * LIMITS.label;
const RECOMMENDED_PREFIX = /^(?:[([]\s{0,3}recommended\s{0,3}[)\]]|recommended\s{0,3}:)\s{0,3}(?:[-–—:]\s{0,3})?/i;
const RECOMMENDED_SUFFIX = /\s{0,3}(?:[-–—:]\s{0,3})?[([]\s{0,3}recommended\s{0,3}[)\]]$|\s{1,3}[-–—]\s{0,3}recommended$/i;

/**
 * The label without its "(Recommended)" / "[Recommended]" / "Recommended:"
 * prefix or "(Recommended)" / "- Recommended" suffix; undefined when it has
 * none, or when nothing but the marker would be left.
 */
export function withoutRecommendedMarker(label: string): string | undefined {
	const text = label.trim();
	// A label this long fails validation whatever it is marked with; don't spend rounds on it.
	if (text.length > MARKED_LABEL_MAX) return undefined;
	let cleaned = text;
	// Until nothing changes, so "(Recommended) [Recommended] X" comes out clean and a
	// second normalisation of the result changes nothing. Every round shortens the text.
	for (;;) {
		const next = cleaned.replace(RECOMMENDED_PREFIX, "").replace(RECOMMENDED_SUFFIX, "").trim();
		if (next === cleaned || next.length === 0) break;
		cleaned = next;
	}
	return cleaned === text ? undefined : cleaned;
}

// ── Small readers ──────────────────────────────────────────────────────────

function isFiniteNumber(value: unknown): value is number {
	return typeof value === "number" && Number.isFinite(value);
}

/** An own field; `null` counts as absent (strict-mode callers send null for "not given"). */
function field(record: JsonObject, key: string): unknown {
	const value = own(record, key);
	return value === null ? undefined : value;
}

/** The first of `keys` present on the record: the canonical name, then its aliases. */
function firstPresent(record: JsonObject, ...keys: string[]): unknown {
	for (const key of keys) {
		const value = field(record, key);
		if (value !== undefined) return value;
	}
	return undefined;
}

function setIfPresent(out: JsonObject, key: string, value: unknown): void {
	if (value !== undefined) out[key] = value;
}

function numberAsString(value: unknown): unknown {
	return isFiniteNumber(value) ? String(value) : value;
}

function booleanFromText(value: unknown): unknown {
	if (typeof value !== "string") return value;
	const text = value.trim().toLowerCase();
	return text === "true" ? true : text === "false" ? false : value;
}

/** A JSON array or object sent as a string becomes that array or object. */
function parseJsonText(value: unknown): unknown {
	if (typeof value !== "string") return value;
	const text = value.trim();
	if (!(text.startsWith("[") || text.startsWith("{"))) return value;
	try {
		const parsed: unknown = JSON.parse(text);
		return typeof parsed === "object" && parsed !== null ? parsed : value;
	} catch {
		return value;
	}
}
