/**
 * Model text fitted to a width: sanitised, then wrapped or cut, once per
 * width for the life of the form (wrapping segments graphemes, far more than
 * a key's budget). A view cannot forget the sanitiser: it is in here.
 */

import { Markdown, type MarkdownTheme, truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@mariozechner/pi-tui";
import { sanitizeLine, sanitizeText } from "../core/sanitize.ts";

/** A preview fitted to a width: rendered as markdown (already styled), or plain wrapped text. */
type FittedPreview = { readonly lines: readonly string[]; readonly markdown: boolean };

/** Markdown rather than plain text: no diff, and a code fence, a heading, or a list of two or more items. */
export function looksLikeMarkdown(text: string): boolean {
	if (/^(\+|@@|diff )/m.test(text)) return false;
	if (/^\s{0,3}(```|~~~)/m.test(text) || /^#{1,6} \S/m.test(text)) return true;
	return (text.match(/^\s{0,3}([-*] |\d{1,2}\. )\S/gm) ?? []).length >= 2;
}

// Bounds keep the memo from growing with what the user types: a form shows a
// few hundred distinct pieces, and one render fits them to several widths.
const MAX_ENTRIES_PER_WIDTH = 2000;
const MAX_WIDTHS = 24;

function widthMemo<V>(fit: (text: string, width: number) => V): (text: string, width: number) => V {
	const byWidth = new Map<number, Map<string, V>>();
	return (text, width) => {
		let entries = byWidth.get(width);
		const hit = entries?.get(text);
		if (hit !== undefined) return hit;
		if (!entries) {
			if (byWidth.size >= MAX_WIDTHS) byWidth.clear();
			byWidth.set(width, (entries = new Map()));
		}
		if (entries.size >= MAX_ENTRIES_PER_WIDTH) entries.clear();
		const value = fit(text, width);
		entries.set(text, value);
		return value;
	};
}

/** truncateToWidth wraps its result in resets; our pieces are unstyled, so drop them (they would end a style early). */
const cut = (text: string, width: number, ellipsis: string): string =>
	truncateToWidth(text, width, ellipsis).replace(/\x1b\[0m/g, "");

/**
 * Wrapped line by line: sanitised text has no styles for wrapTextWithAnsi to
 * carry across lines (it scans every character for them), and a line that
 * fits is kept as it is. A wide character cannot be broken: at width 1 a CJK
 * glyph alone overflows, and is cut.
 */
function wrapLines(text: string, w: number): string[] {
	return sanitizeText(text)
		.split("\n")
		.flatMap((line) =>
			visibleWidth(line) <= w
				? line
				: wrapTextWithAnsi(line, w).map((part) => (visibleWidth(part) > w ? cut(part, w, "") : part)),
		);
}

/** An OSC 8 hyperlink's opening or closing sequence (ended by ST or BEL). */
const OSC8 = /\x1b\]8;[^\x07\x1b]*(?:\x07|\x1b\\)/g;

export class TextFitter {
	private readonly wrapped = widthMemo(wrapLines);
	private readonly lines = widthMemo((text, w) => {
		const clean = sanitizeLine(text);
		return visibleWidth(clean) <= w ? clean : cut(clean, w, w >= 2 ? "…" : "");
	});
	private readonly previews = widthMemo((text, w) => this.fitPreview(text, w));
	private readonly previewLineCounts = widthMemo((text) =>
		this.markdownTheme && looksLikeMarkdown(text) ? 0 : sanitizeText(text).split("\n").length,
	);

	/** `markdownTheme`: pi's markdown styles; without it every preview is plain text. */
	constructor(private readonly markdownTheme?: MarkdownTheme) {}

	/** Multi-line text wrapped at word boundaries; long words are broken, nothing is dropped. */
	wrap(text: string, width: number): readonly string[] {
		return this.wrapped(text, Math.max(1, width));
	}

	/** One line: newlines become spaces; cut with "…" when wider than `width`. */
	line(text: string, width: number): string {
		return this.lines(text, Math.max(0, width));
	}

	/**
	 * An option's preview: rendered with pi-tui's Markdown and pi's markdown theme when it reads as markdown (code fences
	 * highlighted as pi does), else wrapped.
	 */
	preview(text: string, width: number): FittedPreview {
		return this.previews(text, Math.max(1, width));
	}

	private fitPreview(text: string, w: number): FittedPreview {
		if (!this.markdownTheme || !looksLikeMarkdown(text)) return { lines: this.wrap(text, w), markdown: false };
		// A code or config preview shows exactly what the model wrote: no LaTeX turned into symbols (pi 1.x's default).
		const markdown = new Markdown(sanitizeText(text), 0, 0, this.markdownTheme, undefined, { renderLatex: false });
		// A link shows as its text: a model's URL must not hide behind a clickable label. map copies render()'s
		// array (pi 1.x's may be its own cached one). Never wider than the width: pi-tui would stop the program.
		const lines = markdown.render(w).map((rendered) => {
			const line = rendered.replace(OSC8, "");
			return visibleWidth(line) > w ? truncateToWidth(line, w, "") : line;
		});
		return { lines, markdown: true };
	}

	/** The fewest lines a preview takes at any width: its lines unwrapped (markdown may join them: none counted). */
	previewLines(text: string): number {
		return this.previewLineCounts(text, 0);
	}
}
