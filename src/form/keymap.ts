/**
 * KEY_TABLE's readers (key-table.ts): raw input → command, and the keys'
 * names as the user has them bound, for the hint line and the help screen.
 */

import {
	decodeKittyPrintable,
	type KeybindingsManager,
	type KeyId,
	matchesKey,
	visibleWidth,
} from "@mariozechner/pi-tui";
import type { Texts } from "../i18n/texts.ts";
import type { FormState } from "../machine/model.ts";
import { sanitizeLine } from "../core/sanitize.ts";
import {
	type Command,
	DEFAULT_SLOTS,
	KEY_TABLE,
	type KeyAct,
	type KeyEntry,
	type KeyHelpId,
	type KeyMode,
	type KeySlots,
	type KeySource,
	type Precedence,
} from "./key-table.ts";

export type { Command, KeyHelpId, KeyMode, KeySlots } from "./key-table.ts";

/** Where the state reads its keys: the open editor, the help screen, or the options. */
export function keyModeOf(state: FormState): KeyMode {
	if (state.peeking) return "peeking";
	return state.overlay.kind === "none" ? "form" : state.overlay.kind;
}

export function commandForKey(
	data: string,
	mode: KeyMode,
	kb: KeybindingsManager,
	slots: KeySlots = DEFAULT_SLOTS,
): Command | undefined {
	for (const { source, act } of MATCH_ORDER[mode]) if (matches(data, source, kb, slots)) return act.command;
	if (mode === "editor") return { type: "editorInput" };
	return mode === "help" || mode === "peeking" ? undefined : { type: "otherKey" };
}

/** commandForKey, remembered per key for the life of a form (pi-tui parses key ids on each match); a paste is not. */
export function keyReader(
	kb: KeybindingsManager,
	slots: KeySlots,
): (data: string, mode: KeyMode) => Command | undefined {
	const known = new Map<string, Command | null>();
	return (data, mode) => {
		const key = `${mode} ${data}`;
		const hit = known.get(key);
		if (hit !== undefined) return hit ?? undefined;
		const command = commandForKey(data, mode, kb, slots);
		if (data.length <= 16) {
			if (known.size >= 512) known.clear();
			known.set(key, command ?? null);
		}
		return command;
	};
}

/** Of two sources that list one key, which input tries first: "first", then the table's order, then "last". */
const RANK: Record<Precedence | "table", number> = { first: 0, table: 1, last: 2 };
const precedenceOf = (source: KeySource): Precedence | "table" =>
	("binding" in source ? source.precedence : undefined) ?? "table";

/**
 * Per mode, every key source of the table in the order input tries them: built once, since it names bindings, not keys.
 */
const MATCH_ORDER: Record<KeyMode, readonly Candidate[]> = {
	form: matchOrder("form"),
	help: matchOrder("help"),
	editor: matchOrder("editor"),
	peeking: matchOrder("peeking"),
};

type Candidate = { source: KeySource; act: KeyAct };

function matchOrder(mode: KeyMode): Candidate[] {
	const candidates = KEY_TABLE.flatMap((entry) =>
		entry.acts.filter((act) => act.modes.includes(mode)).flatMap((act) => act.keys.map((source) => ({ source, act }))),
	);
	// Array.prototype.sort is stable: within a rank, the table's order stays.
	return candidates.sort((a, b) => RANK[precedenceOf(a.source)] - RANK[precedenceOf(b.source)]);
}

const matches = (data: string, source: KeySource, kb: KeybindingsManager, slots: KeySlots): boolean =>
	"binding" in source
		? kb.matches(data, source.binding)
		: matchesKey(data, "key" in source ? source.key : slots[source.slot]);

// ── Key names for the hint line and the help screen ────────────────────────

/** One entry of the key table as the user has the keys bound: what the help screen and the hint line show. */
export interface KeyHelp {
	id: KeyHelpId;
	keys: string;
	/** What the help screen says of the keys: the entry's words, then those of the entries folded into its row. */
	action: string;
	/** Said in another entry's row of the help screen (KeyEntry.helpIn), not in a row of its own. */
	folded: boolean;
	/**
	 * The hint line's form: the first key of each act, and the keys with the hint's one word as the line shows them, with
	 * their width.
	 */
	hint: { keys: string; text: string; width: number };
}

/**
 * The key table with the user's keys and words, in the order the help screen lists it. The hint line picks entries from
 * it by id.
 */
export function keyTable(kb: KeybindingsManager, texts: Texts, slots: KeySlots = DEFAULT_SLOTS): KeyHelp[] {
	const unbound = texts.t("key.unbound");
	const own = KEY_TABLE.map((entry) => {
		const lists = keyLists(entry, kb, slots);
		const names = [...new Set(lists.flat())];
		const keys = entry.label ?? (lists.map((names) => names.join("/")).join(" ") || unbound);
		const firsts = lists.map((names) => names[0] ?? "");
		const short = firsts.every((name) => name.length === 1) ? firsts.join("") : firsts.join("/");
		const hintKeys = entry.label ?? (short || unbound);
		const hintText = `${hintKeys} ${texts.t(`key.${entry.id}.hint`)}`;
		const hint = { keys: hintKeys, text: hintText, width: visibleWidth(hintText) };
		return { entry, names, help: { id: entry.id, keys, hint } };
	});
	const rowOf = (id: KeyHelpId | undefined) => own.find((other) => other.entry.id === id);
	const folded = ({ entry, names }: (typeof own)[number]): boolean => {
		const row = rowOf(entry.helpIn);
		if (row === undefined) return false;
		// The same act under a name of its own (send: save in the message for the chat) is said in its row, bound or not.
		if (entry.acts === row.entry.acts) return true;
		if (names.length === 0) return false;
		return entry.namesKeys === true || names.every((name) => row.names.includes(name));
	};
	// An entry's words, then those of the entries folded into it, and theirs.
	const actionOf = (item: (typeof own)[number]): string => {
		const guests = own.filter((guest) => guest.entry.helpIn === item.entry.id && folded(guest));
		const words = texts.t(`key.${item.entry.id}.help`, { keys: item.names });
		return [words, ...guests.map(actionOf)].join(texts.t("help.join"));
	};
	// The help's words are made when the help is first read: a form that never opens it never formats its lists (the
	// first list a process formats costs milliseconds, in the first frame of its first form).
	return own.map((item) => {
		let action: string | undefined;
		return {
			...item.help,
			folded: folded(item),
			get action() {
				return (action ??= actionOf(item));
			},
		};
	});
}

/**
 * The user's chosen keys; one their keybindings give to something else first is the default again (listed in `taken`).
 */
export function usableSlots(
	kb: KeybindingsManager,
	slots: KeySlots = DEFAULT_SLOTS,
): { slots: KeySlots; taken: (keyof KeySlots)[] } {
	if (slots.peek === DEFAULT_SLOTS.peek || keyLists(entryOf("peek"), kb, slots).length > 0) return { slots, taken: [] };
	return { slots: { ...slots, peek: DEFAULT_SLOTS.peek }, taken: ["peek"] };
}

const entryOf = (id: KeyHelpId): KeyEntry => KEY_TABLE.find((entry) => entry.id === id) ?? { id, acts: [] };

/** The keys the views name in their own words (scroll markers, "press … again", "N to open it"). */
export type KeyNames = Record<"choose" | "escape" | "note" | "peek" | "questionNote" | "pageUp" | "pageDown", string>;

export function keyNames(kb: KeybindingsManager, texts: Texts, slots: KeySlots = DEFAULT_SLOTS): KeyNames {
	const unbound = texts.t("key.unbound");
	const lists = (id: KeyHelpId) => keyLists(entryOf(id), kb, slots);
	const first = (id: KeyHelpId) => lists(id)[0]?.[0] ?? unbound;
	const [pageUp, pageDown] = lists("scroll");
	return {
		choose: first("choose"),
		escape: first("dismiss"),
		note: first("note"),
		peek: first("peek"),
		questionNote: first("questionNote"),
		pageUp: pageUp?.join("/") ?? unbound,
		pageDown: pageDown?.join("/") ?? unbound,
	};
}

/** Per act, the names of the keys that really give its command; acts with the same keys are listed once. */
function keyLists(entry: KeyEntry, kb: KeybindingsManager, slots: KeySlots): string[][] {
	const lists = entry.acts.map((act) => [
		...new Set(
			act.keys.flatMap((source) => idsOf(source, kb, slots).filter((id) => reaches(id, act, kb, slots))).map(keyName),
		),
	]);
	const bySignature = new Map(lists.filter((names) => names.length > 0).map((names) => [names.join("/"), names]));
	return [...bySignature.values()];
}

/** Whether key `id` gives this act's command in one of its modes: no act before it in that mode lists the key. */
function reaches(id: KeyId, act: KeyAct, kb: KeybindingsManager, slots: KeySlots): boolean {
	return act.modes.some(
		(mode) => MATCH_ORDER[mode].find((candidate) => idsOf(candidate.source, kb, slots).includes(id))?.act === act,
	);
}

function idsOf(source: KeySource, kb: KeybindingsManager, slots: KeySlots): KeyId[] {
	return "binding" in source ? kb.getKeys(source.binding) : ["key" in source ? source.key : slots[source.slot]];
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
	const shiftedLetter = /^shift\+([a-z])$/.exec(key);
	if (shiftedLetter?.[1]) return shiftedLetter[1].toUpperCase();
	return SYMBOLS[key] ?? sanitizeLine(key);
}

/**
 * What typing sends: a printable key (plain, or as the Kitty protocol encodes it), an IME's commit, a paste; not Space.
 */
export function isTyped(data: string): boolean {
	const text = decodeKittyPrintable(data) ?? data;
	return data.startsWith("\x1b[200~") || (text !== " " && text.length > 0 && !/[\x00-\x1f\x7f]/.test(text));
}
