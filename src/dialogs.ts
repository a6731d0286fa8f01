/**
 * The dialog walker: the form, walked one question at a time with pi's
 * standard dialogs, so that any RPC client (an IDE, a web UI, a plain script)
 * can answer it. It returns the same Collected shape as the inline form.
 *
 * Per question, one `select`: the numbered options, then the "Type
 * something…" row, a note row, Skip for optional questions, Done for
 * multi-select (Next for an answered single-select one), Back after the first
 * question. Free text and notes go through
 * `editor`. Two or more questions end with a review `select` (Submit / Back /
 * Cancel). Cancelling a `select` dismisses the form; cancelling an `editor`
 * only returns to the question, keeping what was saved before.
 *
 * Drafts: RPC's `editor` returns nothing when cancelled, so text typed and
 * cancelled never reaches the walker. The one unsaved text it does hold is a
 * text refused for its length: if the user then cancels, or the run aborts
 * while it is offered again, it is kept as a draft (reported on every status
 * but "answered"; the review says a submit drops it), never lost silently.
 */

import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import { errorText, raceAbort } from "./abort.ts";
import { sanitizeLine, sanitizeText } from "./sanitize.ts";
import {
	type AskAnswer,
	type AskDraft,
	type AskForm,
	type AskNote,
	type AskProgress,
	type AskQuestion,
	type AskSelection,
	type AskStatus,
	type Collected,
	LIMITS,
} from "./types.ts";

export type DialogUI = Pick<ExtensionUIContext, "select" | "editor">;

export interface WalkOptions {
	signal?: AbortSignal;
	/** Who is asking (a subagent), shown at the top of every dialog title. */
	asker?: string;
	onProgress?: (progress: AskProgress, partial: Pick<Collected, "answers" | "skipped" | "notes">) => void;
}

export const ROW = {
	freeText: "✎ Type something…",
	note: "✎ Add a note…",
	editNote: "✎ Edit the note…",
	skip: "↷ Skip",
	done: "✓ Done",
	next: "→ Next (keep this answer)",
	back: "← Back",
	submit: "✓ Submit",
	cancel: "✗ Cancel",
} as const;

type Row =
	| { kind: "option"; index: number }
	| { kind: "freeText" }
	| { kind: "note" }
	| { kind: "skip" }
	| { kind: "done" }
	| { kind: "next" }
	| { kind: "back" };

/** Resolves with undefined when the signal aborts first; the dialog itself may not support a signal. */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
	const raced = await raceAbort(promise, signal);
	return raced.aborted ? undefined : raced.value;
}

/** How many answers in a row that match no row end the walk as an error. */
const MAX_STRAY_ANSWERS = 3;
const STRAY_PROBLEM = "⚠ That answer is not one of the rows: pick one of them.";

export async function collectWithDialogs(ui: DialogUI, form: AskForm, options: WalkOptions = {}): Promise<Collected> {
	const { signal } = options;
	const questions = form.questions;
	const answers: Record<string, AskAnswer> = {};
	const skipped = new Set<string>();
	const notes: AskNote[] = [];
	const problems = new Map<string, string>();

	// What the user wrote as a free answer, kept even after choosing an option instead, to prefill the editor again.
	const written = new Map<string, string>();
	// Refused (too long) texts the user did not get to save, by draftKey.
	const drafts = new Map<string, AskDraft>();

	const snapshot = () => ({ answers: { ...answers }, skipped: [...skipped], notes: [...notes] });
	const progress = (phase: AskProgress["phase"], questionId?: string) => {
		try {
			options.onProgress?.({ phase, answered: Object.keys(answers).length, total: questions.length, questionId }, snapshot());
		} catch {
			// A failing progress listener must not break the questions.
		}
	};
	// A client that answers a select with a row it was not offered (it trimmed or reworded it) is
	// asked again, never read as a dismissal; after a few in a row it is an error.
	let strayAnswers = 0;
	const strayAnswer = (choice: string): Collected | undefined => {
		strayAnswers++;
		if (strayAnswers < MAX_STRAY_ANSWERS) return undefined;
		const shown = JSON.stringify(choice.length > 80 ? `${choice.slice(0, 80)}…` : choice);
		return finish("error", `The RPC client answered a select with ${shown}, which is not one of its rows, ${MAX_STRAY_ANSWERS} times in a row: a select must return one of its options exactly.`);
	};
	const finish = (status: AskStatus, error?: string): Collected => {
		if (status === "answered") progress("submitted");
		if (status === "dismissed") progress("dismissed");
		const unsaved = status === "answered" ? [] : [...drafts.values()];
		return { status, ...snapshot(), ...(unsaved.length > 0 ? { drafts: unsaved } : {}), ...(error ? { error } : {}) };
	};

	const select = (title: string, rows: string[]) => untilAborted(ui.select(title, rows, { signal }), signal);
	const edit = (title: string, prefill: string) => untilAborted(ui.editor(title, prefill), signal);

	/**
	 * Asks for text until it fits the limit or the user cancels; never drops
	 * what was typed: a refused text left unsaved (cancel, abort) becomes the
	 * draft of `target`, and comes back as the prefill next time.
	 */
	async function editText(title: string, prefill: string, target: Omit<AskDraft, "text">): Promise<string | undefined> {
		const key = draftKey(target);
		let text = drafts.get(key)?.text ?? prefill;
		let problem = "";
		for (;;) {
			const result = await edit(problem ? `${title}\n${problem}` : title, text);
			if (result === undefined) {
				if (text.length > LIMITS.freeText) drafts.set(key, { ...target, text });
				return undefined;
			}
			if (result.length <= LIMITS.freeText) {
				drafts.delete(key);
				return result;
			}
			text = result;
			problem = `⚠ ${result.length} characters; the limit is ${LIMITS.freeText}. Shorten it and save again.`;
		}
	}

	try {
		return await walk();
	} catch (error) {
		// A dialog that fails (a client gone, a broken UI) ends the walk; what was answered stays.
		return finish("error", errorText(error));
	}

	async function walk(): Promise<Collected> {
		progress("opened");
		// Why the review is shown again, if it is: said in its title.
		let reviewProblem: string | undefined;
		let index = 0;
		for (;;) {
			if (signal?.aborted) return finish("aborted");

			if (index >= questions.length) {
				// One question submits on its answer, unless a refused text would be dropped: the review says so first.
				if (questions.length === 1 && drafts.size === 0) return finish("answered");
				if (reviewProblem === undefined) progress("review");
				const rows = [ROW.submit, ROW.back, ROW.cancel];
				const title = reviewTitle(form, answers, skipped, notes, drafts.size, options.asker, reviewProblem);
				reviewProblem = undefined;
				const choice = await select(title, rows);
				if (signal?.aborted) return finish("aborted");
				if (choice === ROW.submit) return finish("answered");
				if (choice === ROW.back) {
					strayAnswers = 0;
					index = questions.length - 1;
					continue;
				}
				if (choice === undefined || choice === ROW.cancel) return finish("dismissed");
				const stop = strayAnswer(choice);
				if (stop) return stop;
				reviewProblem = STRAY_PROBLEM;
				continue;
			}

			const question = questions[index] as AskQuestion;
			const answer = answers[question.id];
			const note = notes.find((n) => n.questionId === question.id && n.option === undefined);
			const rows = questionRows(question, answer, note !== undefined, index > 0);
			const title = questionTitle(form, index, answer, options.asker, problems.get(question.id));
			problems.delete(question.id);
			const choice = await select(title, rows.map((r) => r.text));
			if (signal?.aborted) return finish("aborted");
			if (choice === undefined) return finish("dismissed");
			const row = rows.find((r) => r.text === choice)?.row;
			if (!row) {
				const stop = strayAnswer(choice);
				if (stop) return stop;
				problems.set(question.id, STRAY_PROBLEM);
				continue;
			}
			strayAnswers = 0;

			switch (row.kind) {
				case "option": {
					const option = question.options[row.index];
					if (!option) break;
					const selection: AskSelection = { value: option.value, label: option.label };
					if (!question.multiSelect) {
						answers[question.id] = { kind: "single", selections: [selection] };
						skipped.delete(question.id);
						progress("answered", question.id);
						index++;
					} else {
						toggleSelection(answers, question, selection);
						skipped.delete(question.id);
					}
					break;
				}
				case "freeText": {
					const current = answer?.selections.find((s) => s.custom)?.label ?? written.get(question.id) ?? "";
					const text = await editText(`${heading(form, index, options.asker)}\nYour answer to: ${sanitizeLine(question.question)}`, current, {
						questionId: question.id,
						kind: "answer",
					});
					if (signal?.aborted) return finish("aborted");
					if (text === undefined) break;
					if (text.trim() === "") written.delete(question.id);
					else written.set(question.id, text);
					setCustom(answers, question, text);
					skipped.delete(question.id);
					if (!question.multiSelect && answers[question.id]) {
						progress("answered", question.id);
						index++;
					}
					break;
				}
				case "note": {
					const text = await editText(`${heading(form, index, options.asker)}\nA note on: ${sanitizeLine(question.question)}`, note?.text ?? "", {
						questionId: question.id,
						kind: "note",
					});
					if (signal?.aborted) return finish("aborted");
					if (text === undefined) break;
					const at = notes.findIndex((n) => n.questionId === question.id && n.option === undefined);
					if (at >= 0) notes.splice(at, 1);
					if (text.trim() !== "") notes.push({ questionId: question.id, text });
					break;
				}
				case "skip":
					delete answers[question.id];
					skipped.add(question.id);
					index++;
					break;
				case "done":
					if (!answers[question.id] && question.required) {
						problems.set(question.id, "⚠ Pick at least one option (or type your own) before Done.");
						break;
					}
					if (!answers[question.id]) skipped.add(question.id);
					else progress("answered", question.id);
					index++;
					break;
				case "next":
					index++;
					break;
				case "back":
					index = Math.max(0, index - 1);
					break;
			}
		}
	}
}

function toggleSelection(answers: Record<string, AskAnswer>, question: AskQuestion, selection: AskSelection): void {
	const current = answers[question.id]?.selections ?? [];
	const present = current.some((s) => !s.custom && s.value === selection.value);
	const next = present ? current.filter((s) => s.custom || s.value !== selection.value) : [...current, selection];
	if (next.length === 0) delete answers[question.id];
	else answers[question.id] = { kind: "multi", selections: orderLikeOptions(question, next) };
}

/** An empty or blank text removes the custom answer; otherwise it replaces it, kept exactly as typed. */
function setCustom(answers: Record<string, AskAnswer>, question: AskQuestion, text: string): void {
	const others = question.multiSelect ? (answers[question.id]?.selections ?? []).filter((s) => !s.custom) : [];
	const custom: AskSelection[] = text.trim() === "" ? [] : [{ value: text, label: text, custom: true }];
	const selections = [...others, ...custom];
	if (selections.length === 0) delete answers[question.id];
	else answers[question.id] = { kind: question.multiSelect ? "multi" : "single", selections };
}

function orderLikeOptions(question: AskQuestion, selections: AskSelection[]): AskSelection[] {
	const rank = (s: AskSelection) => (s.custom ? question.options.length : question.options.findIndex((o) => o.value === s.value));
	return [...selections].sort((a, b) => rank(a) - rank(b));
}

function questionRows(question: AskQuestion, answer: AskAnswer | undefined, hasNote: boolean, canGoBack: boolean) {
	const rows: { text: string; row: Row }[] = [];
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
	return rows;
}

function heading(form: AskForm, index: number, asker: string | undefined): string {
	const question = form.questions[index] as AskQuestion;
	const from = asker ? `${sanitizeLine(asker)} asks · ` : "";
	const position = form.questions.length > 1 ? ` (${index + 1}/${form.questions.length})` : "";
	const optional = question.required ? "" : " · optional";
	return `${from}${sanitizeLine(question.header)}${position}${optional}`;
}

function questionTitle(form: AskForm, index: number, answer: AskAnswer | undefined, asker: string | undefined, problem: string | undefined): string {
	const question = form.questions[index] as AskQuestion;
	const lines = [heading(form, index, asker), sanitizeLine(question.question)];
	if (question.context) lines.push("", sanitizeText(question.context));
	if (question.multiSelect) {
		lines.push("", answer ? `Selected: ${answer.selections.map((s) => sanitizeLine(clip(s.label, 40))).join(", ")}` : "Pick one or more, then Done.");
	}
	if (problem) lines.push(problem);
	return lines.join("\n");
}

function draftKey(target: Omit<AskDraft, "text">): string {
	return `${target.kind}:${target.questionId}`;
}

function reviewTitle(
	form: AskForm,
	answers: Record<string, AskAnswer>,
	skipped: Set<string>,
	notes: AskNote[],
	unsavedDrafts: number,
	asker: string | undefined,
	problem?: string,
): string {
	const lines = [asker ? `${sanitizeLine(asker)} asks · Review your answers` : "Review your answers"];
	if (problem) lines.push(problem);
	for (const question of form.questions) {
		const answer = answers[question.id];
		const shown = answer
			? answer.selections.map((s) => (s.custom ? `“${clip(s.label, 60)}”` : s.label)).join(", ")
			: skipped.has(question.id)
				? "(skipped)"
				: "(no answer)";
		lines.push(sanitizeLine(`${question.header}: ${shown}`));
		for (const note of notes.filter((n) => n.questionId === question.id)) lines.push(sanitizeLine(`  note: ${clip(note.text, 60)}`));
	}
	if (unsavedDrafts > 0) {
		const count = unsavedDrafts === 1 ? "1 text over the limit was not saved" : `${unsavedDrafts} texts over the limit were not saved`;
		lines.push(`⚠ ${count}; Submit drops ${unsavedDrafts === 1 ? "it" : "them"}.`);
	}
	return lines.join("\n");
}

function clip(text: string, max: number): string {
	const chars = [...text];
	return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}
