/**
 * One question: its text (wrapped, never cut), its context, the numbered
 * options and the "Type something…" row, and a detail pane for the focused
 * option — beside the list on a wide terminal when the question has
 * descriptions or previews, below it otherwise (previews only; descriptions
 * then sit under their labels).
 *
 * Pure: (state, width, height, context, reading) → lines. Every line is at
 * most `width` columns: each piece comes pre-fitted from the TextFitter and
 * the widths are added up, never re-measured. How the rows are shared out
 * is documented at renderQuestionView.
 */

import type { Texts } from "../i18n/texts.ts";
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
import { type FormState, type QuestionDrafts, questionDrafts, type QuestionState, rowCount, typeRow } from "../machine/model.ts";

/** From this width on, the list and the detail pane stand side by side. */
export const SIDE_BY_SIDE_MIN_WIDTH = 84;
const SEPARATOR = " │ ";
const LIST_MIN_WIDTH = 28;
/** Below this width the row prefix drops its number. */
const FULL_PREFIX_MIN_WIDTH = 20;
const STACKED_PANE_MIN_HEIGHT = 4;


export interface QuestionViewResult {
	lines: string[];
	body: ScrollPort;
	detail?: ScrollPort;
	/**
	 * Rows of the height this question never needs, whichever row has the
	 * focus: the form may spend them on its own spacing (its rule, the blank
	 * under the tab bar).
	 */
	spare: number;
	/** The focused row is scrolled off screen (the user is reading). */
	focusHidden: boolean;
}

/**
 * The vertical rule, in order:
 *
 * 1. Content before spacing. The question, its context, the option rows and
 *    the tallest detail any row can show (pane or preview) make the natural
 *    height. When it fits, the spare rows buy spacing: a blank line between
 *    the question and the options, then (stacked) one before the preview;
 *    what is still left goes back to the form as `spare`. When it does not
 *    fit, no row is spent on spacing. Measuring the tallest detail, not the
 *    focused one, keeps the layout still while the focus moves.
 * 2. The detail gets the rows under the header and the list; when they are
 *    too few and the body scrolls anyway, one window's worth of rows. A
 *    detail taller than that scrolls in a pane of its own.
 * 3. The body scrolls in a window (layout.ts). While the focus moves, the
 *    window follows it, moving just enough to keep the focused row in view
 *    ("follow"). PageUp/PageDown scroll the body freely — to the first line
 *    of a question taller than the screen, or past the options to a preview
 *    — and the focused row may leave the screen while the user reads
 *    (`reading`, "free"); the next key that is not PageUp/PageDown brings
 *    it back. This is how the contract's "never cut silently" and "the
 *    focused row always stays visible" hold together when the question
 *    alone is taller than the screen: the "↑ n more · pgup" row says where
 *    the rest is, and the focus is never lost, only out of sight until the
 *    user acts.
 */
export function renderQuestionView(
	state: FormState,
	index: number,
	width: number,
	height: number,
	ctx: ViewContext,
	reading = false,
): QuestionViewResult {
	const question = state.form.questions[index];
	const qs = state.questions[index];
	if (!question || !qs) return { lines: [], body: { target: "body", top: 0, min: 0, max: 0, page: 1 }, spare: 0, focusHidden: false };
	const drafts = questionDrafts(state, index);
	const header = questionHeader(question, qs, drafts.questionNote, width, ctx);
	const input: LayoutInput = { question, qs, draftPending: drafts, header, width, height, ctx };
	const layout = width >= SIDE_BY_SIDE_MIN_WIDTH && hasDetails(question) ? sideBySideLayout(input) : stackedLayout(input);
	const visible = windowLines(layout.body.lines, height, qs.scroll, layout.focus, "body", width, ctx, reading ? "free" : "follow");
	const result: QuestionViewResult = { lines: visible.lines, body: visible.port, spare: layout.spare, focusHidden: visible.focusHidden };
	if (layout.detail) result.detail = layout.detail;
	return result;
}

/** What either layout of the body is made from. */
interface LayoutInput {
	question: AskQuestion;
	qs: QuestionState;
	draftPending: QuestionDrafts;
	header: Section[];
	width: number;
	height: number;
	ctx: ViewContext;
}

interface BodyLayout {
	body: LineBufferType;
	focus: { start: number; end: number };
	detail?: ScrollPort;
	spare: number;
}

/** Spare rows once the natural height is placed, or undefined when it does not fit. */
function spareRows(height: number, natural: number): number | undefined {
	return natural <= height ? height - natural : undefined;
}

function pushAll(from: LineBufferType, out: LineBufferType): void {
	for (let i = 0; i < from.length; i++) out.push(from.lines[i] ?? "", from.widths[i] ?? 0);
}

function sideBySideLayout({ question, qs, draftPending, header, width, height, ctx }: LayoutInput): BodyLayout {
	const { theme, fit } = ctx;
	const listWidth = Math.min(Math.max(LIST_MIN_WIDTH, naturalListWidth(question, qs, draftPending, ctx)), Math.floor(width * 0.45));
	const paneWidth = width - listWidth - SEPARATOR.length;
	const list = new LineBuffer();
	const range = pushOptionRows(question, qs, draftPending, listWidth, false, list, ctx);
	// Every row's detail, once: the focused one is shown, the tallest sizes the layout.
	const details = Array.from({ length: rowCount(question) }, (_, row) => detailSections(question, qs, row, paneWidth, ctx, draftPending.customText));
	const sections = details[qs.focus] ?? [];
	const tallest = Math.max(0, ...details.map(sectionsHeight));
	const headerHeight = sectionsHeight(header);
	const spare = spareRows(height, headerHeight + Math.max(list.length, tallest));
	const gap = spare !== undefined && spare >= 1;

	const body = new LineBuffer();
	pushSectionLines(header, 0, Number.MAX_SAFE_INTEGER, body, fit);
	if (gap) body.push("", 0);
	const above = body.length;
	// Fits: the rows under the header. Scrolls: one window's worth, so the whole pane can be read scrolled down.
	const paneRoom = above + list.length <= height ? height - above : height - 2;
	const paneHeight = Math.min(sectionsHeight(sections), Math.max(list.length, paneRoom));
	const pane = new LineBuffer();
	const detail = windowSections(sections, paneHeight, qs.detailScroll, paneWidth, pane, ctx);
	const rows = Math.max(list.length, pane.length);
	const separator = theme.border(SEPARATOR);
	for (let i = 0; i < rows; i++) {
		const left = list.lines[i] ?? "";
		const leftWidth = list.widths[i] ?? 0;
		const right = pane.lines[i];
		if (right === undefined) body.push(left, leftWidth);
		else body.push(left + fit.spaces(listWidth - leftWidth) + separator + right, listWidth + SEPARATOR.length + (pane.widths[i] ?? 0));
	}
	return { body, focus: { start: above + range.start, end: above + range.end }, detail, spare: spare === undefined ? 0 : spare - +gap };
}

function stackedLayout({ question, qs, draftPending, header, width, height, ctx }: LayoutInput): BodyLayout {
	const { fit } = ctx;
	const list = new LineBuffer();
	const range = pushOptionRows(question, qs, draftPending, width, true, list, ctx);
	// Every option's preview, once: the focused one is shown, the tallest sizes the layout.
	const previews = question.options.map((_, row) => stackedPreview(question, row, width, ctx));
	const preview = previews[qs.focus] ?? [];
	const tallest = Math.max(0, ...previews.map(sectionsHeight));
	const headerHeight = sectionsHeight(header);
	const spare = spareRows(height, headerHeight + list.length + tallest);
	const gap = spare !== undefined && spare >= 1;
	const previewGap = spare !== undefined && spare >= 2 && tallest > 0;

	const body = new LineBuffer();
	pushSectionLines(header, 0, Number.MAX_SAFE_INTEGER, body, fit);
	if (gap) body.push("", 0);
	const focus = { start: body.length + range.start, end: body.length + range.end };
	pushAll(list, body);
	let detail: ScrollPort | undefined;
	if (preview.length > 0) {
		if (previewGap) body.push("", 0);
		const room = height - body.length;
		const full = sectionsHeight(preview);
		// Fits: the rows under the list. Scrolls: one window's worth, so the whole pane can be read scrolled down.
		const paneHeight = full <= room ? full : room >= STACKED_PANE_MIN_HEIGHT ? room : Math.max(STACKED_PANE_MIN_HEIGHT, height - 2);
		detail = windowSections(preview, Math.min(full, paneHeight), qs.detailScroll, width, body, ctx);
	}
	const used = +gap + +previewGap;
	return detail ? { body, focus, detail, spare: spare === undefined ? 0 : spare - used } : { body, focus, spare: spare === undefined ? 0 : spare - used };
}

function hasDetails(question: AskQuestion): boolean {
	return question.options.some((option) => option.description !== undefined || option.preview !== undefined);
}

function questionHeader(question: AskQuestion, qs: QuestionState, noteDrafted: boolean, width: number, ctx: ViewContext): Section[] {
	const { theme, fit } = ctx;
	const sections: Section[] = [{ fitted: fit.wrap(question.question, width), style: (s) => theme.bold(s) }];
	if (question.context !== undefined) sections.push({ fitted: fit.wrap(question.context, width), style: theme.muted });
	if (qs.note !== undefined) {
		sections.push({ fitted: fit.wrap(ctx.texts.t("question.yourNoteOnQuestion"), width), style: theme.muted });
		sections.push({ fitted: fit.wrap(qs.note, Math.max(1, width - 2)), style: theme.text, indent: width > 2 ? 2 : 0 });
	}
	if (noteDrafted) sections.push({ fitted: fit.wrap(ctx.texts.t("question.noteDraft", { key: ctx.keys.questionNote }), width), style: theme.muted });
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
	draftPending: QuestionDrafts,
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
			label = textWidth >= 3 ? { lines: [`“${quoted.text}”`], widths: [quoted.width + 2] } : fit.wrap(rowWords(ctx.texts).typeSomething, textWidth);
		} else label = fit.wrap(option ? option.label : rowWords(ctx.texts).typeSomething, textWidth);

		for (let i = 0; i < label.lines.length; i++) {
			const text = label.lines[i] ?? "";
			out.push((i === 0 ? styledHead : indent) + style(text), prefix.width + (label.widths[i] ?? 0));
		}
		pushMarks(out, marksFor(question, qs, row, draftPending, ctx), prefix.width, textWidth, label.widths[label.widths.length - 1] ?? 0, indent, ctx);

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

const NO_MARKS: Mark[] = [];

/** The rows' own words in the user's language, made once per language: every render reads them for every row. */
interface RowWords {
	typeSomething: string;
	recommended: Mark;
	noted: Mark;
	noteDrafted: Mark;
	drafted: Mark;
}

const ROW_WORDS = new WeakMap<Texts, RowWords>();

function rowWords(texts: Texts): RowWords {
	let words = ROW_WORDS.get(texts);
	if (!words) {
		const draft = texts.t("question.draft");
		words = {
			typeSomething: texts.t("question.typeSomething"),
			recommended: { text: ` ${texts.t("question.recommended")}`, tone: "success" },
			noted: { text: " ✎", tone: "muted" },
			noteDrafted: { text: ` ✎ ${draft}`, tone: "muted" },
			drafted: { text: ` ${draft}`, tone: "muted" },
		};
		ROW_WORDS.set(texts, words);
	}
	return words;
}

/** The marks after a row's label, each with its leading space: " (recommended)", " ✎", " ✎ (draft)", " (draft)". */
function marksFor(question: AskQuestion, qs: QuestionState, row: number, draftPending: QuestionDrafts, ctx: ViewContext): Mark[] {
	const option = question.options[row];
	const recommended = option?.recommended === true;
	const noteDrafted = option !== undefined && draftPending.optionNotes[row] === true;
	const noted = option !== undefined && qs.optionNotes[row] !== undefined && !noteDrafted;
	const drafted = option === undefined && draftPending.custom;
	if (!recommended && !noted && !noteDrafted && !drafted) return NO_MARKS;
	const words = rowWords(ctx.texts);
	const marks: Mark[] = [];
	if (recommended) marks.push(words.recommended);
	if (noted) marks.push(words.noted);
	if (noteDrafted) marks.push(words.noteDrafted);
	if (drafted) marks.push(words.drafted);
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
function naturalListWidth(question: AskQuestion, qs: QuestionState, draftPending: QuestionDrafts, ctx: ViewContext): number {
	const prefix = 7;
	let widest = ctx.fit.width(rowWords(ctx.texts).typeSomething);
	question.options.forEach((option, row) => {
		let width = ctx.fit.measure(option.label);
		for (const mark of marksFor(question, qs, row, draftPending, ctx)) width += ctx.fit.width(mark.text);
		widest = Math.max(widest, width);
	});
	return prefix + widest;
}

// ── The detail pane ────────────────────────────────────────────────────────

/** Beside the list: the option's label, description, preview and note; for the "Type something…" row, the free answer. */
function detailSections(question: AskQuestion, qs: QuestionState, row: number, width: number, ctx: ViewContext, customDraft?: string): Section[] {
	const { theme, fit } = ctx;
	const { t } = ctx.texts;
	const option = question.options[row];
	if (!option) {
		const sections: Section[] =
			qs.customText === undefined
				? [{ fitted: fit.wrap(t("question.writeOwn", { key: ctx.keys.choose }), width), style: theme.muted }]
				: [
						{ fitted: fit.wrap(t("question.yourAnswer"), width), style: theme.muted },
						{ fitted: fit.wrap(qs.customText, width), style: theme.text },
					];
		if (customDraft !== undefined) {
			sections.push({ fitted: fit.wrap(t("question.yourDraft"), width), style: theme.warning });
			sections.push({ fitted: fit.wrap(customDraft, width), style: theme.text });
		}
		return sections;
	}
	const sections: Section[] = [{ fitted: fit.wrap(option.label, width), style: (s) => theme.bold(s) }];
	if (option.description !== undefined) sections.push({ fitted: fit.wrap(option.description, width), style: theme.text });
	if (option.preview !== undefined) {
		sections.push({ fitted: fit.wrap("", width), style: theme.text });
		sections.push(previewSection(option.preview, width, ctx));
	}
	const note = qs.optionNotes[row];
	if (note !== undefined) {
		sections.push({ fitted: fit.wrap(t("question.yourNote"), width), style: theme.muted });
		sections.push({ fitted: fit.wrap(note, width), style: theme.text });
	}
	return sections;
}

/** Below the list (narrow terminals): only the option's preview; descriptions are inline. */
function stackedPreview(question: AskQuestion, row: number, width: number, ctx: ViewContext): Section[] {
	const option = question.options[row];
	if (option?.preview === undefined) return [];
	return [{ fitted: ctx.fit.wrap(ctx.texts.t("question.preview"), width), style: ctx.theme.muted }, previewSection(option.preview, width, ctx)];
}

/** A preview: markdown comes styled by pi's markdown theme; plain text is dimmed, as before. */
function previewSection(preview: string, width: number, ctx: ViewContext): Section {
	const { fitted, markdown } = ctx.fit.preview(preview, width);
	return { fitted, style: markdown ? unstyled : ctx.theme.dim };
}

const unstyled = (s: string): string => s;
