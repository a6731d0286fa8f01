/**
 * The state of one ask as a plain value, and the questions one asks of it.
 *
 * Every UI shell reads and drives this one value: the inline form (src/form)
 * and the dialog walker (src/walker/walker.ts). The state machine (update.ts), the
 * answer collector (collect.ts) and every view read these shapes; none of
 * them is imported here.
 * Anything that can be derived (answered?, can submit?, what is missing) is a
 * function below, never a stored field, so it cannot go stale.
 */

import { type Phrase, phrase } from "../i18n/texts.ts";
import type { AskForm, AskQuestion, NumberKeys } from "../types.ts";

/** What the one editor is editing. */
export type EditorTarget =
	| { kind: "custom"; question: number }
	| { kind: "questionNote"; question: number }
	| { kind: "optionNote"; question: number; option: number }
	/** The note on the whole form, written on the Submit tab. */
	| { kind: "formNote" }
	/** A message for the chat instead of the form: saving it ends the form. */
	| { kind: "chat" };

/** The targets that belong to one question. */
export type QuestionTarget = Exclude<EditorTarget, { kind: "formNote" | "chat" }>;

/** Whether a target belongs to one question (not the whole form). */
export function isQuestionTarget(target: EditorTarget): target is QuestionTarget {
	return target.kind !== "formNote" && target.kind !== "chat";
}

/** At most one thing sits over the options: the help screen or the editor. */
export type Overlay = { kind: "none" } | { kind: "help" } | { kind: "editor"; target: EditorTarget };

/** The scrollable regions: the whole body, the detail pane (preview), the help screen. */
export type ScrollTarget = "body" | "detail" | "help";

/**
 * A scrollable region as the view last drew it: where it is and where it may
 * go. PageUp/PageDown are resolved against it, so the state never stores an
 * offset the view would have to clamp again and again.
 */
export interface ScrollPort {
	readonly target: ScrollTarget;
	readonly top: number;
	readonly min: number;
	readonly max: number;
	readonly page: number;
}

/**
 * What the view computed when it last drew the state: layout facts the rules
 * need (where PageUp/PageDown go, whether the focused option is in sight).
 * They reach the state as data (the `viewport` action), never by a side channel.
 */
export interface Viewport {
	/** In the order PageDown tries them: the page, then the detail pane inside it. */
	readonly ports: readonly ScrollPort[];
	/** The focused option is off screen, as drawn. */
	readonly focusHidden: boolean;
}

export interface FormMessage {
	tone: "warning" | "error";
	/** In no language yet: the view says it in the user's. */
	text: Phrase;
}

export interface QuestionState {
	/** Focused row: the options in order, then the "Type something…" row. */
	readonly focus: number;
	/** Chosen option indices, ascending. At most one on a single-select question. */
	readonly chosen: readonly number[];
	/** The saved free answer. Never blank: blank text means "no free answer". */
	readonly customText: string | undefined;
	/** The free answer counts as (one of) the answer(s). Implies customText. */
	readonly customChosen: boolean;
	/** Note on the question as a whole. Never blank. */
	readonly note: string | undefined;
	/** Note per option, by option index. Never blank. */
	readonly optionNotes: readonly (string | undefined)[];
	/** The user skipped this optional question with `s`. Cleared by answering it. */
	readonly skipped: boolean;
	/** Requested first body line; the view clamps it so the focused row stays visible. */
	readonly scroll: number;
	/** Requested first line of the detail pane; back to 0 when the focus moves. */
	readonly detailScroll: number;
}

export interface ReviewState {
	/** Rows: one per question, then Submit, then Cancel. */
	readonly focus: number;
	readonly scroll: number;
}

export type FormOutcome = "answered" | "dismissed" | "aborted" | "chat";

export type EnterArmed = "submit" | "dismiss";


export interface FormState {
	readonly form: AskForm;
	/** The user's setting, fixed for the life of the form. */
	readonly numberKeys: NumberKeys;
	readonly questions: readonly QuestionState[];
	/** 0..n-1: a question; n: the Submit tab (only when there are two or more questions). */
	readonly tab: number;
	readonly review: ReviewState;
	/** The note on the whole form (the Submit tab's). Never blank. */
	readonly formNote: string | undefined;
	/** The user's message instead of the form; set with outcome "chat". */
	readonly chatMessage: string | undefined;
	readonly overlay: Overlay;
	/**
	 * The form is folded to one line so the conversation above it can be
	 * read; everything else (answers, notes, drafts, focus, scroll) is kept
	 * as it was and comes back with it.
	 */
	readonly peeking: boolean;
	readonly helpScroll: number;
	/**
	 * PageUp/PageDown moved the question's body and no other key came since:
	 * the body shows what was scrolled to even when the focused row is not in
	 * it. Any other key ends it, and the focused row is back in view.
	 */
	readonly reading: boolean;
	readonly viewport: Viewport;
	/** What was typed in the editor and not saved, by draftKey(target). */
	readonly drafts: Readonly<Record<string, string>>;
	/**
	 * The Submit tab has been shown. From then on, answering a question moves
	 * on to the required questions still missing, else back to Submit: the
	 * optional ones the review already listed as skipped are not pressed on
	 * the user again.
	 */
	readonly reviewed: boolean;
	/** Esc was pressed once on the form; the next Esc dismisses, any other key disarms. */
	readonly escArmed: boolean;
	/**
	 * Enter asked for a second Enter: "submit" (unsaved drafts would be
	 * dropped), "dismiss" (the review's Cancel row). The next Enter confirms,
	 * any other key disarms.
	 */
	readonly enterArmed: EnterArmed | undefined;
	/** A transient message; the next action clears it. */
	readonly message: FormMessage | undefined;
	/** Set once; after it, the state never changes again. */
	readonly outcome: FormOutcome | undefined;
}

export function initialState(form: AskForm, numberKeys: NumberKeys = "choose"): FormState {
	const first = form.questions[0];
	return {
		form,
		numberKeys,
		questions: form.questions.map(
			(question): QuestionState => ({
				focus: 0,
				chosen: [],
				customText: undefined,
				customChosen: false,
				note: undefined,
				optionNotes: question.options.map(() => undefined),
				skipped: false,
				scroll: 0,
				detailScroll: 0,
			}),
		),
		tab: 0,
		review: { focus: form.questions.length, scroll: 0 },
		formNote: undefined,
		chatMessage: undefined,
		// A text-only question opens straight into its editor.
		overlay: first && isTextOnly(first) ? { kind: "editor", target: { kind: "custom", question: 0 } } : { kind: "none" },
		peeking: false,
		helpScroll: 0,
		reading: false,
		viewport: { ports: [], focusHidden: false },
		drafts: {},
		reviewed: false,
		escArmed: false,
		enterArmed: undefined,
		message: undefined,
		outcome: undefined,
	};
}

// ── Shape of the form ──────────────────────────────────────────────────────

/** One question: no tab bar, no Submit tab. */
export function hasTabs(state: FormState): boolean {
	return state.form.questions.length > 1;
}

export function tabCount(state: FormState): number {
	return hasTabs(state) ? state.form.questions.length + 1 : 1;
}

export function isSubmitTab(state: FormState): boolean {
	return hasTabs(state) && state.tab === state.form.questions.length;
}

/** The question on the current tab, or undefined on the Submit tab. */
export function currentQuestion(state: FormState): { question: AskQuestion; qs: QuestionState; index: number } | undefined {
	const question = state.form.questions[state.tab];
	const qs = state.questions[state.tab];
	if (!question || !qs) return undefined;
	return { question, qs, index: state.tab };
}

/** A question without options: its answer is the user's text, written in the editor. */
export function isTextOnly(question: AskQuestion): boolean {
	return question.options.length === 0;
}

export function rowCount(question: AskQuestion): number {
	return question.options.length + (question.allowOther ? 1 : 0);
}

/** The "Type something…" row, or -1 when the question has none. */
export function typeRow(question: AskQuestion): number {
	return question.allowOther ? question.options.length : -1;
}

export function reviewRowCount(state: FormState): number {
	return state.form.questions.length + 2;
}

/** The review's Submit row; the Cancel row follows it. */
export function submitRow(state: FormState): number {
	return state.form.questions.length;
}

export function cancelRow(state: FormState): number {
	return state.form.questions.length + 1;
}

// ── Answers ────────────────────────────────────────────────────────────────

export function isAnswered(qs: QuestionState): boolean {
	return qs.chosen.length > 0 || (qs.customChosen && qs.customText !== undefined);
}

export function answeredCount(state: FormState): number {
	let count = 0;
	for (const qs of state.questions) if (isAnswered(qs)) count++;
	return count;
}

/** Indices of required questions without an answer: what blocks Submit. */
export function missingRequired(state: FormState): number[] {
	const missing: number[] = [];
	state.form.questions.forEach((question, i) => {
		const qs = state.questions[i];
		if (question.required && qs && !isAnswered(qs)) missing.push(i);
	});
	return missing;
}

export function canSubmit(state: FormState): boolean {
	return missingRequired(state).length === 0;
}

/** Still to do: neither answered nor skipped. */
export function isPending(qs: QuestionState): boolean {
	return !isAnswered(qs) && !qs.skipped;
}

// ── The editor's targets ───────────────────────────────────────────────────

export function draftKey(target: EditorTarget): string {
	switch (target.kind) {
		case "custom":
			return `custom:${target.question}`;
		case "questionNote":
			return `note:${target.question}`;
		case "optionNote":
			return `note:${target.question}:${target.option}`;
		case "formNote":
			return "note:form";
		case "chat":
			return "chat";
	}
}

/** The saved text the target holds now (undefined: nothing saved). */
export function savedText(state: FormState, target: EditorTarget): string | undefined {
	if (target.kind === "formNote") return state.formNote;
	if (target.kind === "chat") return state.chatMessage;
	const qs = state.questions[target.question];
	if (!qs) return undefined;
	switch (target.kind) {
		case "custom":
			return qs.customText;
		case "questionNote":
			return qs.note;
		case "optionNote":
			return qs.optionNotes[target.option];
	}
}

/**
 * The target's unsaved draft, if it holds something the saved text does not
 * (not blank, not the saved text). The one test of "is there a draft": what the
 * view marks, the review lists, Submit asks about and the result reports.
 */
export function pendingDraftText(state: FormState, target: EditorTarget): string | undefined {
	const key = draftKey(target);
	const text = Object.hasOwn(state.drafts, key) ? state.drafts[key] : undefined;
	return text !== undefined && !isBlank(text) && text !== savedText(state, target) ? text : undefined;
}

/** What the editor shows when it opens: the unsaved draft if any, else the saved text. */
export function editorPrefill(state: FormState, target: EditorTarget): string {
	return pendingDraftText(state, target) ?? savedText(state, target) ?? "";
}

export function hasDraft(state: FormState, target: EditorTarget): boolean {
	return pendingDraftText(state, target) !== undefined;
}

/** Which targets of one question hold an unsaved draft: what the question view marks. */
export interface QuestionDrafts {
	readonly custom: boolean;
	/** The free answer's draft text, shown in the detail of the "Type something…" row. */
	readonly customText: string | undefined;
	readonly questionNote: boolean;
	/** By option index. */
	readonly optionNotes: readonly boolean[];
}

export function questionDrafts(state: FormState, index: number): QuestionDrafts {
	const question = state.form.questions[index];
	// Read on every frame: most forms have no draft at all.
	if (!hasAnyKey(state.drafts)) return { custom: false, customText: undefined, questionNote: false, optionNotes: question ? question.options.map(() => false) : [] };
	const customText = pendingDraftText(state, { kind: "custom", question: index });
	return {
		custom: customText !== undefined,
		customText,
		questionNote: hasDraft(state, { kind: "questionNote", question: index }),
		optionNotes: question ? question.options.map((_, option) => hasDraft(state, { kind: "optionNote", question: index, option })) : [],
	};
}

/** The targets of the whole form, in the order their drafts are listed. */
export const FORM_TARGETS: readonly EditorTarget[] = [{ kind: "formNote" }, { kind: "chat" }];

export interface PendingDraft {
	readonly target: EditorTarget;
	readonly text: string;
}

/**
 * Every pending draft (pendingDraftText): what a submit would drop and what
 * any other ending reports. In question order; within a question the free
 * answer, the question note, then the option notes in option order; the
 * note on the whole form and the message for the chat last.
 */
export function pendingDrafts(state: FormState): PendingDraft[] {
	const pending: PendingDraft[] = [];
	state.form.questions.forEach((question, index) => {
		const targets: EditorTarget[] = [
			{ kind: "custom", question: index },
			{ kind: "questionNote", question: index },
			...question.options.map((_, option): EditorTarget => ({ kind: "optionNote", question: index, option })),
		];
		for (const target of targets) {
			const text = pendingDraftText(state, target);
			if (text !== undefined) pending.push({ target, text });
		}
	});
	for (const target of FORM_TARGETS) {
		const text = pendingDraftText(state, target);
		if (text !== undefined) pending.push({ target, text });
	}
	return pending;
}

/** What the armed Enter asks, with the confirm key's name as the user's keybindings show it. */
export function enterArmedPhrase(state: FormState, enterKey: string): Phrase | undefined {
	switch (state.enterArmed) {
		case undefined:
			return undefined;
		case "dismiss":
			return phrase("form.pressAgainToDismiss", { key: enterKey });
		case "submit":
			return phrase("form.pressAgainToSubmit", { count: pendingDrafts(state).length, key: enterKey });
	}
}

function hasAnyKey(record: Readonly<Record<string, string>>): boolean {
	for (const _ in record) return true;
	return false;
}

export function isBlank(text: string): boolean {
	return text.trim() === "";
}
