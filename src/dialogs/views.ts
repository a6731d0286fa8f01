/**
 * What the dialog walker shows: the rows and titles of its dialogs, pure
 * functions of the shared state (src/machine), as the form's views are.
 *
 * Every piece of model text goes through the sanitiser: an RPC client shows
 * these strings as they are.
 */

import { ENGLISH, type Texts } from "../i18n/texts.ts";
import { collectAnswers } from "../machine/collect.ts";
import { type EditorTarget, type FormState, isQuestionTarget, isSubmitTab, pendingDrafts } from "../machine/model.ts";
import { sanitizeLine, sanitizeText } from "../sanitize.ts";
import type { AskAnswer, AskQuestion } from "../types.ts";

/** The walker's own rows, in the user's language. */
export function rowTexts({ t }: Texts) {
	return {
		freeText: t("walker.freeText"),
		note: t("walker.note"),
		editNote: t("walker.editNote"),
		skip: t("walker.skip"),
		done: t("walker.done"),
		next: t("walker.next"),
		back: t("walker.back"),
		submit: t("walker.submit"),
		formNote: t("walker.formNote"),
		editFormNote: t("walker.editFormNote"),
		chat: t("walker.chat"),
		cancel: t("walker.cancel"),
	} as const;
}

export type RowTexts = ReturnType<typeof rowTexts>;

/** The rows in English, as a client that scripts the walker in tests reads them. */
export const ROW: RowTexts = rowTexts(ENGLISH);

/** The review's rows for this state: on the Submit tab (two or more questions) also a note and a reply in chat, where the host shows text dialogs. */
export function reviewRows(state: FormState, row: RowTexts, choiceOnly = false): string[] {
	if (!isSubmitTab(state) || choiceOnly) return [row.submit, row.back, row.cancel];
	return [row.submit, state.formNote === undefined ? row.formNote : row.editFormNote, row.chat, row.back, row.cancel];
}

/**
 * What a row of a question's select stands for. The walker finds the row by
 * the text the client returns; every row of one select is distinct (a model's
 * label that reads like one of the walker's rows gets an invisible mark).
 */
export type QuestionRow =
	| { kind: "option"; index: number }
	| { kind: "freeText" }
	| { kind: "note" }
	| { kind: "skip" }
	| { kind: "chat" }
	| { kind: "done" }
	| { kind: "next" }
	| { kind: "back" };

export interface QuestionDialog {
	title: string;
	rows: { text: string; row: QuestionRow }[];
}

/**
 * The select for question `index`, written to read well as a host's prompt
 * (an ACP adapter shows the title as the question and each row as a button):
 * the question first, then where it stands; the options as their labels, the
 * recommended one first — a host's default action (its shortcut picks the
 * first button) then takes the option the model recommended, never one that
 * only came first. `problem`: why it is asked again, or news of the host;
 * `choiceOnly`: no text rows (the host shows no text dialogs).
 */
export function questionDialog(
	state: FormState,
	index: number,
	asker: string | undefined,
	problem: string | undefined,
	texts: Texts,
	choiceOnly = false,
	row: RowTexts = rowTexts(texts),
): QuestionDialog {
	const { t } = texts;
	const question = state.form.questions[index] as AskQuestion;
	const answer = collectAnswers(state, false).answers[question.id];
	const hasNote = state.questions[index]?.note !== undefined;
	const lines = [sanitizeLine(question.question)];
	if (question.context) lines.push(sanitizeText(question.context));
	lines.push(heading(state, index, asker, texts), ...optionDetails(question, texts));
	if (question.multiSelect) {
		lines.push(answer ? t("walker.selected", { answer: shownAnswer(answer) }) : t("walker.pickThenDone"));
	} else if (answer) {
		lines.push(t("walker.yourAnswer", { answer: shownAnswer(answer) }));
	}
	lines.push(...problems(state, problem, texts));
	return { title: lines.join("\n"), rows: questionRows(question, answer, hasNote, index > 0, choiceOnly, texts, row) };
}

/** The options that say more than their label: its description, and which one is recommended. */
function optionDetails(question: AskQuestion, { t }: Texts): string[] {
	if (!question.options.some((o) => o.description !== undefined || o.recommended)) return [];
	const recommended = ` ${t("question.recommended")}`;
	return question.options.map((o) => sanitizeLine(`• ${o.label}${o.recommended ? recommended : ""}${o.description ? ` — ${clip(o.description, 120)}` : ""}`));
}

function shownAnswer(answer: AskAnswer): string {
	return answer.selections.map((s) => sanitizeLine(s.custom ? `“${clip(s.label, 40)}”` : clip(s.label, 40))).join(", ");
}

function questionRows(
	question: AskQuestion,
	answer: AskAnswer | undefined,
	hasNote: boolean,
	canGoBack: boolean,
	choiceOnly: boolean,
	texts: Texts,
	own: RowTexts,
): QuestionDialog["rows"] {
	const fixed: QuestionDialog["rows"] = [];
	const custom = answer?.selections.find((s) => s.custom);
	if (question.allowOther && !choiceOnly) {
		const text = custom ? texts.t("walker.freeTextYours", { text: sanitizeLine(clip(custom.label, 40)) }) : own.freeText;
		fixed.push({ text, row: { kind: "freeText" } });
	}
	if (!choiceOnly) fixed.push({ text: hasNote ? own.editNote : own.note, row: { kind: "note" } });
	if (question.multiSelect) fixed.push({ text: own.done, row: { kind: "done" } });
	else if (answer) fixed.push({ text: own.next, row: { kind: "next" } });
	if (!question.required && !question.multiSelect) fixed.push({ text: own.skip, row: { kind: "skip" } });
	if (canGoBack) fixed.push({ text: own.back, row: { kind: "back" } });
	// Talk instead of choosing: a message needs a text dialog.
	if (!choiceOnly) fixed.push({ text: own.chat, row: { kind: "chat" } });
	return [...optionRows(question, fixed.map((r) => r.text)), ...fixed];
}

/** The options as their labels, recommended first; a label that reads like another row gets an invisible mark to stay distinct. */
function optionRows(question: AskQuestion, fixedTexts: string[]): QuestionDialog["rows"] {
	const order = question.options.map((_, index) => index).sort((a, b) => Number(question.options[b]?.recommended) - Number(question.options[a]?.recommended));
	const taken = new Set(fixedTexts);
	return order.map((index) => {
		let text = sanitizeLine((question.options[index] as AskQuestion["options"][number]).label);
		while (taken.has(text)) text += "\u200b";
		taken.add(text);
		return { text, row: { kind: "option", index } };
	});
}

/** The editor's title: whose question, what is being written, and why the text came back (too long). */
export function editorTitle(state: FormState, target: EditorTarget, asker: string | undefined, texts: Texts): string {
	const { t } = texts;
	if (!isQuestionTarget(target)) {
		const what = t(target.kind === "chat" ? "walker.chatTitle" : "walker.formNoteTitle");
		const title = asker ? `${t("walker.asks", { asker: sanitizeLine(asker) })} · ${what}` : what;
		return [title, ...problems(state, undefined, texts)].join("\n");
	}
	const question = sanitizeLine((state.form.questions[target.question] as AskQuestion).question);
	const what = t(target.kind === "custom" ? "walker.answerTo" : "walker.noteOn", { question });
	return [what, heading(state, target.question, asker, texts), ...problems(state, undefined, texts)].join("\n");
}

/** The review: every answer, skip and note, and what a submit would drop. */
export function reviewTitle(state: FormState, asker: string | undefined, problem: string | undefined, texts: Texts): string {
	const { t } = texts;
	const { answers, skipped, notes } = collectAnswers(state, false);
	const lines = [asker ? `${t("review.title")} · ${t("walker.askedBy", { asker: sanitizeLine(asker) })}` : t("review.title")];
	if (problem) lines.push(problem);
	for (const question of state.form.questions) {
		const answer = answers[question.id];
		const shown = answer
			? answer.selections.map((s) => (s.custom ? `“${clip(s.label, 60)}”` : s.label)).join(", ")
			: skipped.includes(question.id)
				? t("walker.skipped")
				: t("walker.noAnswer");
		lines.push(sanitizeLine(`${question.header}: ${shown}`));
		for (const note of notes.filter((n) => n.questionId === question.id)) lines.push(sanitizeLine(`  ${t("walker.noteLine", { text: clip(note.text, 60) })}`));
	}
	if (state.formNote !== undefined) lines.push(sanitizeLine(t("walker.formNoteLine", { text: clip(state.formNote, 60) })));
	// The walker's editor returns nothing when cancelled, so its only drafts are texts refused for their length.
	const unsaved = pendingDrafts(state).length;
	if (unsaved > 0) lines.push(t("walker.unsavedOverLimit", { count: unsaved }));
	return lines.join("\n");
}

/** Where the question stands: "Database · 2 of 3 · optional · asked by scout". */
function heading(state: FormState, index: number, asker: string | undefined, { t }: Texts): string {
	const questions = state.form.questions;
	const question = questions[index] as AskQuestion;
	const parts = [sanitizeLine(question.header)];
	if (questions.length > 1) parts.push(t("walker.position", { index: index + 1, total: questions.length }));
	if (!question.required) parts.push(t("walker.optional"));
	if (asker) parts.push(t("walker.askedBy", { asker: sanitizeLine(asker) }));
	return parts.join(" · ");
}

/** The walker's own problem (a stray answer) and the state's message (too long, nothing picked, …). */
function problems(state: FormState, problem: string | undefined, texts: Texts): string[] {
	const lines: string[] = [];
	if (state.message) lines.push(sanitizeLine(`⚠ ${texts.say(state.message.text)}`));
	if (problem) lines.push(problem);
	return lines;
}

function clip(text: string, max: number): string {
	const chars = [...text];
	return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}
