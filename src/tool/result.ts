/**
 * The result of an ask_user call: the text the model reads and the `details` the transcript is rebuilt from, both from
 * the form and what a UI collected alone. The user's words reach the model as JSON strings, exactly.
 */

import { own } from "../core/json.ts";
import { sanitizeLine } from "../core/sanitize.ts";
import {
	type AskAnswer,
	type AskDetails,
	type AskDraft,
	type AskForm,
	type AskProgress,
	type AskQuestion,
	type AskSelection,
	type AskStatus,
	type Collected,
	LIMITS,
	type PartialAnswers,
} from "../core/types.ts";
import { type AskAttached, formatSize, isImageMime } from "../core/attachment.ts";

/** What the tool knows besides the answers: what normalisation changed in the call. */
type Extra = { notices?: readonly string[] };

const HEADERS: Record<AskStatus, string> = {
	answered: "User submitted the form",
	dismissed: "User dismissed the questions",
	aborted: "The run was aborted before the user finished",
	no_ui: "No UI available: the questions could not be shown",
	timed_out: "Time ran out before the user finished",
	error: "The question form failed",
	chat: "User chose to reply in chat instead of finishing the form",
};

const DECLINED = "The user did not submit: do not assume answers or act on the ones given;";
const CLOSINGS: Record<Exclude<AskStatus, "answered" | "error">, string> = {
	dismissed: `${DECLINED} stop and wait for the user to tell you how to go on.`,
	aborted: "The user did not finish: do not assume answers to the unanswered questions.",
	no_ui:
		"No user can answer here and ask_user is now disabled for this session: do not call it again; state your " +
		"assumption and go on, or ask in plain text in your reply.",
	timed_out: "State your assumption and go on, or ask in plain text in your reply.",
	chat:
		"Their message is above: answer it as you would answer the user, using the answers they gave; do not assume " +
		"answers to the rest.",
};

/** A header, a line per question, the form's texts, the notices, and but on "answered" what the model should do. */
export function formatResultText(form: AskForm, collected: Collected, { notices = [] }: Extra = {}): string {
	const { status, answers, skipped, delegated = [], answeredBy } = collected;
	const open = form.questions.filter((q) => !Object.hasOwn(answers, q.id));
	const delegates = open.filter((q) => delegated.includes(q.id)).length;
	const skips = open.filter((q) => !delegated.includes(q.id) && skipped.includes(q.id)).length;
	const count = [`${form.questions.length - open.length} of ${form.questions.length} answered`];
	if (delegates > 0) count.push(`${delegates} left to you`);
	if (status === "answered" && skips > 0) count.push(`${skips} skipped`);
	const header = `${HEADERS[status]} (${count.join(", ")}):`;
	const lines = [
		answeredBy === undefined
			? header
			: `Answered through ${quoteExact(sanitizeLine(answeredBy))}, not at the terminal: ` +
				`${header.charAt(0).toLowerCase()}${header.slice(1)}`,
	];
	for (const question of form.questions)
		lines.push(`${questionKey(question.id)}: ${questionText(question, collected)}`);
	lines.push(...formTextLines(collected));
	lines.push(...(collected.attachments ?? []).map(attachmentLine));
	lines.push(...unseenPreviewsLine(form, collected));
	for (const notice of notices) lines.push(`Note: ${sanitizeLine(notice).replace(/\s*[\r\n\u2028\u2029]+\s*/g, " ")}`);
	if (status === "error") {
		const error = collected.error === undefined ? "" : ` (error: ${quoteExact(collected.error)})`;
		lines.push(`The form failed${error}: do not assume answers; ask the user in plain text in your reply.`);
	} else if (status === "dismissed" && collected.shownElsewhere) {
		lines.push(
			`${DECLINED} end your task now, and say in your final reply that the user declined to answer and what you ` +
				`needed to know.`,
		);
	} else if (status !== "answered") lines.push(CLOSINGS[status]);
	else if (delegates > 0)
		lines.push("For each question left to you: decide, say in your reply what you chose, and go on.");
	return lines.join("\n");
}

/** What a question's result line says after its id: the answer (or why none), its notes, its drafts. */
export function questionText(question: AskQuestion, collected: Collected): string {
	const { answers, skipped, delegated = [] } = collected;
	const answer = own(answers, question.id);
	const notes = collected.notes.filter((n) => n.questionId === question.id);
	const unanswered = skipped.includes(question.id) ? "skipped" : "unanswered";
	const none = delegated.includes(question.id) ? leftToYou(question) : unanswered;
	const files = (kind: AskAttached["kind"], option?: string) =>
		filesOf(collected, { kind, questionId: question.id, option });
	const parts = [answer ? answer.selections.map(formatSelection).join(", ") + files("answer") : none];
	for (const note of notes) if (note.option === undefined) parts.push(`note: ${quoteExact(note.text)}${files("note")}`);
	for (const note of notes)
		if (note.option !== undefined)
			parts.push(`note on ${quoteExact(note.option)}: ${quoteExact(note.text)}${files("note", note.option)}`);
	for (const draft of draftsOn(collected.drafts, question.id)) {
		const note = draft.option === undefined ? "note" : `note on ${quoteExact(draft.option)}`;
		const what = draft.kind === "answer" ? "text" : note;
		parts.push(`unconfirmed ${draftText(what, draft.text)}`);
	}
	return parts.join("; ");
}

/** The questions answered without their options' previews in view (Collected.previewsUnseen), in the form's order. */
const unseenPreviews = (form: AskForm, { previewsUnseen = [], answers }: Collected): string[] =>
	form.questions.filter((q) => previewsUnseen.includes(q.id) && Object.hasOwn(answers, q.id)).map((q) => q.id);

function unseenPreviewsLine(form: AskForm, collected: Collected): string[] {
	const unseen = unseenPreviews(form, collected);
	if (unseen.length === 0) return [];
	return [
		`Previews not shown: the user answered ${unseen.map(questionKey).join(", ")} without seeing the options' ` +
			"previews (only their labels and descriptions); do not assume they saw them.",
	];
}

/** A question's id as its result line starts: bare when a plain slug, else quoted. */
export const questionKey = (id: string): string => (BARE_ID.test(id) ? id : quoteExact(id));

/** A question the user left to the model ("You decide"), as its result line says it (and a relay v1 reply's note). */
export function leftToYou(question: AskQuestion): string {
	const recommended = question.options.find((option) => option.recommended);
	return `left to you — ${recommended ? `you recommended ${quoteExact(recommended.label)}` : "choose and say which"}`;
}

/** The whole form's texts, quoted exactly like the rest: its note, the chat message, their drafts. */
function formTextLines(collected: Collected): string[] {
	const { notes, drafts = [], chatMessage } = collected;
	// The user's, with its files; then any other (a file whose bytes did not come, on a relayed reply).
	const onForm = notes.filter((n) => n.questionId === undefined);
	const noteDraft = drafts.find((d) => d.kind === "note" && d.questionId === undefined);
	const chatDraft = drafts.find((d) => d.kind === "chat");
	return [
		...onForm.map(
			(note, i) =>
				`Note on the whole form: ${quoteExact(note.text)}${i === 0 ? filesOf(collected, { kind: "note" }) : ""}`,
		),
		...(noteDraft ? [`Unconfirmed ${draftText("note on the whole form", noteDraft.text)}`] : []),
		...(chatMessage !== undefined ? [`The user's message: ${quoteExact(chatMessage)}`] : []),
		...(chatDraft ? [`Unsent ${draftText("message for the chat", chatDraft.text)}`] : []),
	];
}

/**
 * "<what> left in the editor: "…"", at most LIMITS.freeText of it: a refused paste must not flood the model's context.
 */
function draftText(what: string, text: string): string {
	const over = text.length - LIMITS.freeText;
	if (over <= 0) return `${what} left in the editor: ${quoteExact(text)}`;
	return (
		`${what} left in the editor: ${quoteExact(text.slice(0, LIMITS.freeText))} (+${over} more characters, in ` +
		`details.drafts)`
	);
}

// ── Files ──────────────────────────────────────────────────────────────────

/** ` + 📎 layout.png (image)` for each file of one answer or note (`where`: its ids; none: the whole form's note). */
export function filesOf(collected: Collected, where: Pick<AskAttached, "kind" | "questionId" | "option">): string {
	const files = (collected.attachments ?? []).filter(
		(file) => file.kind === where.kind && file.questionId === where.questionId && file.option === where.option,
	);
	return files.map((file) => ` + 📎 ${fileName(file.name)} (${fileKind(file)})`).join("");
}

const fileName = (name: string): string => (BARE_NAME.test(name) ? name : quoteExact(name));
const BARE_NAME = /^[\p{L}\p{N}_.\-]+$/u;

function fileKind(file: AskAttached): string {
	if (file.error !== undefined) return "not saved";
	if (file.sent === "image") return "image";
	return `${isImageMime(file.mime) ? "image" : "file"}, ${formatSize(file.size)}`;
}

/** Where each file is: the saved copy's path, or why it is not there. */
function attachmentLine(file: AskAttached): string {
	const head = `📎 ${fileName(file.name)}`;
	if (file.error !== undefined)
		return `${head}: could not be saved (error: ${quoteExact(file.error)}); ask the user for it if you need it.`;
	const how =
		file.sent === "image" ? "the image is attached to this result" : "read it with your tools if you need its content";
	return `${head} (${file.mime}, ${formatSize(file.size)}) saved at ${quoteExact(file.path)}: ${how}.`;
}

function formatSelection(selection: AskSelection): string {
	const shown = `${selection.custom ? "wrote " : ""}${quoteExact(selection.label)}`;
	return selection.value === selection.label ? shown : `${shown} (value ${quoteExact(selection.value)})`;
}

export function buildDetails(form: AskForm, collected: Collected, { notices = [] }: Extra = {}): AskDetails {
	const { status, drafts, chatMessage, error, answeredBy } = collected;
	const details = record(form, status, collected);
	if (drafts !== undefined && drafts.length > 0) details.drafts = drafts.map((d) => ({ ...d }));
	if (chatMessage !== undefined) details.chatMessage = chatMessage;
	if (notices.length > 0) details.notices = [...notices];
	if (error !== undefined) details.error = error;
	if (answeredBy !== undefined) details.answeredBy = answeredBy;
	const unseen = unseenPreviews(form, collected);
	if (unseen.length > 0) details.previewsUnseen = unseen;
	if (collected.attachments !== undefined && collected.attachments.length > 0)
		details.attachments = collected.attachments.map(({ data: _bytes, ...file }) => file);
	return details;
}

/** The `details` of an onUpdate while the form is open: status "pending" and the answers so far. */
export function progressDetails(form: AskForm, progress: AskProgress, partial: PartialAnswers): AskDetails {
	return { ...record(form, "pending", partial), progress: { ...progress } };
}

// The question-level note lives in `notes` (where every UI records it); the
// details repeat it on the answer so a reader of one answer needs nothing else.
function record(
	form: AskForm,
	status: AskDetails["status"],
	{ answers, skipped, notes, delegated }: PartialAnswers,
): AskDetails {
	const withNotes = Object.entries(answers).map(([id, answer]): [string, AskAnswer] => {
		const note = notes.find((n) => n.questionId === id && n.option === undefined)?.text;
		return [
			id,
			{ kind: answer.kind, selections: answer.selections.map((s) => ({ ...s })), ...(note !== undefined && { note }) },
		];
	});
	const details: AskDetails = {
		status,
		questions: form.questions,
		answers: Object.fromEntries(withNotes),
		skipped: [...skipped],
		notes: [...notes],
	};
	if (delegated !== undefined && delegated.length > 0) details.delegated = [...delegated];
	if (form.reason !== undefined) details.reason = form.reason;
	if (form.metadata !== undefined) details.metadata = form.metadata;
	return details;
}

const PROGRESS: Record<AskProgress["phase"], string> = {
	opened: "Waiting for the user",
	answered: "Waiting for the user",
	review: "Waiting for the user to submit",
	submitted: "User submitted",
	dismissed: "User dismissed the questions",
};

/** The short text of an onUpdate, e.g. `Waiting for the user: 1 of 3 answered`. */
export function formatProgressText(progress: AskProgress): string {
	return `${PROGRESS[progress.phase]}: ${progress.answered} of ${progress.total} answered`;
}

export function questionOutcome(
	details: Pick<AskDetails, "answers" | "skipped" | "delegated">,
	id: string,
): "answered" | "delegated" | "skipped" | "unanswered" {
	if (Object.hasOwn(details.answers, id)) return "answered";
	// Read back from a session file: a record of 0.2.0 has no `delegated`.
	if (Array.isArray(details.delegated) && details.delegated.includes(id)) return "delegated";
	return details.skipped.includes(id) ? "skipped" : "unanswered";
}

/**
 * The drafts on one question; read back from a session file, anything that is not a draft is skipped, never failed on.
 */
export function draftsOn(drafts: readonly AskDraft[] | undefined, questionId: string): AskDraft[] {
	if (!Array.isArray(drafts)) return [];
	return drafts.filter(
		(d) => typeof d === "object" && d !== null && d.questionId === questionId && typeof d.text === "string",
	);
}

// ── Quoting ────────────────────────────────────────────────────────────────

// What JSON.stringify leaves raw that would still break "one line per question" or hide what the text says:
// DEL, the C1 controls (U+0085 breaks lines for some readers), the line and paragraph separators, bidi controls.
const LEFT_RAW_BY_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` as a one-line JSON string literal: `JSON.parse(quoteExact(text)) === text`. */
export function quoteExact(text: string): string {
	return JSON.stringify(text).replace(LEFT_RAW_BY_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

// A question id starts its result line bare when it is a plain slug (as ids the model writes
// normally are), else quoted, so a line still splits unambiguously at its first ": ".
const BARE_ID = /^[\p{L}\p{N}_.\-/]+$/u;
