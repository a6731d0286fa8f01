/** The option rows of a question: each label with its mark and number, then "Type something…" and "You decide". */

import { visibleWidth } from "@mariozechner/pi-tui";
import type { AskOption, AskQuestion } from "../core/types.ts";
import { recall, type Span, type ViewContext, widestLine } from "./layout.ts";
import { type QuestionDrafts, type QuestionNotes, type QuestionState, typeRow } from "../machine/model.ts";

/** Below this width the row prefix drops its number. */
const FULL_PREFIX_MIN_WIDTH = 20;

export function rowPrefix(width: number): {
	width: number;
	text(focused: boolean, mark: string, number: number): string;
} {
	if (width >= FULL_PREFIX_MIN_WIDTH)
		return { width: 7, text: (focused, mark, number) => `${focused ? "❯" : " "} ${mark} ${number}. ` };
	if (width >= 4) return { width: 3, text: (focused, mark) => `${focused ? "❯" : " "}${mark} ` };
	if (width >= 2) return { width: 1, text: (focused) => (focused ? "❯" : " ") };
	return { width: 0, text: () => "" };
}

/**
 * The rows' lines, their widths for padding beside the pane (0: lines under a label), and the focused row's line range;
 * `kept`: each row's kept lines, the same objects as long as the rows show the same.
 */
type OptionRows = { lines: string[]; widths: number[]; focus: Span; kept: object[] };

/**
 * Every row: its label lines, marks, and (`inline`) the description and note under it; `decideAt`: "You decide" or -1.
 * Each row's lines are kept (layout.ts `recall`) until what it shows changes: a key that moves the focus makes two rows
 * again, not every row.
 */
export function optionRows(
	question: AskQuestion,
	index: number,
	qs: QuestionState,
	drafts: QuestionDrafts,
	notes: QuestionNotes,
	width: number,
	inline: boolean,
	ctx: ViewContext,
	decideAt: number,
): OptionRows {
	const out: OptionRows = { lines: [], widths: [], focus: { start: 0, end: 0 }, kept: [] };
	const freeRow = typeRow(question);
	const rows = decideAt >= 0 ? decideAt + 1 : question.options.length + (question.allowOther ? 1 : 0);
	for (let row = 0; row < rows; row++) {
		const focused = row === qs.focus;
		const decide = row === decideAt;
		const free = row === freeRow;
		// What the row shows besides its option: its free text, or its note, and the marks of their drafts.
		let selected = qs.chosen.includes(row);
		let note = decide ? undefined : notes.optionNotes[row];
		let drafted = !decide && drafts.optionNotes[row] === true;
		if (decide) selected = qs.delegated;
		if (free) {
			selected = qs.customChosen;
			note = qs.customText;
			drafted = drafts.customText !== undefined;
		}
		const inputs = [question, width, inline, focused, selected, note, drafted];
		const made = recall(ctx, `${index}:${row}`, inputs, () =>
			rowLines(question, row, { focused, selected, decide, free, note, drafted }, width, inline, ctx),
		);
		if (focused) out.focus = { start: out.lines.length, end: out.lines.length + made.lines.length };
		out.lines.push(...made.lines);
		out.widths.push(...made.widths);
		out.kept.push(made);
	}
	return out;
}

type RowLines = { lines: string[]; widths: number[] };

/** What one row shows: `note` is the free row's saved text, else the option's note; `drafted`: either has a draft. */
type RowFacts = {
	focused: boolean;
	selected: boolean;
	decide: boolean;
	free: boolean;
	note?: string;
	drafted: boolean;
};

function rowLines(
	question: AskQuestion,
	row: number,
	{ focused, selected, decide, free, note, drafted }: RowFacts,
	width: number,
	inline: boolean,
	ctx: ViewContext,
): RowLines {
	const { theme, fit } = ctx;
	const prefix = rowPrefix(width);
	const textWidth = Math.max(1, width - prefix.width);
	const indent = " ".repeat(prefix.width);
	const words = rowWords(ctx);
	const out: RowLines = { lines: [], widths: [] };
	const push = (line: string, lineWidth: number) => {
		out.lines.push(line);
		out.widths.push(lineWidth);
	};
	const option = free || decide ? undefined : question.options[row];
	const style = focused ? theme.accent : theme.text;
	// "You decide" stands alone: a radio mark even in a multi-select.
	const boxes = question.multiSelect && !decide ? ["☐", "☑"] : ["○", "●"];
	// The tenth row is reached with 0.
	const head = prefix.text(focused, boxes[+selected] ?? "", (row + 1) % 10);
	const unfocused = selected ? theme.success(head) : head;
	const styledHead = focused ? theme.accent(head) : unfocused;
	const quoted = free && note !== undefined && textWidth >= 3;
	const label = quoted
		? [`“${fit.line(note ?? "", textWidth - 2)}”`]
		: fit.wrap(option?.label ?? (decide ? words.youDecide : words.typeSomething), textWidth);
	label.forEach((line, i) => push((i === 0 ? styledHead : indent) + style(line), prefix.width + visibleWidth(line)));
	let used = visibleWidth(label[label.length - 1] ?? "");
	for (const mark of marksFor(option, free ? undefined : note, drafted, free, words)) {
		const markWidth = visibleWidth(mark.text);
		const last = out.lines.length - 1;
		if (used + markWidth <= textWidth && last >= 0) {
			// After the label's last line when it fits there, else on lines of its own.
			out.lines[last] += theme[mark.tone](mark.text);
			out.widths[last] = (out.widths[last] ?? 0) + markWidth;
			used += markWidth;
			continue;
		}
		const alone = fit.wrap(mark.text.trimStart(), textWidth);
		for (const line of alone) push(indent + theme[mark.tone](line), prefix.width + visibleWidth(line));
		used = visibleWidth(alone[alone.length - 1] ?? "");
	}
	if (inline && option) {
		if (option.description !== undefined)
			for (const line of fit.wrap(option.description, textWidth)) push(indent + theme.muted(line), 0);
		if (note !== undefined && textWidth >= 3) push(indent + theme.muted(`✎ ${fit.line(note, textWidth - 2)}`), 0);
	}
	return out;
}

type Mark = { text: string; tone: "success" | "muted" };
type RowWords = Record<"typeSomething" | "youDecide" | "writeOwn", string> &
	Record<"recommended" | "noted" | "noteDrafted" | "drafted", Mark>;

/** The view's own words in the user's language, made once per form: every render reads them for every row. */
export function rowWords(ctx: ViewContext): RowWords {
	return recall(ctx, rowWords, [], (): RowWords => {
		const { t } = ctx.texts;
		const draft = t("question.draft");
		const muted = (text: string): Mark => ({ text, tone: "muted" });
		const words = {
			typeSomething: t("question.typeSomething"),
			youDecide: t("question.youDecide"),
			writeOwn: t("question.writeOwn", { key: ctx.keys.choose }),
		};
		const recommended: Mark = { text: ` ${t("question.recommended")}`, tone: "success" };
		return {
			...words,
			recommended,
			noted: muted(" ✎"),
			noteDrafted: muted(` ✎ ${draft}`),
			drafted: muted(` ${draft}`),
		};
	});
}

/**
 * The marks after a row's label, each with its leading space: " (recommended)", " ✎", " ✎ (draft)", " (draft)";
 * `note`: the option's, `drafted`: its note (or the free row's text) has a draft.
 */
function marksFor(
	option: AskOption | undefined,
	note: string | undefined,
	drafted: boolean,
	free: boolean,
	words: RowWords,
): Mark[] {
	const marks: Mark[] = [];
	if (option?.recommended === true) marks.push(words.recommended);
	if (option !== undefined && note !== undefined && !drafted) marks.push(words.noted);
	if (option !== undefined && drafted) marks.push(words.noteDrafted);
	if (free && drafted) marks.push(words.drafted);
	return marks;
}

/** The widest row, to size the list column beside the detail pane. */
export function naturalListWidth(
	question: AskQuestion,
	drafts: QuestionDrafts,
	notes: QuestionNotes,
	ctx: ViewContext,
	decide: boolean,
): number {
	const words = rowWords(ctx);
	const rows = question.options.map((option, row) => {
		const marks = marksFor(option, notes.optionNotes[row], drafts.optionNotes[row] === true, false, words);
		return [option.label, ...marks.map((mark) => mark.text)].join("");
	});
	if (decide) rows.push(words.youDecide);
	return 7 + widestLine([words.typeSomething, ...rows], ctx);
}
