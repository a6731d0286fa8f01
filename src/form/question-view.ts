/**
 * One question: its text, its context, the numbered options and the "Type
 * something…" row, and the focused option's detail: beside the list on a wide
 * terminal, else only its preview, below (descriptions under their labels).
 */

import type { AskQuestion } from "../core/types.ts";
import {
	recall,
	type Section,
	sectionLines,
	sectionsHeight,
	type Span,
	type ViewContext,
	windowLines,
	windowSections,
} from "./layout.ts";
import {
	decideRow,
	type FormState,
	type QuestionDrafts,
	type QuestionNotes,
	questionDrafts,
	questionNotes,
	type QuestionState,
	rowCount,
	type ScrollPort,
} from "../machine/model.ts";
import { naturalListWidth, optionRows, rowWords } from "./option-rows.ts";

/** From this width on, the list and the detail pane stand side by side. */
export const SIDE_BY_SIDE_MIN_WIDTH = 84;
const SEPARATOR = " │ ";
const LIST_MIN_WIDTH = 28;
const STACKED_PANE_MIN_HEIGHT = 4;

/**
 * `spare`: rows of the height this question never needs, whichever row has the focus (the form may spend them on its
 * own spacing); `focusHidden`: the focused row is scrolled off screen (the user is reading).
 */
export type QuestionViewResult = {
	lines: string[];
	body: ScrollPort;
	detail: ScrollPort | undefined;
	spare: number;
	focusHidden: boolean;
};

/**
 * Content before spacing: the header, the rows and the tallest detail any row
 * can show (the tallest, so the layout stays still as the focus moves) make
 * the natural height; rows to spare buy blank lines, the rest is `spare`. The
 * detail gets the rows left, or a window's worth when the body scrolls. The
 * body's window follows the focus; PageUp/PageDown scroll it freely
 * (`reading`) until the next other key brings the focus back.
 */
export function renderQuestionView(
	state: FormState,
	index: number,
	width: number,
	height: number,
	ctx: ViewContext,
): QuestionViewResult {
	const question = state.form.questions[index] as AskQuestion;
	const qs = state.questions[index] as QuestionState;
	const drafts = questionDrafts(state, index);
	const notes = questionNotes(state, index);
	// What sizes the layout and not the focus (no drafts at all is one fact, whichever empty object holds them):
	// the layouts keep what they derive from it until one of these changes.
	const steady = [
		width,
		height,
		notes.note,
		notes.optionNotes,
		qs.customText,
		Object.keys(state.drafts).length === 0 ? undefined : state.drafts,
	];
	const input: LayoutInput = {
		question,
		index,
		qs,
		drafts,
		notes,
		decideAt: decideRow(state, index),
		rows: rowCount(state, index),
		steady,
		// Kept until the question's note, its draft or the width change.
		header: recall(ctx, `${index}:header`, [question, width, notes.note, drafts.questionNote], () =>
			sectionLines(questionHeader(question, notes.note, drafts.questionNote, width, ctx)),
		),
		width,
		height,
		ctx,
	};
	const hasDetails = question.options.some(
		(option) => option.description !== undefined || option.preview !== undefined,
	);
	const layout = width >= SIDE_BY_SIDE_MIN_WIDTH && hasDetails ? sideBySideLayout(input) : stackedLayout(input);
	const visible = windowLines(
		layout.body,
		height,
		qs.scroll,
		layout.focus,
		"body",
		width,
		ctx,
		state.reading ? "free" : "follow",
	);
	return {
		lines: visible.lines,
		body: visible.port,
		detail: layout.detail,
		spare: layout.spare,
		focusHidden: visible.focusHidden,
	};
}

/** `steady`: what sizes the layout and not the focus; `decideAt`: the "You decide" row, or -1; `rows`: how many. */
type LayoutInput = {
	question: AskQuestion;
	index: number;
	qs: QuestionState;
	drafts: QuestionDrafts;
	notes: QuestionNotes;
	decideAt: number;
	rows: number;
	/** The question, its context and its note, styled. */
	header: readonly string[];
	steady: readonly unknown[];
	width: number;
	height: number;
	ctx: ViewContext;
};
type BodyLayout = { body: string[]; focus: Span; detail: ScrollPort | undefined; spare: number };

function sideBySideLayout(input: LayoutInput): BodyLayout {
	const { question, qs, drafts, notes, decideAt, steady, header, width, height, ctx } = input;
	const headerHeight = header.length;
	const detail = (row: number, previews: boolean, paneWidth: number) =>
		row === decideAt
			? decideSections(question, paneWidth, ctx)
			: detailSections(question, qs, notes.optionNotes[row], row, paneWidth, ctx, drafts.customText, previews);
	const { listWidth, tallest } = recall(ctx, question, steady, () => {
		const listWidth = Math.min(
			Math.max(LIST_MIN_WIDTH, naturalListWidth(question, drafts, notes, ctx, decideAt >= 0)),
			Math.floor(width * 0.45),
		);
		const paneWidth = width - listWidth - SEPARATOR.length;
		return {
			listWidth,
			tallest: tallestDetail(
				question,
				input.rows,
				(row, previews) => detail(row, previews, paneWidth),
				ctx,
				height - headerHeight,
			),
		};
	});
	const paneWidth = width - listWidth - SEPARATOR.length;
	const list = optionRows(question, input.index, qs, drafts, notes, listWidth, false, ctx, decideAt);
	const spare = spareRows(height, headerHeight + Math.max(list.lines.length, tallest));
	const gap = spare >= 1;

	const body = gap ? [...header, ""] : header.slice();
	const above = body.length;
	// Fits: the rows under the header. Scrolls: one window's worth, so the whole pane can be read scrolled down.
	const paneRoom = above + list.lines.length <= height ? height - above : height - 2;
	const row = qs.focus;
	const shows = [
		question,
		row,
		paneWidth,
		list.lines.length,
		paneRoom,
		qs.detailScroll,
		notes.optionNotes[row],
		qs.customText,
	];
	const { lines: pane, port } = recall(ctx, `${input.index}:pane`, [...shows, drafts.customText], () => {
		const sections = detail(row, true, paneWidth);
		const room = Math.min(sectionsHeight(sections), Math.max(list.lines.length, paneRoom));
		return windowSections(sections, room, qs.detailScroll, paneWidth, ctx);
	});
	// The rows and the pane side by side, kept while each row and the pane are what they were (focus a row again).
	const joined = recall(ctx, `${input.index}:joined`, [listWidth, pane, ...list.kept], () => {
		const separator = ctx.theme.border(SEPARATOR);
		const lines: string[] = [];
		for (let i = 0; i < Math.max(list.lines.length, pane.length); i++) {
			const left = list.lines[i] ?? "";
			const right = pane[i];
			lines.push(right === undefined ? left : left + " ".repeat(listWidth - (list.widths[i] ?? 0)) + separator + right);
		}
		return lines;
	});
	body.push(...joined);
	return {
		body,
		focus: { start: above + list.focus.start, end: above + list.focus.end },
		detail: port,
		spare: Math.max(0, spare - +gap),
	};
}

function stackedLayout(input: LayoutInput): BodyLayout {
	const { question, index, qs, drafts, notes, decideAt, steady, header, width, height, ctx } = input;
	const list = optionRows(question, index, qs, drafts, notes, width, true, ctx, decideAt);
	const headerHeight = header.length;
	const preview = (row: number, previews: boolean) => stackedPreview(question, row, width, ctx, previews);
	// The same slot as the side-by-side layout's: safe, as the width (in `steady`) decides which layout a question gets.
	const tallest = recall(ctx, question, steady, () =>
		tallestDetail(question, question.options.length, preview, ctx, height - headerHeight - list.lines.length),
	);
	const spare = spareRows(height, headerHeight + list.lines.length + tallest);
	const gap = spare >= 1;
	const previewGap = spare >= 2 && tallest > 0;

	const body = gap ? [...header, ""] : header.slice();
	const focus = { start: body.length + list.focus.start, end: body.length + list.focus.end };
	body.push(...list.lines);
	let detail: ScrollPort | undefined;
	if (question.options[qs.focus]?.preview !== undefined) {
		if (previewGap) body.push("");
		const room = height - body.length;
		const pane = recall(ctx, `${index}:preview`, [question, qs.focus, width, room, height, qs.detailScroll], () => {
			const sections = preview(qs.focus, true);
			const full = sectionsHeight(sections);
			// Fits: the rows under the list. Scrolls: one window's worth, so the whole pane can be read scrolled down.
			const scrolled = room >= STACKED_PANE_MIN_HEIGHT ? room : Math.max(STACKED_PANE_MIN_HEIGHT, height - 2);
			return windowSections(sections, Math.min(full, full <= room ? full : scrolled), qs.detailScroll, width, ctx);
		});
		body.push(...pane.lines);
		detail = pane.port;
	}
	return { body, focus, detail, spare: Math.max(0, spare - +gap - +previewGap) };
}

/** Rows left once the natural height is placed; -1 when it does not fit. */
const spareRows = (height: number, natural: number): number => (natural <= height ? height - natural : -1);

/**
 * The tallest row's detail, or the first taller than `room` (nothing fits then; by how much does not matter): previews
 * are wrapped only when every row fits unwrapped.
 */
function tallestDetail(
	question: AskQuestion,
	rows: number,
	detail: (row: number, previews: boolean) => Section[],
	ctx: ViewContext,
	room: number,
): number {
	let tallest = 0;
	for (const previews of [false, true]) {
		for (let row = 0; row < rows; row++) {
			const preview = previews ? undefined : question.options[row]?.preview;
			const height =
				sectionsHeight(detail(row, previews)) + (preview === undefined ? 0 : 1 + ctx.fit.previewLines(preview));
			if (height > room) return height;
			tallest = Math.max(tallest, height);
		}
	}
	return tallest;
}

function questionHeader(
	question: AskQuestion,
	note: string | undefined,
	noteDrafted: boolean,
	width: number,
	ctx: ViewContext,
): Section[] {
	const { theme, fit, texts, keys } = ctx;
	const asked = question.required ? question.question : `${question.question} ${texts.t("form.optional")}`;
	const sections: Section[] = [];
	const add = (text: string, style: (s: string) => string) => sections.push({ lines: fit.wrap(text, width), style });
	add(asked, theme.bold);
	if (question.context !== undefined) add(question.context, theme.muted);
	if (note !== undefined) {
		add(texts.t("question.yourNoteOnQuestion"), theme.muted);
		sections.push({ lines: fit.wrap(note, Math.max(1, width - 2)), style: theme.text, indent: width > 2 ? 2 : 0 });
	}
	if (noteDrafted) add(texts.t("question.noteDraft", { key: keys.questionNote }), theme.muted);
	return sections;
}

// ── The detail pane ────────────────────────────────────────────────────────

/**
 * Beside the list: the option's label, description, preview and note; for the "Type something…" row, the free answer.
 */
function detailSections(
	question: AskQuestion,
	qs: QuestionState,
	note: string | undefined,
	row: number,
	width: number,
	ctx: ViewContext,
	customDraft: string | undefined,
	previews: boolean,
): Section[] {
	const { theme, fit } = ctx;
	const { t } = ctx.texts;
	const option = question.options[row];
	const sections: Section[] = [];
	const add = (text: string, style: (s: string) => string) => sections.push({ lines: fit.wrap(text, width), style });
	if (!option) {
		if (qs.customText === undefined) add(rowWords(ctx).writeOwn, theme.muted);
		else {
			add(t("question.yourAnswer"), theme.muted);
			add(qs.customText, theme.text);
		}
		if (customDraft !== undefined) {
			add(t("question.yourDraft"), theme.warning);
			add(customDraft, theme.text);
		}
		return sections;
	}
	add(option.label, theme.bold);
	if (option.description !== undefined) add(option.description, theme.text);
	if (option.preview !== undefined && previews) {
		add("", theme.text);
		sections.push(previewSection(option.preview, width, ctx));
	}
	if (note !== undefined) {
		add(t("question.yourNote"), theme.muted);
		add(note, theme.text);
	}
	return sections;
}

/** Beside the list, for "You decide": what it means, and the model's recommendation. */
function decideSections(question: AskQuestion, width: number, ctx: ViewContext): Section[] {
	const { theme, fit } = ctx;
	const { t } = ctx.texts;
	const sections: Section[] = [{ lines: fit.wrap(t("question.youDecideDetail"), width), style: theme.muted }];
	const label = question.options.find((option) => option.recommended)?.label;
	if (label !== undefined)
		sections.push({ lines: fit.wrap(t("question.youDecideRecommended", { label }), width), style: theme.text });
	return sections;
}

/**
 * Below the list (narrow terminals): only the option's preview (left out without `previews`); descriptions are inline.
 */
function stackedPreview(
	question: AskQuestion,
	row: number,
	width: number,
	ctx: ViewContext,
	previews: boolean,
): Section[] {
	const preview = question.options[row]?.preview;
	if (preview === undefined || !previews) return [];
	return [
		{ lines: ctx.fit.wrap(ctx.texts.t("question.preview"), width), style: ctx.theme.muted },
		previewSection(preview, width, ctx),
	];
}

/** A preview: markdown comes styled by pi's markdown theme; plain text is dimmed. */
function previewSection(preview: string, width: number, ctx: ViewContext): Section {
	const { lines, markdown } = ctx.fit.preview(preview, width);
	return { lines, style: markdown ? (s) => s : ctx.theme.dim };
}
