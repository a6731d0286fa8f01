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

/** The review's rows for this state: on the Submit tab (two or more questions) also a note and a reply in chat, where the host shows text dialogs. */
export function reviewRows(state: FormState, choiceOnly = false): string[] {
	if (!isSubmitTab(state) || choiceOnly) return [...REVIEW_ROWS];
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

/**
 * The select for question `index`, written to read well as a host's prompt
 * (an ACP adapter shows the title as the question and each row as a button):
 * the question first, then where it stands; the options as their labels, the
 * recommended one first — a host's default action (its shortcut picks the
 * first button) then takes the option the model recommended, never one that
 * only came first. `problem`: why it is asked again, or news of the host;
 * `choiceOnly`: no text rows (the host shows no text dialogs).
 */
export function questionDialog(state: FormState, index: number, asker: string | undefined, problem: string | undefined, choiceOnly = false): QuestionDialog {
	const question = state.form.questions[index] as AskQuestion;
	const answer = collectAnswers(state, false).answers[question.id];
	const hasNote = state.questions[index]?.note !== undefined;
	const lines = [sanitizeLine(question.question)];
	if (question.context) lines.push(sanitizeText(question.context));
	lines.push(heading(state, index, asker), ...optionDetails(question));
	if (question.multiSelect) {
		lines.push(answer ? `Selected: ${shownAnswer(answer)}` : "Pick one or more, then Done.");
	} else if (answer) {
		lines.push(`Your answer: ${shownAnswer(answer)}`);
	}
	lines.push(...problems(state, problem));
	return { title: lines.join("\n"), rows: questionRows(question, answer, hasNote, index > 0, choiceOnly) };
}

/** The options that say more than their label: its description, and which one is recommended. */
function optionDetails(question: AskQuestion): string[] {
	if (!question.options.some((o) => o.description !== undefined || o.recommended)) return [];
	return question.options.map((o) => sanitizeLine(`• ${o.label}${o.recommended ? " (recommended)" : ""}${o.description ? ` — ${clip(o.description, 120)}` : ""}`));
}

function shownAnswer(answer: AskAnswer): string {
	return answer.selections.map((s) => sanitizeLine(s.custom ? `“${clip(s.label, 40)}”` : clip(s.label, 40))).join(", ");
}

function questionRows(question: AskQuestion, answer: AskAnswer | undefined, hasNote: boolean, canGoBack: boolean, choiceOnly: boolean): QuestionDialog["rows"] {
	const fixed: QuestionDialog["rows"] = [];
	const custom = answer?.selections.find((s) => s.custom);
	if (question.allowOther && !choiceOnly) {
		const text = custom ? `${ROW.freeText} (yours: ${sanitizeLine(clip(custom.label, 40))})` : ROW.freeText;
		fixed.push({ text, row: { kind: "freeText" } });
	}
	if (!choiceOnly) fixed.push({ text: hasNote ? ROW.editNote : ROW.note, row: { kind: "note" } });
	if (question.multiSelect) fixed.push({ text: ROW.done, row: { kind: "done" } });
	else if (answer) fixed.push({ text: ROW.next, row: { kind: "next" } });
	if (!question.required && !question.multiSelect) fixed.push({ text: ROW.skip, row: { kind: "skip" } });
	if (canGoBack) fixed.push({ text: ROW.back, row: { kind: "back" } });
	// Talk instead of choosing: a message needs a text dialog.
	if (!choiceOnly) fixed.push({ text: ROW.chat, row: { kind: "chat" } });
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
export function editorTitle(state: FormState, target: EditorTarget, asker: string | undefined): string {
	if (!isQuestionTarget(target)) {
		const from = asker ? `${sanitizeLine(asker)} asks · ` : "";
		const what = target.kind === "chat" ? "Your message for the chat, instead of the form (your answers so far are kept)" : "A note on the whole form";
		return [`${from}${what}`, ...problems(state, undefined)].join("\n");
	}
	const question = state.form.questions[target.question] as AskQuestion;
	const what = target.kind === "custom" ? "Your answer to" : "A note on";
	return [`${what}: ${sanitizeLine(question.question)}`, heading(state, target.question, asker), ...problems(state, undefined)].join("\n");
}

/** The review: every answer, skip and note, and what a submit would drop. */
export function reviewTitle(state: FormState, asker: string | undefined, problem: string | undefined): string {
	const { answers, skipped, notes } = collectAnswers(state, false);
	const lines = [asker ? `Review your answers · asked by ${sanitizeLine(asker)}` : "Review your answers"];
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

/** Where the question stands: "Database · 2 of 3 · optional · asked by scout". */
function heading(state: FormState, index: number, asker: string | undefined): string {
	const questions = state.form.questions;
	const question = questions[index] as AskQuestion;
	const parts = [sanitizeLine(question.header)];
	if (questions.length > 1) parts.push(`${index + 1} of ${questions.length}`);
	if (!question.required) parts.push("optional");
	if (asker) parts.push(`asked by ${sanitizeLine(asker)}`);
	return parts.join(" · ");
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
