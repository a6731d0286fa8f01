/**
 * What may reach a terminal line, defined once for the injection tests.
 *
 * Allowed escape sequences, and nothing else:
 * - SGR (`ESC [ params m`, params digits `;` `:`): the colours and styles the
 *   theme, pi-tui's truncateToWidth (its reset) and the Editor's cursor
 *   (inverse video) emit;
 * - pi-tui's CURSOR_MARKER (`ESC _ pi:c BEL`), which the TUI strips before
 *   writing and uses to place the hardware cursor for an IME, and pi 1.x's
 *   drawn-cursor marks (`ESC _ pi:fc BEL` … `ESC _ pi:/fc BEL`), which it
 *   turns into reverse video on output.
 * After those are taken out, a line must hold no C0 control (ESC, BEL, CR,
 * LF, TAB, NUL…), no DEL, no C1 control (U+0080–U+009F: 8-bit CSI, OSC, ST,
 * NEL…), and no bidi control (embeddings and overrides U+202A–U+202E,
 * isolates U+2066–U+2069, marks U+200E, U+200F, U+061C).
 *
 * Model-supplied text carries a canary SGR whose colour no theme uses: SGR is
 * allowed in general, so that one is looked for by name.
 */

import { CURSOR_MARKER } from "@mariozechner/pi-tui";

export const CANARY_SGR = "\x1b[38;2;13;37;42m";

/** Terminal injections: each one does something to a terminal if it arrives raw. */
export const INJECTIONS: readonly string[] = [
	"\x1b]52;c;SGVsbG8gd29ybGQ=\x07", // OSC 52: writes the clipboard
	"\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\", // OSC 8 hyperlink
	"\x1b]0;pwned\x07", // window title
	"\x1b[2J\x1b[H", // clear screen, cursor home
	"\x1b[?1049h", // alternate screen
	"\x1bc", // full reset
	"\x9b2J", // 8-bit CSI
	"\x9d0;title\x9c", // 8-bit OSC … ST
	"\x85", // C1 NEL
	"\x1bP+q544e\x1b\\", // DCS query
	"\x1b]52;c;unterminated", // OSC that never ends
	"\x1b[", // a CSI cut short
	"\x1b", // a lone ESC
	"\u202eevil\u202c", // right-to-left override
	"\u2066iso\u2069\u200f\u061c", // isolates and marks
	"\x07\x00\b\x7f", // BEL, NUL, backspace, DEL
	"\rover", // carriage return: overwrite the line
	"tab\there",
	CANARY_SGR,
];

const CONTROL_OR_BIDI = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
const ALLOWED_SEQUENCES = /\x1b\[[0-9;:]*m|\x1b_pi:\/?fc\x07/g;

/** Why `line` is unsafe, or undefined when it is safe. `newlines`: the text is several lines (a dialog title, the model's text). */
export function unsafeReason(line: string, options: { newlines?: boolean } = {}): string | undefined {
	if (line.includes(CANARY_SGR)) return "the model's own SGR reached the line";
	let rest = line.split(CURSOR_MARKER).join("").replace(ALLOWED_SEQUENCES, "");
	if (options.newlines) rest = rest.replace(/\n/g, "");
	const match = CONTROL_OR_BIDI.exec(rest);
	if (!match) return undefined;
	const code = match[0].charCodeAt(0).toString(16).padStart(4, "0");
	return `U+${code.toUpperCase()} at ${match.index} in ${JSON.stringify(rest.slice(Math.max(0, match.index - 20), match.index + 20))}`;
}

/** Throws naming the surface and the first unsafe line. */
export function expectSafe(surface: string, lines: readonly string[], options: { newlines?: boolean } = {}): void {
	for (const line of lines) {
		const reason = unsafeReason(line, options);
		if (reason) throw new Error(`${surface}: ${reason}`);
	}
}

/** Model text with an injection on each side, distinct per `n`. */
export function injected(text: string, n: number): string {
	const before = INJECTIONS[n % INJECTIONS.length] ?? "";
	const after = INJECTIONS[(n * 7 + 3) % INJECTIONS.length] ?? "";
	return `${before}${text} ${n}${after}`;
}
