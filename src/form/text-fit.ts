/**
 * Text fitted to a width, computed once and kept.
 *
 * Wrapping and measuring cost tens of microseconds per string (grapheme
 * segmentation), far more than the whole per-key budget. The text on screen
 * barely changes between keys, so each piece is sanitised, wrapped or cut,
 * and measured once per width; the views then assemble lines from these
 * pre-fitted pieces and add up widths they already know, instead of calling
 * truncateToWidth/visibleWidth on every line of every render.
 *
 * Everything shown here passes through the display sanitiser first, so a
 * view cannot forget it. One fitter lives as long as one form.
 */

import { Markdown, type MarkdownTheme, truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@mariozechner/pi-tui";
import { sanitizeLine, sanitizeText } from "../sanitize.ts";

export interface FittedText {
	readonly lines: readonly string[];
	readonly widths: readonly number[];
}

export interface FittedLine {
	readonly text: string;
	readonly width: number;
}

export const ELLIPSIS = "…";

/** A preview fitted to a width: rendered as markdown (already styled), or plain wrapped text. */
export interface FittedPreview {
	readonly fitted: FittedText;
	readonly markdown: boolean;
}

/**
 * Whether a preview reads as markdown rather than plain text (code, a diff, a
 * mock-up): no diff (a line starting with "+", "@@", "diff "), and a code
 * fence, a heading, or a list of two or more items. Plain text stays exactly
 * as written.
 */
export function looksLikeMarkdown(text: string): boolean {
	if (/^(\+|@@|diff )/m.test(text)) return false;
	if (/^\s{0,3}(```|~~~)/m.test(text) || /^#{1,6} \S/m.test(text)) return true;
	return (text.match(/^\s{0,3}([-*] |\d{1,2}\. )\S/gm) ?? []).length >= 2;
}

// Bounds keep the memo from growing with what the user types: a form shows a
// few hundred distinct pieces, and a resize storm touches a few widths.
const MAX_ENTRIES_PER_WIDTH = 2000;
// One render fits pieces to several widths (the line, the list column, the pane, indents).
const MAX_WIDTHS = 24;

class WidthMemo<V> {
	private readonly byWidth = new Map<number, Map<string, V>>();

	get(width: number, key: string): V | undefined {
		return this.byWidth.get(width)?.get(key);
	}

	set(width: number, key: string, value: V): void {
		let entries = this.byWidth.get(width);
		if (!entries) {
			if (this.byWidth.size >= MAX_WIDTHS) this.byWidth.clear();
			entries = new Map();
			this.byWidth.set(width, entries);
		}
		if (entries.size >= MAX_ENTRIES_PER_WIDTH) entries.clear();
		entries.set(key, value);
	}
}

const RESET = /\x1b\[0m/g;

/** truncateToWidth wraps its result in resets; our pieces are unstyled, so drop them (they would end a style early). */
function cut(text: string, width: number, ellipsis: string): string {
	return truncateToWidth(text, width, ellipsis).replace(RESET, "");
}

/** An OSC 8 hyperlink's opening or closing sequence (ended by ST or BEL). */
const OSC8 = /\x1b\]8;[^\x07\x1b]*(?:\x07|\x1b\\)/g;

export class TextFitter {
	/** `markdownTheme`: pi's markdown styles; without it every preview is plain text. */
	constructor(private readonly markdownTheme?: MarkdownTheme) {}

	private readonly previews = new WidthMemo<FittedPreview>();
	private readonly wrapped = new WidthMemo<FittedText>();
	private readonly lines = new WidthMemo<FittedLine>();
	private readonly measured = new Map<string, number>();
	private readonly spaceRuns: string[] = [""];
	private readonly rules: string[] = [""];

	/** Multi-line text wrapped at word boundaries; long words are broken, nothing is dropped. */
	wrap(text: string, width: number): FittedText {
		const w = Math.max(1, width);
		const hit = this.wrapped.get(w, text);
		if (hit) return hit;
		const lines = wrapTextWithAnsi(sanitizeText(text), w);
		const widths: number[] = [];
		for (let i = 0; i < lines.length; i++) {
			let line = lines[i] ?? "";
			let lineWidth = visibleWidth(line);
			// A wide character cannot be broken: at width 1 a CJK glyph alone overflows.
			if (lineWidth > w) {
				line = cut(line, w, "");
				lineWidth = visibleWidth(line);
				lines[i] = line;
			}
			widths.push(lineWidth);
		}
		const fitted: FittedText = { lines, widths };
		this.wrapped.set(w, text, fitted);
		return fitted;
	}

	/**
	 * An option's preview: sanitised first, then rendered with pi-tui's
	 * Markdown component and pi's markdown theme when it reads as markdown
	 * (code fences highlighted as pi highlights them), else wrapped as plain
	 * text. Once per width, like every other piece.
	 */
	preview(text: string, width: number): FittedPreview {
		const w = Math.max(1, width);
		const hit = this.previews.get(w, text);
		if (hit) return hit;
		let fitted: FittedPreview;
		if (this.markdownTheme && looksLikeMarkdown(text)) {
			// A code or config preview shows exactly what the model wrote: no LaTeX turned into symbols (pi 1.x's default).
			const markdown = new Markdown(sanitizeText(text), 0, 0, this.markdownTheme, undefined, { renderLatex: false });
			// render() may hand back its own cached, readonly array (pi 1.x): the fitted lines are a copy.
			const lines: string[] = [];
			const widths: number[] = [];
			for (const rendered of markdown.render(w)) {
				// Markdown makes [text](url) a terminal hyperlink where the terminal has them: a model's URL
				// would hide behind a clickable label. Links show as their text, like the rest of the preview.
				let line = rendered.replace(OSC8, "");
				let width = visibleWidth(line);
				// Never wider than the width: pi-tui would stop the program.
				if (width > w) {
					line = truncateToWidth(line, w, "");
					width = visibleWidth(line);
				}
				lines.push(line);
				widths.push(width);
			}
			fitted = { fitted: { lines, widths }, markdown: true };
		} else fitted = { fitted: this.wrap(text, w), markdown: false };
		this.previews.set(w, text, fitted);
		return fitted;
	}

	/** One line: newlines become spaces; cut with "…" when wider than `width`. */
	line(text: string, width: number): FittedLine {
		const w = Math.max(0, width);
		const hit = this.lines.get(w, text);
		if (hit) return hit;
		const clean = sanitizeLine(text);
		let fitted: FittedLine;
		const full = this.width(clean);
		if (full <= w) fitted = { text: clean, width: full };
		else {
			const short = cut(clean, w, w >= 2 ? ELLIPSIS : "");
			fitted = { text: short, width: visibleWidth(short) };
		}
		this.lines.set(w, text, fitted);
		return fitted;
	}

	/** Width the text would take on one line, uncut. */
	measure(text: string): number {
		return this.width(sanitizeLine(text));
	}

	/** Visible width of a sanitised, single-line piece. */
	width(text: string): number {
		const hit = this.measured.get(text);
		if (hit !== undefined) return hit;
		const width = visibleWidth(text);
		if (this.measured.size >= MAX_ENTRIES_PER_WIDTH) this.measured.clear();
		this.measured.set(text, width);
		return width;
	}

	spaces(count: number): string {
		return repeated(" ", count, this.spaceRuns);
	}

	rule(count: number): string {
		return repeated("─", count, this.rules);
	}
}

/** `char` `count` times, built once per count and kept in `runs`. */
function repeated(char: string, count: number, runs: string[]): string {
	if (count <= 0) return "";
	let run = runs[count];
	if (run === undefined) {
		run = char.repeat(count);
		runs[count] = run;
	}
	return run;
}
