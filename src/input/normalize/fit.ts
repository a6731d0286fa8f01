/**
 * Text too long or too many lines for its place, fitted so nothing the model meant is lost: a question's other lines
 * move into `context`; a long header is shortened for the tab, kept whole in `context`; a long label is shortened, kept
 * whole as the value and in the description.
 */

import { isObject, type JsonObject } from "../../core/json.ts";
import { LIMITS } from "../../core/types.ts";
import { slugOf } from "../validate.ts";
import { CONTROL } from "../validate-text.ts";

const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/;

/**
 * At most `max` code points: whole words and "…" when a word boundary leaves at least half, else cut inside a word.
 * `middle` keeps both ends.
 */
export function shorten(text: string, max: number, middle = false): string {
	const chars = [...text];
	if (chars.length <= max) return text;
	if (middle) {
		// Two thirds for the end: a file name or the last word is what tells similar texts apart.
		const tail = Math.floor((2 * (max - 1)) / 3);
		const head = chars.slice(0, max - 1 - tail).join("");
		const end = chars.slice(chars.length - tail).join("");
		return `${head.trimEnd()}…${end.trimStart()}`;
	}
	const cut = chars.slice(0, max - 1).join("");
	const boundary = cut.search(/\s\S*$/);
	const words = boundary >= (max - 1) / 2 ? cut.slice(0, boundary) : cut;
	return `${words.trimEnd().replace(/[\s,;:.\-–—]+$/, "")}…`;
}

/** "1. ", "- ", "B) ": an item of a list, which details the question rather than asking it. */
const LIST_ITEM = /^\s*(?:[-*•]|\d{1,2}[.)]|[A-Za-z][.)])\s/;

/**
 * The last line, not a list item, that ends in a question mark, else that has one inside ("What password? (I'll use it
 * for…)"), else the first.
 */
function askingLine(lines: string[]): number {
	const prose = lines.flatMap((line, index) => (LIST_ITEM.test(line) ? [] : [{ line, index }]));
	const last = (pattern: RegExp) => prose.filter(({ line }) => pattern.test(line)).at(-1)?.index;
	return last(/[?？]\s*$/) ?? last(/[?？](?:\s|$)/) ?? 0;
}

/** The line that asks is the question; the other lines, in order, go before any context the model gave. */
export function splitQuestion(question: JsonObject, index: number, notices: string[]): void {
	const text = question.question;
	if (typeof text !== "string" || !LINE_BREAK.test(text.trim())) return;
	const lines = text.trim().split(LINE_BREAK);
	const asks = askingLine(lines);
	const rest = lines
		.filter((_, at) => at !== asks)
		.join("\n")
		.trim();
	question.question = (lines[asks] ?? "").trim();
	const given = typeof question.context === "string" && question.context.trim() !== "" ? question.context : undefined;
	question.context = given === undefined ? rest : `${rest}\n\n${given}`;
	notices.push(
		`questions[${index}].question: kept the line that asks as the question and moved the other lines into "context"; ` +
			`"question" is one line.`,
	);
}

/** "**Deployment Target**: Where should…" or "**Deployment Target:** Where…": a tab label written into the question. */
const BOLD_LABEL = /^\*\*([^*\n]{1,80}?)(?::\*\*|\*\*\s?[:：])\s*(\S.*)$/u;

/**
 * Tools with no header field teach models to open the question with a bold label: with no header given, it is the
 * header.
 */
export function labelAsHeader(question: JsonObject, index: number, notices: string[]): void {
	const match =
		question.header === undefined && typeof question.question === "string"
			? BOLD_LABEL.exec(question.question.trim())
			: null;
	const label = match?.[1]?.trim();
	if (!match || !label || CONTROL.test(label)) return;
	question.header = label;
	question.question = match[2] ?? "";
	notices.push(
		`questions[${index}].question: read its bold label ${JSON.stringify(label)} as the header; put a tab label in ` +
			`"header".`,
	);
}

/** Each still unique in the form; an id the model left out is made from the full header, as it would have been. */
export function fitHeaders(questions: unknown[], notices: string[]): void {
	const taken = new Set<string>();
	const ids = new Set<string>();
	for (const question of questions) {
		if (!isObject(question)) continue;
		if (typeof question.header === "string" && [...question.header.trim()].length <= LIMITS.header)
			taken.add(question.header.trim().toLowerCase());
		if (typeof question.id === "string") ids.add(question.id.trim());
	}
	questions.forEach((question, index) => {
		if (!isObject(question) || typeof question.header !== "string") return;
		const full = question.header.trim();
		if ([...full].length <= LIMITS.header || CONTROL.test(full)) return;
		const short = [shorten(full, LIMITS.header), shorten(full, LIMITS.header, true)].find(
			(name) => !taken.has(name.toLowerCase()),
		);
		if (short === undefined) return;
		taken.add(short.toLowerCase());
		question.header = short;
		const slug = slugOf(full);
		if (question.id === undefined && slug !== "" && !ids.has(slug)) {
			question.id = slug;
			ids.add(slug);
		}
		const context =
			typeof question.context === "string" && question.context.trim() !== "" ? `\n${question.context}` : "";
		question.context = `${full}${context}`;
		notices.push(
			`questions[${index}].header: the tab shows ${JSON.stringify(short)}; a header is a tab label of at most ` +
				`${LIMITS.header} characters.`,
		);
	});
}

/**
 * Labels up to the longest value; each still unique in its question, the full text the value (when the model gave none)
 * and first in the description.
 */
export function fitLabels(options: unknown[], index: number, notices: string[]): void {
	const taken = new Set<string>();
	for (const option of options)
		if (isObject(option) && typeof option.label === "string") taken.add(option.label.trim().toLowerCase());
	options.forEach((option, at) => {
		if (!isObject(option) || typeof option.label !== "string") return;
		const full = option.label.trim();
		if (full.length <= LIMITS.label || full.length > LIMITS.value || CONTROL.test(full)) return;
		// A path or an identifier differs at its end: keep both ends of it.
		const spaced = /\s/.test(full);
		const candidates = spaced
			? [shorten(full, LIMITS.label), shorten(full, LIMITS.label, true)]
			: [shorten(full, LIMITS.label, true)];
		const short = candidates.find((label) => !taken.has(label.toLowerCase()));
		if (short === undefined) return;
		taken.add(short.toLowerCase());
		option.label = short;
		if (option.value === undefined) option.value = full;
		const description = typeof option.description === "string" ? option.description : undefined;
		if (description === undefined || description.trim() === "") option.description = full;
		else if (full.length + 1 + description.length <= LIMITS.description) option.description = `${full}\n${description}`;
		notices.push(
			`questions[${index}].options[${at}].label: shown as ${JSON.stringify(short)}, returned in full as the value; a ` +
				`label is at most ${LIMITS.label} characters.`,
		);
	});
}
