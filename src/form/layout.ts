/**
 * What every view shares: the render context, styled sections of fitted text, and windows that keep a tall view in its
 * height.
 */

import { visibleWidth } from "@mariozechner/pi-tui";
import type { Texts } from "../i18n/texts.ts";
import type { KeyNames } from "./keymap.ts";
import type { ScrollPort, ScrollTarget } from "../machine/model.ts";
import type { TextFitter } from "./text-fit.ts";
import type { FormTheme } from "./theme.ts";

/** What a view needs besides the state: colours, the fitter (memo), the user's key names, the user's language. */
export type ViewContext = { theme: FormTheme; fit: TextFitter; keys: KeyNames; texts: Texts };

type Kept = { inputs: readonly unknown[]; value: unknown };
const KEPT = new WeakMap<ViewContext, Map<unknown, Kept[]>>();

/**
 * What `make` made under `slot` from the same `inputs` (each ===), kept for
 * the life of the context (invalidate() makes a new one): what a view derives
 * from facts a key seldom changes, the width among them. The last 8 per slot,
 * so a key cycle (a toggle on and off, a tab and back) finds them too.
 */
export function recall<T>(ctx: ViewContext, slot: unknown, inputs: readonly unknown[], make: () => T): T {
	let slots = KEPT.get(ctx);
	if (!slots) KEPT.set(ctx, (slots = new Map()));
	let kept = slots.get(slot);
	if (!kept) slots.set(slot, (kept = []));
	const hit = kept.find(
		(entry) => entry.inputs.length === inputs.length && entry.inputs.every((input, i) => input === inputs[i]),
	);
	if (hit) return hit.value as T;
	const value = make();
	if (kept.unshift({ inputs, value }) > 8) kept.pop();
	return value;
}

/** Pre-fitted lines, how to colour them, and the columns of blank space before each. */
export type Section = {
	readonly lines: readonly string[];
	readonly style: (s: string) => string;
	readonly indent?: number;
};

/** Lines [start, end) of a view. */
export type Span = { start: number; end: number };

/** The widest of the texts, each on one line, in columns (0 for none): the column a list of labels needs. */
export const widestLine = (texts: readonly string[], ctx: ViewContext): number =>
	Math.max(0, ...texts.map((text) => visibleWidth(ctx.fit.line(text, Infinity))));

export const sectionsHeight = (sections: readonly Section[]): number =>
	sections.reduce((total, section) => total + section.lines.length, 0);

/** Lines [from, from + count) of the sections, styled; only these lines are styled. */
export function sectionLines(sections: readonly Section[], from = 0, count = Infinity): string[] {
	const out: string[] = [];
	let skip = from;
	for (const { lines, style, indent = 0 } of sections) {
		const pad = " ".repeat(indent);
		for (let i = skip; i < lines.length && out.length < count; i++) out.push(pad + style(lines[i] ?? ""));
		skip = Math.max(0, skip - lines.length);
	}
	return out;
}

/** `focusHidden`: the first focused line is off screen (only while reading, in "free" mode). */
export type Window = { lines: string[]; port: ScrollPort; focusHidden: boolean };

/**
 * How a window treats the focused lines: "follow" moves just enough to show
 * them but lets the pages go past; "free" keeps the requested top (after
 * PageUp/PageDown, until the next other key).
 */
export type WindowMode = "follow" | "free";

/**
 * Cuts `body` to `height` rows; from 3 rows on, a "↑ n more · pgup" row heads
 * it only when lines are hidden above, and a "↓ n more · pgdn" row ends it
 * only when lines are hidden below. With a focus (see WindowMode) the top
 * moves just enough to show the focused lines [start, end), their start first.
 */
export function windowLines(
	body: readonly string[],
	height: number,
	requestedTop: number,
	focus: Span | undefined,
	target: ScrollTarget,
	width: number,
	ctx: ViewContext,
	mode: WindowMode = "follow",
): Window {
	const total = body.length;
	if (total <= height) {
		return {
			lines: body.slice(),
			port: { target, top: 0, min: 0, max: 0, page: Math.max(1, height - 1) },
			focusHidden: false,
		};
	}
	const markers = height >= 3;
	const rows = Math.max(1, height);
	// The top that shows the last line: only the "↑" marker is needed there.
	const last = markers ? total - (rows - 1) : total - rows;
	const rowsAt = (top: number) => (markers ? rows - (top > 0 ? 1 : 0) - (top < last ? 1 : 0) : rows);
	let lo = 0;
	let hi = last;
	if (focus && mode !== "free") {
		hi = Math.min(Math.max(0, focus.start), last);
		// The smallest top that shows line `end - 1`: 0 when the first window does, else a middle one, else the last.
		lo = focus.end <= rowsAt(0) ? 0 : Math.min(Math.max(1, focus.end - (markers ? rows - 2 : rows)), last);
		if (lo > hi) lo = hi;
	}
	const top = Math.min(Math.max(requestedTop, lo), hi);
	const shown = rowsAt(top);
	const marker = (text: string) => ctx.theme.dim(ctx.fit.line(text, width));
	const lines = body.slice(top, top + shown);
	if (markers && top > 0) lines.unshift(marker(ctx.texts.t("form.moreAbove", { count: top, key: ctx.keys.pageUp })));
	const below = total - top - shown;
	if (markers && below > 0) lines.push(marker(ctx.texts.t("form.moreBelow", { count: below, key: ctx.keys.pageDown })));
	// A page keeps one line of the last view in sight, wherever the window is.
	const page = Math.max(1, (markers ? rows - 2 : rows) - 1);
	const port = { target, top, min: 0, max: last, page };
	const focusHidden = focus !== undefined && (focus.start < top || focus.start >= top + shown);
	return { lines, port, focusHidden };
}

/**
 * The detail pane's window: `height` rows of the sections, the last saying which lines are shown when they are taller.
 */
export function windowSections(
	sections: readonly Section[],
	height: number,
	requestedTop: number,
	width: number,
	ctx: ViewContext,
): { lines: string[]; port: ScrollPort } {
	const total = sectionsHeight(sections);
	if (total <= height || height < 2) {
		const lines = sectionLines(sections, 0, Math.min(total, height));
		return { lines, port: { target: "detail", top: 0, min: 0, max: 0, page: 1 } };
	}
	const rows = height - 1;
	const max = total - rows;
	const top = Math.min(Math.max(0, requestedTop), max);
	const lines = sectionLines(sections, top, rows);
	const status = ctx.texts.t("form.paneLines", {
		from: top + 1,
		to: top + rows,
		total,
		keys: `${ctx.keys.pageUp}/${ctx.keys.pageDown}`,
	});
	lines.push(ctx.theme.dim(ctx.fit.line(status, width)));
	return { lines, port: { target: "detail", top, min: 0, max, page: Math.max(1, rows - 1) } };
}
