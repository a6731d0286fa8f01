/**
 * What the form tests share: raw key strings, a keybindings manager with pi's
 * defaults, small forms, a plain view context, and a driver that feeds raw
 * keys through the keymap into the state machine.
 */

import { ENGLISH, type Texts } from "../../src/i18n/texts.ts";
import { KeybindingsManager, TUI_KEYBINDINGS } from "@mariozechner/pi-tui";
import { type Command, commandForKey, keyModeOf, keyNames, keyTable } from "../../src/form/keymap.ts";
import type { ViewContext } from "../../src/form/layout.ts";
import { editorPrefill, type FormState } from "../../src/machine/model.ts";
import { initialState, update } from "../../src/machine/update.ts";
import { TextFitter } from "../../src/form/text-fit.ts";
import { type FormTheme, formThemeFrom } from "../../src/form/theme.ts";
import type { AskForm, AskOption, AskQuestion, NumberKeys } from "../../src/core/types.ts";

const identity = (s: string): string => s;

/** No colours at all: what the view tests render with. */
export const plainTheme: FormTheme = {
	text: identity,
	accent: identity,
	muted: identity,
	dim: identity,
	success: identity,
	warning: identity,
	error: identity,
	bold: identity,
	selected: identity,
	border: identity,
};

/** Raw terminal input, as a legacy (non-Kitty) terminal sends it. */
export const KEY = {
	up: "\x1b[A",
	down: "\x1b[B",
	right: "\x1b[C",
	left: "\x1b[D",
	enter: "\r",
	escape: "\x1b",
	tab: "\t",
	shiftTab: "\x1b[Z",
	space: " ",
	pageUp: "\x1b[5~",
	pageDown: "\x1b[6~",
	backspace: "\x7f",
	ctrlC: "\x03",
	shiftEnter: "\x1b[13;2u",
	paste: (text: string) => `\x1b[200~${text}\x1b[201~`,
} as const;

/** pi's own app bindings the form uses, with pi 0.73.1's defaults (see pi's core/keybindings.js). */
export const APP_KEYBINDINGS = {
	"app.interrupt": { defaultKeys: "escape", description: "Cancel or abort" },
	"app.clear": { defaultKeys: "ctrl+c", description: "Clear editor" },
	"app.editor.external": { defaultKeys: "ctrl+g", description: "Open external editor" },
	"app.clipboard.pasteImage": { defaultKeys: "ctrl+v", description: "Paste image from clipboard" },
} as const;

export function piKeybindings(user: Record<string, string | string[]> = {}): KeybindingsManager {
	return new KeybindingsManager({ ...TUI_KEYBINDINGS, ...APP_KEYBINDINGS }, user as never);
}

export function option(label: string, extra: Partial<AskOption> = {}): AskOption {
	return { label, value: extra.value ?? label, recommended: false, ...extra };
}

export function question(id: string, extra: Partial<AskQuestion> = {}): AskQuestion {
	return {
		id,
		header: extra.header ?? id[0]?.toUpperCase() + id.slice(1),
		question: `Which ${id}?`,
		options: [option("Alpha"), option("Beta"), option("Gamma")],
		multiSelect: false,
		allowOther: true,
		required: true,
		...extra,
	};
}

export function formOf(...questions: AskQuestion[]): AskForm {
	return { questions };
}

/** The two-question form most tests use: Scope (single), Targets (multi). */
export const SCOPE_AND_TARGETS = formOf(
	question("scope", {
		header: "Scope",
		options: [option("Small"), option("Medium", { recommended: true }), option("Large")],
	}),
	question("targets", {
		header: "Targets",
		multiSelect: true,
		options: [option("Linux"), option("macOS"), option("Windows")],
	}),
);

/** A theme that colours like pi's (SGR codes around each piece), to check that styling never changes widths. */
export const colourTheme: FormTheme = formThemeFrom({
	fg: (color: string, s: string) => `\x1b[38;5;${color.length}m${s}\x1b[39m`,
	bg: (_color: string, s: string) => `\x1b[48;5;236m${s}\x1b[49m`,
	bold: (s: string) => `\x1b[1m${s}\x1b[22m`,
} as never);

export function plainContext(kb = piKeybindings(), theme: FormTheme = plainTheme, texts: Texts = ENGLISH): ViewContext {
	return { theme, fit: new TextFitter(), keys: keyNames(kb, texts), texts };
}

export function plainTable(kb = piKeybindings(), texts: Texts = ENGLISH) {
	return keyTable(kb, texts);
}

/**
 * Feeds raw keys through the keymap into update(). The editor is stood in
 * for by a plain buffer: printable keys append, Backspace deletes, Shift+Enter
 * adds a newline; what the component does with the real Editor is tested in
 * component.test.ts.
 */
/**
 * Feeds `keys` through the keymap into update. Number keys only focus here
 * unless `numberKeys` says otherwise (the rows were written for digits that
 * focus; rows for digits that choose, the default, pass "choose").
 */
export function drive(
	form: AskForm,
	keys: readonly string[],
	kb = piKeybindings(),
	numberKeys: NumberKeys = "focus",
): { state: FormState; commands: Command[] } {
	let state = initialState(form, { numberKeys });
	let buffer = "";
	const commands: Command[] = [];
	for (const data of keys) {
		const overlayBefore = state.overlay;
		const command = commandForKey(data, keyModeOf(state), kb);
		if (!command) continue;
		commands.push(command);
		switch (command.type) {
			case "editorInput":
				if (data === KEY.backspace) buffer = buffer.slice(0, -1);
				else if (data === KEY.shiftEnter) buffer += "\n";
				else if (data.startsWith("\x1b[200~")) buffer += data.slice(6, -6);
				else buffer += data;
				continue;
			case "editorDetach":
				// The buffer has no cursor: at its end, which is its start only when it is empty.
				if (buffer === "") state = update(state, { type: "detach" });
				else buffer = buffer.slice(0, -1);
				break;
			case "editorSubmit":
				state = update(state, { type: "editorSubmitted", text: buffer });
				break;
			case "editorCancel":
				state = update(state, { type: "editorCancelled", draft: buffer });
				break;
			case "interrupt":
			case "externalEditor":
			case "editorPasteImage":
				continue;
			default:
				state = update(state, command);
		}
		// A newly opened editor (also one a save moved on to: a text-only question) starts from its prefill.
		if (state.overlay !== overlayBefore && state.overlay.kind === "editor") buffer = prefillOf(state);
	}
	return { state, commands };
}

function prefillOf(state: FormState): string {
	return state.overlay.kind === "editor" ? editorPrefill(state, state.overlay.target) : "";
}

/** Types text as single-character keys. */
export function type(text: string): string[] {
	return [...text];
}
