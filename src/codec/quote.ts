/**
 * Quoting of text for the model: JSON string syntax, so the model (or a
 * program) gets back exactly what the user typed with `JSON.parse`.
 *
 * JSON.stringify already escapes C0 controls, quotes, backslashes and lone
 * surrogates. It leaves a few characters raw that would still break the
 * "one line per question" promise or hide what the text says: DEL and the C1
 * controls (U+0085 is a line break to some readers), the Unicode line and
 * paragraph separators, and the bidi controls. Those are escaped too; the
 * result is still a valid JSON string of the same text.
 */

const LEFT_RAW_BY_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` as a one-line JSON string literal: `JSON.parse(quoteExact(text)) === text`. */
export function quoteExact(text: string): string {
	return JSON.stringify(text).replace(LEFT_RAW_BY_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

// Ids the model wrote are normally short slugs; anything else is quoted so a
// line still splits unambiguously at its first ": ".
const BARE_ID = /^[\p{L}\p{N}_.\-/]+$/u;

/** A question id as it starts a result line: bare when it is a plain slug, quoted otherwise. */
export function formatId(id: string): string {
	return BARE_ID.test(id) ? id : quoteExact(id);
}
