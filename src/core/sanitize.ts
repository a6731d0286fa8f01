/**
 * The display sanitiser, for every string from a model or a child process: it removes what would act on the terminal
 * (escape sequences, C0/C1 controls, DEL) or make text read otherwise than stored (bidi controls); lone surrogates
 * become U+FFFD.
 */

// An OSC/DCS/SOS/PM/APC string runs to BEL, ST (ESC \) or 8-bit ST; unterminated, to the end (it would have swallowed
// that much anyway).
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

/**
 * The rows of one select, sanitised; a row that reads like another (or like one of `taken`) gets invisible marks
 * (U+200B), so an answer maps back to one row.
 */
export function distinctRows(texts: readonly string[], taken: readonly string[] = []): string[] {
	const seen = new Set(taken);
	return texts.map((text) => {
		let row = sanitizeLine(text);
		while (seen.has(row)) row += "\u200b";
		seen.add(row);
		return row;
	});
}

// ── Names other processes give themselves ─────────────────────────────────

/** A name's longest, in code points. */
export const NAME_MAX = 120;
// What draws nothing: format characters (zero-width spaces and joiners, bidi controls, tags, the BOM, the soft hyphen),
// every other control, private-use and unassigned code points, and the blank letters (Hangul fillers, the braille
// blank).
const UNSEEN = /[\p{C}\u115f\u1160\u3164\uffa0\u2800]/gu;

/**
 * A name as it may be shown: printable text on one line, NFKC (full-width and mathematical letters read as the plain
 * ones), combining marks only on a character and at most four there, spaces collapsed, at most `max` code points; ""
 * when nothing printable is left.
 */
export function cleanName(text: string, max = NAME_MAX): string {
	const name = sanitizeLine(text)
		.replace(UNSEEN, "")
		// All but the ellipsis a cut name ends with (NFKC makes it three dots).
		.replace(/[^…]+/g, (part) => part.normalize("NFKC"))
		.replace(/(^|\s)\p{M}+/gu, "$1")
		.replace(/(\p{M}{4})\p{M}+/gu, "$1")
		.replace(/\s+/g, " ")
		.trim();
	return /[\p{L}\p{N}\p{P}\p{S}]/u.test(name) ? clip(name, max) : "";
}

// Latin letters' look-alikes (Cyrillic, Greek, the digit zero), compared as those letters.
const LOOKALIKES = "аеорсухіјѕԁһӏԛԝοιυνκρα0";
const LATIN = "aeopcyxijsdhlqwoiuvkpao";
/** A name as compared: its letters and digits, lower case, without accents, look-alikes as the Latin letters. */
const skeleton = (name: string): string =>
	name
		.normalize("NFD")
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]/gu, "")
		.replace(/[аеорсухіјѕԁһӏԛԝοιυνκρα0]/g, (char) => LATIN[LOOKALIKES.indexOf(char)] ?? char);
/** What a label must not read as: this session, its user (in each language of the catalogue), pi, the tool. */
const SELF_NAMES = new Set(
	[
		...["you", "yourself", "me", "user", "the user", "this session", "system", "assistant", "model", "the model"],
		...["pi", "π", "pi agent", "ask_user", "du", "sie", "tú", "usted", "vous", "toi", "tu", "você", "вы", "ты"],
		...["あなた", "당신", "你", "您"],
	].map(skeleton),
);

/**
 * Whether a cleaned name reads as this session itself: compared by letters and digits, case, accents and look-alikes
 * aside.
 */
export const readsAsSelf = (name: string): boolean => SELF_NAMES.has(skeleton(name));
