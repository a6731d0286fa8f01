/** The one-line hint under the form: the keys that matter right now, picked by id from the key table. */

import { visibleWidth } from "@mariozechner/pi-tui";
import type { KeyHelp, KeyHelpId } from "./keymap.ts";
import { recall, type ViewContext } from "./layout.ts";
import { currentQuestion, type FormState, hasTabs, isAnswered, onTypeRow } from "../machine/model.ts";

import { attachmentsOf } from "../machine/attach.ts";

const SEPARATOR = " · ";

export function hintIds(state: FormState): KeyHelpId[] {
	if (state.overlay.kind === "editor") {
		const detach: KeyHelpId[] = attachmentsOf(state, state.overlay.target).length > 0 ? ["detach"] : [];
		const save: KeyHelpId = state.overlay.target.kind === "chat" ? "send" : "save";
		return [save, "newLine", "back", ...detach, "external"];
	}
	if (state.overlay.kind === "help") return ["close", "scroll"];
	const tabs: KeyHelpId[] = hasTabs(state) ? ["tabs"] : [];
	const current = currentQuestion(state);
	if (!current) return ["move", "choose", ...tabs, "note", "chat", "peek", "help", "dismiss"];
	const { question, qs } = current;
	const toggle: KeyHelpId[] = question.multiSelect ? ["toggle"] : [];
	// On "Type something…" the letters are typed: only the keys that are no letter are hinted.
	if (onTypeRow(state)) return ["move", ...toggle, "write", ...tabs, "dismiss"];
	// With nothing selected, a multi-select's Enter chooses the focused option (and finishes): say so.
	const enter: KeyHelpId = question.multiSelect && isAnswered(qs) ? "done" : "choose";
	const skip: KeyHelpId[] = question.required ? [] : ["skip"];
	return ["move", ...toggle, enter, ...tabs, "note", ...skip, "chat", "peek", "help", "dismiss"];
}

/**
 * The hint line and the ids on it: hints that do not fit go from the end, the help key last; `lead` (the time left)
 * first.
 */
export function fitHintLine(
	state: FormState,
	table: readonly KeyHelp[],
	width: number,
	ctx: ViewContext,
	lead?: string,
): { line: string; shown: KeyHelpId[] } {
	// Most keys leave the hints as they were: the line is made again only when its ids, the width or the lead change.
	const ids = hintIds(state);
	return recall(ctx, fitHintLine, [table, width, lead, ...ids], () => hintLine(ids, table, width, ctx, lead));
}

function hintLine(
	ids: readonly KeyHelpId[],
	table: readonly KeyHelp[],
	width: number,
	ctx: ViewContext,
	lead: string | undefined,
): { line: string; shown: KeyHelpId[] } {
	const { theme, fit } = ctx;
	const shown: KeyHelpId[] = [];
	const items = ids.flatMap((id) => table.find((e) => e.id === id) ?? []);
	const help = items.find((item) => item.id === "help");
	const helpWidth = help ? help.hint.width + SEPARATOR.length : 0;
	let line = "";
	let used = 0;
	if (lead !== undefined) {
		const cut = fit.line(lead, width);
		line += theme.warning(cut);
		used += visibleWidth(cut);
	}
	const add = (item: KeyHelp, room: number): boolean => {
		const gap = used === 0 ? 0 : SEPARATOR.length;
		if (used + gap + item.hint.width > room) return false;
		line +=
			(gap ? theme.dim(SEPARATOR) : "") +
			theme.accent(item.hint.keys) +
			theme.dim(item.hint.text.slice(item.hint.keys.length));
		used += gap + item.hint.width;
		shown.push(item.id);
		return true;
	};
	for (const item of items) if (item !== help && !add(item, width - helpWidth)) break;
	if (help) add(help, width);
	if (used === 0 && items[0]) return { line: theme.dim(fit.line(items[0].hint.text, width)), shown: [] };
	return { line, shown };
}
