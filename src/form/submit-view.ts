/**
 * The Submit tab: every answer and note, the drafts a submit would drop, what
 * is missing, and the Submit and Cancel rows; Enter on a question's row goes back to it.
 */

import { visibleWidth } from "@mariozechner/pi-tui";
import type { AskQuestion } from "../core/types.ts";
import { markOf } from "./tab-bar.ts";
import { type ViewContext, type Window, widestLine, windowLines } from "./layout.ts";
import {
	cancelRow,
	type FormState,
	isAnswered,
	isQuestionTarget,
	missingRequired,
	type PendingDraft,
	pendingDrafts,
	type QuestionNotes,
	questionNotes,
	type QuestionState,
	savedText,
	submitRow,
} from "../machine/model.ts";

/** From this width on, headers get a column of their own. */
const COLUMNS_MIN_WIDTH = 40;
const CUSTOM_EXCERPT = 60;

export function renderSubmitView(state: FormState, width: number, height: number, ctx: ViewContext): Window {
	const { theme, fit } = ctx;
	const { t } = ctx.texts;
	const body = [theme.bold(fit.line(t("review.title"), width)), ""];

	const prefixWidth = width >= 6 ? 4 : Math.min(1, Math.floor(width / 2));
	const textWidth = Math.max(1, width - prefixWidth);
	const indent = " ".repeat(prefixWidth);
	const headers = state.form.questions.map((question) => question.header);
	const headerColumn =
		width >= COLUMNS_MIN_WIDTH ? Math.min(Math.max(1, widestLine(headers, ctx)), Math.floor(width / 3)) : 0;
	let focus = { start: 0, end: 1 };
	const drafts = pendingDrafts(state);

	state.form.questions.forEach((question, i) => {
		const qs = state.questions[i];
		if (!qs) return;
		const start = body.length;
		const focused = state.review.focus === i;
		const answered = isAnswered(qs);
		const head = prefixWidth === 4 ? `${pointerOf(focused, 1)} ${markOf(qs)} ` : pointerOf(focused, prefixWidth);
		const unfocused = answered ? theme.success : theme.muted;
		const styledHead = focused ? theme.accent(head) : unfocused(head);
		const { text: summary, style } = summaryOf(question, qs, ctx);

		const headerStyle = focused ? theme.accent : theme.text;
		if (headerColumn > 0) {
			const header = fit.line(question.header, headerColumn);
			const headerText = headerStyle(header) + " ".repeat(headerColumn - visibleWidth(header) + 2);
			const valueIndent = indent + " ".repeat(headerColumn + 2);
			fit
				.wrap(summary, Math.max(1, textWidth - headerColumn - 2))
				.forEach((line, n) => body.push((n === 0 ? styledHead + headerText : valueIndent) + style(line)));
		} else {
			fit
				.wrap(question.header, textWidth)
				.forEach((line, n) => body.push((n === 0 ? styledHead : indent) + headerStyle(line)));
			for (const line of fit.wrap(summary, textWidth)) body.push(indent + style(line));
		}
		const notesIndent = prefixWidth + (headerColumn > 0 ? headerColumn + 2 : 0);
		pushNotes(question, questionNotes(state, i), notesIndent, width, body, ctx);
		pushDrafts(
			question,
			drafts.filter((d) => isQuestionTarget(d.target) && d.target.question === i),
			notesIndent,
			width,
			body,
			ctx,
		);
		if (focused) focus = { start, end: body.length };
	});

	pushFormNote(state, drafts, width, body, ctx);
	body.push("");
	const missing = missingRequired(state);
	pushStatus(state, missing, drafts.length, width, body, ctx);

	for (const [row, label] of [
		[submitRow(state), t("review.submit")] as const,
		[cancelRow(state), t("review.cancel")] as const,
	]) {
		const focused = state.review.focus === row;
		const start = body.length;
		const head = pointerOf(focused, prefixWidth) + (prefixWidth === 4 ? " " : "");
		const text = fit.line(label, width - head.length);
		const blocked = row === submitRow(state) && missing.length > 0;
		const unfocused = blocked ? theme.dim : theme.text;
		const style = focused ? theme.accent : unfocused;
		body.push(theme.accent(head) + style(focused ? theme.bold(text) : text));
		if (focused) focus = { start, end: body.length };
	}

	// As a question's: PageUp/PageDown read past the focus (a block, a note taller than the window), the next key brings
	// it back.
	return windowLines(body, height, state.review.scroll, focus, "body", width, ctx, state.reading ? "free" : "follow");
}

/** The focus pointer of a review row, or nothing where the window is too narrow for one. */
function pointerOf(focused: boolean, prefixWidth: number): string {
	if (prefixWidth < 1) return "";
	return focused ? "❯" : " ";
}

/** What a submit would do now: what is still missing, what it would drop, or that it is ready. */
function pushStatus(
	state: FormState,
	missing: number[],
	drafts: number,
	width: number,
	out: string[],
	ctx: ViewContext,
): void {
	const { t } = ctx.texts;
	const names = missing.map((i) => state.form.questions[i]?.header ?? "");
	const ready = drafts > 0 ? t("review.dropsDrafts", { count: drafts }) : t("review.ready");
	const status = missing.length > 0 ? t("review.missing", { names }) : ready;
	const style = missing.length > 0 || drafts > 0 ? ctx.theme.warning : ctx.theme.success;
	for (const line of ctx.fit.wrap(status, width)) out.push(style(line));
}

function summaryOf(
	question: AskQuestion,
	qs: QuestionState,
	ctx: ViewContext,
): { text: string; style: (s: string) => string } {
	const { theme, fit } = ctx;
	const { t } = ctx.texts;
	if (qs.delegated) return { text: t("outcome.delegated"), style: theme.text };
	if (isAnswered(qs)) {
		const parts = qs.chosen.map((o) => question.options[o]?.label ?? "");
		if (qs.customChosen && qs.customText !== undefined) parts.push(`“${fit.line(qs.customText, CUSTOM_EXCERPT)}”`);
		return { text: parts.join(", "), style: theme.text };
	}
	if (qs.skipped) return { text: t("review.skipped"), style: theme.muted };
	if (question.required) return { text: t("review.requiredUnanswered"), style: theme.warning };
	return { text: t("review.optionalUnanswered"), style: theme.muted };
}

/** Each note on one line, cut with "…": the full text is one Enter away on the question's tab. */
function pushNotes(
	question: AskQuestion,
	{ note: onQuestion, optionNotes }: QuestionNotes,
	indentWidth: number,
	width: number,
	out: string[],
	ctx: ViewContext,
): void {
	const push = indentedLine(indentWidth, width, out, ctx, ctx.theme.muted);
	if (onQuestion !== undefined) push("✎ ", onQuestion);
	optionNotes.forEach((note, o) => {
		const option = question.options[o];
		if (note !== undefined && option) push(`✎ ${ctx.fit.line(option.label, 24)}: `, note);
	});
}

/** The note on the whole form, wrapped whole (it is written here), and its unsaved draft; or how to write one. */
function pushFormNote(state: FormState, drafts: PendingDraft[], width: number, out: string[], ctx: ViewContext): void {
	const { theme, fit } = ctx;
	const draft = drafts.find((d) => d.target.kind === "formNote");
	const chatDraft = drafts.find((d) => d.target.kind === "chat");
	const { t } = ctx.texts;
	const note = savedText(state, { kind: "formNote" });
	const text =
		note !== undefined ? `${t("review.formNotePrefix")}${note}` : t("review.addFormNote", { key: ctx.keys.note });
	out.push("");
	const style = note !== undefined ? theme.text : theme.dim;
	for (const line of fit.wrap(text, width)) out.push(style(line));
	if (draft) indentedLine(0, width, out, ctx, theme.warning)(t("review.noteDraftPrefix"), draft.text);
	if (chatDraft) indentedLine(0, width, out, ctx, theme.warning)(t("review.chatDraftPrefix"), chatDraft.text);
}

/** Each unsaved draft of the question on one line, in the warning colour: a submit drops them. */
function pushDrafts(
	question: AskQuestion,
	drafts: PendingDraft[],
	indentWidth: number,
	width: number,
	out: string[],
	ctx: ViewContext,
): void {
	const push = indentedLine(indentWidth, width, out, ctx, ctx.theme.warning);
	const { t } = ctx.texts;
	for (const { target, text } of drafts) {
		const option = target.kind === "optionNote" ? question.options[target.option] : undefined;
		let prefix = t(target.kind === "custom" ? "review.draftPrefix" : "review.noteDraftPrefix");
		if (option) prefix = t("review.optionNoteDraftPrefix", { option: ctx.fit.line(option.label, 24) });
		push(prefix, text);
	}
}

/** A line `prefix text` at the indent, cut to the width (the indent gives way on the narrowest terminals). */
function indentedLine(
	indentWidth: number,
	width: number,
	out: string[],
	ctx: ViewContext,
	style: (s: string) => string,
) {
	const { fit } = ctx;
	const left = Math.min(indentWidth, Math.max(0, width - 3));
	const room = width - left;
	return (prefix: string, text: string) => {
		const head = fit.line(prefix, room);
		out.push(" ".repeat(left) + style(head + fit.line(text, room - visibleWidth(head))));
	};
}
