/**
 * The display sanitiser. Every string that came from a model or a child
 * process passes through here before it reaches a terminal line.
 *
 * It removes what could act on the terminal instead of being shown: escape
 * sequences (CSI, OSC such as the clipboard-writing `ESC]52`, DCS, SOS/PM/APC,
 * and their 8-bit C1 forms), the remaining C0/C1 controls, DEL, and the bidi
 * controls that make text read differently from how it is stored. Lone UTF-16
 * surrogates become U+FFFD so width measurement stays honest.
 *
 * A leaf: imports nothing.
 */

// An OSC/DCS/SOS/PM/APC string runs to its terminator: BEL, ST (ESC \) or 8-bit ST.
// An unterminated one runs to the end of the text: it would have swallowed that much anyway.
const STRING_SEQUENCE = /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^]*?(?:\x07|\x1b\\|\x9c|$)/g;
// CSI: ESC [ or 8-bit CSI, parameter bytes, intermediate bytes, one final byte.
const CSI_SEQUENCE = /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?/g;
// Any other escape: ESC, optional intermediates, one final character.
const SHORT_ESCAPE = /\x1b[\x20-\x2f]*[\x30-\x7e]?/g;
// Controls left after the sequences are gone (newline and tab are handled separately).
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
// Bidi embeddings, overrides, isolates and marks (LRE..RLO, LRI..PDI, LRM, RLM, ALM).
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// Everything above starts with one of these; most text contains none and returns untouched.
const SUSPECT = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ud800-\udfff]/;

const TAB = "    ";

/** Sanitise text that may span lines: newlines are kept, CR/CRLF become newlines, tabs become spaces. */
export function sanitizeText(text: string): string {
	if (!SUSPECT.test(text)) return text;
	return text
		.replace(STRING_SEQUENCE, "")
		.replace(CSI_SEQUENCE, "")
		.replace(SHORT_ESCAPE, "")
		.replace(/\r\n?/g, "\n")
		.replace(/\t/g, TAB)
		.replace(CONTROLS, "")
		.replace(BIDI, "")
		.replace(LONE_SURROGATE, "\ufffd");
}

/** Sanitise text shown on one line: as sanitizeText, and every newline becomes a space. */
export function sanitizeLine(text: string): string {
	const clean = sanitizeText(text);
	return clean.includes("\n") ? clean.replace(/\n/g, " ") : clean;
}
