/**
 * Raw terminal input → what the form should do, and the key names the hint
 * line and the help screen show.
 *
 * Keys that pi has a binding for go through its KeybindingsManager
 * (tui.select.*, tui.input.*, app.clear), so a user's remapping works here
 * too; the form's own letters and arrows go through pi-tui's matchesKey.
 * Pure: the manager is only read.
 */

import { Key, type KeybindingsManager, type KeyId, matchesKey } from "@mariozechner/pi-tui";
import { sanitizeLine } from "../sanitize.ts";
import type { Action } from "../machine/update.ts";

/**
 * What a key asks for. Most are plain state actions; the rest need something
 * only the component has (the editor's text, the last layout, the host).
 */
export type Command =
	| Action
	/** Save the editor's text. */
	| { type: "editorSubmit" }
	/** Leave the editor; what was typed becomes a draft. */
	| { type: "editorCancel" }
	/** Give the key to the editor. */
	| { type: "editorInput" }
	/** pi's interrupt/clear key (ctrl+c by default): the tool aborts the run. */
	| { type: "interrupt" };

export type KeyMode = "form" | "help" | "editor";

const DIGIT_KEYS: readonly KeyId[] = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];

export function commandForKey(data: string, mode: KeyMode, kb: KeybindingsManager): Command | undefined {
	if (kb.matches(data, "app.clear")) return { type: "interrupt" };
	// tui.select.cancel also lists ctrl+c; app.clear took it above when it is bound there.
	const isEscape = matchesKey(data, Key.escape) || kb.matches(data, "tui.select.cancel");
	// app.interrupt is Esc by default, and Esc belongs to the form; a remapped interrupt key still interrupts.
	if (!isEscape && kb.matches(data, "app.interrupt")) return { type: "interrupt" };
	if (mode === "editor") {
		if (isEscape) return { type: "editorCancel" };
		if (isEditorSubmit(data, kb)) return { type: "editorSubmit" };
		return { type: "editorInput" };
	}
	if (isEscape) return { type: "escape" };
	if (mode === "help") {
		if (matchesKey(data, Key.question)) return { type: "toggleHelp" };
		if (kb.matches(data, "tui.select.up") || matchesKey(data, "k")) return { type: "page", direction: -1, lines: "line" };
		if (kb.matches(data, "tui.select.down") || matchesKey(data, "j")) return { type: "page", direction: 1, lines: "line" };
		if (kb.matches(data, "tui.select.pageUp")) return { type: "page", direction: -1 };
		if (kb.matches(data, "tui.select.pageDown")) return { type: "page", direction: 1 };
		return undefined;
	}
	if (kb.matches(data, "tui.select.up") || matchesKey(data, "k")) return { type: "move", delta: -1 };
	if (kb.matches(data, "tui.select.down") || matchesKey(data, "j")) return { type: "move", delta: 1 };
	if (kb.matches(data, "tui.select.pageUp")) return { type: "page", direction: -1 };
	if (kb.matches(data, "tui.select.pageDown")) return { type: "page", direction: 1 };
	if (kb.matches(data, "tui.select.confirm")) return { type: "choose" };
	if (matchesKey(data, Key.space)) return { type: "toggle" };
	if (matchesKey(data, Key.shift("tab")) || matchesKey(data, Key.left)) return { type: "switchTab", delta: -1 };
	if (kb.matches(data, "tui.input.tab") || matchesKey(data, Key.right)) return { type: "switchTab", delta: 1 };
	for (let digit = 0; digit < DIGIT_KEYS.length; digit++) {
		const key = DIGIT_KEYS[digit];
		if (key && matchesKey(data, key)) return { type: "focus", row: digit };
	}
	if (matchesKey(data, "n")) return { type: "openNote" };
	if (matchesKey(data, Key.shift("n"))) return { type: "openQuestionNote" };
	if (matchesKey(data, Key.question)) return { type: "toggleHelp" };
	if (matchesKey(data, "s")) return { type: "skip" };
	return { type: "otherKey" };
}

/**
 * The user's submit key in the editor (pi's `tui.input.submit`). Whether it
 * saves is the component's call (submitEditor): it lets the Editor see the
 * key first, so a new-line variant of Enter still makes a new line.
 */
function isEditorSubmit(data: string, kb: KeybindingsManager): boolean {
	return kb.matches(data, "tui.input.submit");
}

// ── Key names for the hint line and the help screen ────────────────────────

/** The keys as the user has them bound, ready to show. */
export interface KeyNames {
	/** All keys that move, e.g. "↑/k" and "↓/j"; `move` is the short form, e.g. "↑↓". */
	up: string;
	down: string;
	move: string;
	choose: string;
	toggle: string;
	prevTab: string;
	nextTab: string;
	tabs: string;
	note: string;
	questionNote: string;
	skip: string;
	pageUp: string;
	pageDown: string;
	help: string;
	escape: string;
	interrupt: string;
	save: string;
	newLine: string;
}

const SYMBOLS: Record<string, string> = {
	up: "↑",
	down: "↓",
	left: "←",
	right: "→",
	escape: "esc",
	enter: "enter",
	return: "enter",
	pageUp: "pgup",
	pageDown: "pgdn",
	space: "space",
};

/** How a key id is shown; ids come from the user's keybindings file, so they are sanitised like any text. */
export function keyName(key: string): string {
	return SYMBOLS[key] ?? sanitizeLine(key);
}

type Binding = Parameters<KeybindingsManager["matches"]>[1];

function bound(kb: KeybindingsManager, binding: Binding, extra: string[] = []): string {
	const names = [...kb.getKeys(binding).map(keyName), ...extra];
	return [...new Set(names)].join("/") || "(unbound)";
}

function first(kb: KeybindingsManager, binding: Binding, fallback: string): string {
	const key = kb.getKeys(binding)[0];
	return key === undefined ? fallback : keyName(key);
}

export function keyNamesFrom(kb: KeybindingsManager): KeyNames {
	const up = first(kb, "tui.select.up", "k");
	const down = first(kb, "tui.select.down", "j");
	return {
		up: bound(kb, "tui.select.up", ["k"]),
		down: bound(kb, "tui.select.down", ["j"]),
		move: up.length === 1 && down.length === 1 ? `${up}${down}` : `${up}/${down}`,
		choose: bound(kb, "tui.select.confirm"),
		toggle: "space",
		prevTab: "←/shift+tab",
		nextTab: bound(kb, "tui.input.tab", ["→"]),
		tabs: "←→",
		note: "n",
		questionNote: "N",
		skip: "s",
		pageUp: bound(kb, "tui.select.pageUp"),
		pageDown: bound(kb, "tui.select.pageDown"),
		help: "?",
		escape: "esc",
		interrupt: bound(kb, "app.clear"),
		save: bound(kb, "tui.input.submit"),
		newLine: bound(kb, "tui.input.newLine"),
	};
}

export type KeyHelpId =
	| "move"
	| "focus"
	| "choose"
	| "toggle"
	| "done"
	| "write"
	| "tabs"
	| "note"
	| "questionNote"
	| "skip"
	| "scroll"
	| "help"
	| "dismiss"
	| "interrupt"
	| "save"
	| "newLine"
	| "back"
	| "close";

/** One entry of the key table: the keys, what they do, and the short form the hint line uses. */
export interface KeyHelp {
	id: KeyHelpId;
	keys: string;
	action: string;
	/** The hint line's form: fewer keys, one word. */
	hint: { keys: string; action: string };
}

/** The key table, in the order the help screen lists it. The hint line picks entries from it by id. */
export function keyTable(names: KeyNames): KeyHelp[] {
	return [
		{ id: "move", keys: `${names.up} ${names.down}`, action: "move between options (wraps around)", hint: { keys: names.move, action: "move" } },
		{ id: "focus", keys: "1–9", action: "focus that option", hint: { keys: "1–9", action: "focus" } },
		{
			id: "choose",
			keys: names.choose,
			action: "choose the focused option; on Submit, submit",
			hint: { keys: names.choose, action: "choose" },
		},
		{ id: "toggle", keys: names.toggle, action: "multi-select: toggle the focused option", hint: { keys: names.toggle, action: "toggle" } },
		{ id: "done", keys: names.choose, action: "multi-select: done with the selected options", hint: { keys: names.choose, action: "done" } },
		{ id: "write", keys: names.choose, action: "on “Type something…”: write your own answer", hint: { keys: names.choose, action: "write" } },
		{
			id: "tabs",
			keys: `${names.prevTab} ${names.nextTab}`,
			action: "previous / next question (Submit included)",
			hint: { keys: names.tabs, action: "questions" },
		},
		{
			id: "note",
			keys: names.note,
			action: "add a note to the focused option (on “Type something…”: to the question)",
			hint: { keys: names.note, action: "note" },
		},
		{ id: "questionNote", keys: names.questionNote, action: "add a note to the question", hint: { keys: names.questionNote, action: "note on question" } },
		{ id: "skip", keys: names.skip, action: "skip an optional question", hint: { keys: names.skip, action: "skip" } },
		{ id: "scroll", keys: `${names.pageUp} ${names.pageDown}`, action: "scroll long text", hint: { keys: `${names.pageUp}/${names.pageDown}`, action: "scroll" } },
		{ id: "help", keys: names.help, action: "show this help", hint: { keys: names.help, action: "help" } },
		{
			id: "dismiss",
			keys: names.escape,
			action: "close the editor or this help; on the form press it twice to dismiss",
			hint: { keys: names.escape, action: "dismiss" },
		},
		{ id: "interrupt", keys: names.interrupt, action: "interrupt: stop the agent run", hint: { keys: names.interrupt, action: "interrupt" } },
		{ id: "save", keys: names.save, action: "in the editor: save", hint: { keys: names.save, action: "save" } },
		{ id: "newLine", keys: names.newLine, action: "in the editor: new line", hint: { keys: names.newLine, action: "new line" } },
		{
			id: "back",
			keys: names.escape,
			action: "in the editor: back to the options, keeping what you typed as a draft",
			hint: { keys: names.escape, action: "back" },
		},
		{ id: "close", keys: `${names.help} ${names.escape}`, action: "close this help", hint: { keys: `${names.escape}/${names.help}`, action: "close" } },
	];
}
