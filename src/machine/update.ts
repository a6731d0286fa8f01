/**
 * The state machine behind every UI: `update(state, action) → state`, a pure
 * function. The inline form turns keys into these actions, the dialog walker
 * turns dialog answers into them.
 *
 * No I/O, no theme, no timers, no pi-tui. The editor's text lives in the
 * shell's editor and arrives here only through editorSubmitted /
 * editorCancelled. Invariants kept here (and nowhere else):
 * - once `outcome` is set, every action returns the state unchanged;
 * - a single-select question holds at most one answer: choosing an option
 *   deselects the free answer and saving a free answer clears the option;
 * - saved texts are never blank and never longer than LIMITS.freeText; a
 *   text over the limit is refused and the editor stays open;
 * - nothing typed is dropped: Esc in the editor keeps what was typed as a
 *   draft for that target, closing the form from outside keeps the open
 *   editor's text as a draft too (never as saved: a draft replaces no
 *   answer), and no action deletes a saved text except saving a blank one
 *   over it; only a submit the user confirmed leaves drafts behind;
 * - Enter that ends the form while something would be lost asks first:
 *   Submit with unsaved drafts, the review's Cancel row;
 * - every action clears the transient message and disarms Esc and Enter,
 *   except the one that sets them.
 */

import { phrase } from "../i18n/texts.ts";
import { LIMITS } from "../types.ts";
import type { Action } from "./action.ts";
import {
	cancelRow,
	draftKey,
	type EditorTarget,
	type EnterArmed,
	type FormState,
	isAnswered,
	isBlank,
	isPending,
	isSubmitTab,
	isTextOnly,
	missingRequired,
	pendingDrafts,
	reviewRowCount,
	rowCount,
	savedText,
	submitRow,
	tabCount,
	typeRow,
} from "./model.ts";
import { onForm, whenOnQuestion, withMessage, withQuestion, withReview } from "./patch.ts";
import { page, scrollTo, withViewport } from "./scroll.ts";

export type { Action } from "./action.ts";
export { initialState } from "./model.ts";
export type * from "./model.ts";

export function update(state: FormState, action: Action): FormState {
	const next = step(state, action);
	return next !== state && !next.reviewed && isSubmitTab(next) ? { ...next, reviewed: true } : next;
}

/**
 * The actions that act on an option: choose (Enter), toggle (Space), a note
 * on it. While the focused row is out of sight they only bring it back:
 * nothing is chosen unseen. A number key that chooses counts too (one that
 * only focuses does not).
 */
const ACTS_ON_FOCUS: ReadonlySet<Action["type"]> = new Set(["choose", "toggle", "openNote"]);

function actsOnAnOption(state: FormState, action: Action): boolean {
	return ACTS_ON_FOCUS.has(action.type) || (action.type === "number" && state.numberKeys === "choose");
}

function step(before: FormState, action: Action): FormState {
	if (before.outcome !== undefined) return before;
	if (action.type === "viewport") return withViewport(before, action);
	let state = before;
	if (action.type !== "page" && state.reading) {
		state = { ...state, reading: false };
		// A key that acts on the focused option while it is scrolled out of sight only brings it back: nothing is chosen unseen.
		if (state.viewport.focusHidden && actsOnAnOption(state, action)) return state;
	}
	const base =
		state.escArmed || state.enterArmed || state.message ? { ...state, escArmed: false, enterArmed: undefined, message: undefined } : state;
	switch (action.type) {
		case "move":
			return moveFocus(base, action.delta);
		case "focus":
			return focusRow(base, action.row);
		case "number":
			return numberKey(base, action.row);
		case "choose":
			return choose(base, state.enterArmed);
		case "toggle":
			return toggle(base);
		case "switchTab":
			return goToTab(base, (base.tab + action.delta + tabCount(base)) % tabCount(base));
		case "openNote":
			return openNote(base);
		case "openQuestionNote":
			if (isSubmitTab(base)) return openEditor(base, { kind: "formNote" });
			return whenOnQuestion(base, (index) => openEditor(base, { kind: "questionNote", question: index }));
		case "openChat":
			return openEditor(base, { kind: "chat" });
		case "editorSubmitted":
			return editorSubmitted(base, action.text);
		case "editorCancelled":
			return editorCancelled(base, action.draft);
		case "page":
			return page(base, action.direction, action.lines === "line");
		case "scrollTo":
			return scrollTo(base, action.target, Math.max(0, Math.floor(action.top)));
		case "toggleHelp":
			if (base.overlay.kind === "editor") return base;
			return { ...base, overlay: base.overlay.kind === "help" ? { kind: "none" } : { kind: "help" }, helpScroll: 0 };
		case "togglePeek":
			// Only from the options (or back): an open editor or help screen stays as it is.
			if (!base.peeking && !onForm(base)) return base;
			return { ...base, peeking: !base.peeking };
		case "escape":
			return escape(state, base);
		case "skip":
			return skip(base);
		case "done":
			return done(base);
		case "abort":
			return { ...keepEditorText(base, action.editorText), outcome: "aborted" };
		case "notice":
			return withMessage(base, action.tone, action.text);
		case "otherKey":
			return base;
	}
}

// ── Focus and tabs ─────────────────────────────────────────────────────────

function moveFocus(state: FormState, delta: 1 | -1): FormState {
	if (!onForm(state)) return state;
	if (isSubmitTab(state)) {
		const rows = reviewRowCount(state);
		return withReview(state, (state.review.focus + delta + rows) % rows);
	}
	return whenOnQuestion(state, (index, question, qs) => {
		const rows = rowCount(question);
		return withQuestion(state, index, { focus: (qs.focus + delta + rows) % rows, detailScroll: 0 });
	});
}

function focusRow(state: FormState, row: number): FormState {
	if (!onForm(state)) return state;
	return whenOnQuestion(state, (index, question, qs) => {
		if (row < 0 || row >= rowCount(question) || row === qs.focus) return state;
		return withQuestion(state, index, { focus: row, detailScroll: 0 });
	});
}

/**
 * A number key: focus that row, then act on it as Enter does (Space in a
 * multi-select): an option is chosen (and the form moves on, or a
 * one-question form submits, as Enter would), "Type something…" opens the
 * editor. With numberKeys "focus" it only focuses. A number past the rows
 * does nothing.
 */
function numberKey(state: FormState, row: number): FormState {
	if (state.numberKeys === "focus") return focusRow(state, row);
	if (!onForm(state)) return state;
	return whenOnQuestion(state, (index, question, qs) => {
		if (row < 0 || row >= rowCount(question)) return state;
		const focused = row === qs.focus ? state : withQuestion(state, index, { focus: row, detailScroll: 0 });
		return question.multiSelect ? toggle(focused) : choose(focused, undefined);
	});
}

function goToTab(state: FormState, tab: number): FormState {
	if (!onForm(state) || tab < 0 || tab >= tabCount(state) || tab === state.tab) return state;
	return { ...state, tab };
}

// ── Answering ──────────────────────────────────────────────────────────────

/**
 * Enter on the focused row:
 * - after an Enter that asked for another (`armed`): confirms it, wherever
 *   the focus is (nothing happened in between: any other key disarms);
 * - review: a question row jumps to it; Submit submits; Cancel asks first;
 * - "Type something…": opens the editor;
 * - single-select option: records it and advances;
 * - multi-select option: done with the current selections (selecting the
 *   focused option first when nothing is selected), and advances.
 */
function choose(state: FormState, armed: EnterArmed | undefined): FormState {
	if (!onForm(state)) return state;
	if (armed === "submit") return trySubmit(state, true);
	if (armed === "dismiss") return { ...state, outcome: "dismissed" };
	if (isSubmitTab(state)) {
		const row = state.review.focus;
		if (row === submitRow(state)) return trySubmit(state);
		if (row === cancelRow(state)) return { ...state, enterArmed: "dismiss" };
		return goToTab(state, row);
	}
	return whenOnQuestion(state, (index, question, qs) => {
		if (qs.focus === typeRow(question)) return openEditor(state, { kind: "custom", question: index });
		if (!question.multiSelect) {
			return advance(withQuestion(state, index, { chosen: [qs.focus], customChosen: false, skipped: false }), index);
		}
		if (isAnswered(qs)) return advance(state, index);
		return advance(withQuestion(state, index, { chosen: [qs.focus], skipped: false }), index);
	});
}

/** Space on a multi-select question: toggles the option; on "Type something…" toggles the free answer (or opens the editor when there is none yet). */
function toggle(state: FormState): FormState {
	if (!onForm(state)) return state;
	return whenOnQuestion(state, (index, question, qs) => {
		if (!question.multiSelect) return state;
		if (qs.focus === typeRow(question)) {
			if (qs.customText === undefined) return openEditor(state, { kind: "custom", question: index });
			return withQuestion(state, index, { customChosen: !qs.customChosen, skipped: false });
		}
		const chosen = qs.chosen.includes(qs.focus)
			? qs.chosen.filter((o) => o !== qs.focus)
			: [...qs.chosen, qs.focus].sort((a, b) => a - b);
		return withQuestion(state, index, { chosen, skipped: false });
	});
}

function skip(state: FormState): FormState {
	if (!onForm(state)) return state;
	return whenOnQuestion(state, (index, question) => {
		if (question.required) return withMessage(state, "warning", phrase("problem.requiredCannotSkip", { header: question.header }));
		// The free text stays saved (only deselected): nothing typed is lost by skipping.
		return advance(withQuestion(state, index, { chosen: [], customChosen: false, skipped: true }), index);
	});
}

/** Answered: on to the next; nothing chosen: skipped when optional, else it says what is missing. */
function done(state: FormState): FormState {
	if (!onForm(state)) return state;
	return whenOnQuestion(state, (index, question, qs) => {
		if (isAnswered(qs)) return advance(state, index);
		if (question.required) return withMessage(state, "warning", phrase("problem.pickBeforeDone"));
		return skip(state);
	});
}

/**
 * After answering or skipping question `from`: one question submits; otherwise
 * go to the next pending question (once the review has been seen, the next
 * pending required one), else to the Submit tab with Submit focused (not the
 * row the user came back from, which would lead back to it).
 */
function advance(state: FormState, from: number): FormState {
	const count = state.form.questions.length;
	if (count === 1) return trySubmit(state);
	for (let step = 1; step < count; step++) {
		const next = (from + step) % count;
		const qs = state.questions[next];
		const required = state.form.questions[next]?.required === true;
		if (qs && isPending(qs) && (required || !state.reviewed)) return arriveAt(state, next);
	}
	return { ...withReview(state, submitRow(state)), tab: count };
}

/** Moving on to question `tab` after an answer: a text-only question opens straight into its editor. */
function arriveAt(state: FormState, tab: number): FormState {
	const question = state.form.questions[tab];
	const arrived = { ...state, tab };
	return question && isTextOnly(question) ? openEditor(arrived, { kind: "custom", question: tab }) : arrived;
}

/** Submits when every required question is answered; unsaved drafts would be dropped, so that asks first unless `confirmed`. */
function trySubmit(state: FormState, confirmed = false): FormState {
	const missing = missingRequired(state);
	const first = missing[0];
	if (first !== undefined) {
		const names = missing.map((i) => state.form.questions[i]?.header ?? `Q${i + 1}`);
		return { ...withMessage(state, "warning", phrase("problem.answerFirst", { names })), tab: first };
	}
	if (!confirmed && pendingDrafts(state).length > 0) return { ...state, enterArmed: "submit" };
	return { ...state, outcome: "answered" };
}

// ── The editor ─────────────────────────────────────────────────────────────

/** n: a note on the focused option (on "Type something…": on the question; on the Submit tab: on the whole form). */
function openNote(state: FormState): FormState {
	if (!onForm(state)) return state;
	if (isSubmitTab(state)) return openEditor(state, { kind: "formNote" });
	return whenOnQuestion(state, (index, question, qs) => {
		const target: EditorTarget =
			qs.focus < question.options.length
				? { kind: "optionNote", question: index, option: qs.focus }
				: { kind: "questionNote", question: index };
		return openEditor(state, target);
	});
}

function openEditor(state: FormState, target: EditorTarget): FormState {
	if (!onForm(state)) return state;
	return { ...state, overlay: { kind: "editor", target } };
}

function editorSubmitted(state: FormState, text: string): FormState {
	if (state.overlay.kind !== "editor") return state;
	const target = state.overlay.target;
	if (text.length > LIMITS.freeText) {
		return withMessage(state, "error", phrase("problem.tooLong", { count: text.length, limit: LIMITS.freeText }));
	}
	const saved = saveEditorText(state, text);
	// The user's words instead of the form: they end it, with the answers given so far.
	if (target.kind === "chat" && !isBlank(text)) return { ...saved, chatMessage: text, outcome: "chat" };
	if (target.kind !== "custom") return saved;
	const question = state.form.questions[target.question];
	// A free answer to a single-select question is its answer: move on, as choosing an option does.
	if (!isBlank(text) && question && !question.multiSelect) return advance(saved, target.question);
	return saved;
}

/**
 * Closes the editor with its text saved to its target: a blank text clears
 * the target. The caller has checked the length.
 */
function saveEditorText(state: FormState, text: string): FormState {
	if (state.overlay.kind !== "editor") return state;
	const target = state.overlay.target;
	const value = isBlank(text) ? undefined : text;
	const drafts: Record<string, string> = { ...state.drafts };
	delete drafts[draftKey(target)];
	const closed: FormState = { ...state, overlay: { kind: "none" }, drafts };
	if (target.kind === "formNote") return { ...closed, formNote: value };
	if (target.kind === "chat") return closed;
	const index = target.question;
	const qs = closed.questions[index];
	const question = closed.form.questions[index];
	if (!qs || !question) return closed;
	switch (target.kind) {
		case "questionNote":
			return withQuestion(closed, index, { note: value });
		case "optionNote": {
			const optionNotes = qs.optionNotes.slice();
			optionNotes[target.option] = value;
			return withQuestion(closed, index, { optionNotes });
		}
		case "custom":
			if (value === undefined) return withQuestion(closed, index, { customText: undefined, customChosen: false });
			if (question.multiSelect) return withQuestion(closed, index, { customText: value, customChosen: true, skipped: false });
			return withQuestion(closed, index, { customText: value, customChosen: true, chosen: [], skipped: false });
	}
}

/**
 * The form closes while the editor is open (abort, timeout, interrupt): what
 * was typed is kept as a draft, as Esc would keep it — never as saved, since
 * the user did not confirm it and it must not replace what they did confirm.
 * Whatever its length: the limit is for saved text.
 */
function keepEditorText(state: FormState, text: string | undefined): FormState {
	if (state.overlay.kind !== "editor" || text === undefined) return state;
	return editorCancelled(state, text);
}

function editorCancelled(state: FormState, draft: string): FormState {
	if (state.overlay.kind !== "editor") return state;
	const target = state.overlay.target;
	const key = draftKey(target);
	const drafts: Record<string, string> = { ...state.drafts };
	delete drafts[key];
	// Esc cancels: blank text, or text equal to what is saved, is no draft, and the saved text stands.
	if (!isBlank(draft) && draft !== savedText(state, target)) drafts[key] = draft;
	return { ...state, overlay: { kind: "none" }, drafts };
}

// ── Esc ────────────────────────────────────────────────────────────────────

/** Esc closes the help; on the form the first press arms, the second dismisses. `state` is before the generic disarm. */
function escape(state: FormState, base: FormState): FormState {
	if (base.overlay.kind === "help") return { ...base, overlay: { kind: "none" } };
	if (base.overlay.kind === "editor") return base;
	if (state.escArmed) return { ...base, outcome: "dismissed" };
	return { ...base, escArmed: true };
}
