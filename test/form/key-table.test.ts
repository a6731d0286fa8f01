/**
 * The one key table, read three ways: every key the help screen names gives
 * the entry's command, every key that gives it is named, and a user's own
 * bindings show up where their keys act.
 */

import { ENGLISH } from "../../src/i18n/texts.ts";
import { type KeybindingsManager, type KeyId } from "@mariozechner/pi-tui";
import { describe, expect, test } from "vitest";
import { DEFAULT_SLOTS, KEY_TABLE, type KeySource } from "../../src/form/key-table.ts";
import { isFreePeekKey } from "../../src/settings/table.ts";
import { commandForKey, keyName, keyNames, keyTable } from "../../src/form/keymap.ts";
import { renderHelpView } from "../../src/form/help-view.ts";
import { KEY, piKeybindings, plainContext } from "./support.ts";

const REMAPPED = {
	"tui.select.up": "ctrl+p",
	"tui.select.down": "ctrl+n",
	"tui.select.pageUp": "ctrl+b",
	"tui.select.pageDown": "ctrl+f",
	"tui.select.confirm": "ctrl+o",
	"tui.select.cancel": ["escape", "ctrl+g"],
	"tui.input.tab": ["tab", "ctrl+t"],
	"tui.input.submit": "ctrl+s",
	"tui.input.newLine": "ctrl+e",
	"app.interrupt": "ctrl+x",
	"app.clear": "ctrl+q",
};

const SETUPS: [string, KeybindingsManager][] = [
	["pi's defaults", piKeybindings()],
	["a user's own bindings", piKeybindings(REMAPPED)],
];

/** What the terminal sends for a key id. */
function raw(id: KeyId): string {
	const named: Record<string, string> = {
		up: KEY.up,
		down: KEY.down,
		left: KEY.left,
		right: KEY.right,
		enter: KEY.enter,
		escape: KEY.escape,
		tab: KEY.tab,
		"shift+tab": KEY.shiftTab,
		"shift+enter": KEY.shiftEnter,
		space: KEY.space,
		backspace: KEY.backspace,
		pageUp: KEY.pageUp,
		pageDown: KEY.pageDown,
	};
	const known = named[id];
	if (known !== undefined) return known;
	const ctrl = /^ctrl\+([a-z])$/.exec(id)?.[1];
	if (ctrl) return String.fromCharCode(ctrl.charCodeAt(0) - 96);
	const shifted = /^shift\+([a-z])$/.exec(id)?.[1];
	if (shifted) return shifted.toUpperCase();
	if (id.length === 1) return id;
	throw new Error(`no raw input for ${id}`);
}

function idsOf(source: KeySource, kb: KeybindingsManager): KeyId[] {
	return "binding" in source ? kb.getKeys(source.binding) : ["key" in source ? source.key : DEFAULT_SLOTS[source.slot]];
}

describe.each(SETUPS)("the key table with %s", (_name, kb) => {
	const table = keyTable(kb, ENGLISH);

	test("every key of every entry gives the entry's command exactly when the help names it there", () => {
		for (const entry of KEY_TABLE) {
			const shown = table.find((e) => e.id === entry.id);
			expect(shown, entry.id).toBeDefined();
			let named = 0;
			for (const act of entry.acts) {
				for (const mode of act.modes) {
					for (const id of act.keys.flatMap((source) => idsOf(source, kb))) {
						const gives = commandForKey(raw(id), mode, kb);
						const acts = JSON.stringify(gives) === JSON.stringify(act.command);
						if (acts) named++;
						// Labelled entries (the digits) say "1–9" for all of their keys.
						if (entry.label === undefined) {
							const names = shown?.keys.split(/[ /]/) ?? [];
							expect(names.includes(keyName(id)), `${entry.id} in ${mode}: ${id} gives ${JSON.stringify(gives)}`).toBe(
								acts,
							);
						}
					}
				}
			}
			expect(named, `${entry.id}: no key gives its command`).toBeGreaterThan(0);
		}
	});

	test("the help screen lists every entry with its keys, a folded one in its row with keys it names or shares", () => {
		const ctx = { ...plainContext(kb), keys: keyNames(kb, ENGLISH) };
		// Wide enough that no action wraps (the key column still wraps between an entry's key groups).
		const lines = renderHelpView(table, 0, 400, 100, ctx).lines;
		const screen = lines.join("\n");
		for (const entry of table) {
			const source = KEY_TABLE.find((e) => e.id === entry.id);
			if (!entry.folded) {
				expect(screen).toContain(entry.action);
				for (const group of entry.keys.split(" ")) expect(screen).toContain(group);
				continue;
			}
			// Its row is the first entry up its helpIn chain that has a row of its own (send → save → choose).
			const hostOf = (id: string | undefined) => table.find((e) => e.id === KEY_TABLE.find((k) => k.id === id)?.helpIn);
			let host = hostOf(entry.id);
			while (host?.folded) host = hostOf(host.id);
			expect(host, entry.id).toBeDefined();
			const row = lines.find((line) => line.startsWith(`${host?.keys.split(" ")[0]} `)) ?? "";
			expect(row, entry.id).toContain(entry.action);
			// Its keys are its row's, or its words name them.
			const names = entry.keys.split(/[ /]/);
			if (source?.namesKeys) for (const name of names) expect(row, entry.id).toContain(name);
			else
				expect(
					names.every((name) => host?.keys.split(/[ /]/).includes(name)),
					entry.id,
				).toBe(true);
		}
	});
});

test("the help screen gives Enter and Esc one row each, all they do in it", () => {
	const kb = piKeybindings();
	const ctx = { ...plainContext(kb), keys: keyNames(kb, ENGLISH) };
	const lines = renderHelpView(keyTable(kb, ENGLISH), 0, 400, 100, ctx).lines;
	const keyColumn = lines.map((line) => line.split(/ {2,}/)[0] ?? "");
	const naming = (key: string) => keyColumn.filter((keys) => keys.split(/[ /]/).includes(key));
	expect(naming("enter")).toEqual(["enter"]);
	expect(naming("esc")).toEqual(["esc"]);
	const row = (keys: string) => lines.find((line) => line.startsWith(`${keys} `)) ?? "";
	expect(row("enter")).toContain("choose the focused option");
	expect(row("enter")).toContain("multi-select: done");
	expect(row("enter")).toContain("in the editor: save; in a chat message: send");
	expect(row("esc")).toContain("press it twice to dismiss");
	expect(row("esc")).toContain("in the editor: back to the options");
	expect(row("esc")).toContain("in this help: esc and ? close it");
	expect(row("p")).toContain("folded: p, esc, and enter bring the form back");
});

test("a user's own key for saving, not Enter, keeps a row of its own", () => {
	const kb = piKeybindings({ "tui.input.submit": "ctrl+s" });
	const table = keyTable(kb, ENGLISH);
	expect(table.find((entry) => entry.id === "save")?.folded).toBe(false);
	expect(table.find((entry) => entry.id === "choose")?.action).not.toContain("save");
	const lines = renderHelpView(table, 0, 400, 100, { ...plainContext(kb), keys: keyNames(kb, ENGLISH) }).lines;
	expect(lines.find((line) => line.startsWith("ctrl+s "))).toContain("in the editor: save; in a chat message: send");
	expect(lines.filter((line) => line.startsWith("ctrl+s "))).toHaveLength(1);
});

test("with no key for saving, the help says so in one row, saving and sending alike", () => {
	const kb = piKeybindings({ "tui.input.submit": [] });
	const lines = renderHelpView(keyTable(kb, ENGLISH), 0, 400, 100, {
		...plainContext(kb),
		keys: keyNames(kb, ENGLISH),
	}).lines;
	const rows = lines.filter((line) => line.includes("in the editor: save"));
	expect(rows).toHaveLength(1);
	expect(rows[0]).toMatch(/^\(unbound\) +in the editor: save; in a chat message: send$/);
	expect(lines.filter((line) => line.startsWith("(unbound) "))).toHaveLength(1);
});

test("the help and the hint name a user's own bindings, not pi's defaults", () => {
	const kb = piKeybindings(REMAPPED);
	const keysOf = (id: string) => keyTable(kb, ENGLISH).find((entry) => entry.id === id)?.keys;
	expect(keysOf("move")).toBe("ctrl+p/k ctrl+n/j");
	expect(keysOf("choose")).toBe("ctrl+o");
	expect(keysOf("tabs")).toBe("←/shift+tab →/tab/ctrl+t");
	expect(keysOf("scroll")).toBe("ctrl+b ctrl+f");
	expect(keysOf("dismiss")).toBe("esc/ctrl+g");
	expect(keysOf("interrupt")).toBe("ctrl+q ctrl+x");
	expect(keysOf("save")).toBe("ctrl+s");
	expect(keysOf("newLine")).toBe("ctrl+e");
	expect(keyNames(kb, ENGLISH)).toEqual({
		choose: "ctrl+o",
		escape: "esc",
		note: "n",
		peek: "p",
		questionNote: "N",
		pageUp: "ctrl+b",
		pageDown: "ctrl+f",
	});
});

test("by default Esc is the form's and ctrl+c interrupts, though pi lists both keys for other bindings too", () => {
	const kb = piKeybindings();
	const keysOf = (id: string) => keyTable(kb, ENGLISH).find((entry) => entry.id === id)?.keys;
	expect(keysOf("dismiss")).toBe("esc");
	expect(keysOf("interrupt")).toBe("ctrl+c");
	expect(commandForKey(KEY.escape, "form", kb)).toEqual({ type: "escape" });
	expect(commandForKey(KEY.ctrlC, "form", kb)).toEqual({ type: "interrupt" });
	expect(commandForKey(KEY.ctrlC, "editor", kb)).toEqual({ type: "interrupt" });
});

describe("the peek key a user chooses (peekKey)", () => {
	const F_KEYS = [
		"\x1bOP",
		"\x1bOQ",
		"\x1bOR",
		"\x1bOS",
		"\x1b[15~",
		"\x1b[17~",
		"\x1b[18~",
		"\x1b[19~",
		"\x1b[20~",
		"\x1b[21~",
		"\x1b[23~",
		"\x1b[24~",
	];
	const letters = [..."abcdefghijklmnopqrstuvwxyz"];
	const candidates: [string, string][] = [
		...letters.map((l): [string, string] => [l, l]),
		...letters.map((l): [string, string] => [`ctrl+${l}`, String.fromCharCode(l.charCodeAt(0) - 96)]),
		...letters.map((l): [string, string] => [`alt+${l}`, `\x1b${l}`]),
		...F_KEYS.map((sequence, i): [string, string] => [`f${i + 1}`, sequence]),
	];
	const kb = piKeybindings();
	const free = candidates.filter(([id]) => isFreePeekKey(id));

	test("the accepted keys are the candidates no act of the form reads already", () => {
		for (const [id, sequence] of candidates) {
			const taken = (["form", "peeking"] as const).some((mode) => {
				const command = commandForKey(sequence, mode, kb);
				return command !== undefined && command.type !== "otherKey" && !(id === "p" && command.type === "togglePeek");
			});
			if (isFreePeekKey(id)) expect(taken, `${id} is free, yet the form reads it`).toBe(false);
		}
		expect(free.map(([id]) => id)).toContain("ctrl+o");
		expect(free.length).toBeGreaterThan(60);
	});

	test("every accepted key folds and unfolds the form, and every other key keeps its act", () => {
		const others = candidates.filter(([id]) => id !== "p");
		for (const [id, sequence] of free) {
			const slots = { peek: id as KeyId };
			expect(commandForKey(sequence, "form", kb, slots), id).toEqual({ type: "togglePeek" });
			expect(commandForKey(sequence, "peeking", kb, slots), id).toEqual({ type: "togglePeek" });
			expect(keyTable(kb, ENGLISH, slots).find((e) => e.id === "peek")?.keys).toBe(keyName(id));
			for (const [otherId, other] of others) {
				if (otherId === id) continue;
				expect(commandForKey(other, "form", kb, slots), `${otherId} with peek on ${id}`).toEqual(
					commandForKey(other, "form", kb),
				);
			}
		}
	});
});
