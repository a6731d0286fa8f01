/**
 * One question: its text (wrapped, never cut), its context, the numbered
 * options and the "Type something…" row, and a detail pane for the focused
 * option — beside the list on a wide terminal when the question has
 * descriptions or previews, below it otherwise (previews only; descriptions
 * then sit under their labels).
 *
 * Pure: (state, width, height, context) → lines. Every line is at most
 * `width` columns: each piece comes pre-fitted from the TextFitter and the
 * widths are added up, never re-measured.
 */

import type { AskQuestion } from "../types.ts";
import {
	type LineBuffer as LineBufferType,
	LineBuffer,
	pushSectionLines,
	type ScrollPort,
	type Section,
	sectionsHeight,
	type ViewContext,
	windowLines,
	windowSections,
} from "./layout.ts";
import { type FormState, hasDraft, type QuestionState, rowCount, typeRow } from "./model.ts";

/** From this width on, the list and the detail pane stand side by side. */
export const SIDE_BY_SIDE_MIN_WIDTH = 84;
const SEPARATOR = " │ ";
const LIST_MIN_WIDTH = 28;
/** Below this width the row prefix drops its number. */
const FULL_PREFIX_MIN_WIDTH = 20;
const STACKED_PANE_MIN_HEIGHT = 4;

export const TYPE_SOMETHING = "Type something…";
const RECOMMENDED = " (recommended)";
const NOTE_MARK = " ✎";
const DRAFT_MARK = " (draft)";

export interface QuestionViewResult {
	lines: string[];
	body: ScrollPort;
	detail?: ScrollPort;
}

export function renderQuestionView(state: FormState, index: number, width: number, height: number, ctx: ViewContext): QuestionViewResult {
	const question = state.form.questions[index];
	const qs = state.questions[index];
	if (!question || !qs) return { lines: [], body: { target: "body", top: 0, min: 0, max: 0, page: 1 } };
	const { theme, fit } = ctx;
	const body = new LineBuffer();

	// The question and its context, full width.
	pushSectionLines(questionHeader(question, qs, width, ctx), 0, Number.MAX_SAFE_INTEGER, body, fit);
	body.push("", 0);

	const sideBySide = width >= SIDE_BY_SIDE_MIN_WIDTH && hasDetails(question);
	const draftPending = hasDraft(state, { kind: "custom", question: index });
	let detail: ScrollPort | undefined;
	let focus: { start: number; end: number };

	if (sideBySide) {
		const listWidth = Math.min(Math.max(LIST_MIN_WIDTH, naturalListWidth(question, qs, draftPending, ctx)), Math.floor(width * 0.45));
		const paneWidth = width - listWidth - SEPARATOR.length;
		const list = new LineBuffer();
		const range = pushOptionRows(question, qs, draftPending, listWidth, false, list, ctx);
		const sections = detailSections(question, qs, paneWidth, ctx);
		const paneRoom = Math.max(list.length, height - body.length);
		const paneHeight = Math.min(sectionsHeight(sections), paneRoom);
		const pane = new LineBuffer();
		detail = windowSections(sections, paneHeight, qs.detailScroll, paneWidth, pane, ctx);
		const rows = Math.max(list.length, pane.length);
		const separator = theme.border(SEPARATOR);
		focus = { start: body.length + range.start, end: body.length + range.end };
		for (let i = 0; i < rows; i++) {
			const left = list.lines[i] ?? "";
			const leftWidth = list.widths[i] ?? 0;
			const right = pane.lines[i];
			if (right === undefined) body.push(left, leftWidth);
			else body.push(left + fit.spaces(listWidth - leftWidth) + separator + right, listWidth + SEPARATOR.length + (pane.widths[i] ?? 0));
		}
	} else {
		const range = pushOptionRows(question, qs, draftPending, width, true, body, ctx);
		focus = range;
		const preview = stackedPreview(question, qs, width, ctx);
		if (preview.length > 0) {
			body.push("", 0);
			const room = Math.max(STACKED_PANE_MIN_HEIGHT, height - body.length - 2);
			detail = windowSections(preview, Math.min(sectionsHeight(preview), room), qs.detailScroll, width, body, ctx);
		}
	}

	const visible = windowLines(body.lines, height, qs.scroll, focus, "body", width, ctx);
	return detail ? { lines: visible.lines, body: visible.port, detail } : { lines: visible.lines, body: visible.port };
}

function hasDetails(question: AskQuestion): boolean {
	return question.options.some((option) => option.description !== undefined || option.preview !== undefined);
}

function questionHeader(question: AskQuestion, qs: QuestionState, width: number, ctx: ViewContext): Section[] {
	const { theme, fit } = ctx;
	const sections: Section[] = [{ fitted: fit.wrap(question.question, width), style: (s) => theme.bold(s) }];
	if (question.context !== undefined) sections.push({ fitted: fit.wrap(question.context, width), style: theme.muted });
	if (qs.note !== undefined) {
		sections.push({ fitted: fit.wrap("✎ Your note on this question:", width), style: theme.muted });
		sections.push({ fitted: fit.wrap(qs.note, Math.max(1, width - 2)), style: theme.text, indent: width > 2 ? 2 : 0 });
	}
	return sections;
}

// ── The option rows ────────────────────────────────────────────────────────

interface RowPrefix {
	width: number;
	text(focused: boolean, mark: string, number: number): string;
}

function rowPrefix(width: number): RowPrefix {
	if (width >= FULL_PREFIX_MIN_WIDTH) return { width: 7, text: (focused, mark, number) => `${focused ? "❯" : " "} ${mark} ${number}. ` };
	if (width >= 4) return { width: 3, text: (focused, mark) => `${focused ? "❯" : " "}${mark} ` };
	if (width >= 2) return { width: 1, text: (focused) => (focused ? "❯" : " ") };
	return { width: 0, text: () => "" };
}

function markFor(question: AskQuestion, selected: boolean): string {
	if (question.multiSelect) return selected ? "☑" : "☐";
	return selected ? "●" : "○";
}

/**
 * Appends every row of the question (label lines, then — when `inline` —
 * the description and the note under it) and returns the line range of the
 * focused row within `out`.
 */
function pushOptionRows(
	question: AskQuestion,
	qs: QuestionState,
	draftPending: boolean,
	width: number,
	inline: boolean,
	out: LineBufferType,
	ctx: ViewContext,
): { start: number; end: number } {
	const { theme, fit } = ctx;
	const prefix = rowPrefix(width);
	const textWidth = Math.max(1, width - prefix.width);
	const indent = fit.spaces(prefix.width);
	const rows = rowCount(question);
	const freeRow = typeRow(question);
	let focusStart = out.length;
	let focusEnd = out.length;
	for (let row = 0; row < rows; row++) {
		const focused = row === qs.focus;
		const start = out.length;
		const isFree = row === freeRow;
		const option = isFree ? undefined : question.options[row];
		const selected = isFree ? qs.customChosen : qs.chosen.includes(row);
		const style = focused ? theme.accent : theme.text;
		const head = prefix.text(focused, markFor(question, selected), row + 1);
		const styledHead = focused ? theme.accent(head) : selected ? theme.success(head) : head;

		let label: { lines: readonly string[]; widths: readonly number[] };
		if (isFree && qs.customText !== undefined) {
			const quoted = fit.line(qs.customText, Math.max(0, textWidth - 2));
			label = textWidth >= 3 ? { lines: [`“${quoted.text}”`], widths: [quoted.width + 2] } : fit.wrap(TYPE_SOMETHING, textWidth);
		} else label = fit.wrap(option ? option.label : TYPE_SOMETHING, textWidth);

		for (let i = 0; i < label.lines.length; i++) {
			const text = label.lines[i] ?? "";
			out.push((i === 0 ? styledHead : indent) + style(text), prefix.width + (label.widths[i] ?? 0));
		}
		pushMarks(out, marksFor(question, qs, row, draftPending), prefix.width, textWidth, label.widths[label.widths.length - 1] ?? 0, indent, ctx);

		if (inline && option) {
			if (option.description !== undefined) {
				const description = fit.wrap(option.description, textWidth);
				for (let i = 0; i < description.lines.length; i++) {
					out.push(indent + theme.muted(description.lines[i] ?? ""), prefix.width + (description.widths[i] ?? 0));
				}
			}
			const note = qs.optionNotes[row];
			if (note !== undefined) {
				const line = fit.line(note, Math.max(0, textWidth - 2));
				if (textWidth >= 3) out.push(indent + theme.muted(`✎ ${line.text}`), prefix.width + 2 + line.width);
			}
		}
		if (focused) {
			focusStart = start;
			focusEnd = out.length;
		}
	}
	return { start: focusStart, end: focusEnd };
}

interface Mark {
	text: string;
	tone: "success" | "muted";
}

const RECOMMENDED_MARK: Mark = { text: RECOMMENDED, tone: "success" };
const NOTE: Mark = { text: NOTE_MARK, tone: "muted" };
const DRAFT: Mark = { text: DRAFT_MARK, tone: "muted" };
const NO_MARKS: Mark[] = [];

function marksFor(question: AskQuestion, qs: QuestionState, row: number, draftPending: boolean): Mark[] {
	const option = question.options[row];
	const recommended = option?.recommended === true;
	const noted = option !== undefined && qs.optionNotes[row] !== undefined;
	const drafted = option === undefined && draftPending;
	if (!recommended && !noted && !drafted) return NO_MARKS;
	const marks: Mark[] = [];
	if (recommended) marks.push(RECOMMENDED_MARK);
	if (noted) marks.push(NOTE);
	if (drafted) marks.push(DRAFT);
	return marks;
}

/** Marks go after the label's last line when they fit there, else on lines of their own. */
function pushMarks(out: LineBufferType, marks: Mark[], prefixWidth: number, textWidth: number, lastWidth: number, indent: string, ctx: ViewContext): void {
	const { theme, fit } = ctx;
	let used = lastWidth;
	for (const mark of marks) {
		const styled = theme[mark.tone](mark.text);
		const markWidth = fit.width(mark.text);
		const lastIndex = out.lines.length - 1;
		if (used + markWidth <= textWidth && lastIndex >= 0) {
			out.lines[lastIndex] += styled;
			out.widths[lastIndex] = (out.widths[lastIndex] ?? 0) + markWidth;
			used += markWidth;
		} else {
			const alone = fit.wrap(mark.text.trimStart(), textWidth);
			for (let i = 0; i < alone.lines.length; i++) out.push(indent + theme[mark.tone](alone.lines[i] ?? ""), prefixWidth + (alone.widths[i] ?? 0));
			used = alone.widths[alone.widths.length - 1] ?? 0;
		}
	}
}

/** The widest row, to size the list column beside the detail pane. */
function naturalListWidth(question: AskQuestion, qs: QuestionState, draftPending: boolean, ctx: ViewContext): number {
	const prefix = 7;
	let widest = ctx.fit.width(TYPE_SOMETHING);
	question.options.forEach((option, row) => {
		let width = ctx.fit.measure(option.label);
		for (const mark of marksFor(question, qs, row, draftPending)) width += ctx.fit.width(mark.text);
		widest = Math.max(widest, width);
	});
	return prefix + widest;
}

// ── The detail pane ────────────────────────────────────────────────────────

/** Beside the list: the focused option's label, description, preview and note; or the free answer. */
function detailSections(question: AskQuestion, qs: QuestionState, width: number, ctx: ViewContext): Section[] {
	const { theme, fit } = ctx;
	const option = question.options[qs.focus];
	if (!option) {
		if (qs.customText === undefined) return [{ fitted: fit.wrap(`Write your own answer: ${ctx.keys.choose}`, width), style: theme.muted }];
		return [
			{ fitted: fit.wrap("Your answer:", width), style: theme.muted },
			{ fitted: fit.wrap(qs.customText, width), style: theme.text },
		];
	}
	const sections: Section[] = [{ fitted: fit.wrap(option.label, width), style: (s) => theme.bold(s) }];
	if (option.description !== undefined) sections.push({ fitted: fit.wrap(option.description, width), style: theme.text });
	if (option.preview !== undefined) {
		sections.push({ fitted: fit.wrap("", width), style: theme.text });
		sections.push({ fitted: fit.wrap(option.preview, width), style: theme.dim });
	}
	const note = qs.optionNotes[qs.focus];
	if (note !== undefined) {
		sections.push({ fitted: fit.wrap("✎ Your note:", width), style: theme.muted });
		sections.push({ fitted: fit.wrap(note, width), style: theme.text });
	}
	return sections;
}

/** Below the list (narrow terminals): only the focused option's preview; descriptions are inline. */
function stackedPreview(question: AskQuestion, qs: QuestionState, width: number, ctx: ViewContext): Section[] {
	const option = question.options[qs.focus];
	if (option?.preview === undefined) return [];
	return [
		{ fitted: ctx.fit.wrap("Preview:", width), style: ctx.theme.muted },
		{ fitted: ctx.fit.wrap(option.preview, width), style: ctx.theme.dim },
	];
}
