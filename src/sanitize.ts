/**
 * The display sanitiser, for every string from a model or a child process: it removes what would act on the terminal
 * (escape sequences, C0/C1 controls, DEL) or make text read otherwise than stored (bidi controls); lone surrogates become U+FFFD.
 */

// An OSC/DCS/SOS/PM/APC string runs to BEL, ST (ESC \) or 8-bit ST; unterminated, to the end (it would have swallowed that much anyway).
const STRING_SEQUENCE = /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^]*?(?:\x07|\x1b\\|\x9c|$)/g;
// ESC [ or 8-bit CSI, parameter bytes, intermediate bytes, one final byte.
const CSI_SEQUENCE = /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?/g;
const SHORT_ESCAPE = /\x1b[\x20-\x2f]*[\x30-\x7e]?/g;
// Newline and tab are handled before this.
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
// Embeddings, overrides, isolates and marks (LRE..RLO, LRI..PDI, LRM, RLM, ALM).
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// What every pattern above starts with: most text has none and returns untouched.
const SUSPECT = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ud800-\udfff]/;

/** Text that may span lines: CR and CRLF become newlines, a tab four spaces. */
export function sanitizeText(text: string): string {
	if (!SUSPECT.test(text)) return text;
	return text
		.replace(STRING_SEQUENCE, "")
		.replace(CSI_SEQUENCE, "")
		.replace(SHORT_ESCAPE, "")
		.replace(/\r\n?/g, "\n")
		.replace(/\t/g, "    ")
		.replace(CONTROLS, "")
		.replace(BIDI, "")
		.replace(LONE_SURROGATE, "\ufffd");
}

/** Text shown on one line: every newline becomes a space. */
export function sanitizeLine(text: string): string {
	return sanitizeText(text).replace(/\n/g, " ");
}

/** At most `max` code points, the last of them "…" when cut. */
export function clip(text: string, max: number): string {
	const chars = [...text];
	return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/** The rows of one select, sanitised; a row that reads like another (or like one of `taken`) gets invisible marks (U+200B), so an answer maps back to one row. */
export function distinctRows(texts: readonly string[], taken: readonly string[] = []): string[] {
	const seen = new Set(taken);
	return texts.map((text) => {
		let row = sanitizeLine(text);
		while (seen.has(row)) row += "\u200b";
		seen.add(row);
		return row;
	});
}
