/**
 * The form's one key table. Each entry says which keys give which command in
 * which mode, and how the help screen and the hint line speak of it; keymap.ts
 * reads it three ways: to match input, to name the keys on the hint line, and
 * to list them on the `?` screen. A key is added, moved or reworded here and
 * nowhere else.
 *
 * Keys pi has a binding for are named by the binding (tui.select.*,
 * tui.input.*, app.*), so a user's remapping applies to the form, its hint and
 * its help alike; the form's own letters and arrows are pi-tui key ids.
 */

import { Key, type KeybindingsManager, type KeyId } from "@mariozechner/pi-tui";
import type { Action } from "../machine/update.ts";

/** Where a key is read: the options, the help screen, the open editor. */
export type KeyMode = "form" | "help" | "editor" | "collapsed";

/**
 * What a key asks for. Most are plain state actions; the rest need something
 * only the component has (the editor's text, the host).
 */
export type Command =
	| Action
	/** Save the editor's text. */
	| { type: "editorSubmit" }
	/** Leave the editor; what was typed becomes a draft. */
	| { type: "editorCancel" }
	/** Give the key to the editor. */
	| { type: "editorInput" }
	/** Edit the editor's text in $VISUAL / $EDITOR. */
	| { type: "externalEditor" }
	/** pi's interrupt/clear key (ctrl+c by default): the tool aborts the run. */
	| { type: "interrupt" };

export type Binding = Parameters<KeybindingsManager["matches"]>[1];

/**
 * Which act a key reaches when several list it: "first" before every other,
 * "last" after every other (otherwise the table's order decides).
 */
export type Precedence = "first" | "last";

/**
 * A key as the user has it: one of pi's bindings or one of the form's own
 * keys. pi's clear key (ctrl+c) interrupts wherever it is, though
 * tui.select.cancel lists it too; pi's interrupt key is Esc by default, and
 * Esc belongs to the form.
 */
export type KeySource = { binding: Binding; precedence?: Precedence } | { key: KeyId };

/** Keys that give one command in the listed modes. */
export interface KeyAct {
	readonly modes: readonly KeyMode[];
	readonly keys: readonly KeySource[];
	readonly command: Command;
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
	| "chat"
	| "scroll"
	| "help"
	| "peek"
	| "unpeek"
	| "dismiss"
	| "interrupt"
	| "save"
	| "newLine"
	| "external"
	| "clearLine"
	| "back"
	| "close";

export interface KeyEntry {
	readonly id: KeyHelpId;
	/** The help screen lists an entry's acts with distinct keys, in this order; the hint line the first key of each. */
	readonly acts: readonly KeyAct[];
	/** What the help screen says the keys do. */
	readonly help: string;
	/** The hint line's word for it. */
	readonly hint: string;
	/** Shown instead of the keys, where listing them would say less (the digits). */
	readonly label?: string;
}

const FORM: readonly KeyMode[] = ["form"];
const HELP: readonly KeyMode[] = ["help"];
const EDITOR: readonly KeyMode[] = ["editor"];
const PAGED: readonly KeyMode[] = ["form", "help"];
const COLLAPSED: readonly KeyMode[] = ["collapsed"];
const EVERYWHERE: readonly KeyMode[] = ["form", "help", "editor", "collapsed"];

const UP: readonly KeySource[] = [{ binding: "tui.select.up" }, { key: "k" }];
const DOWN: readonly KeySource[] = [{ binding: "tui.select.down" }, { key: "j" }];
const CONFIRM: readonly KeySource[] = [{ binding: "tui.select.confirm" }];
const ESCAPE: readonly KeySource[] = [{ key: Key.escape }, { binding: "tui.select.cancel" }];
const DIGITS: readonly KeyId[] = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];

const choose: KeyAct = { modes: FORM, keys: CONFIRM, command: { type: "choose" } };

/**
 * In the order the help screen lists them. Where two acts of one mode list
 * the same key, the first wins, unless a binding's precedence says otherwise.
 */
export const KEY_TABLE: readonly KeyEntry[] = [
	{
		id: "move",
		acts: [
			{ modes: FORM, keys: UP, command: { type: "move", delta: -1 } },
			{ modes: FORM, keys: DOWN, command: { type: "move", delta: 1 } },
			// On the help screen the same keys scroll it a line at a time.
			{ modes: HELP, keys: UP, command: { type: "page", direction: -1, lines: "line" } },
			{ modes: HELP, keys: DOWN, command: { type: "page", direction: 1, lines: "line" } },
		],
		help: "move between options (wraps around)",
		hint: "move",
	},
	{
		id: "focus",
		acts: DIGITS.map((key, row): KeyAct => ({ modes: FORM, keys: [{ key }], command: { type: "number", row } })),
		label: "1–9",
		help: "choose that option (multi-select: toggle it; “Type something…”: write); with the numberKeys setting “focus”, only focus it",
		hint: "choose",
	},
	{ id: "choose", acts: [choose], help: "choose the focused option; on Submit, submit", hint: "choose" },
	{ id: "toggle", acts: [{ modes: FORM, keys: [{ key: Key.space }], command: { type: "toggle" } }], help: "multi-select: toggle the focused option", hint: "toggle" },
	{ id: "done", acts: [choose], help: "multi-select: done with the selected options", hint: "done" },
	{ id: "write", acts: [choose], help: "on “Type something…”: write your own answer", hint: "write" },
	{
		id: "tabs",
		acts: [
			{ modes: FORM, keys: [{ key: Key.left }, { key: Key.shift("tab") }], command: { type: "switchTab", delta: -1 } },
			{ modes: FORM, keys: [{ key: Key.right }, { binding: "tui.input.tab" }], command: { type: "switchTab", delta: 1 } },
		],
		help: "previous / next question (Submit included)",
		hint: "questions",
	},
	{
		id: "note",
		acts: [{ modes: FORM, keys: [{ key: "n" }], command: { type: "openNote" } }],
		help: "add a note to the focused option (on “Type something…”: to the question; on Submit: to the whole form)",
		hint: "note",
	},
	{
		id: "questionNote",
		acts: [{ modes: FORM, keys: [{ key: Key.shift("n") }], command: { type: "openQuestionNote" } }],
		help: "add a note to the question (on Submit: to the whole form)",
		hint: "note on question",
	},
	{ id: "skip", acts: [{ modes: FORM, keys: [{ key: "s" }], command: { type: "skip" } }], help: "skip an optional question", hint: "skip" },
	{
		id: "chat",
		acts: [{ modes: FORM, keys: [{ key: "c" }], command: { type: "openChat" } }],
		help: "reply in chat instead: write a message to the model; the form closes and your answers so far are kept",
		hint: "reply in chat",
	},
	{
		id: "scroll",
		acts: [
			{ modes: PAGED, keys: [{ binding: "tui.select.pageUp" }], command: { type: "page", direction: -1 } },
			{ modes: PAGED, keys: [{ binding: "tui.select.pageDown" }], command: { type: "page", direction: 1 } },
		],
		help: "scroll long text",
		hint: "scroll",
	},
	{ id: "help", acts: [{ modes: FORM, keys: [{ key: Key.question }], command: { type: "toggleHelp" } }], help: "show this help", hint: "help" },
	{
		id: "peek",
		acts: [{ modes: FORM, keys: [{ key: "p" }], command: { type: "toggleCollapsed" } }],
		help: "peek: fold the form to one line to read the conversation above it (scroll your terminal)",
		hint: "peek",
	},
	{
		id: "unpeek",
		// Folded, the keys that would end or act on the form only bring it back.
		acts: [{ modes: COLLAPSED, keys: [{ key: "p" }, { key: Key.escape }, ...CONFIRM], command: { type: "toggleCollapsed" } }],
		help: "folded: bring the form back, every answer, note and draft as it was",
		hint: "show the form",
	},
	{
		id: "dismiss",
		acts: [{ modes: FORM, keys: ESCAPE, command: { type: "escape" } }],
		help: "close the editor or this help; on the form press it twice to dismiss",
		hint: "dismiss",
	},
	{
		id: "interrupt",
		acts: [
			{ modes: EVERYWHERE, keys: [{ binding: "app.clear", precedence: "first" }], command: { type: "interrupt" } },
			{ modes: EVERYWHERE, keys: [{ binding: "app.interrupt", precedence: "last" }], command: { type: "interrupt" } },
		],
		help: "interrupt: stop the agent run",
		hint: "interrupt",
	},
	{ id: "save", acts: [{ modes: EDITOR, keys: [{ binding: "tui.input.submit" }], command: { type: "editorSubmit" } }], help: "in the editor: save", hint: "save" },
	{
		id: "newLine",
		// The Editor makes the new line itself; listed so the help and the hint name the user's key.
		acts: [{ modes: EDITOR, keys: [{ binding: "tui.input.newLine" }], command: { type: "editorInput" } }],
		help: "in the editor: new line",
		hint: "new line",
	},
	{
		id: "external",
		acts: [{ modes: EDITOR, keys: [{ binding: "app.editor.external" }], command: { type: "externalEditor" } }],
		help: "in the editor: edit the text in your $VISUAL / $EDITOR, as in pi's own editor",
		hint: "external editor",
	},
	{
		id: "clearLine",
		// The Editor deletes to the line start itself; listed so the help names the user's key.
		acts: [{ modes: EDITOR, keys: [{ binding: "tui.editor.deleteToLineStart" }], command: { type: "editorInput" } }],
		help: "in the editor: delete to the start of the line",
		hint: "clear line",
	},
	{
		id: "back",
		acts: [{ modes: EDITOR, keys: ESCAPE, command: { type: "editorCancel" } }],
		help: "in the editor: back to the options, keeping what you typed as a draft",
		hint: "back",
	},
	{
		id: "close",
		acts: [
			{ modes: HELP, keys: ESCAPE, command: { type: "escape" } },
			{ modes: HELP, keys: [{ key: Key.question }], command: { type: "toggleHelp" } },
		],
		help: "close this help",
		hint: "close",
	},
];
