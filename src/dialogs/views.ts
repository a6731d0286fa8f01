/**
 * What the dialog walker shows: the rows and titles of its dialogs, pure
 * functions of the shared state (src/machine), as the form's views are.
 *
 * Every piece of model text goes through the sanitiser: an RPC client shows
 * these strings as they are.
 */

import { collectAnswers } from "../machine/collect.ts";
import { type EditorTarget, type FormState, isQuestionTarget, isSubmitTab, pendingDrafts } from "../machine/model.ts";
import { sanitizeLine, sanitizeText } from "../sanitize.ts";
import type { AskAnswer, AskQuestion } from "../types.ts";

export const ROW = {
	freeText: "✎ Type something…",
	note: "✎ Add a note…",
	editNote: "✎ Edit the note…",
	skip: "↷ Skip",
	done: "✓ Done",
	next: "→ Next (keep this answer)",
	back: "← Back",
	submit: "✓ Submit",
	formNote: "✎ Add a note on the whole form…",
	editFormNote: "✎ Edit the note on the whole form…",
	chat: "💬 Reply in chat instead…",
	cancel: "✗ Cancel",
} as const;

/** The review's rows, in the order shown. */
export const REVIEW_ROWS: readonly string[] = [ROW.submit, ROW.back, ROW.cancel];

/** The review's rows for this state: with a note row on the Submit tab (a form of two or more questions). */
export function reviewRows(state: FormState): string[] {
	if (!isSubmitTab(state)) return [...REVIEW_ROWS];
	return [ROW.submit, state.formNote === undefined ? ROW.formNote : ROW.editFormNote, ROW.chat, ROW.back, ROW.cancel];
}

/** What a row of a question's select stands for; rows map back by position, never by label. */
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

/** The select for question `index`; `problem`: why it is asked again, if it is. */
export function questionDialog(state: FormState, index: number, asker: string | undefined, problem: string | undefined): QuestionDialog {
	const question = state.form.questions[index] as AskQuestion;
	const answer = collectAnswers(state, false).answers[question.id];
	const hasNote = state.questions[index]?.note !== undefined;
	const lines = [heading(state, index, asker), sanitizeLine(question.question)];
	if (question.context) lines.push("", sanitizeText(question.context));
	if (question.multiSelect) {
		lines.push("", answer ? `Selected: ${answer.selections.map((s) => sanitizeLine(clip(s.label, 40))).join(", ")}` : "Pick one or more, then Done.");
	}
	lines.push(...problems(state, problem));
	return { title: lines.join("\n"), rows: questionRows(question, answer, hasNote, index > 0) };
}

function questionRows(question: AskQuestion, answer: AskAnswer | undefined, hasNote: boolean, canGoBack: boolean): QuestionDialog["rows"] {
	const rows: QuestionDialog["rows"] = [];
	const chosen = new Set(answer?.selections.filter((s) => !s.custom).map((s) => s.value));
	question.options.forEach((option, index) => {
		const mark = question.multiSelect ? (chosen.has(option.value) ? "[x] " : "[ ] ") : chosen.has(option.value) ? "● " : "";
		const recommended = option.recommended ? " (recommended)" : "";
		const description = option.description ? ` — ${option.description}` : "";
		// The number keeps every option row distinct from the fixed rows below, whatever the label says.
		rows.push({ text: sanitizeLine(`${index + 1}. ${mark}${option.label}${recommended}${description}`), row: { kind: "option", index } });
	});
	const custom = answer?.selections.find((s) => s.custom);
	if (question.allowOther) {
		const text = custom ? `${ROW.freeText} (yours: ${sanitizeLine(clip(custom.label, 40))})` : ROW.freeText;
		rows.push({ text, row: { kind: "freeText" } });
	}
	rows.push({ text: hasNote ? ROW.editNote : ROW.note, row: { kind: "note" } });
	if (question.multiSelect) rows.push({ text: ROW.done, row: { kind: "done" } });
	else if (answer) rows.push({ text: ROW.next, row: { kind: "next" } });
	if (!question.required && !question.multiSelect) rows.push({ text: ROW.skip, row: { kind: "skip" } });
	if (canGoBack) rows.push({ text: ROW.back, row: { kind: "back" } });
	rows.push({ text: ROW.chat, row: { kind: "chat" } });
	return rows;
}

/** The editor's title: whose question, what is being written, and why the text came back (too long). */
export function editorTitle(state: FormState, target: EditorTarget, asker: string | undefined): string {
	if (!isQuestionTarget(target)) {
		const from = asker ? `${sanitizeLine(asker)} asks · ` : "";
		const what = target.kind === "chat" ? "Your message for the chat, instead of the form (your answers so far are kept)" : "A note on the whole form";
		return [`${from}${what}`, ...problems(state, undefined)].join("\n");
	}
	const question = state.form.questions[target.question] as AskQuestion;
	const what = target.kind === "custom" ? "Your answer to" : "A note on";
	return [heading(state, target.question, asker), `${what}: ${sanitizeLine(question.question)}`, ...problems(state, undefined)].join("\n");
}

/** The review: every answer, skip and note, and what a submit would drop. */
export function reviewTitle(state: FormState, asker: string | undefined, problem: string | undefined): string {
	const { answers, skipped, notes } = collectAnswers(state, false);
	const lines = [asker ? `${sanitizeLine(asker)} asks · Review your answers` : "Review your answers"];
	if (problem) lines.push(problem);
	for (const question of state.form.questions) {
		const answer = answers[question.id];
		const shown = answer
			? answer.selections.map((s) => (s.custom ? `“${clip(s.label, 60)}”` : s.label)).join(", ")
			: skipped.includes(question.id)
				? "(skipped)"
				: "(no answer)";
		lines.push(sanitizeLine(`${question.header}: ${shown}`));
		for (const note of notes.filter((n) => n.questionId === question.id)) lines.push(sanitizeLine(`  note: ${clip(note.text, 60)}`));
	}
	if (state.formNote !== undefined) lines.push(sanitizeLine(`Note on the whole form: ${clip(state.formNote, 60)}`));
	// The walker's editor returns nothing when cancelled, so its only drafts are texts refused for their length.
	const unsaved = pendingDrafts(state).length;
	if (unsaved > 0) {
		const count = unsaved === 1 ? "1 text over the limit was not saved" : `${unsaved} texts over the limit were not saved`;
		lines.push(`⚠ ${count}; Submit drops ${unsaved === 1 ? "it" : "them"}.`);
	}
	return lines.join("\n");
}

function heading(state: FormState, index: number, asker: string | undefined): string {
	const questions = state.form.questions;
	const question = questions[index] as AskQuestion;
	const from = asker ? `${sanitizeLine(asker)} asks · ` : "";
	const position = questions.length > 1 ? ` (${index + 1}/${questions.length})` : "";
	const optional = question.required ? "" : " · optional";
	return `${from}${sanitizeLine(question.header)}${position}${optional}`;
}

/** The walker's own problem (a stray answer) and the state's message (too long, nothing picked, …). */
function problems(state: FormState, problem: string | undefined): string[] {
	const lines: string[] = [];
	if (state.message) lines.push(sanitizeLine(`⚠ ${state.message.text}`));
	if (problem) lines.push(problem);
	return lines;
}

function clip(text: string, max: number): string {
	const chars = [...text];
	return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}
