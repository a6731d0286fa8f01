/**
 * The form's one key table: which keys give which command in which mode
 * (their words: en.ts, `key.<id>.help` and `key.<id>.hint`). keymap.ts reads
 * it to match input, for the hint line and for the `?` screen. Keys pi has a
 * binding for are named by the binding, so a user's remapping applies alike.
 */

import { Key, type KeybindingsManager, type KeyId } from "@mariozechner/pi-tui";
import type { Action } from "../machine/update.ts";

/** Where a key is read: the options, the help screen, the open editor. */
export type KeyMode = "form" | "help" | "editor" | "peeking";

/**
 * What a key asks for: a state action, something the form's editor does (form/editor-keys.ts: save its text, leave it
 * as a draft, take the key, a pasted path, Backspace at the text's start, pi's paste-image key, $VISUAL / $EDITOR), or
 * (pi's interrupt/clear key, ctrl+c by default) abort the run.
 */
export type Command = Action | { type: EditorCommand | "interrupt" };

export type EditorCommand =
	| "editorSubmit"
	| "editorCancel"
	| "editorInput"
	| "editorDetach"
	| "editorPasteImage"
	| "externalEditor";

type Binding = Parameters<KeybindingsManager["matches"]>[1];

/** Which act a key reaches when several list it, before or after the table's order. */
export type Precedence = "first" | "last";

/** A key as the user has it: one of pi's bindings, one of the form's own keys, or a setting's. */
export type KeySource = { binding: Binding; precedence?: Precedence } | { key: KeyId } | { slot: keyof KeySlots };

/**
 * The form's keys a user may choose in the settings file; a KeySource `{ slot }` stands for one. `peek` folds the form
 * to one line and back (the peekKey setting).
 */
export type KeySlots = { readonly peek: KeyId };

export const DEFAULT_SLOTS: KeySlots = { peek: "p" };

/** Keys that give one command in the listed modes. */
export type KeyAct = {
	readonly modes: readonly KeyMode[];
	readonly keys: readonly KeySource[];
	readonly command: Command;
};

export interface KeyEntry<Id extends string = KeyHelpId> {
	readonly id: Id;
	/** The help screen lists an entry's acts with distinct keys, in this order; the hint line the first key of each. */
	readonly acts: readonly KeyAct[];
	/** Shown instead of the keys, where listing them would say less (the digits). */
	readonly label?: string;
	/**
	 * The help screen says this entry in that entry's row, after the row's own words, instead of a row of its own
	 * (one row for Enter, one for Esc): where its keys are the row's, or where its words name its keys (`namesKeys`:
	 * its phrase has `{keys}`).
	 */
	readonly helpIn?: Id;
	readonly namesKeys?: true;
}

const FORM: readonly KeyMode[] = ["form"];
const HELP: readonly KeyMode[] = ["help"];
const EDITOR: readonly KeyMode[] = ["editor"];
const PAGED: readonly KeyMode[] = ["form", "help"];
const PEEKING: readonly KeyMode[] = ["peeking"];
const EVERYWHERE: readonly KeyMode[] = ["form", "help", "editor", "peeking"];

const UP: readonly KeySource[] = [{ binding: "tui.select.up" }, { key: "k" }];
const DOWN: readonly KeySource[] = [{ binding: "tui.select.down" }, { key: "j" }];
const CONFIRM: readonly KeySource[] = [{ binding: "tui.select.confirm" }];
const ESCAPE: readonly KeySource[] = [{ key: Key.escape }, { binding: "tui.select.cancel" }];
/** Row by row: 0 is the tenth ("You decide" after 8 options and "Type something…"). */
const DIGITS: readonly KeyId[] = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];

const choose: KeyAct = { modes: FORM, keys: CONFIRM, command: { type: "choose" } };

/** An entry of one act: `keys` give `command` in `modes`. */
function one<const Id extends string>(
	id: Id,
	modes: readonly KeyMode[],
	keys: readonly KeySource[],
	command: Command,
): KeyEntry<Id> {
	return { id, acts: [{ modes, keys, command }] };
}

const SAVE = one("save", EDITOR, [{ binding: "tui.input.submit" }], { type: "editorSubmit" });

/**
 * In the help screen's order; of two acts of one mode with the same key, the first wins unless a precedence says
 * otherwise.
 */
const TABLE = [
	{
		id: "move",
		acts: [
			{ modes: FORM, keys: UP, command: { type: "move", delta: -1 } },
			{ modes: FORM, keys: DOWN, command: { type: "move", delta: 1 } },
			// On the help screen the same keys scroll it a line at a time.
			{ modes: HELP, keys: UP, command: { type: "page", direction: -1, lines: "line" } },
			{ modes: HELP, keys: DOWN, command: { type: "page", direction: 1, lines: "line" } },
		],
	},
	{
		id: "focus",
		acts: DIGITS.map((key, row): KeyAct => ({ modes: FORM, keys: [{ key }], command: { type: "number", row } })),
		label: "1–9 0",
	},
	{ id: "choose", acts: [choose] },
	one("toggle", FORM, [{ key: Key.space }], { type: "toggle" }),
	{ id: "done", acts: [choose], helpIn: "choose" },
	{ id: "write", acts: [choose], helpIn: "choose" },
	{
		id: "tabs",
		acts: [
			{ modes: FORM, keys: [{ key: Key.left }, { key: Key.shift("tab") }], command: { type: "switchTab", delta: -1 } },
			{
				modes: FORM,
				keys: [{ key: Key.right }, { binding: "tui.input.tab" }],
				command: { type: "switchTab", delta: 1 },
			},
		],
	},
	one("note", FORM, [{ key: "n" }], { type: "openNote" }),
	one("questionNote", FORM, [{ key: Key.shift("n") }], { type: "openQuestionNote" }),
	one("skip", FORM, [{ key: "s" }], { type: "skip" }),
	one("chat", FORM, [{ key: "c" }], { type: "openChat" }),
	{
		id: "scroll",
		acts: [
			{ modes: PAGED, keys: [{ binding: "tui.select.pageUp" }], command: { type: "page", direction: -1 } },
			{ modes: PAGED, keys: [{ binding: "tui.select.pageDown" }], command: { type: "page", direction: 1 } },
		],
	},
	one("help", FORM, [{ key: Key.question }], { type: "toggleHelp" }),
	one("peek", FORM, [{ slot: "peek" }], { type: "togglePeek" }),
	// Folded, the keys that would end or act on the form only bring it back.
	{
		...one("unpeek", PEEKING, [{ slot: "peek" }, { key: Key.escape }, ...CONFIRM], { type: "togglePeek" }),
		helpIn: "peek",
		namesKeys: true,
	},
	one("dismiss", FORM, ESCAPE, { type: "escape" }),
	{
		id: "interrupt",
		// pi's clear key interrupts though tui.select.cancel lists it too; its interrupt key (Esc by default) yields to the
		// form's.
		acts: [
			{ modes: EVERYWHERE, keys: [{ binding: "app.clear", precedence: "first" }], command: { type: "interrupt" } },
			{ modes: EVERYWHERE, keys: [{ binding: "app.interrupt", precedence: "last" }], command: { type: "interrupt" } },
		],
	},
	// The Editor makes the new line itself; listed so the help and the hint name the user's key.
	// Before save, as the Editor tries them: pi 1.x binds ctrl+j, which sends "\n", and "\n" also reads as Enter.
	one("newLine", EDITOR, [{ binding: "tui.input.newLine" }], { type: "editorInput" }),
	{ ...SAVE, helpIn: "choose" },
	// The same act in the message for the chat, where it sends the message and ends the form: the hint says so. Its
	// key is in the editor's match list twice, as the same act: the first gives the command, the second never acts.
	{ id: "send", acts: SAVE.acts, helpIn: "save" },
	one("external", EDITOR, [{ binding: "app.editor.external" }], { type: "externalEditor" }),
	// The Editor deletes to the line start itself; listed so the help names the user's key.
	one("clearLine", EDITOR, [{ binding: "tui.editor.deleteToLineStart" }], { type: "editorInput" }),
	// At the text's start, the last attached file goes; anywhere else the Editor deletes a character.
	one("detach", EDITOR, [{ binding: "tui.editor.deleteCharBackward" }], { type: "editorDetach" }),
	// pi's own paste-image key (ctrl+v by default): the clipboard's image, where pi exports its reader.
	one("pasteImage", EDITOR, [{ binding: "app.clipboard.pasteImage" }], { type: "editorPasteImage" }),
	{ ...one("back", EDITOR, ESCAPE, { type: "editorCancel" }), helpIn: "dismiss" },
	{
		id: "close",
		acts: [
			{ modes: HELP, keys: ESCAPE, command: { type: "escape" } },
			{ modes: HELP, keys: [{ key: Key.question }], command: { type: "toggleHelp" } },
		],
		helpIn: "dismiss",
		namesKeys: true,
	},
] as const satisfies readonly KeyEntry<string>[];

/** An entry's id: it names the entry's words in the catalogue (`key.<id>.help`, `key.<id>.hint`). */
export type KeyHelpId = (typeof TABLE)[number]["id"];
export const KEY_TABLE: readonly KeyEntry[] = TABLE;
