/**
 * The random-key run of keys.test.ts: random key sequences on random
 * valid forms, through the REAL component with pi-tui's real Editor, at random
 * widths 1–240 with resizes in between. After every key:
 * - the state machine's invariants hold;
 * - the component and an independent model of the keys (answer-model.ts)
 *   agree on the tab, the overlay, the armed Esc, focus, choices and skips;
 * - every rendered line fits the width and the form fits its height budget.
 * At the end `done` has been called exactly once (after the outcome, or after
 * abort) and never again whatever follows, and what the form returned equals
 * what the model says the keys chose.
 */

import { CURSOR_MARKER, visibleWidth } from "@mariozechner/pi-tui";
import fc from "fast-check";
import { expect, test } from "vitest";
import { AskFormComponent } from "../../../src/form/component.ts";
import { formHeight } from "../../../src/form/height.ts";
import { commandForKey } from "../../../src/form/keymap.ts";
import { draftKey, type FormState, formTargets, isNoteTarget } from "../../../src/machine/model.ts";
import type { AskForm, Collected } from "../../../src/core/types.ts";
import { LIMITS } from "../../../src/core/types.ts";
import { quietTui } from "../../form/fake-terminal.ts";
import { colourTheme, piKeybindings, plainTheme } from "../../form/support.ts";

// A number key chooses here (the default numberKeys setting), so it acts on an option too.
const ACTS_ON_FOCUS: readonly string[] = ["choose", "toggle", "openNote", "number"];
import { arbAskForm } from "../../support/arbitraries.ts";
import { AnswerModel, isEditorSafe, PASTE_END, PASTE_START, RAW } from "./answer-model.ts";

const paste = (text: string) => `${PASTE_START}${text}${PASTE_END}`;

export const arbKey: fc.Arbitrary<string> = fc.oneof(
	{ weight: 10, arbitrary: fc.constantFrom(RAW.up, RAW.down, "j", "k", RAW.left, RAW.right, RAW.tab, RAW.shiftTab) },
	{ weight: 8, arbitrary: fc.constant(RAW.enter) },
	{ weight: 3, arbitrary: fc.constantFrom(RAW.space, "1", "2", "3", "4", "5", "6", "9", "0") },
	{ weight: 3, arbitrary: fc.constantFrom("n", "N", "s", "c", "p", "?", RAW.pageUp, RAW.pageDown) },
	{
		weight: 6,
		arbitrary: fc.constantFrom(
			"a",
			"word ",
			"中文",
			"🚀",
			"👨‍👩‍👧",
			"é",
			"\\",
			"  ",
			RAW.backspace,
			RAW.backspace,
			RAW.shiftEnter,
			"x".repeat(90),
		),
	},
	{ weight: 1, arbitrary: fc.constantFrom(paste("pasted\r\n\ttext 中文"), paste("two\nlines"), paste("   ")) },
	{ weight: 3, arbitrary: fc.constant(RAW.escape) },
	{ weight: 1, arbitrary: fc.constantFrom(RAW.ctrlC, "\x1b[1;5A", "\x1b[2J", "q") },
);

export interface Step {
	key: string;
	/** A resize before the key: new columns, new rows. */
	resize: [number, number] | null;
}

export const arbStep: fc.Arbitrary<Step> = fc.record({
	key: arbKey,
	resize: fc.option(fc.tuple(fc.integer({ min: 1, max: 240 }), fc.integer({ min: 1, max: 60 })), { freq: 24 }),
});

interface Run {
	steps: Step[];
	columns: number;
	rows: number;
	coloured: boolean;
}

const arbRun = (columns: { min: number; max: number }): fc.Arbitrary<Run> =>
	fc.record({
		steps: fc.array(arbStep, { maxLength: 24 }),
		columns: fc.integer(columns),
		rows: fc.integer({ min: 1, max: 60 }),
		coloured: fc.boolean(),
	});

/**
 * The property: one random form, two independent key sequences on it — one
 * starting on a narrow terminal (1–80 columns, where layouts break first), one
 * on a wide one (81–240, the side-by-side detail pane). Two sequences per form
 * halve the time spent generating forms.
 */
export function randomKeysProperty() {
	return fc.property(arbAskForm(), arbRun({ min: 1, max: 80 }), arbRun({ min: 81, max: 240 }), (form, narrow, wide) => {
		for (const run of [narrow, wide]) runSequence(form, run.steps, run.columns, run.rows, run.coloured);
	});
}

/** The state machine's invariants (src/machine/update.ts header, model.ts field docs), checked from outside. */
function checkInvariants(state: FormState, previous: FormState | undefined): void {
	const count = state.form.questions.length;
	const tabs = count > 1 ? count + 1 : 1;
	if (previous?.outcome !== undefined && state.outcome !== previous.outcome)
		throw new Error(`outcome changed from ${previous.outcome} to ${state.outcome}`);
	if (state.tab < 0 || state.tab >= tabs) throw new Error(`tab ${state.tab} outside 0..${tabs - 1}`);
	if (state.review.focus < 0 || state.review.focus >= count + 2) throw new Error(`review focus ${state.review.focus}`);
	const text = (what: string, value: string | undefined) => {
		if (value === undefined) return;
		if (value.trim() === "") throw new Error(`${what} is blank`);
		if (value.length > LIMITS.freeText) throw new Error(`${what} is ${value.length} units long`);
	};
	state.form.questions.forEach((question, i) => {
		const qs = state.questions[i]!;
		// The options, "Type something…", "You decide".
		const rows = question.options.length + (question.allowOther ? 1 : 0) + 1;
		if (qs.focus < 0 || qs.focus >= rows) throw new Error(`question ${i}: focus ${qs.focus} outside 0..${rows - 1}`);
		const chosen = [...qs.chosen];
		if (chosen.some((o, k) => o < 0 || o >= question.options.length || (k > 0 && o <= chosen[k - 1]!))) {
			throw new Error(`question ${i}: chosen ${JSON.stringify(chosen)} not ascending, unique option indices`);
		}
		if (!question.multiSelect && chosen.length + (qs.customChosen ? 1 : 0) > 1)
			throw new Error(`question ${i}: single-select holds two answers`);
		if (qs.customChosen && qs.customText === undefined)
			throw new Error(`question ${i}: free answer chosen without text`);
		if (qs.skipped && (chosen.length > 0 || qs.customChosen)) throw new Error(`question ${i}: skipped yet answered`);
		if (qs.delegated && (chosen.length > 0 || qs.customChosen || qs.skipped))
			throw new Error(`question ${i}: left to the model, yet chosen or skipped`);
		text(`question ${i} free text`, qs.customText);
	});
	// Each note on a note of this form (a question, an option, the whole form), keyed as its draft is.
	const notes = new Set(formTargets(state.form).filter(isNoteTarget).map(draftKey));
	for (const [key, note] of Object.entries(state.notes)) {
		if (!notes.has(key)) throw new Error(`a note at ${key}, no note of this form`);
		text(`note ${key}`, note);
	}
	if (state.overlay.kind === "editor") {
		const target = state.overlay.target;
		if (target.kind === "chat") return;
		if (target.kind === "formNote") {
			if (state.tab !== state.form.questions.length)
				throw new Error("the note on the whole form opened off the Submit tab");
			return;
		}
		const question = state.form.questions[target.question];
		if (!question) throw new Error(`editor on question ${target.question}`);
		if (target.kind === "optionNote" && (target.option < 0 || target.option >= question.options.length))
			throw new Error(`editor on option ${target.option}`);
		if (target.kind === "custom" && !question.allowOther) throw new Error("free-text editor on a question without it");
	}
}

/** The model and the component agree on everything the model knows. */
function checkAgainstModel(state: FormState, model: AnswerModel, where: string): void {
	const differ = (what: string, actual: unknown, expected: unknown) => {
		throw new Error(`${where}: ${what} is ${JSON.stringify(actual)}, the model expected ${JSON.stringify(expected)}`);
	};
	if (state.outcome !== model.outcome) differ("outcome", state.outcome, model.outcome);
	if (state.outcome !== undefined) return;
	if (state.overlay.kind !== model.overlay) differ("overlay", state.overlay.kind, model.overlay);
	if (state.tab !== model.tab) differ("tab", state.tab, model.tab);
	if (state.escArmed !== model.escArmed) differ("escArmed", state.escArmed, model.escArmed);
	if (state.enterArmed !== model.enterArmed) differ("enterArmed", state.enterArmed, model.enterArmed);
	if (state.review.focus !== model.reviewFocus) differ("review focus", state.review.focus, model.reviewFocus);
	state.questions.forEach((qs, i) => {
		const q = model.questions[i]!;
		if (qs.focus !== q.focus) differ(`question ${i} focus`, qs.focus, q.focus);
		const picked = [...q.picked].sort((a, b) => a - b);
		if (qs.chosen.join() !== picked.join()) differ(`question ${i} chosen`, qs.chosen, picked);
		if (qs.customText !== q.freeText) differ(`question ${i} free text`, qs.customText, q.freeText);
		if (qs.customChosen !== q.freeTextOn) differ(`question ${i} free text chosen`, qs.customChosen, q.freeTextOn);
		if (qs.skipped !== q.skipped) differ(`question ${i} skipped`, qs.skipped, q.skipped);
		if (qs.delegated !== q.delegated) differ(`question ${i} left to the model`, qs.delegated, q.delegated);
	});
}

/**
 * More columns than `line` can take: a well-formed CSI sequence or pi-tui's
 * CURSOR_MARKER none, a tab three, any UTF-16 unit below U+1100 (where East
 * Asian wide characters begin), half of a surrogate pair, a box-drawing or
 * punctuation symbol one, any other unit two. Cheap, and never below pi-tui's visibleWidth, so a line within it
 * needs no exact measuring.
 */
function columnsAtMost(line: string): number {
	let columns = 0;
	for (let i = 0; i < line.length; i++) {
		const code = line.charCodeAt(i);
		if (code === 0x1b) {
			const end = line.startsWith(CURSOR_MARKER, i) ? i + CURSOR_MARKER.length - 1 : csiEnd(line, i);
			if (end !== -1) {
				i = end;
				continue;
			}
		}
		const narrow = code < 0x1100 || (code >= 0xd800 && code <= 0xdfff) || isNarrowSymbol(code);
		columns += code === 0x09 ? 3 : 2 - +narrow;
	}
	return columns;
}

/** Box drawing (the rules) and general punctuation (dashes, quotes, "…"): one column, and no emoji among them. */
function isNarrowSymbol(code: number): boolean {
	return (code >= 0x2500 && code <= 0x257f) || (code >= 0x2010 && code <= 0x2027);
}

/** Index of the final byte of the CSI sequence at `at` (ESC [ params intermediates final), or -1. */
function csiEnd(line: string, at: number): number {
	if (line[at + 1] !== "[") return -1;
	let j = at + 2;
	while (j < line.length && line.charCodeAt(j) >= 0x30 && line.charCodeAt(j) <= 0x3f) j++;
	while (j < line.length && line.charCodeAt(j) >= 0x20 && line.charCodeAt(j) <= 0x2f) j++;
	const final = line.charCodeAt(j);
	return final >= 0x40 && final <= 0x7e ? j : -1;
}

/** Every line fits the width (exactly measured when the cheap bound cannot tell), and the frame fits the height budget. */
export function checkFrame(lines: readonly string[], width: number, rows: number, where: string): void {
	for (const line of lines) {
		if (columnsAtMost(line) <= width) continue;
		const lineWidth = visibleWidth(line);
		if (lineWidth > width)
			throw new Error(`${where}: a line ${lineWidth} wide at width ${width}: ${JSON.stringify(line)}`);
	}
	if (lines.length > formHeight(rows)) throw new Error(`${where}: ${lines.length} lines for ${rows} terminal rows`);
}

/** One sequence through a fresh component, checked after every key (see the header); throws at the first difference. */
export function runSequence(
	form: AskForm,
	steps: readonly Step[],
	width0: number,
	rows0: number,
	coloured: boolean,
): void {
	let width = width0;
	const { tui, terminal } = quietTui(width, rows0);
	const results: Collected[] = [];
	const keybindings = piKeybindings();
	const component = new AskFormComponent({
		tui,
		theme: coloured ? colourTheme : plainTheme,
		keybindings,
		form,
		onDone: (collected) => results.push(collected),
	});
	component.focused = true;
	const model = new AnswerModel(form);
	checkFrame(component.render(width), width, terminal.height, "first render");
	let previous: FormState | undefined;
	steps.forEach((step, index) => {
		const where = `key ${index} (${JSON.stringify(step.key)})`;
		if (step.resize) {
			[width, terminal.height] = step.resize;
			if (model.outcome === undefined)
				checkFrame(component.render(width), width, terminal.height, `resize before ${where}`);
		}
		// Keys that would move the Editor's cursor are not sent while it is open: the model's buffer appends only.
		if (model.overlay === "editor" && !isEditorSafe(step.key)) return;
		// A key that acts on the focused option while PageUp/PageDown scrolled it out of sight only brings it back.
		const command = model.overlay === "none" ? commandForKey(step.key, "form", keybindings) : undefined;
		const { reading, viewport } = component.currentState;
		const blind =
			!model.typesHere(step.key) &&
			reading &&
			viewport.focusHidden &&
			command !== undefined &&
			ACTS_ON_FOCUS.includes(command.type);
		component.handleInput(step.key);
		if (!blind) model.press(step.key);
		const state = component.currentState;
		checkInvariants(state, previous);
		checkAgainstModel(state, model, where);
		previous = state;
		const lines = component.render(width);
		if (model.outcome === undefined) checkFrame(lines, width, terminal.height, where);
	});
	if (model.outcome === undefined) {
		component.abort();
		model.abort();
	}
	// Nothing after the end reaches the outcome: more keys, another abort.
	component.handleInput(RAW.enter);
	component.handleInput(RAW.escape);
	component.abort();
	expect(results).toHaveLength(1);
	const result = results[0]!;
	expect(result.status).toBe(model.outcome);
	expect(result).toEqual(model.expected(result.status));
}

/**
 * Random forms per run: 2,000 by default, a fresh seed each run, so the runs
 * add up; ASK_USER_KEY_RUNS=20000 (or any count) soaks it once for longer.
 * keys.test.ts and keys-more.test.ts each run one half (`half` 1 and 2), so
 * that the longest property of the suite runs on two workers at once.
 */
export function randomKeysTest(half: 1 | 2): void {
	const total = Number(process.env["ASK_USER_KEY_RUNS"]) > 0 ? Number(process.env["ASK_USER_KEY_RUNS"]) : 2_000;
	const runs = half === 1 ? Math.ceil(total / 2) : Math.floor(total / 2);
	test(
		`${runs * 2} random key sequences (${runs} random forms, each from a narrow and a wide start; half ${half} of ${total}): invariants, every line fits, done once, the answers are what the keys chose`,
		() => {
			fc.assert(randomKeysProperty(), { numRuns: runs });
		},
		Math.max(120_000, runs * 60),
	);
}
