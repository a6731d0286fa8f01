/**
 * Small immutable edits of the state, shared by the rules of update.ts and
 * scroll.ts.
 */

import type { Phrase } from "../i18n/texts.ts";
import type { AskQuestion } from "../types.ts";
import { currentQuestion, type FormMessage, type FormState, type QuestionState } from "./model.ts";

/** Nothing sits over the options (no help screen, no editor). */
export function onForm(state: FormState): boolean {
	return state.overlay.kind === "none";
}

export function whenOnQuestion(
	state: FormState,
	then: (index: number, question: AskQuestion, qs: QuestionState) => FormState,
): FormState {
	const current = currentQuestion(state);
	return current ? then(current.index, current.question, current.qs) : state;
}

export function withQuestion(state: FormState, index: number, patch: Partial<QuestionState>): FormState {
	const questions = state.questions.slice();
	const qs = questions[index];
	if (!qs) return state;
	questions[index] = { ...qs, ...patch };
	return { ...state, questions };
}

export function withReview(state: FormState, focus: number): FormState {
	return { ...state, review: { ...state.review, focus } };
}

export function withMessage(state: FormState, tone: FormMessage["tone"], text: Phrase): FormState {
	return { ...state, message: { tone, text } };
}
