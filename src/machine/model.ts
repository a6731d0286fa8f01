/**
 * The state of one ask as a plain value, read by both shells and every view; what can be derived (answered?, can
 * submit?) is a function, never a field, so it cannot go stale.
 */

import {
	type AskForm,
	type AskOptions,
	type AskQuestion,
	type NumberKeys,
	type Phrase,
	phrase,
} from "../core/types.ts";
import type { AskAttachment } from "../core/attachment.ts";

/**
 * What the one editor is editing: a question's free answer or a note, the note on the whole form (the Submit tab's), or
 * a message for the chat instead of the form (saving it ends the form).
 */
export type EditorTarget =
	| { kind: "custom"; question: number }
	| { kind: "questionNote"; question: number }
	| { kind: "optionNote"; question: number; option: number }
	| { kind: "formNote" }
	| { kind: "chat" };

export function isQuestionTarget(target: EditorTarget): target is Exclude<EditorTarget, { kind: "formNote" | "chat" }> {
	return target.kind !== "formNote" && target.kind !== "chat";
}

/** A note: on a question, on an option, on the whole form. */
export const isNoteTarget = (target: EditorTarget): boolean =>
	target.kind === "questionNote" || target.kind === "optionNote" || target.kind === "formNote";

/** At most one thing sits over the options: the help screen or the editor. */
export type Overlay = { kind: "none" } | { kind: "help" } | { kind: "editor"; target: EditorTarget };

/** The scrollable regions: the whole body, the detail pane (preview), the help screen. */
export type ScrollTarget = "body" | "detail" | "help";

/**
 * A scrollable region as the view last drew it; PageUp/PageDown are resolved against it, so the state never stores an
 * offset the view would clamp again and again.
 */
export type ScrollPort = {
	readonly target: ScrollTarget;
	readonly top: number;
	readonly min: number;
	readonly max: number;
	readonly page: number;
};

/**
 * Layout facts the rules need, from the view's last drawing: they reach the state as data (the `viewport` action),
 * never by a side channel. `ports`: in the order PageDown tries them, the page, then the detail pane inside it;
 * `focusHidden`: the focused option is off screen, as drawn.
 */
export type Viewport = { readonly ports: readonly ScrollPort[]; readonly focusHidden: boolean };

/** `text` is in no language yet: the view says it in the user's. */
export type FormMessage = { tone: "warning" | "error"; text: Phrase };

export interface QuestionState {
	/** Focused row: the options in order, then the "Type something…" row, then the "You decide" row. */
	readonly focus: number;
	/** Chosen option indices, ascending. At most one on a single-select question. */
	readonly chosen: readonly number[];
	/** The saved free answer. Never blank: blank text means "no free answer". */
	readonly customText: string | undefined;
	/** The free answer counts as (one of) the answer(s). Implies customText. */
	readonly customChosen: boolean;
	/** The user skipped this optional question with `s`. Cleared by answering it. */
	readonly skipped: boolean;
	/** Left to the model ("You decide"): an answer of its own, so nothing is chosen beside it. */
	readonly delegated: boolean;
	/** Requested first body line; the view clamps it so the focused row stays visible. */
	readonly scroll: number;
	/** Requested first line of the detail pane; back to 0 when the focus moves. */
	readonly detailScroll: number;
}

export interface FormState {
	readonly form: AskForm;
	/** The user's setting, fixed for the life of the form. */
	readonly numberKeys: NumberKeys;
	/** Per question: it has the "You decide" row (`delegable`). */
	readonly delegable: readonly boolean[];
	readonly questions: readonly QuestionState[];
	/** 0..n-1: a question; n: the Submit tab (only when there are two or more questions). */
	readonly tab: number;
	/** The Submit tab's rows: one per question, then Submit, then Cancel. */
	readonly review: { readonly focus: number; readonly scroll: number };
	/**
	 * The saved notes by draftKey(target): on a question, on an option, on the whole form (the Submit tab's). Never
	 * blank. A note, its draft and its files share one key.
	 */
	readonly notes: Readonly<Record<string, string>>;
	/** The user's message instead of the form; set with outcome "chat". */
	readonly chatMessage: string | undefined;
	readonly overlay: Overlay;
	/**
	 * Folded to one line so the conversation above can be read; everything else is kept as it was and comes back with it.
	 */
	readonly peeking: boolean;
	readonly helpScroll: number;
	/**
	 * PageUp/PageDown moved the body and no other key came since: it shows what was scrolled to, even without the focused
	 * row; any other key brings that back.
	 */
	readonly reading: boolean;
	readonly viewport: Viewport;
	/**
	 * What was typed in the editor and not saved, by draftKey(target): never blank, never the saved text (update.ts keeps
	 * this).
	 */
	readonly drafts: Readonly<Record<string, string>>;
	/**
	 * Files attached to a free answer or a note, by draftKey(target), in the order attached; never an empty list. They go
	 * with the target's saved text (machine/attach.ts keeps the limits).
	 */
	readonly attachments: Readonly<Record<string, readonly AskAttachment[]>>;
	/**
	 * The Submit tab has been shown: from then on, answering moves on to the required questions still missing (not the
	 * optional ones the review listed as skipped), else back to Submit.
	 */
	readonly reviewed: boolean;
	/** Esc was pressed once on the form; the next Esc dismisses, any other key disarms. */
	readonly escArmed: boolean;
	/**
	 * Enter asked for a second Enter: a submit would drop drafts, or the review's Cancel row; the next Enter confirms,
	 * any other key disarms.
	 */
	readonly enterArmed: "submit" | "dismiss" | undefined;
	/** A transient message; the next action clears it. */
	readonly message: FormMessage | undefined;
	/** Set once; after it, the state never changes again. */
	readonly outcome: "answered" | "dismissed" | "aborted" | "chat" | undefined;
}

/** What a form takes from its options: the number keys, and which questions can be left to the model. */
export type FormSetup = Pick<AskOptions, "numberKeys" | "youDecide" | "replyVersion">;

/** Per question, whether it has "You decide": relay v1 can only skip, so a v1 child's required questions have none. */
export const delegable = (form: AskForm, { youDecide, replyVersion }: FormSetup = {}): boolean[] =>
	form.questions.map((q) => youDecide !== false && (replyVersion !== 1 || !q.required));

export function initialState(form: AskForm, setup: FormSetup = {}): FormState {
	const blank = (): QuestionState => ({
		focus: 0,
		chosen: [],
		customText: undefined,
		customChosen: false,
		skipped: false,
		delegated: false,
		scroll: 0,
		detailScroll: 0,
	});
	// A question without options (text only) opens straight into its editor.
	const overlay: Overlay =
		form.questions[0]?.options.length === 0
			? { kind: "editor", target: { kind: "custom", question: 0 } }
			: { kind: "none" };
	return {
		form,
		numberKeys: setup.numberKeys ?? "choose",
		delegable: delegable(form, setup),
		questions: form.questions.map(blank),
		tab: 0,
		review: { focus: form.questions.length, scroll: 0 },
		notes: {},
		chatMessage: undefined,
		overlay,
		peeking: false,
		helpScroll: 0,
		reading: false,
		viewport: { ports: [], focusHidden: false },
		drafts: {},
		attachments: {},
		reviewed: false,
		escArmed: false,
		enterArmed: undefined,
		message: undefined,
		outcome: undefined,
	};
}

// ── Shape of the form ──────────────────────────────────────────────────────

/** One question: no tab bar, no Submit tab. */
export const hasTabs = (state: FormState): boolean => state.form.questions.length > 1;
export const isSubmitTab = (state: FormState): boolean => hasTabs(state) && state.tab === state.form.questions.length;

/** The question on the current tab, or undefined on the Submit tab. */
export function currentQuestion(
	state: FormState,
): { question: AskQuestion; qs: QuestionState; index: number } | undefined {
	const question = state.form.questions[state.tab];
	const qs = state.questions[state.tab];
	return question && qs ? { question, qs, index: state.tab } : undefined;
}

/** The state with question `index`'s state patched; the same state when there is no such question. */
export function withQuestion(state: FormState, index: number, patch: Partial<QuestionState>): FormState {
	const questions = state.questions.slice();
	const qs = questions[index];
	if (!qs) return state;
	questions[index] = { ...qs, ...patch };
	return { ...state, questions };
}

/** The "Type something…" row, or -1 when the question has none. */
export const typeRow = (question: AskQuestion): number => (question.allowOther ? question.options.length : -1);
/** The "You decide" row of question `index`, last, or -1 when it has none. */
export const decideRow = (state: FormState, index: number): number =>
	state.delegable[index] ? rowCount(state, index) - 1 : -1;
export function rowCount(state: FormState, index: number): number {
	const question = state.form.questions[index];
	const rows = (question?.options.length ?? 0) + (question?.allowOther ? 1 : 0);
	return rows + (state.delegable[index] ? 1 : 0);
}
/** The focus is on a question's "Type something…" row. */
export function onTypeRow(state: FormState): boolean {
	const at = currentQuestion(state);
	return at !== undefined && at.qs.focus === typeRow(at.question);
}

/** The review's Submit row; the Cancel row follows it. */
export const submitRow = (state: FormState): number => state.form.questions.length;
export const cancelRow = (state: FormState): number => state.form.questions.length + 1;

// ── Answers ────────────────────────────────────────────────────────────────

/** Answered, or left to the model (which counts as an answer for Submit; collect tells them apart). */
export const isAnswered = (qs: QuestionState): boolean =>
	qs.delegated || qs.chosen.length > 0 || (qs.customChosen && qs.customText !== undefined);
export const answeredCount = (state: FormState): number => state.questions.filter(isAnswered).length;

/** Indices of required questions without an answer: what blocks Submit. */
export function missingRequired(state: FormState): number[] {
	return state.form.questions.flatMap((question, i) => {
		const qs = state.questions[i];
		return question.required && qs && !isAnswered(qs) ? [i] : [];
	});
}

export const canSubmit = (state: FormState): boolean => missingRequired(state).length === 0;

// ── The editor's texts ─────────────────────────────────────────────────────

/** The key of a target's draft: its kind and where it is ("optionNote:0:2"). */
export function draftKey(target: EditorTarget): string {
	if (!isQuestionTarget(target)) return target.kind;
	return target.kind === "optionNote"
		? `optionNote:${target.question}:${target.option}`
		: `${target.kind}:${target.question}`;
}

/** The saved text the target holds now (undefined: nothing saved). */
export function savedText(state: FormState, target: EditorTarget): string | undefined {
	if (target.kind === "chat") return state.chatMessage;
	if (target.kind === "custom") return state.questions[target.question]?.customText;
	return textAt(state.notes, target);
}

/** The text a map by draftKey holds for `target` (its own entries only). */
const textAt = (texts: Readonly<Record<string, string>>, target: EditorTarget): string | undefined => {
	const key = draftKey(target);
	return Object.hasOwn(texts, key) ? texts[key] : undefined;
};

/** The target's unsaved draft: what the view marks, the review lists, Submit asks about and the result reports. */
const draftText = (state: FormState, target: EditorTarget): string | undefined => textAt(state.drafts, target);

/** What the editor shows when it opens: the unsaved draft if any, else the saved text. */
export const editorPrefill = (state: FormState, target: EditorTarget): string =>
	draftText(state, target) ?? savedText(state, target) ?? "";

/**
 * Which targets of one question hold an unsaved draft (what the question view marks): the free answer's text, shown in
 * the detail of the "Type something…" row; the notes'.
 */
export type QuestionDrafts = {
	readonly customText: string | undefined;
	readonly questionNote: boolean;
	readonly optionNotes: readonly boolean[];
};

/** One question's saved notes (what its views show): on the question, per option by index. */
export type QuestionNotes = {
	readonly note: string | undefined;
	readonly optionNotes: readonly (string | undefined)[];
};

/**
 * Per map of texts (a state's `drafts` and `notes` are replaced, never changed), what each question makes of it: the
 * same value for as long as the map is the same, so a view can keep what it drew from it.
 */
function perQuestion<T>(): (texts: object, index: number, make: () => T) => T {
	const cache = new WeakMap<object, T[]>();
	return (texts, index, make) => {
		let kept = cache.get(texts);
		if (!kept) cache.set(texts, (kept = []));
		return (kept[index] ??= make());
	};
}
const draftsCache = perQuestion<QuestionDrafts>();
const notesCache = perQuestion<QuestionNotes>();

const optionsOf = (state: FormState, index: number) => state.form.questions[index]?.options ?? [];

export const questionDrafts = (state: FormState, index: number): QuestionDrafts =>
	draftsCache(state.drafts, index, () => ({
		customText: draftText(state, { kind: "custom", question: index }),
		questionNote: draftText(state, { kind: "questionNote", question: index }) !== undefined,
		optionNotes: optionsOf(state, index).map(
			(_, option) => draftText(state, { kind: "optionNote", question: index, option }) !== undefined,
		),
	}));

export const questionNotes = (state: FormState, index: number): QuestionNotes =>
	notesCache(state.notes, index, () => ({
		note: textAt(state.notes, { kind: "questionNote", question: index }),
		optionNotes: optionsOf(state, index).map((_, option) =>
			textAt(state.notes, { kind: "optionNote", question: index, option }),
		),
	}));

export type PendingDraft = { readonly target: EditorTarget; readonly text: string };

/**
 * Every editor target of `form`, in the result's order: per question its free answer, its note, its options' notes;
 * then the form's note, the chat.
 */
export function formTargets(form: AskForm): EditorTarget[] {
	return [
		...form.questions.flatMap((question, index): EditorTarget[] => [
			{ kind: "custom", question: index },
			{ kind: "questionNote", question: index },
			...question.options.map((_, option): EditorTarget => ({ kind: "optionNote", question: index, option })),
		]),
		{ kind: "formNote" },
		{ kind: "chat" },
	];
}

/** Where a target's text and files go in the result: the scope of an AskDraft, an AskAttached, an AskNote. */
export type Place = { kind: "answer" | "note" | "chat"; questionId?: string; option?: string };

export function placeOf(form: AskForm, target: EditorTarget): Place {
	if (!isQuestionTarget(target)) return { kind: target.kind === "chat" ? "chat" : "note" };
	const question = form.questions[target.question] as AskQuestion;
	const kind = target.kind === "custom" ? "answer" : "note";
	if (target.kind !== "optionNote") return { kind, questionId: question.id };
	return { kind, questionId: question.id, option: question.options[target.option]?.label };
}

/** Every unsaved draft (what a submit drops, any other ending reports), in formTargets' order. */
export function pendingDrafts(state: FormState): PendingDraft[] {
	if (Object.keys(state.drafts).length === 0) return [];
	return formTargets(state.form).flatMap((target) => {
		const text = draftText(state, target);
		return text === undefined ? [] : [{ target, text }];
	});
}

/** What the armed Enter asks, with the confirm key's name as the user's keybindings show it. */
export function enterArmedPhrase(state: FormState, enterKey: string): Phrase | undefined {
	if (state.enterArmed === "dismiss") return phrase("form.pressAgainToDismiss", { key: enterKey });
	if (state.enterArmed === "submit")
		return phrase("form.pressAgainToSubmit", { count: pendingDrafts(state).length, key: enterKey });
	return undefined;
}
