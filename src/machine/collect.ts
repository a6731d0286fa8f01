/**
 * From the state to what the tool returns, and the progress while the questions are open: every shell reads it here.
 */

import type {
	AskAnswer,
	AskNote,
	AskProgress,
	AskSelection,
	AskStatus,
	Collected,
	PartialAnswers,
	ProgressListener,
} from "../core/types.ts";
import { collectAttachments } from "./attach.ts";
import {
	answeredCount,
	type FormState,
	isAnswered,
	isSubmitTab,
	pendingDrafts,
	placeOf,
	questionNotes,
	savedText,
} from "./model.ts";

/**
 * What was collected, whatever the status; on "answered" unanswered optional questions are skipped and drafts dropped.
 */
export function collect(state: FormState, status: AskStatus): Collected {
	const collected: Collected = { status, ...collectAnswers(state, status === "answered") };
	// The whole form's note is the form's, not an answer's: it follows the questions' (progress goes without it).
	const formNote = savedText(state, { kind: "formNote" });
	if (formNote !== undefined) collected.notes.push({ text: formNote });
	if (state.chatMessage !== undefined) collected.chatMessage = state.chatMessage;
	const attachments = collectAttachments(state);
	if (attachments.length > 0) collected.attachments = attachments;
	const drafts =
		status === "answered"
			? []
			: pendingDrafts(state).map(({ target, text }) => ({ ...placeOf(state.form, target), text }));
	if (drafts.length > 0) collected.drafts = drafts;
	return collected;
}

export function collectAnswers(state: FormState, submitted: boolean): PartialAnswers {
	const answers: Record<string, AskAnswer> = {};
	const skipped: string[] = [];
	const delegated: string[] = [];
	const notes: AskNote[] = [];
	state.form.questions.forEach((question, i) => {
		const qs = state.questions[i];
		if (!qs) return;
		// Read from what the views keep of the notes: nothing is looked up again on a key that changed none.
		const { note, optionNotes } = questionNotes(state, i);
		if (note !== undefined) notes.push({ questionId: question.id, text: note });
		optionNotes.forEach((text, o) => {
			const option = question.options[o];
			if (text !== undefined && option) notes.push({ questionId: question.id, option: option.label, text });
		});
		if (qs.delegated) delegated.push(question.id);
		else if (isAnswered(qs)) {
			const selections: AskSelection[] = qs.chosen
				.flatMap((o) => question.options[o] ?? [])
				.map(({ value, label }) => ({ value, label }));
			if (qs.customChosen && qs.customText !== undefined)
				selections.push({ value: qs.customText, label: qs.customText, custom: true });
			answers[question.id] = { kind: question.multiSelect ? "multi" : "single", selections };
		} else if (qs.skipped || (submitted && !question.required)) {
			skipped.push(question.id);
		}
	});
	return delegated.length > 0 ? { answers, skipped, notes, delegated } : { answers, skipped, notes };
}

/**
 * Tells the listener what one transition means, with the answers so far: new answers, the review in view, the user's
 * ending (no abort or error); without `before`, the form opened. A listener that throws must not break the questions.
 */
export function reportProgress(listener: ProgressListener | undefined, after: FormState, before?: FormState): void {
	if (!listener) return;
	for (const { phase, questionId } of before ? progressSteps(before, after) : [{ phase: "opened" as const }]) {
		try {
			const total = after.form.questions.length;
			const progress: AskProgress = {
				phase,
				answered: answeredCount(after),
				total,
				...(questionId !== undefined && { questionId }),
			};
			listener(progress, collectAnswers(after, phase === "submitted"));
		} catch {
			// The questions go on without it.
		}
	}
}

function progressSteps(before: FormState, after: FormState): Pick<AskProgress, "phase" | "questionId">[] {
	const steps: Pick<AskProgress, "phase" | "questionId">[] = [];
	after.form.questions.forEach((question, i) => {
		const was = before.questions[i];
		const is = after.questions[i];
		// Most keys leave every answer as it was (the same arrays and texts): no fingerprints needed.
		const same =
			was === is ||
			(was?.chosen === is?.chosen &&
				was?.customChosen === is?.customChosen &&
				was?.customText === is?.customText &&
				was?.delegated === is?.delegated);
		if (same) return;
		const now = answerSignature(after, i);
		if (now !== undefined && now !== answerSignature(before, i))
			steps.push({ phase: "answered", questionId: question.id });
	});
	if (isSubmitTab(after) && !isSubmitTab(before)) steps.push({ phase: "review" });
	if (before.outcome === undefined && (after.outcome === "answered" || after.outcome === "dismissed")) {
		steps.push({ phase: after.outcome === "answered" ? "submitted" : "dismissed" });
	}
	return steps;
}

/** A cheap fingerprint of one question's answer: "this question got a (new) answer" without comparing structures. */
function answerSignature(state: FormState, index: number): string | undefined {
	const qs = state.questions[index];
	if (!qs || !isAnswered(qs)) return undefined;
	return qs.delegated ? "delegated" : `${qs.chosen.join(",")}|${qs.customChosen ? qs.customText : ""}`;
}
