/**
 * From the state to what the tool returns: answers, skips and notes in the
 * shapes of src/types.ts, and the progress reported while the questions are
 * open. Every shell reads its result here, so each answer rule is written once.
 */

import type { AskAnswer, AskDraft, AskNote, AskProgress, AskSelection, AskStatus, Collected, PartialAnswers, ProgressListener } from "../types.ts";
import { answeredCount, type FormState, isAnswered, isQuestionTarget, isSubmitTab, pendingDrafts, pendingDraftText } from "./model.ts";

/**
 * The answers collected so far, whatever the status (nothing is thrown away).
 * - answers: only answered questions; option selections in option order, the free answer last.
 * - skipped: on "answered", every optional question without an answer (an unanswered optional
 *   question at submit time counts as skipped); otherwise only those the user skipped with `s`.
 * - notes: every note, answered or not: the question note (no `option`), then option notes
 *   in option order, by option label.
 * - drafts: unconfirmed editor text (see pendingDrafts), on every status but "answered":
 *   a submit drops them, because the user was asked and chose to submit without them.
 */
export function collect(state: FormState, status: AskStatus): Collected {
	const collected: Collected = { status, ...collectAnswers(state, status === "answered") };
	if (state.formNote !== undefined) collected.formNote = state.formNote;
	if (state.chatMessage !== undefined) collected.chatMessage = state.chatMessage;
	if (status !== "answered") {
		const drafts = collectDrafts(state);
		if (drafts.length > 0) collected.drafts = drafts;
		const formNoteDraft = pendingDraftText(state, { kind: "formNote" });
		if (formNoteDraft !== undefined) collected.formNoteDraft = formNoteDraft;
		const chatDraft = pendingDraftText(state, { kind: "chat" });
		if (chatDraft !== undefined) collected.chatDraft = chatDraft;
	}
	return collected;
}

export function collectDrafts(state: FormState): AskDraft[] {
	return pendingDrafts(state).flatMap(({ target, text }): AskDraft[] => {
		// The whole form's texts are no question's: collect reports them as formNoteDraft and chatDraft.
		if (!isQuestionTarget(target)) return [];
		const question = state.form.questions[target.question];
		if (!question) return [];
		switch (target.kind) {
			case "custom":
				return [{ questionId: question.id, kind: "answer", text }];
			case "questionNote":
				return [{ questionId: question.id, kind: "note", text }];
			case "optionNote": {
				const option = question.options[target.option];
				return option ? [{ questionId: question.id, kind: "note", option: option.label, text }] : [];
			}
		}
	});
}

export function collectAnswers(state: FormState, submitted: boolean): PartialAnswers {
	const answers: Record<string, AskAnswer> = {};
	const skipped: string[] = [];
	const notes: AskNote[] = [];
	state.form.questions.forEach((question, i) => {
		const qs = state.questions[i];
		if (!qs) return;
		if (isAnswered(qs)) {
			const selections: AskSelection[] = qs.chosen.flatMap((o) => {
				const option = question.options[o];
				return option ? [{ value: option.value, label: option.label }] : [];
			});
			if (qs.customChosen && qs.customText !== undefined) {
				selections.push({ value: qs.customText, label: qs.customText, custom: true });
			}
			answers[question.id] = { kind: question.multiSelect ? "multi" : "single", selections };
		} else if (qs.skipped || (submitted && !question.required)) {
			skipped.push(question.id);
		}
		if (qs.note !== undefined) notes.push({ questionId: question.id, text: qs.note });
		qs.optionNotes.forEach((text, o) => {
			const option = question.options[o];
			if (text !== undefined && option) notes.push({ questionId: question.id, option: option.label, text });
		});
	});
	return { answers, skipped, notes };
}

export interface ProgressStep {
	phase: AskProgress["phase"];
	questionId?: string;
}

/**
 * What one transition means to a progress listener, in order: each question
 * that got a (new) answer, the review coming into view, the user's ending.
 * An abort or an error is no step: the questions did not end by the user's choice.
 */
export function progressSteps(before: FormState, after: FormState): ProgressStep[] {
	const steps: ProgressStep[] = [];
	after.form.questions.forEach((question, i) => {
		const now = answerSignature(after, i);
		if (now !== undefined && now !== answerSignature(before, i)) steps.push({ phase: "answered", questionId: question.id });
	});
	if (isSubmitTab(after) && !isSubmitTab(before)) steps.push({ phase: "review" });
	if (after.outcome === "answered" && before.outcome === undefined) steps.push({ phase: "submitted" });
	if (after.outcome === "dismissed" && before.outcome === undefined) steps.push({ phase: "dismissed" });
	return steps;
}

/** Tells the listener of one step, with the answers so far; a listener that throws must not break the questions. */
export function reportProgress(listener: ProgressListener | undefined, state: FormState, step: ProgressStep): void {
	if (!listener) return;
	try {
		listener(progressOf(state, step.phase, step.questionId), collectAnswers(state, step.phase === "submitted"));
	} catch {
		// The questions go on without it.
	}
}

export function progressOf(state: FormState, phase: AskProgress["phase"], questionId?: string): AskProgress {
	const progress: AskProgress = { phase, answered: answeredCount(state), total: state.form.questions.length };
	if (questionId !== undefined) progress.questionId = questionId;
	return progress;
}

/**
 * A cheap fingerprint of one question's answer, to tell "this question got a
 * (new) answer" between two states without comparing structures.
 */
export function answerSignature(state: FormState, index: number): string | undefined {
	const qs = state.questions[index];
	if (!qs || !isAnswered(qs)) return undefined;
	return `${qs.chosen.join(",")}|${qs.customChosen ? qs.customText : ""}`;
}
