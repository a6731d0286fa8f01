/**
 * The state machine behind every UI: `update(state, action) → state`, pure (no I/O, timers or pi-tui); the editor's
 * text lives in the shell and arrives only as editorSubmitted / editorCancelled. Invariants kept here (and nowhere
 * else):
 * - once `outcome` is set, every action returns the state unchanged;
 * - a single-select question holds at most one answer: choosing an option deselects the free answer, saving one clears
 *   the option;
 *   "You decide" holds alone, in any question: it clears every choice, and any choice or skip clears it;
 * - saved texts are never blank and never longer than LIMITS.freeText; a text over the limit is refused and the editor
 *   stays open;
 * - nothing typed is dropped: Esc in the editor keeps what was typed as a draft for that target (unless blank or what
 *   is saved), closing the form from outside keeps the open editor's text as a draft too (never as saved: a draft
 *   replaces no answer), and no action deletes a saved text except saving a blank one over it; only a submit the user
 *   confirmed leaves drafts behind;
 * - Enter that ends the form while something would be lost asks first: Submit with unsaved drafts, the review's Cancel
 *   row;
 * - every action clears the transient message and disarms Esc and Enter, except the one that sets them;
 * - nothing is chosen unseen: while PageUp/PageDown has scrolled the focused row out of sight, a key that acts on it
 *   only brings it back.
 */

import { LIMITS, phrase } from "../core/types.ts";
import type { Action } from "./action.ts";
import { attach, attachmentsOf, detach } from "./attach.ts";
import { page, scrollTo, withViewport } from "./scroll.ts";
import {
	cancelRow,
	currentQuestion,
	decideRow,
	draftKey,
	hasTabs,
	isAnswered,
	isSubmitTab,
	missingRequired,
	onTypeRow,
	pendingDrafts,
	rowCount,
	savedText,
	submitRow,
	typeRow,
	withQuestion,
} from "./model.ts";
import type { EditorTarget, FormState } from "./model.ts";

export type { Action } from "./action.ts";
export { initialState } from "./model.ts";

export function update(state: FormState, action: Action): FormState {
	const next = step(state, action);
	return next !== state && !next.reviewed && isSubmitTab(next) ? { ...next, reviewed: true } : next;
}

/** What acts only on the options: nothing while the help screen or the editor is over them. */
const ON_OPTIONS: ReadonlySet<Action["type"]> = new Set([
	"move",
	"focus",
	"number",
	"choose",
	"write",
	"toggle",
	"switchTab",
	"openNote",
	"openQuestionNote",
	"openChat",
	"skip",
	"done",
]);
/** What acts on the focused option (and a number key that chooses). */
const ON_FOCUS: ReadonlySet<Action["type"]> = new Set(["choose", "toggle", "openNote"]);

function step(before: FormState, action: Action): FormState {
	if (before.outcome !== undefined) return before;
	if (action.type === "viewport") return withViewport(before, action);
	let state = before;
	if (action.type !== "page" && state.reading) {
		state = { ...state, reading: false };
		const onFocus = ON_FOCUS.has(action.type) || (action.type === "number" && state.numberKeys === "choose");
		if (state.viewport.focusHidden && onFocus) return state;
	}
	const base =
		state.escArmed || state.enterArmed || state.message
			? { ...state, escArmed: false, enterArmed: undefined, message: undefined }
			: state;
	if (ON_OPTIONS.has(action.type) && base.overlay.kind !== "none") return base;
	switch (action.type) {
		case "move":
			return move(base, action.delta);
		case "focus":
			return focusRow(base, action.row);
		case "number":
			return numberKey(base, action.row);
		case "choose":
			return choose(base, state.enterArmed);
		case "write":
			return onTypeRow(base) ? openEditor(base, { kind: "custom", question: base.tab }) : base;
		case "toggle":
			return toggle(base);
		case "switchTab": {
			const tabs = hasTabs(base) ? base.form.questions.length + 1 : 1;
			const tab = (base.tab + action.delta + tabs) % tabs;
			return tab === base.tab ? base : { ...base, tab };
		}
		case "openNote":
			return openNote(base);
		case "openQuestionNote":
			return openEditor(base, isSubmitTab(base) ? { kind: "formNote" } : { kind: "questionNote", question: base.tab });
		case "openChat":
			return openEditor(base, { kind: "chat" });
		case "editorSubmitted":
			return editorSubmitted(base, action.text);
		case "editorCancelled":
			return editorCancelled(base, action.draft);
		case "attach":
			return attach(base, action.attachment);
		case "detach":
			return detach(base);
		case "page":
			return page(base, action.direction, action.lines === "line");
		case "scrollTo":
			return scrollTo(base, action.target, Math.max(0, Math.floor(action.top)));
		case "toggleHelp":
			if (base.overlay.kind === "editor") return base;
			return { ...base, overlay: base.overlay.kind === "help" ? { kind: "none" } : { kind: "help" }, helpScroll: 0 };
		case "togglePeek":
			// Only from the options (or back): an open editor or help screen stays as it is.
			return base.peeking || base.overlay.kind === "none" ? { ...base, peeking: !base.peeking } : base;
		case "escape":
			// Esc closes the help; on the options the first press arms, the second dismisses.
			if (base.overlay.kind === "help") return { ...base, overlay: { kind: "none" } };
			if (base.overlay.kind === "editor") return base;
			return state.escArmed ? { ...base, outcome: "dismissed" } : { ...base, escArmed: true };
		case "skip":
			return skip(base);
		case "done":
			return done(base);
		case "abort":
			// The open editor stays open in the final state: a form that comes back after pi stopped opens as it was
			// (machine/saved.ts).
			return {
				...(action.editorText === undefined ? base : editorCancelled(base, action.editorText)),
				overlay: base.overlay,
				outcome: "aborted",
			};
		case "notice":
			return { ...base, message: { tone: action.tone, text: action.text } };
		case "otherKey":
			return base;
	}
}

// ── Focus and tabs ─────────────────────────────────────────────────────────

function move(state: FormState, delta: 1 | -1): FormState {
	if (isSubmitTab(state)) {
		const rows = cancelRow(state) + 1;
		return { ...state, review: { ...state.review, focus: (state.review.focus + delta + rows) % rows } };
	}
	const at = currentQuestion(state);
	if (!at) return state;
	const rows = rowCount(state, at.index);
	return withQuestion(state, at.index, { focus: (at.qs.focus + delta + rows) % rows, detailScroll: 0 });
}

function focusRow(state: FormState, row: number): FormState {
	const at = currentQuestion(state);
	if (!at || row < 0 || row >= rowCount(state, at.index) || row === at.qs.focus) return state;
	return withQuestion(state, at.index, { focus: row, detailScroll: 0 });
}

/**
 * A number key: focus that row, then act on it as Enter does (Space in a multi-select); with numberKeys "focus" only
 * focus. Past the rows: nothing.
 */
function numberKey(state: FormState, row: number): FormState {
	const at = currentQuestion(state);
	if (state.numberKeys === "focus" || !at) return focusRow(state, row);
	if (row < 0 || row >= rowCount(state, at.index)) return state;
	const focused = focusRow(state, row);
	return at.question.multiSelect ? toggle(focused) : choose(focused, undefined);
}

// ── Answering ──────────────────────────────────────────────────────────────

/**
 * Enter on the focused row: confirms an Enter that asked for another (`armed`; any other key disarms), wherever the
 * focus; on the review a question row jumps to it, Submit submits, Cancel asks first; "Type something…" opens the
 * editor; an option is chosen and the form advances (in a multi-select: with what is chosen, the focused option if
 * nothing is).
 */
function choose(state: FormState, armed: FormState["enterArmed"]): FormState {
	if (armed === "submit") return trySubmit(state, true);
	if (armed === "dismiss") return { ...state, outcome: "dismissed" };
	const at = currentQuestion(state);
	if (!at) {
		const row = state.review.focus;
		if (row === submitRow(state)) return trySubmit(state);
		return row === cancelRow(state) ? { ...state, enterArmed: "dismiss" } : { ...state, tab: row };
	}
	const { index, question, qs } = at;
	if (qs.focus === typeRow(question)) return openEditor(state, { kind: "custom", question: index });
	if (qs.focus === decideRow(state, index)) return advance(withQuestion(state, index, DELEGATED), index);
	if (question.multiSelect && isAnswered(qs)) return advance(state, index);
	return advance(withQuestion(state, index, { ...ANSWERED, chosen: [qs.focus], customChosen: false }), index);
}

/** "You decide" is an answer of its own: nothing chosen beside it, and any other answer clears it. */
const DELEGATED = { chosen: [], customChosen: false, skipped: false, delegated: true } as const;
const ANSWERED = { skipped: false, delegated: false } as const;

/**
 * Space on a multi-select question: toggles the option; on "Type something…" the free answer (or opens the editor when
 * there is none yet).
 */
function toggle(state: FormState): FormState {
	const at = currentQuestion(state);
	if (!at?.question.multiSelect) return state;
	const { index, question, qs } = at;
	if (qs.focus === typeRow(question)) {
		if (qs.customText === undefined) return openEditor(state, { kind: "custom", question: index });
		return withQuestion(state, index, { ...ANSWERED, customChosen: !qs.customChosen });
	}
	if (qs.focus === decideRow(state, index))
		return withQuestion(state, index, qs.delegated ? { delegated: false } : DELEGATED);
	const chosen = qs.chosen.includes(qs.focus)
		? qs.chosen.filter((o) => o !== qs.focus)
		: [...qs.chosen, qs.focus].sort((a, b) => a - b);
	return withQuestion(state, index, { ...ANSWERED, chosen });
}

function skip(state: FormState): FormState {
	const at = currentQuestion(state);
	if (!at) return state;
	if (at.question.required)
		return {
			...state,
			message: { tone: "warning", text: phrase("problem.requiredCannotSkip", { header: at.question.header }) },
		};
	// The free text stays saved (only deselected): nothing typed is lost by skipping.
	return advance(
		withQuestion(state, at.index, { chosen: [], customChosen: false, skipped: true, delegated: false }),
		at.index,
	);
}

/** Answered: on to the next; nothing chosen: skipped when optional, else it says what is missing. */
function done(state: FormState): FormState {
	const at = currentQuestion(state);
	if (!at) return state;
	if (isAnswered(at.qs)) return advance(state, at.index);
	return at.question.required
		? { ...state, message: { tone: "warning", text: phrase("problem.pickBeforeDone") } }
		: skip(state);
}

/**
 * After answering or skipping `from`: one question submits; else the next question neither answered nor skipped (once
 * reviewed, only required ones; a text-only one opens its editor), else the Submit tab with Submit focused (not the row
 * that led back here).
 */
function advance(state: FormState, from: number): FormState {
	const count = state.form.questions.length;
	if (count === 1) return trySubmit(state);
	for (let step = 1; step < count; step++) {
		const tab = (from + step) % count;
		const qs = state.questions[tab];
		const question = state.form.questions[tab];
		if (!qs || !question || isAnswered(qs) || qs.skipped || (!question.required && state.reviewed)) continue;
		return question.options.length === 0
			? openEditor({ ...state, tab }, { kind: "custom", question: tab })
			: { ...state, tab };
	}
	return { ...state, tab: count, review: { ...state.review, focus: submitRow(state) } };
}

/**
 * Submits when every required question is answered; unsaved drafts would be dropped, so that asks first unless
 * `confirmed`.
 */
function trySubmit(state: FormState, confirmed = false): FormState {
	const missing = missingRequired(state);
	if (missing[0] !== undefined) {
		const names = missing.map((i) => state.form.questions[i]?.header ?? `Q${i + 1}`);
		return { ...state, tab: missing[0], message: { tone: "warning", text: phrase("problem.answerFirst", { names }) } };
	}
	if (!confirmed && pendingDrafts(state).length > 0) return { ...state, enterArmed: "submit" };
	return { ...state, outcome: "answered" };
}

// ── The editor ─────────────────────────────────────────────────────────────

/** n: a note on the focused option (on "Type something…": on the question; on the Submit tab: on the whole form). */
function openNote(state: FormState): FormState {
	const at = currentQuestion(state);
	if (!at) return openEditor(state, { kind: "formNote" });
	const { index, question, qs } = at;
	return openEditor(
		state,
		qs.focus < question.options.length
			? { kind: "optionNote", question: index, option: qs.focus }
			: { kind: "questionNote", question: index },
	);
}

const openEditor = (state: FormState, target: EditorTarget): FormState => ({
	...state,
	overlay: { kind: "editor", target },
});

function editorSubmitted(state: FormState, text: string): FormState {
	if (state.overlay.kind !== "editor") return state;
	const target = state.overlay.target;
	if (text.length > LIMITS.freeText)
		return {
			...state,
			message: { tone: "error", text: phrase("problem.tooLong", { count: text.length, limit: LIMITS.freeText }) },
		};
	const blank = text.trim() === "";
	// A blank save over a target with files would leave them with no words: the state says so instead.
	if (blank && attachmentsOf(state, target).length > 0)
		return { ...state, message: { tone: "warning", text: phrase("attach.needsText") } };
	const saved = save(closeEditor(state, target), target, blank ? undefined : text);
	if (blank) return saved;
	// The user's words instead of the form: they end it, with the answers given so far.
	if (target.kind === "chat") return { ...saved, chatMessage: text, outcome: "chat" };
	// A free answer to a single-select question is its answer: move on, as choosing an option does.
	if (target.kind === "custom" && state.form.questions[target.question]?.multiSelect === false)
		return advance(saved, target.question);
	return saved;
}

/** The target's saved text set to `value`; undefined clears it (the free answer is then deselected too). */
function save(state: FormState, target: EditorTarget, value: string | undefined): FormState {
	switch (target.kind) {
		case "chat":
			return state;
		case "formNote":
		case "questionNote":
		case "optionNote": {
			const notes: Record<string, string> = { ...state.notes };
			delete notes[draftKey(target)];
			if (value !== undefined) notes[draftKey(target)] = value;
			return { ...state, notes };
		}
		case "custom": {
			if (value === undefined)
				return withQuestion(state, target.question, { customText: undefined, customChosen: false });
			const single = state.form.questions[target.question]?.multiSelect === false;
			return withQuestion(state, target.question, {
				...ANSWERED,
				customText: value,
				customChosen: true,
				...(single && { chosen: [] }),
			});
		}
	}
}

/**
 * Esc in the editor, or the form closing while it is open: what was typed stays a draft, whatever its length (the limit
 * is for saved text).
 */
const editorCancelled = (state: FormState, draft: string): FormState =>
	state.overlay.kind === "editor" ? closeEditor(state, state.overlay.target, draft) : state;

/** Closes the editor; `draft`, unless blank or what is saved, stays as the target's draft. */
function closeEditor(state: FormState, target: EditorTarget, draft?: string): FormState {
	const key = draftKey(target);
	const drafts: Record<string, string> = { ...state.drafts };
	delete drafts[key];
	if (draft !== undefined && draft.trim() !== "" && draft !== savedText(state, target)) drafts[key] = draft;
	return { ...state, overlay: { kind: "none" }, drafts };
}
