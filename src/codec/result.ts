/**
 * The result of an ask_user call, in its two forms: the compact text the model
 * reads (`content`) and the structured record the transcript is rebuilt from
 * (`details`). Both are built from the form and what a UI collected, and from
 * nothing else, so every UI (the form, the dialog walker, the relay) ends the
 * same way.
 */

import type {
	AskAnswer,
	AskDetails,
	AskDraft,
	AskForm,
	AskNote,
	AskProgress,
	AskQuestion,
	AskSelection,
	AskStatus,
	Collected,
	PartialAnswers,
	QuestionOutcome,
} from "../types.ts";
import { sanitizeLine } from "../sanitize.ts";
import { LIMITS } from "../types.ts";
import { formatId, quoteExact } from "./quote.ts";

/** What the tool knows besides the answers: what normalisation changed in the call. */
export interface ResultExtra {
	notices?: string[];
}

// ── Text for the model ─────────────────────────────────────────────────────

/**
 * One header line with the status and the count, one line per question in
 * question order, a `Note:` line per normalisation notice, and for every
 * status but "answered" one closing sentence telling the model what to do.
 * Drafts (text the user left unconfirmed in the editor) go on their
 * question's line after its answer and notes, worded so they never read as
 * the answer.
 */
export function formatResultText(form: AskForm, collected: Collected, extra?: ResultExtra): string {
	const total = form.questions.length;
	const answered = form.questions.filter((q) => hasAnswer(collected.answers, q.id)).length;
	const skipped = form.questions.filter((q) => !hasAnswer(collected.answers, q.id) && collected.skipped.includes(q.id)).length;
	const header = headerLine(collected.status, answered, skipped, total);
	const lines = [collected.answeredBy === undefined ? header : answeredElsewhere(header, collected.answeredBy)];
	for (const question of form.questions) lines.push(questionLine(question, collected));
	lines.push(...formTextLines(collected));
	for (const notice of extra?.notices ?? []) lines.push(`Note: ${oneLine(sanitizeLine(notice))}`);
	const closing = closingSentence(collected);
	if (closing) lines.push(closing);
	return lines.join("\n");
}

function headerLine(status: AskStatus, answered: number, skipped: number, total: number): string {
	const count = `${answered} of ${total} answered`;
	switch (status) {
		case "answered":
			return `User submitted the form (${count}${skipped > 0 ? `, ${skipped} skipped` : ""}):`;
		case "dismissed":
			return `User dismissed the questions (${count}):`;
		case "aborted":
			return `The run was aborted before the user finished (${count}):`;
		case "no_ui":
			return `No UI available: the questions could not be shown (${count}):`;
		case "timed_out":
			return `Time ran out before the user finished (${count}):`;
		case "error":
			return `The question form failed (${count}):`;
		case "chat":
			return `User chose to reply in chat instead of finishing the form (${count}):`;
	}
}

/** "User submitted the form (…):" → "Answered through phone bridge, not at the terminal: the user submitted the form (…):" */
function answeredElsewhere(header: string, source: string): string {
	return `Answered through ${quoteExact(sanitizeLine(source))}, not at the terminal: ${header.charAt(0).toLowerCase()}${header.slice(1)}`;
}

function closingSentence(collected: Collected): string | undefined {
	switch (collected.status) {
		case "answered":
			return undefined;
		case "dismissed":
			return collected.shownElsewhere
				? "The user did not submit: do not assume answers or act on the ones given; end your task now, and say in your final reply that the user declined to answer and what you needed to know."
				: "The user did not submit: do not assume answers or act on the ones given; stop and wait for the user to tell you how to go on.";
		case "aborted":
			return "The user did not finish: do not assume answers to the unanswered questions.";
		case "no_ui":
			return "No user can answer here and ask_user is now disabled for this session: do not call it again; state your assumption and go on, or ask in plain text in your reply.";
		case "timed_out":
			return "State your assumption and go on, or ask in plain text in your reply.";
		case "chat":
			return "Their message is above: answer it as you would answer the user, using the answers they gave; do not assume answers to the rest.";
		case "error": {
			const error = collected.error === undefined ? "" : ` (error: ${quoteExact(collected.error)})`;
			return `The form failed${error}: do not assume answers; ask the user in plain text in your reply.`;
		}
	}
}

/** The whole form's texts after the questions, quoted exactly like the rest: its note, the chat message, their drafts. */
function formTextLines({ notes, drafts = [], chatMessage }: Collected): string[] {
	const lines: string[] = [];
	const note = notes.find((n) => n.questionId === undefined);
	const noteDraft = drafts.find((d) => d.kind === "note" && d.questionId === undefined);
	const chatDraft = drafts.find((d) => d.kind === "chat");
	if (note) lines.push(`Note on the whole form: ${quoteExact(note.text)}`);
	if (noteDraft) lines.push(`Unconfirmed ${formatDraftText("note on the whole form", noteDraft.text)}`);
	if (chatMessage !== undefined) lines.push(`The user's message: ${quoteExact(chatMessage)}`);
	if (chatDraft) lines.push(`Unsent ${formatDraftText("message for the chat", chatDraft.text)}`);
	return lines;
}

function questionLine(question: AskQuestion, collected: Collected): string {
	const answer = answerFor(collected.answers, question.id);
	const parts: string[] = [];
	if (answer) parts.push(answer.selections.map(formatSelection).join(", "));
	else parts.push(collected.skipped.includes(question.id) ? "skipped" : "unanswered");

	const notes = notesOn(collected.notes, question.id);
	const questionNotes = notes.filter((n) => n.option === undefined).map((n) => n.text);
	for (const text of questionNotes) parts.push(`note: ${quoteExact(text)}`);
	for (const note of notes) {
		if (note.option !== undefined) parts.push(`note on ${quoteExact(note.option)}: ${quoteExact(note.text)}`);
	}
	for (const draft of draftsOn(collected.drafts, question.id)) parts.push(formatDraft(draft));
	return `${formatId(question.id)}: ${parts.join("; ")}`;
}

/**
 * A draft is kept whole in `details`, but the model's text carries at most
 * LIMITS.freeText of it: a huge paste the editor refused must not flood the
 * model's context.
 */
function formatDraft(draft: AskDraft): string {
	const what = draft.kind === "answer" ? "text" : draft.option === undefined ? "note" : `note on ${quoteExact(draft.option)}`;
	return `unconfirmed ${formatDraftText(what, draft.text)}`;
}

/** "<what> left in the editor: "…"", at most LIMITS.freeText of the text, saying where the rest is. */
function formatDraftText(what: string, text: string): string {
	const over = text.length - LIMITS.freeText;
	if (over <= 0) return `${what} left in the editor: ${quoteExact(text)}`;
	return `${what} left in the editor: ${quoteExact(text.slice(0, LIMITS.freeText))} (+${over} more characters, in details.drafts)`;
}

function formatSelection(selection: AskSelection): string {
	const shown = `${selection.custom ? "wrote " : ""}${quoteExact(selection.label)}`;
	return selection.value === selection.label ? shown : `${shown} (value ${quoteExact(selection.value)})`;
}

function oneLine(text: string): string {
	return text.replace(/\s*[\r\n\u2028\u2029]+\s*/g, " ");
}

// ── The structured record ──────────────────────────────────────────────────

/** The `details` of the final tool result; each answer carries its question-level note. */
export function buildDetails(form: AskForm, collected: Collected, extra?: ResultExtra): AskDetails {
	const details: AskDetails = {
		status: collected.status,
		questions: form.questions,
		answers: answersWithNotes(collected.answers, collected.notes),
		skipped: [...collected.skipped],
		notes: [...collected.notes],
	};
	if (collected.drafts !== undefined && collected.drafts.length > 0) details.drafts = collected.drafts.map((d) => ({ ...d }));
	if (collected.chatMessage !== undefined) details.chatMessage = collected.chatMessage;
	if (form.metadata !== undefined) details.metadata = form.metadata;
	if (extra?.notices !== undefined && extra.notices.length > 0) details.notices = [...extra.notices];
	if (collected.error !== undefined) details.error = collected.error;
	if (collected.answeredBy !== undefined) details.answeredBy = collected.answeredBy;
	return details;
}

/** The `details` of an onUpdate while the form is open: status "pending" and the answers so far. */
export function progressDetails(
	form: AskForm,
	progress: AskProgress,
	partial: PartialAnswers,
): AskDetails {
	const details: AskDetails = {
		status: "pending",
		questions: form.questions,
		answers: answersWithNotes(partial.answers, partial.notes),
		skipped: [...partial.skipped],
		notes: [...partial.notes],
		progress: { ...progress },
	};
	if (form.metadata !== undefined) details.metadata = form.metadata;
	return details;
}

/** The short text of an onUpdate, e.g. `Waiting for the user: 1 of 3 answered`. */
export function formatProgressText(progress: AskProgress): string {
	const count = `${progress.answered} of ${progress.total} answered`;
	switch (progress.phase) {
		case "opened":
		case "answered":
			return `Waiting for the user: ${count}`;
		case "review":
			return `Waiting for the user to submit: ${count}`;
		case "submitted":
			return `User submitted: ${count}`;
		case "dismissed":
			return `User dismissed the questions: ${count}`;
	}
}

/** How one question ended: answered if it has an answer, skipped if the user skipped it, else unanswered. */
export function questionOutcome(details: Pick<AskDetails, "status" | "answers" | "skipped">, id: string): QuestionOutcome {
	if (hasAnswer(details.answers, id)) return "answered";
	return details.skipped.includes(id) ? "skipped" : "unanswered";
}

// The question-level note lives in `notes` (where every UI records it); the
// details repeat it on the answer so a reader of one answer needs nothing else.
function answersWithNotes(answers: Record<string, AskAnswer>, notes: AskNote[]): Record<string, AskAnswer> {
	return Object.fromEntries(
		Object.entries(answers).map(([id, answer]): [string, AskAnswer] => {
			const copy: AskAnswer = { kind: answer.kind, selections: answer.selections.map((s) => ({ ...s })) };
			const note = notesOn(notes, id).find((n) => n.option === undefined)?.text;
			if (note !== undefined) copy.note = note;
			return [id, copy];
		}),
	);
}

function notesOn(notes: AskNote[], questionId: string): AskNote[] {
	return notes.filter((n) => n.questionId === questionId);
}

/** The drafts on one question; `drafts` may be missing (details written before drafts existed). */
export function draftsOn(drafts: readonly AskDraft[] | undefined, questionId: string): AskDraft[] {
	if (!Array.isArray(drafts)) return [];
	// Read back from a session file: skip anything that is not a draft rather than fail the transcript.
	return drafts.filter((d) => typeof d === "object" && d !== null && d.questionId === questionId && typeof d.text === "string");
}

// Ids are the model's strings: "constructor" or "__proto__" must not find Object.prototype.
function hasAnswer(answers: Record<string, AskAnswer>, id: string): boolean {
	return Object.hasOwn(answers, id);
}

/** A UI's result when nothing was collected: the run was aborted first, no UI, a failure. */
export function emptyCollected(status: AskStatus, error?: string): Collected {
	return { status, answers: {}, skipped: [], notes: [], ...(error !== undefined ? { error } : {}) };
}

/** The answer to question `id`, if any; own keys only, so no id can find a built-in property. */
export function answerFor(answers: Record<string, AskAnswer>, id: string): AskAnswer | undefined {
	return hasAnswer(answers, id) ? answers[id] : undefined;
}
