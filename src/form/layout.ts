/**
 * The building blocks every view shares: the render context, styled pieces of
 * pre-fitted text, and the windows that keep a tall view inside its height
 * budget with the focused row in sight.
 */

import type { KeyNames } from "./keymap.ts";
import type { ScrollTarget } from "./model.ts";
import type { FittedText, TextFitter } from "./text-fit.ts";
import type { FormTheme } from "./theme.ts";

/** What a view needs besides the state: colours, the fitter (memo), the user's key names. */
export interface ViewContext {
	theme: FormTheme;
	fit: TextFitter;
	keys: KeyNames;
}

/**
 * A scrollable region as last rendered: where it is and where it may go. The
 * component resolves PageUp/PageDown against it, so the state never stores
 * an offset the view would have to clamp again and again.
 */
export interface ScrollPort {
	target: ScrollTarget;
	top: number;
	min: number;
	max: number;
	page: number;
}

/** Lines being assembled, with the visible width of each (known, never measured). */
export class LineBuffer {
	readonly lines: string[] = [];
	readonly widths: number[] = [];

	push(styled: string, width: number): void {
		this.lines.push(styled);
		this.widths.push(width);
	}

	get length(): number {
		return this.lines.length;
	}
}

/** Pre-fitted text and how to colour it. */
export interface Section {
	readonly fitted: FittedText;
	readonly style: (s: string) => string;
	/** Columns of blank space before each line. */
	readonly indent?: number;
}

export function sectionsHeight(sections: readonly Section[]): number {
	let total = 0;
	for (const section of sections) total += section.fitted.lines.length;
	return total;
}

/** Appends lines [from, from + count) of the sections, styled; only these lines are styled. */
export function pushSectionLines(sections: readonly Section[], from: number, count: number, out: LineBuffer, fit: TextFitter): void {
	let skip = from;
	let left = count;
	for (const section of sections) {
		const { lines, widths } = section.fitted;
		if (skip >= lines.length) {
			skip -= lines.length;
			continue;
		}
		const indent = section.indent ?? 0;
		for (let i = skip; i < lines.length && left > 0; i++, left--) {
			out.push(fit.spaces(indent) + section.style(lines[i] ?? ""), indent + (widths[i] ?? 0));
		}
		skip = 0;
		if (left <= 0) return;
	}
}

export interface Window {
	lines: string[];
	port: ScrollPort;
}

/**
 * Cuts `body` to `height` rows. When it is taller, the first and last rows
 * become "↑ n more" / "↓ n more" markers (blank when nothing is hidden that
 * way) and the window shows the requested offset, moved just enough that the
 * focused lines [focusStart, focusEnd) are in view — the start of them when
 * they are taller than the window.
 */
export function windowLines(
	body: readonly string[],
	height: number,
	requestedTop: number,
	focus: { start: number; end: number } | undefined,
	target: ScrollTarget,
	width: number,
	ctx: ViewContext,
): Window {
	const total = body.length;
	if (total <= height) {
		return { lines: body.slice(), port: { target, top: 0, min: 0, max: 0, page: Math.max(1, height - 1) } };
	}
	const markers = height >= 3;
	const rows = Math.max(1, markers ? height - 2 : height);
	const last = total - rows;
	let min = 0;
	let max = last;
	if (focus) {
		min = Math.max(0, Math.min(focus.end - rows, last));
		max = Math.min(focus.start, last);
		if (min > max) min = max;
	}
	const top = Math.min(Math.max(requestedTop, min), max);
	const lines: string[] = [];
	if (markers) lines.push(marker(top > 0 ? `↑ ${top} more` : "", width, ctx));
	for (let i = top; i < top + rows; i++) lines.push(body[i] ?? "");
	const below = total - top - rows;
	if (markers) lines.push(marker(below > 0 ? `↓ ${below} more · ${ctx.keys.pageDown}` : "", width, ctx));
	return { lines, port: { target, top, min, max, page: Math.max(1, rows - 1) } };
}

function marker(text: string, width: number, ctx: ViewContext): string {
	if (text === "") return "";
	return ctx.theme.dim(ctx.fit.line(text, width).text);
}

/**
 * The detail pane's own window: `height` rows of the sections; when they are
 * taller, the last row says which lines are shown and how to scroll.
 */
export function windowSections(
	sections: readonly Section[],
	height: number,
	requestedTop: number,
	width: number,
	out: LineBuffer,
	ctx: ViewContext,
): ScrollPort {
	const total = sectionsHeight(sections);
	if (total <= height || height < 2) {
		pushSectionLines(sections, 0, Math.min(total, height), out, ctx.fit);
		return { target: "detail", top: 0, min: 0, max: 0, page: 1 };
	}
	const rows = height - 1;
	const max = total - rows;
	const top = Math.min(Math.max(0, requestedTop), max);
	pushSectionLines(sections, top, rows, out, ctx.fit);
	const status = ctx.fit.line(`lines ${top + 1}–${top + rows} of ${total} · ${ctx.keys.pageUp}/${ctx.keys.pageDown}`, width);
	out.push(ctx.theme.dim(status.text), status.width);
	return { target: "detail", top, min: 0, max, page: Math.max(1, rows - 1) };
}
