/**
 * The state machine, driven by raw keys: each row feeds key strings through
 * the keymap (a real KeybindingsManager with pi's defaults) into update(),
 * and pins what the user would see happen.
 */

import { ENGLISH } from "../../src/i18n/texts.ts";
import { describe, expect, test } from "vitest";
import { collect } from "../../src/machine/collect.ts";
import {
	canSubmit,
	editorPrefill,
	enterArmedPhrase,
	type FormState,
	isAnswered,
	missingRequired,
	pendingDrafts,
	questionDrafts,
} from "../../src/machine/model.ts";
import { initialState, update } from "../../src/machine/update.ts";
import type { AskForm, Collected, Phrase } from "../../src/core/types.ts";
import { drive, formOf, KEY, option, piKeybindings, question, SCOPE_AND_TARGETS, type } from "./support.ts";

const ONE_QUESTION = formOf(
	question("scope", { header: "Scope", options: [option("Small"), option("Medium"), option("Large")] }),
);
const REQUIRED_AND_OPTIONAL = formOf(
	question("style", { header: "Style", options: [option("Tabs"), option("Spaces")] }),
	question("license", { header: "License", required: false, options: [option("MIT"), option("Apache-2.0")] }),
	question("tests", { header: "Tests", options: [option("Vitest"), option("Jest")] }),
);
const ONE_OPTIONAL = formOf(question("extra", { header: "Extra", required: false }));

interface Row {
	name: string;
	form?: typeof SCOPE_AND_TARGETS;
	keys: string[];
	expect: (state: FormState, result: Collected) => void;
}

const TYPE_ROW_OF_SCOPE = "4";

const TEXT_ONLY = formOf(question("name", { header: "Name", options: [] }));
const CHOICE_THEN_TEXT = formOf(
	question("scope", { header: "Scope", options: [option("Small"), option("Large")] }),
	question("name", { header: "Name", options: [] }),
	question("owner", { header: "Owner", options: [] }),
);

const rows: Row[] = [
	{
		name: "c writes a message for the chat instead: saving it closes the form as chat, keeping the answers",
		keys: [KEY.enter, "c", ...type("Let's discuss the targets first"), KEY.enter],
		expect: (state, result) => {
			expect(state.outcome).toBe("chat");
			expect(result.status).toBe("chat");
			expect(result.chatMessage).toBe("Let's discuss the targets first");
			expect(result.answers.scope?.selections[0]?.label).toBe("Small");
		},
	},
	{
		name: "c works on the Submit tab; a blank message only closes the editor; Esc keeps a draft that a dismissal reports",
		keys: [KEY.enter, KEY.space, KEY.enter, "c", KEY.enter, "c", ...type("hmm"), KEY.escape, KEY.escape, KEY.escape],
		expect: (state, result) => {
			expect(state.outcome).toBe("dismissed");
			expect(result.chatMessage).toBeUndefined();
			expect(result.drafts).toEqual([{ kind: "chat", text: "hmm" }]);
		},
	},
	{
		name: "n on the Submit tab writes a note on the whole form; it reaches the result on submit",
		keys: [KEY.enter, KEY.space, KEY.enter, "n", ...type("and don't touch the schema"), KEY.enter, KEY.enter],
		expect: (state, result) => {
			expect(state.outcome).toBe("answered");
			expect(result.notes).toEqual([{ text: "and don't touch the schema" }]);
		},
	},
	{
		name: "a note on the whole form left with Esc is a draft: Submit asks once, a dismissal reports it",
		keys: [KEY.enter, KEY.space, KEY.enter, "N", ...type("half"), KEY.escape, KEY.enter, KEY.escape, KEY.escape],
		expect: (state, result) => {
			expect(state.outcome).toBe("dismissed");
			expect(result.notes).toEqual([]);
			expect(result.drafts).toEqual([{ kind: "note", text: "half" }]);
		},
	},
	{
		name: "a text-only question opens in the editor, and its text is the answer",
		form: TEXT_ONLY,
		keys: [...type("billing-api"), KEY.enter],
		expect: (state, result) => {
			expect(state.outcome).toBe("answered");
			expect(result.answers.name).toEqual({
				kind: "single",
				selections: [{ value: "billing-api", label: "billing-api", custom: true }],
			});
		},
	},
	{
		name: "answering moves into the next text-only question's editor, one after another",
		form: CHOICE_THEN_TEXT,
		keys: [KEY.enter, ...type("billing"), KEY.enter, ...type("ops"), KEY.enter],
		expect: (state, result) => {
			expect(state.tab).toBe(3);
			expect(state.overlay).toEqual({ kind: "none" });
			expect(result.answers.name?.selections[0]?.label).toBe("billing");
			expect(result.answers.owner?.selections[0]?.label).toBe("ops");
		},
	},
	{
		name: "Esc in a text-only question's editor keeps the text as a draft; Enter on its one row reopens it",
		form: TEXT_ONLY,
		keys: [...type("bill"), KEY.escape, KEY.enter],
		expect: (state) => {
			expect(state.overlay).toEqual({ kind: "editor", target: { kind: "custom", question: 0 } });
			expect(editorPrefill(state, { kind: "custom", question: 0 })).toBe("bill");
		},
	},
	{
		name: "answer two questions and submit",
		keys: [KEY.enter, KEY.space, KEY.down, KEY.space, KEY.enter, KEY.enter],
		expect: (state, result) => {
			expect(state.outcome).toBe("answered");
			expect(result.answers).toEqual({
				scope: { kind: "single", selections: [{ value: "Small", label: "Small" }] },
				targets: {
					kind: "multi",
					selections: [
						{ value: "Linux", label: "Linux" },
						{ value: "macOS", label: "macOS" },
					],
				},
			});
		},
	},
	{
		name: "choosing a single-select option advances to the next unanswered question",
		keys: [KEY.down, KEY.enter],
		expect: (state) => {
			expect(state.tab).toBe(1);
			expect(state.questions[0]?.chosen).toEqual([1]);
			expect(state.outcome).toBeUndefined();
		},
	},
	{
		name: "one question: Enter on an option submits",
		form: ONE_QUESTION,
		keys: [KEY.down, KEY.enter],
		expect: (state, result) => {
			expect(state.outcome).toBe("answered");
			expect(result.answers.scope?.selections).toEqual([{ value: "Medium", label: "Medium" }]);
		},
	},
	{
		name: "after the last question the Submit tab opens",
		keys: [KEY.tab, KEY.space, KEY.enter, KEY.enter],
		expect: (state) => {
			// Targets answered → back to the pending Scope; Scope answered → Submit tab.
			expect(state.tab).toBe(2);
			expect(state.outcome).toBeUndefined();
		},
	},
	{
		name: "free text: Enter on Type something opens the editor; Enter saves it exactly and advances",
		keys: [TYPE_ROW_OF_SCOPE, KEY.enter, ...type("  My own"), KEY.shiftEnter, ...type("answer 🚀 "), KEY.enter],
		expect: (state, result) => {
			expect(state.overlay.kind).toBe("none");
			expect(state.tab).toBe(1);
			expect(result.answers.scope).toEqual({
				kind: "single",
				selections: [{ value: "  My own\nanswer 🚀 ", label: "  My own\nanswer 🚀 ", custom: true }],
			});
		},
	},
	{
		name: "a free answer replaces the chosen option on a single-select question",
		keys: [KEY.enter, KEY.left, TYPE_ROW_OF_SCOPE, KEY.enter, ...type("mine"), KEY.enter],
		expect: (state) => {
			expect(state.questions[0]?.chosen).toEqual([]);
			expect(state.questions[0]?.customChosen).toBe(true);
		},
	},
	{
		name: "choosing an option replaces the free answer, and the text stays saved",
		keys: [TYPE_ROW_OF_SCOPE, KEY.enter, ...type("mine"), KEY.enter, KEY.left, "3", KEY.enter],
		expect: (state, result) => {
			expect(result.answers.scope?.selections).toEqual([{ value: "Large", label: "Large" }]);
			expect(state.questions[0]?.customText).toBe("mine");
			expect(state.questions[0]?.customChosen).toBe(false);
		},
	},
	{
		name: "reopening the editor shows the saved free text",
		keys: [
			TYPE_ROW_OF_SCOPE,
			KEY.enter,
			...type("mine"),
			KEY.enter,
			KEY.left,
			TYPE_ROW_OF_SCOPE,
			KEY.enter,
			...type("!"),
			KEY.enter,
		],
		expect: (_state, result) => expect(result.answers.scope?.selections[0]?.value).toBe("mine!"),
	},
	{
		name: "a blank free text means no free answer",
		keys: [
			TYPE_ROW_OF_SCOPE,
			KEY.enter,
			...type("mine"),
			KEY.enter,
			KEY.left,
			TYPE_ROW_OF_SCOPE,
			KEY.enter,
			KEY.backspace,
			KEY.backspace,
			KEY.backspace,
			KEY.backspace,
			...type("  "),
			KEY.enter,
		],
		expect: (state, result) => {
			expect(state.questions[0]?.customText).toBeUndefined();
			expect(result.answers.scope).toBeUndefined();
		},
	},
	{
		name: "more than 4000 code units is refused: message, editor still open, text intact",
		keys: [TYPE_ROW_OF_SCOPE, KEY.enter, KEY.paste("x".repeat(4001)), KEY.enter],
		expect: (state) => {
			expect(state.overlay).toEqual({ kind: "editor", target: { kind: "custom", question: 0 } });
			expect(state.message?.tone).toBe("error");
			expect(say(state.message?.text)).toContain("4001");
			expect(state.questions[0]?.customText).toBeUndefined();
		},
	},
	{
		name: "exactly 4000 code units is accepted",
		keys: [TYPE_ROW_OF_SCOPE, KEY.enter, KEY.paste("x".repeat(4001)), KEY.enter, KEY.backspace, KEY.enter],
		expect: (state) => {
			expect(state.overlay.kind).toBe("none");
			expect(state.questions[0]?.customText).toHaveLength(4000);
		},
	},
	{
		name: "Esc in the editor keeps the saved value and keeps what was typed as a draft",
		keys: [
			TYPE_ROW_OF_SCOPE,
			KEY.enter,
			...type("first"),
			KEY.enter,
			KEY.left,
			TYPE_ROW_OF_SCOPE,
			KEY.enter,
			...type(" draft"),
			KEY.escape,
		],
		expect: (state) => {
			expect(state.overlay.kind).toBe("none");
			expect(state.escArmed).toBe(false);
			expect(state.questions[0]?.customText).toBe("first");
			expect(state.drafts).toEqual({ "custom:0": "first draft" });
		},
	},
	{
		name: "the draft comes back when the editor reopens for the same target, and saving it clears it",
		keys: [TYPE_ROW_OF_SCOPE, KEY.enter, ...type("typed"), KEY.escape, KEY.enter, ...type("!"), KEY.enter],
		expect: (state, result) => {
			expect(result.answers.scope?.selections[0]?.value).toBe("typed!");
			expect(state.drafts).toEqual({});
		},
	},
	{
		name: "multi-select: Space toggles, Enter is done with the selections",
		keys: [KEY.tab, KEY.space, KEY.down, KEY.down, KEY.space, KEY.up, KEY.up, KEY.space, KEY.space, KEY.enter],
		expect: (state, result) => {
			expect(result.answers.targets?.selections.map((s) => s.label)).toEqual(["Linux", "Windows"]);
			expect(state.tab).toBe(0);
		},
	},
	{
		name: "multi-select: Enter with nothing selected selects the focused option first",
		keys: [KEY.tab, KEY.down, KEY.enter],
		expect: (state, result) => {
			expect(result.answers.targets?.selections.map((s) => s.label)).toEqual(["macOS"]);
			expect(state.tab).toBe(0);
		},
	},
	{
		name: "multi-select: a free answer is one more selection, and Space toggles it",
		keys: [KEY.tab, KEY.space, "4", KEY.space, ...type("BSD"), KEY.enter, KEY.space, KEY.space],
		expect: (state, result) => {
			expect(state.tab).toBe(1);
			expect(result.answers.targets?.selections).toEqual([
				{ value: "Linux", label: "Linux" },
				{ value: "BSD", label: "BSD", custom: true },
			]);
		},
	},
	{
		name: "n writes a note on the focused option",
		keys: [KEY.down, "n", ...type("cheaper"), KEY.enter],
		expect: (state, result) => {
			expect(state.overlay.kind).toBe("none");
			expect(result.notes).toEqual([{ questionId: "scope", option: "Medium", text: "cheaper" }]);
			expect(result.answers).toEqual({});
		},
	},
	{
		name: "N writes a note on the question, kept once, in the notes",
		keys: ["N", ...type("context"), KEY.enter, KEY.enter],
		expect: (_state, result) => {
			expect(result.notes).toEqual([{ questionId: "scope", text: "context" }]);
			expect(result.answers.scope).not.toHaveProperty("note");
		},
	},
	{
		name: "n on the Type something row writes the question note",
		keys: [TYPE_ROW_OF_SCOPE, "n", ...type("q"), KEY.enter],
		expect: (_state, result) => expect(result.notes).toEqual([{ questionId: "scope", text: "q" }]),
	},
	{
		name: "a blank note deletes the note",
		keys: ["n", ...type("x"), KEY.enter, "n", KEY.backspace, KEY.enter],
		expect: (_state, result) => expect(result.notes).toEqual([]),
	},
	{
		name: "s skips an optional question and goes to the next pending one",
		form: REQUIRED_AND_OPTIONAL,
		keys: [KEY.tab, "s"],
		expect: (state, result) => {
			expect(state.tab).toBe(2);
			expect(result.skipped).toEqual(["license"]);
		},
	},
	{
		name: "s on a required question says why and stays",
		form: REQUIRED_AND_OPTIONAL,
		keys: ["s"],
		expect: (state) => {
			expect(state.tab).toBe(0);
			expect(say(state.message?.text)).toBe("Style is required and can't be skipped");
			expect(state.questions[0]?.skipped).toBe(false);
		},
	},
	{
		name: "one optional question alone: s submits with it skipped",
		form: ONE_OPTIONAL,
		keys: ["s"],
		expect: (state, result) => {
			expect(state.outcome).toBe("answered");
			expect(result.skipped).toEqual(["extra"]);
			expect(result.answers).toEqual({});
		},
	},
	{
		name: "answering a skipped question un-skips it",
		form: REQUIRED_AND_OPTIONAL,
		keys: [KEY.tab, "s", KEY.left, KEY.enter],
		expect: (_state, result) => {
			expect(result.skipped).toEqual([]);
			expect(result.answers.license?.selections[0]?.label).toBe("MIT");
		},
	},
	{
		name: "Esc once asks for a second Esc; another key clears it",
		keys: [KEY.escape, KEY.down],
		expect: (state) => {
			expect(state.escArmed).toBe(false);
			expect(state.outcome).toBeUndefined();
			expect(state.questions[0]?.focus).toBe(1);
		},
	},
	{
		name: "Esc, another key, Esc does not dismiss",
		keys: [KEY.escape, "x", KEY.escape],
		expect: (state) => {
			expect(state.escArmed).toBe(true);
			expect(state.outcome).toBeUndefined();
		},
	},
	{
		name: "Esc twice on the first tab dismisses and keeps answers",
		keys: [KEY.enter, KEY.escape, KEY.escape],
		expect: (state, result) => {
			expect(state.outcome).toBe("dismissed");
			expect(result.answers.scope?.selections[0]?.label).toBe("Small");
			expect(result.skipped).toEqual([]);
		},
	},
	{
		name: "Submit is blocked while a required answer is missing: the message names it and the form jumps there",
		keys: [KEY.tab, KEY.space, KEY.tab, KEY.enter],
		expect: (state) => {
			expect(state.outcome).toBeUndefined();
			expect(say(state.message?.text)).toBe("Answer Scope first");
			expect(state.tab).toBe(0);
		},
	},
	{
		name: "the message names every missing question",
		keys: [KEY.left, KEY.enter],
		expect: (state) => expect(say(state.message?.text)).toBe("Answer Scope and Targets first"),
	},
	{
		name: "optional unanswered questions are reported as skipped on submit",
		form: REQUIRED_AND_OPTIONAL,
		// Style, then past License to Tests; answering Tests comes back to the pending License; ← ← to Submit.
		keys: [KEY.enter, KEY.tab, KEY.enter, KEY.left, KEY.left, KEY.enter],
		expect: (state, result) => {
			expect(state.outcome).toBe("answered");
			expect(result.skipped).toEqual(["license"]);
			expect(Object.keys(result.answers)).toEqual(["style", "tests"]);
		},
	},
	{
		name: "← on the first tab wraps to the Submit tab; → on the Submit tab wraps to the first",
		keys: [KEY.left],
		expect: (state) => expect(state.tab).toBe(2),
	},
	{
		name: "Tab, Shift+Tab, ←, → move between tabs with wrapping",
		keys: [KEY.tab, KEY.tab, KEY.tab, KEY.right, KEY.shiftTab],
		expect: (state) => expect(state.tab).toBe(0),
	},
	{
		name: "1–9 focus that option; a digit past the last row does nothing",
		keys: ["3", "9"],
		expect: (state) => expect(state.questions[0]?.focus).toBe(2),
	},
	{
		name: "↑ on the first row wraps to the You decide row, after Type something; ↓ there wraps to the first",
		keys: [KEY.up],
		expect: (state) => expect(state.questions[0]?.focus).toBe(4),
	},
	{
		name: "↓ from the last option: Type something, then You decide, then back to the first",
		keys: [KEY.down, KEY.down, KEY.down, KEY.down, KEY.down],
		expect: (state) => expect(state.questions[0]?.focus).toBe(0),
	},
	{
		name: "k and j move like ↑ and ↓",
		keys: ["j", "j", "k"],
		expect: (state) => expect(state.questions[0]?.focus).toBe(1),
	},
	{
		name: "? opens the help and ? closes it; nothing else changes",
		keys: [KEY.down, "?", KEY.down, KEY.enter, "?"],
		expect: (state) => {
			expect(state.overlay.kind).toBe("none");
			expect(state.questions[0]?.focus).toBe(1);
			expect(state.questions[0]?.chosen).toEqual([]);
		},
	},
	{
		name: "Esc closes the help without arming the dismiss",
		keys: ["?", KEY.escape],
		expect: (state) => {
			expect(state.overlay.kind).toBe("none");
			expect(state.escArmed).toBe(false);
		},
	},
	{
		name: "Enter on a review row goes back to that question",
		keys: [KEY.left, KEY.up, KEY.enter],
		expect: (state) => expect(state.tab).toBe(1),
	},
	{
		name: "Enter on the Cancel row asks first; a second Enter dismisses and keeps answers",
		keys: [KEY.enter, KEY.left, KEY.left, KEY.down, KEY.enter, KEY.enter],
		expect: (state, result) => {
			expect(state.outcome).toBe("dismissed");
			expect(result.answers.scope?.selections[0]?.label).toBe("Small");
		},
	},
	{
		name: "one Enter on Cancel does not dismiss even a fully answered form: it arms, and says so",
		// Both answered → Submit tab; ↑↑↑ from Submit wraps past the first row onto Cancel.
		keys: [KEY.enter, KEY.enter, KEY.up, KEY.up, KEY.up, KEY.enter],
		expect: (state) => {
			expect(state.review.focus).toBe(3);
			expect(state.outcome).toBeUndefined();
			expect(state.enterArmed).toBe("dismiss");
			expect(say(enterArmedPhrase(state, "enter"))).toBe("Press enter again to dismiss the form");
		},
	},
	{
		name: "Cancel armed, then any other key disarms: the next Enter arms again instead of dismissing",
		keys: [KEY.left, KEY.down, KEY.enter, "x", KEY.enter],
		expect: (state) => {
			expect(state.outcome).toBeUndefined();
			expect(state.enterArmed).toBe("dismiss");
		},
	},
	{
		name: "Cancel armed, then a move disarms; Enter on Submit is a plain submit again",
		keys: [KEY.enter, KEY.enter, KEY.down, KEY.enter, KEY.up, KEY.enter],
		expect: (state) => expect(state.outcome).toBe("answered"),
	},
	{
		name: "answering everything lands on the Submit tab with Submit focused",
		keys: [KEY.enter, KEY.enter],
		expect: (state) => {
			expect(state.tab).toBe(2);
			expect(state.review.focus).toBe(2);
		},
	},
	{
		name: "fixing a question from the review comes back with Submit focused, so Enter submits (no loop)",
		// Both answered → review; ↑↑ to Scope's row; Enter goes there; choose Large; back on the review; Enter.
		keys: [KEY.enter, KEY.enter, KEY.up, KEY.up, KEY.enter, "3", KEY.enter, KEY.enter],
		expect: (state, result) => {
			expect(state.outcome).toBe("answered");
			expect(result.answers.scope?.selections[0]?.label).toBe("Large");
		},
	},
	{
		name: "switching tabs and opening the help keep selections, free text and notes",
		keys: [
			KEY.down,
			"n",
			...type("note"),
			KEY.enter,
			TYPE_ROW_OF_SCOPE,
			KEY.enter,
			...type("own"),
			KEY.enter,
			KEY.space,
			KEY.tab,
			KEY.tab,
			"?",
			"?",
			KEY.tab,
		],
		expect: (state, result) => {
			expect(state.tab).toBe(1);
			expect(result.answers.scope?.selections[0]?.value).toBe("own");
			expect(result.answers.targets?.selections[0]?.value).toBe("Linux");
			expect(result.notes).toEqual([{ questionId: "scope", option: "Medium", text: "note" }]);
		},
	},
	{
		name: "after the outcome, keys change nothing",
		form: ONE_QUESTION,
		keys: [KEY.enter, KEY.down, KEY.escape, KEY.escape],
		expect: (state) => {
			expect(state.outcome).toBe("answered");
			expect(state.questions[0]?.focus).toBe(0);
		},
	},
];

describe("keys → state", () => {
	for (const row of rows) {
		test(row.name, () => {
			const { state } = drive(row.form ?? SCOPE_AND_TARGETS, row.keys);
			row.expect(state, collect(state, state.outcome ?? "dismissed"));
		});
	}
});

describe("the keymap", () => {
	test("ctrl+c is the interrupt, in the form and in the editor, and changes no state", () => {
		const { state, commands } = drive(SCOPE_AND_TARGETS, [KEY.ctrlC, TYPE_ROW_OF_SCOPE, KEY.enter, KEY.ctrlC]);
		expect(commands.filter((c) => c.type === "interrupt")).toHaveLength(2);
		expect(state.overlay.kind).toBe("editor");
	});

	test("a user's remapping of pi's bindings applies to the form", () => {
		const kb = piKeybindings({ "tui.select.down": "ctrl+n", "tui.select.confirm": "ctrl+o" });
		const { state } = drive(formOf(question("scope")), ["\x0e", "\x0f"], kb);
		expect(state.outcome).toBe("answered");
		expect(collect(state, "answered").answers.scope?.selections[0]?.label).toBe("Beta");
	});

	test("a remapped interrupt key interrupts; Esc stays the form's own", () => {
		const kb = piKeybindings({ "app.interrupt": "ctrl+x" });
		const { state, commands } = drive(SCOPE_AND_TARGETS, ["\x18", KEY.escape], kb);
		expect(commands.map((c) => c.type)).toEqual(["interrupt", "escape"]);
		expect(state.escArmed).toBe(true);
	});

	test("PageUp/PageDown become page commands for the component to resolve", () => {
		const { commands } = drive(SCOPE_AND_TARGETS, [KEY.pageDown, KEY.pageUp]);
		expect(commands).toEqual([
			{ type: "page", direction: 1 },
			{ type: "page", direction: -1 },
		]);
	});

	test("in the editor, Tab, ←, digits and letters are text, not form keys", () => {
		const { state } = drive(SCOPE_AND_TARGETS, [TYPE_ROW_OF_SCOPE, KEY.enter, KEY.tab, KEY.left, "1", "n", "s", "?"]);
		expect(state.overlay.kind).toBe("editor");
		expect(state.tab).toBe(0);
	});
});

describe("update", () => {
	test("a state with an outcome is returned unchanged", () => {
		const done = update(update(initialState(SCOPE_AND_TARGETS), { type: "escape" }), { type: "escape" });
		expect(update(done, { type: "move", delta: 1 })).toBe(done);
		expect(update(done, { type: "abort" })).toBe(done);
	});

	test("abort ends the form with the answers kept", () => {
		let state = update(initialState(SCOPE_AND_TARGETS), { type: "choose" });
		state = update(state, { type: "abort" });
		expect(state.outcome).toBe("aborted");
		expect(collect(state, "aborted").answers.scope?.selections[0]?.label).toBe("Small");
	});

	test("derived facts follow the answers", () => {
		let state = initialState(SCOPE_AND_TARGETS);
		expect(missingRequired(state)).toEqual([0, 1]);
		expect(canSubmit(state)).toBe(false);
		state = update(state, { type: "choose" });
		state = update(state, { type: "choose" });
		expect(state.questions.every(isAnswered)).toBe(true);
		expect(canSubmit(state)).toBe(true);
	});

	test("PageDown scrolls the page first, then the detail pane inside it; PageUp the other way round", () => {
		const drawn = update(initialState(SCOPE_AND_TARGETS), {
			type: "viewport",
			ports: [
				{ target: "body", top: 0, min: 0, max: 4, page: 3 },
				{ target: "detail", top: 0, min: 0, max: 2, page: 5 },
			],
			focusHidden: false,
		});
		let state = update(drawn, { type: "page", direction: 1 });
		expect(state.questions[0]).toMatchObject({ scroll: 3, detailScroll: 0 });
		state = update(state, { type: "page", direction: 1 });
		expect(state.questions[0]).toMatchObject({ scroll: 4, detailScroll: 0 });
		state = update(state, { type: "page", direction: 1 });
		expect(state.questions[0]).toMatchObject({ scroll: 4, detailScroll: 2 });
		state = update(state, { type: "page", direction: -1 });
		expect(state.questions[0]).toMatchObject({ scroll: 4, detailScroll: 0 });
		state = update(state, { type: "page", direction: -1 });
		expect(state.questions[0]).toMatchObject({ scroll: 1, detailScroll: 0 });
	});

	test("paging the body starts reading; the next other key ends it", () => {
		const drawn = update(initialState(SCOPE_AND_TARGETS), {
			type: "viewport",
			ports: [{ target: "body", top: 0, min: 0, max: 9, page: 4 }],
			focusHidden: false,
		});
		const reading = update(drawn, { type: "page", direction: 1 });
		expect(reading.reading).toBe(true);
		expect(update(reading, { type: "move", delta: 1 }).reading).toBe(false);
		// With nowhere left to go a page key scrolls nothing and reads nothing.
		expect(update(update(drawn, { type: "page", direction: -1 }), { type: "page", direction: -1 }).reading).toBe(false);
	});

	test("a key acting on the focused option while it is scrolled out of sight only brings it back", () => {
		const drawn = update(initialState(SCOPE_AND_TARGETS), {
			type: "viewport",
			ports: [{ target: "body", top: 0, min: 0, max: 9, page: 4 }],
			focusHidden: false,
		});
		const hidden = update(update(drawn, { type: "page", direction: 1 }), {
			type: "viewport",
			ports: [],
			focusHidden: true,
		});
		for (const blind of [
			{ type: "choose" },
			{ type: "toggle" },
			{ type: "openNote" },
			{ type: "number", row: 1 },
		] as const) {
			const after = update(hidden, blind);
			expect(after.reading).toBe(false);
			expect(after.questions).toBe(hidden.questions);
			expect(after.overlay.kind).toBe("none");
		}
		// A key that does not act on it does its job at once.
		expect(update(hidden, { type: "move", delta: 1 }).questions[0]?.focus).toBe(1);
		// In sight, Enter chooses.
		expect(
			update(update(hidden, { type: "viewport", ports: [], focusHidden: false }), { type: "choose" }).questions[0]
				?.chosen,
		).toEqual([0]);
	});

	test("the view's layout facts are no key: they disarm nothing and clear no message", () => {
		const armed = update(initialState(SCOPE_AND_TARGETS), { type: "escape" });
		const drawn = update(armed, {
			type: "viewport",
			ports: [{ target: "body", top: 0, min: 0, max: 2, page: 1 }],
			focusHidden: false,
		});
		expect(drawn.escArmed).toBe(true);
		expect(
			update(drawn, {
				type: "viewport",
				ports: [{ target: "body", top: 0, min: 0, max: 2, page: 1 }],
				focusHidden: false,
			}),
		).toBe(drawn);
	});

	test("scrolling stores the requested offset per tab", () => {
		let state = update(initialState(SCOPE_AND_TARGETS), { type: "scrollTo", target: "body", top: 3 });
		state = update(state, { type: "switchTab", delta: 1 });
		state = update(state, { type: "scrollTo", target: "detail", top: 2 });
		expect(state.questions[0]?.scroll).toBe(3);
		expect(state.questions[1]?.detailScroll).toBe(2);
		state = update(state, { type: "move", delta: 1 });
		expect(state.questions[1]?.detailScroll).toBe(0);
	});
});

/** Drives `keys`, then closes the form from outside with what the (stand-in) editor holds, as the component does. */
function closeFromOutside(form: typeof SCOPE_AND_TARGETS, keys: string[], editorText?: string): FormState {
	const { state } = drive(form, keys);
	return update(state, { type: "abort", editorText: state.overlay.kind === "editor" ? editorText : undefined });
}

const OPTIONAL_PAIR = formOf(
	question("a", { header: "A", options: [option("Yes"), option("No")] }),
	question("b", { header: "B", required: false, options: [option("Yes"), option("No")] }),
);

describe("where answering leads", () => {
	const REQUIRED_REQUIRED_OPTIONAL = formOf(
		question("a", { header: "A" }),
		question("b", { header: "B" }),
		question("c", { header: "C", required: false }),
	);

	test("before the review has been seen, to the next question still open, optional ones included", () => {
		const { state } = drive(REQUIRED_REQUIRED_OPTIONAL, [KEY.enter, KEY.enter]);
		expect(state.tab).toBe(2);
	});

	test("once it has been seen, to the required questions still missing, then back to Submit, focused", () => {
		// Answer A; Tab past B and C to Submit; Enter: "Answer B first" takes the form to B; answer it.
		const { state } = drive(REQUIRED_REQUIRED_OPTIONAL, [KEY.enter, KEY.tab, KEY.tab, KEY.enter, KEY.enter]);
		expect(state.reviewed).toBe(true);
		expect(state.tab).toBe(3);
		expect(state.review.focus).toBe(3);
		expect(update(state, { type: "choose" }).outcome).toBe("answered");
	});
});

describe("unconfirmed text: drafts", () => {
	test("text left in the open editor when the form closes from outside is a draft: the committed choice stays the answer", () => {
		// Choose Medium, come back, open Type something…, type, and time out.
		const state = closeFromOutside(
			SCOPE_AND_TARGETS,
			[KEY.down, KEY.enter, KEY.left, TYPE_ROW_OF_SCOPE, KEY.enter, ...type("half-typ")],
			"half-typ",
		);
		expect(state.outcome).toBe("aborted");
		expect(state.questions[0]?.customText).toBeUndefined();
		const result = collect(state, "timed_out");
		expect(result.answers.scope).toEqual({ kind: "single", selections: [{ value: "Medium", label: "Medium" }] });
		expect(result.drafts).toEqual([{ questionId: "scope", kind: "answer", text: "half-typ" }]);
	});

	test("a note being written when the form closes is a note draft; the saved note stays the note", () => {
		const state = closeFromOutside(
			SCOPE_AND_TARGETS,
			["n", ...type("saved"), KEY.enter, "n", ...type(" more")],
			"saved more",
		);
		const result = collect(state, "aborted");
		expect(result.notes).toEqual([{ questionId: "scope", option: "Small", text: "saved" }]);
		expect(result.drafts).toEqual([{ questionId: "scope", kind: "note", option: "Small", text: "saved more" }]);
	});

	test("text over the 4000-unit limit at close is kept whole as a draft, not dropped", () => {
		const long = "x".repeat(4001);
		const state = closeFromOutside(SCOPE_AND_TARGETS, [TYPE_ROW_OF_SCOPE, KEY.enter, KEY.paste(long), KEY.enter], long);
		expect(collect(state, "aborted").drafts).toEqual([{ questionId: "scope", kind: "answer", text: long }]);
	});

	test("an editor closed holding only what is saved, or nothing but blanks, leaves no draft", () => {
		const unchanged = closeFromOutside(
			SCOPE_AND_TARGETS,
			[TYPE_ROW_OF_SCOPE, KEY.enter, ...type("mine"), KEY.enter, KEY.left, TYPE_ROW_OF_SCOPE, KEY.enter],
			"mine",
		);
		expect(collect(unchanged, "aborted")).not.toHaveProperty("drafts");
		expect(collect(unchanged, "aborted").answers.scope?.selections[0]?.value).toBe("mine");
		const blank = closeFromOutside(SCOPE_AND_TARGETS, [TYPE_ROW_OF_SCOPE, KEY.enter, ...type("  ")], "  ");
		expect(collect(blank, "aborted")).not.toHaveProperty("drafts");
	});

	test("Esc on blanks, or on a cleared saved note, leaves no draft: nothing is marked and the saved text stands", () => {
		// Save a note on the question, reopen it, clear it, Esc; and blanks on Type something…, Esc.
		const clearing = [KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace];
		const { state } = drive(SCOPE_AND_TARGETS, [
			"N",
			...type("keep"),
			KEY.enter,
			"N",
			...clearing,
			KEY.escape,
			TYPE_ROW_OF_SCOPE,
			KEY.enter,
			...type("   "),
			KEY.escape,
		]);
		expect(state.drafts).toEqual({});
		expect(questionDrafts(state, 0)).toEqual({
			customText: undefined,
			questionNote: false,
			optionNotes: [false, false, false],
		});
		expect(pendingDrafts(state)).toEqual([]);
		expect(editorPrefill(state, { kind: "questionNote", question: 0 })).toBe("keep");
		expect(collect({ ...state, outcome: "dismissed" }, "dismissed").notes).toEqual([
			{ questionId: "scope", text: "keep" },
		]);
	});

	test("drafts left with Esc (free answer, question note, option note) come back on dismiss, in question order", () => {
		const { state } = drive(SCOPE_AND_TARGETS, [
			KEY.down,
			"n",
			...type("on medium"),
			KEY.escape,
			"N",
			...type("on scope"),
			KEY.escape,
			TYPE_ROW_OF_SCOPE,
			KEY.enter,
			...type("own"),
			KEY.escape,
			KEY.escape,
			KEY.escape,
		]);
		expect(state.outcome).toBe("dismissed");
		expect(collect(state, "dismissed").drafts).toEqual([
			{ questionId: "scope", kind: "answer", text: "own" },
			{ questionId: "scope", kind: "note", text: "on scope" },
			{ questionId: "scope", kind: "note", option: "Medium", text: "on medium" },
		]);
	});

	test("Submit with a draft pending asks once, and the review lists it; Enter again submits without it", () => {
		// A answered; in B's editor type "important", Esc; to the Submit tab.
		const keys = [KEY.enter, "3", KEY.enter, ...type("important"), KEY.escape, KEY.tab];
		const armed = drive(OPTIONAL_PAIR, [...keys, KEY.enter]).state;
		expect(armed.outcome).toBeUndefined();
		expect(armed.enterArmed).toBe("submit");
		expect(pendingDrafts(armed)).toEqual([{ target: { kind: "custom", question: 1 }, text: "important" }]);
		expect(say(enterArmedPhrase(armed, "enter"))).toBe("1 unsaved draft — press enter again to submit without it");

		const submitted = drive(OPTIONAL_PAIR, [...keys, KEY.enter, KEY.enter]).state;
		expect(submitted.outcome).toBe("answered");
		const result = collect(submitted, "answered");
		expect(result.skipped).toEqual(["b"]);
		expect(result).not.toHaveProperty("drafts");
	});

	test("Submit armed by drafts, then any other key disarms: the next Enter asks again", () => {
		const { state } = drive(OPTIONAL_PAIR, [
			KEY.enter,
			"3",
			KEY.enter,
			...type("important"),
			KEY.escape,
			KEY.tab,
			KEY.enter,
			"x",
			KEY.enter,
		]);
		expect(state.outcome).toBeUndefined();
		expect(state.enterArmed).toBe("submit");
	});

	test("two drafts are counted in the question", () => {
		const { state } = drive(OPTIONAL_PAIR, [
			"n",
			...type("a"),
			KEY.escape,
			KEY.enter,
			"N",
			...type("b"),
			KEY.escape,
			KEY.tab,
			KEY.enter,
		]);
		expect(say(enterArmedPhrase(state, "enter"))).toBe("2 unsaved drafts — press enter again to submit without them");
	});

	test("one question: choosing while a draft is pending asks first; Enter again submits", () => {
		const keys = ["N", ...type("why"), KEY.escape, KEY.down, KEY.enter];
		const armed = drive(ONE_QUESTION, keys).state;
		expect(armed.outcome).toBeUndefined();
		expect(armed.enterArmed).toBe("submit");
		expect(armed.questions[0]?.chosen).toEqual([1]);
		const submitted = drive(ONE_QUESTION, [...keys, KEY.enter]).state;
		expect(submitted.outcome).toBe("answered");
		expect(collect(submitted, "answered").answers.scope?.selections[0]?.label).toBe("Medium");
	});

	test("one question: a free answer saved while a note draft is pending asks first, and Enter (on the Type row) confirms", () => {
		const keys = ["N", ...type("why"), KEY.escape, TYPE_ROW_OF_SCOPE, KEY.enter, ...type("mine"), KEY.enter];
		const armed = drive(ONE_QUESTION, keys).state;
		expect(armed.enterArmed).toBe("submit");
		expect(armed.overlay.kind).toBe("none");
		const submitted = drive(ONE_QUESTION, [...keys, KEY.enter]).state;
		expect(submitted.outcome).toBe("answered");
		expect(submitted.overlay.kind).toBe("none");
	});

	test("a draft saved (or Esc'd back to what is saved) no longer holds up Submit", () => {
		const saved = drive(OPTIONAL_PAIR, [
			KEY.enter,
			"3",
			KEY.enter,
			...type("important"),
			KEY.escape,
			KEY.enter,
			KEY.enter,
			KEY.enter,
		]).state;
		expect(saved.outcome).toBe("answered");
		expect(collect(saved, "answered").answers.b?.selections[0]?.value).toBe("important");
	});
});

describe("number keys choose (the default numberKeys setting)", () => {
	const choose = (form: AskForm, keys: string[]) => drive(form, keys, piKeybindings(), "choose").state;

	test("a number chooses that option and moves on, as Enter on it would", () => {
		const state = choose(SCOPE_AND_TARGETS, ["2"]);
		expect(state.questions[0]?.chosen).toEqual([1]);
		expect(state.tab).toBe(1);
	});

	test("in a multi-select question a number toggles that option; Enter finishes", () => {
		const state = choose(SCOPE_AND_TARGETS, [KEY.tab, "1", "3", "1"]);
		expect(state.tab).toBe(1);
		expect(state.questions[1]?.chosen).toEqual([2]);
	});

	test("the number of “Type something…” opens the editor", () => {
		const state = choose(SCOPE_AND_TARGETS, [TYPE_ROW_OF_SCOPE]);
		expect(state.overlay).toEqual({ kind: "editor", target: { kind: "custom", question: 0 } });
	});

	test("a one-question form submits at once, as Enter on the option does", () => {
		const state = choose(ONE_QUESTION, ["3"]);
		expect(state.outcome).toBe("answered");
		expect(collect(state, "answered").answers.scope?.selections[0]?.label).toBe("Large");
	});

	test("with 8 options, 8 chooses the eighth and 9 opens the editor of “Type something…”", () => {
		const eight = formOf(
			question("pick", {
				header: "Pick",
				options: ["A", "B", "C", "D", "E", "F", "G", "H"].map((label) => option(label)),
			}),
		);
		expect(collect(choose(eight, ["8"]), "answered").answers.pick?.selections[0]?.label).toBe("H");
		expect(choose(eight, ["9"]).overlay).toEqual({ kind: "editor", target: { kind: "custom", question: 0 } });
	});

	test("a number past the rows does nothing; with numberKeys “focus” a number only focuses", () => {
		expect(choose(ONE_QUESTION, ["9"]).questions[0]?.focus).toBe(0);
		const focused = drive(ONE_QUESTION, ["3"], piKeybindings(), "focus").state;
		expect(focused.outcome).toBeUndefined();
		expect(focused.questions[0]?.focus).toBe(2);
		expect(focused.questions[0]?.chosen).toEqual([]);
	});
});

describe("peek behind the form (p)", () => {
	test("p folds the form and p brings it back with every answer, note, draft and the focus as they were", () => {
		const keys = [
			KEY.enter,
			KEY.down,
			"n",
			...type("kept note"),
			KEY.enter,
			"N",
			...type("half"),
			KEY.escape,
			KEY.down,
		];
		const before = drive(SCOPE_AND_TARGETS, keys).state;
		const folded = drive(SCOPE_AND_TARGETS, [...keys, "p"]).state;
		expect(folded.peeking).toBe(true);
		const back = drive(SCOPE_AND_TARGETS, [...keys, "p", "p"]).state;
		expect(back).toEqual(before);
	});

	test("folded, Esc and Enter only bring it back (no dismissal, no choice); other keys do nothing", () => {
		const folded = drive(SCOPE_AND_TARGETS, ["p", KEY.down, "2", "s", KEY.space]).state;
		expect(folded.peeking).toBe(true);
		expect(folded.questions[0]).toEqual(initialState(SCOPE_AND_TARGETS).questions[0]);
		for (const key of [KEY.escape, KEY.enter]) {
			const back = drive(SCOPE_AND_TARGETS, ["p", key]).state;
			expect(back.peeking).toBe(false);
			expect(back.escArmed).toBe(false);
			expect(back.outcome).toBeUndefined();
			expect(back.questions[0]?.chosen).toEqual([]);
		}
	});

	test("in the editor p is text, not a fold", () => {
		const state = drive(SCOPE_AND_TARGETS, [TYPE_ROW_OF_SCOPE, KEY.enter, "p", KEY.enter]).state;
		expect(state.peeking).toBe(false);
		expect(state.questions[0]?.customText).toBe("p");
	});
});

function say(phrase: Phrase | undefined): string | undefined {
	return phrase && ENGLISH.say(phrase);
}

describe("You decide (the row after “Type something…”)", () => {
	const choose = (form: AskForm, keys: string[]) => drive(form, keys, piKeybindings(), "choose").state;
	const DECIDE_ROW_OF_SCOPE = "5";

	test("Enter on it leaves a required question to the model: an answer for Submit, in delegated, nothing chosen", () => {
		const state = choose(SCOPE_AND_TARGETS, [KEY.up, KEY.enter]);
		const qs = state.questions[0];
		expect(qs?.delegated).toBe(true);
		expect(qs?.chosen).toEqual([]);
		expect(isAnswered(qs as never)).toBe(true);
		expect(missingRequired(state)).toEqual([1]);
		const result = collect(state, "dismissed");
		expect(result.delegated).toEqual(["scope"]);
		expect(result.answers.scope).toBeUndefined();
		expect(result.skipped).toEqual([]);
	});

	test("its number reaches it: a one-question form submits at once with the question left to the model", () => {
		const state = choose(ONE_QUESTION, [DECIDE_ROW_OF_SCOPE]);
		expect(state.outcome).toBe("answered");
		expect(collect(state, "answered")).toEqual({
			status: "answered",
			answers: {},
			skipped: [],
			notes: [],
			delegated: ["scope"],
		});
	});

	test("with 8 options and “Type something…” it is the tenth row: 0 reaches it", () => {
		const eight = formOf(
			question("pick", { header: "Pick", options: ["A", "B", "C", "D", "E", "F", "G", "H"].map((l) => option(l)) }),
		);
		expect(collect(choose(eight, ["0"]), "answered").delegated).toEqual(["pick"]);
	});

	test("it is exclusive: choosing an option, saving own text or skipping lets go of it, and it clears them", () => {
		const optional = formOf(question("extra", { header: "Extra", required: false }), question("more"));
		let state = choose(optional, ["1", KEY.shiftTab, "5"]);
		expect(state.questions[0]).toMatchObject({ delegated: true, chosen: [] });
		state = choose(optional, ["5", KEY.shiftTab, "2"]);
		expect(state.questions[0]).toMatchObject({ delegated: false, chosen: [1] });
		state = choose(optional, ["5", KEY.shiftTab, "4", ...type("mine"), KEY.enter]);
		expect(state.questions[0]).toMatchObject({ delegated: false, customChosen: true, customText: "mine" });
		state = choose(optional, ["5", KEY.shiftTab, "s"]);
		expect(state.questions[0]).toMatchObject({ delegated: false, skipped: true });
	});

	test("in a multi-select Space on it clears the options toggled, and Space on an option lets go of it", () => {
		let state = choose(SCOPE_AND_TARGETS, [KEY.tab, "1", "3", "5"]);
		expect(state.questions[1]).toMatchObject({ delegated: true, chosen: [] });
		state = choose(SCOPE_AND_TARGETS, [KEY.tab, "5", "2"]);
		expect(state.questions[1]).toMatchObject({ delegated: false, chosen: [1] });
		// Enter on it finishes the question, as Done.
		state = choose(SCOPE_AND_TARGETS, [KEY.tab, "1", KEY.up, KEY.enter]);
		expect(state.questions[1]).toMatchObject({ delegated: true, chosen: [] });
		expect(state.tab).toBe(0);
	});

	test("the setting turns the row off; a form from a child that reads relay v1 has it on optional questions only", () => {
		const off = initialState(REQUIRED_AND_OPTIONAL, { youDecide: false });
		expect(off.delegable).toEqual([false, false, false]);
		expect(update(off, { type: "move", delta: -1 }).questions[0]?.focus).toBe(2);
		expect(initialState(REQUIRED_AND_OPTIONAL, { replyVersion: 1 }).delegable).toEqual([false, true, false]);
		expect(initialState(REQUIRED_AND_OPTIONAL, { replyVersion: 2 }).delegable).toEqual([true, true, true]);
	});
});
