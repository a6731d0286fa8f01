import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sanitizeLine, sanitizeText } from "../src/sanitize.ts";

const RUNS = { numRuns: 2000 };

const ESC = "\x1b";
const BEL = "\x07";
const ST = `${ESC}\\`;
const BIDI_CONTROLS: [string, string][] = [
	["LRE", "\u202a"],
	["RLE", "\u202b"],
	["PDF", "\u202c"],
	["LRO", "\u202d"],
	["RLO", "\u202e"],
	["LRI", "\u2066"],
	["RLI", "\u2067"],
	["FSI", "\u2068"],
	["PDI", "\u2069"],
	["LRM", "\u200e"],
	["RLM", "\u200f"],
	["ALM", "\u061c"],
];

// What must never survive: ESC, C0 but newline, DEL, C1, bidi controls.
const FORBIDDEN_IN_TEXT = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("sanitizeText removes what would act on the terminal", () => {
	it.each([
		["an OSC 52 clipboard write ended by BEL", `a${ESC}]52;c;ZXZpbA==${BEL}b`, "ab"],
		["an OSC 52 clipboard write ended by ST", `a${ESC}]52;c;ZXZpbA==${ST}b`, "ab"],
		["an OSC 8 hyperlink around its text", `${ESC}]8;;https://evil.example${ST}click${ESC}]8;;${ST}`, "click"],
		["a window-title OSC", `${ESC}]0;pwned${BEL}title`, "title"],
		["CSI colours", `${ESC}[31mred${ESC}[0m and ${ESC}[38;2;255;0;0mtrue${ESC}[m`, "red and true"],
		["CSI cursor moves and screen clears", `${ESC}[2J${ESC}[H${ESC}[10;5Hx${ESC}[?25l${ESC}[3A`, "x"],
		["a DCS string", `a${ESC}P1$r0m${ST}b`, "ab"],
		["SOS, PM and APC strings", `a${ESC}Xsos${ST}b${ESC}^pm${ST}c${ESC}_apc${ST}d`, "abcd"],
		["short escapes (save/restore cursor, full reset)", `${ESC}7x${ESC}8${ESC}c`, "x"],
		["an 8-bit CSI", "a\x9b31mb", "ab"],
		["an 8-bit OSC ended by BEL", "a\x9d52;c;ZXZpbA==\x07b", "ab"],
		["an 8-bit OSC ended by 8-bit ST", "a\x9d0;title\x9cb", "ab"],
		["an 8-bit DCS", "a\x90q#0;2;0;0;0\x9cb", "ab"],
		["C0 controls", "a\x00b\x07c\x08d\x0be\x0cf\x1bg", "abcdef"],
		["DEL", "a\x7fb", "ab"],
		["C1 controls, NEL included", "a\x85b\x84c\x9ad", "abcd"],
		["an 8-bit APC runs to its terminator", "a\x9fapc\x9cb", "ab"],
	])("%s", (_name, input, expected) => {
		expect(sanitizeText(input)).toBe(expected);
	});

	it("an OSC with no terminator swallows the rest of the text", () => {
		expect(sanitizeText(`before${ESC}]52;c;ZXZpbA==\nafter`)).toBe("before");
	});

	it.each(BIDI_CONTROLS)("removes the bidi control %s", (_name, control) => {
		expect(sanitizeText(`abc${control}def`)).toBe("abcdef");
	});

	it("replaces lone surrogates with U+FFFD and keeps real pairs", () => {
		expect(sanitizeText("a\ud800b")).toBe("a\ufffdb");
		expect(sanitizeText("a\udc00b")).toBe("a\ufffdb");
		expect(sanitizeText("\udc00\ud800")).toBe("\ufffd\ufffd");
		expect(sanitizeText("\ud800\ud83d\ude00")).toBe("\ufffd😀");
		expect(sanitizeText("😀\x00")).toBe("😀");
	});

	it("turns CR and CRLF into newlines and keeps newlines", () => {
		expect(sanitizeText("a\r\nb\rc\nd")).toBe("a\nb\nc\nd");
	});

	it("expands a tab to four spaces", () => {
		expect(sanitizeText("a\tb")).toBe("a    b");
	});

	it("returns text without anything suspect unchanged", () => {
		const text = "Plain text — Ünïcödé, 中文, 한국어, 👨‍👩‍👧 and e\u0301.\nSecond line";
		expect(sanitizeText(text)).toBe(text);
	});
});

describe("sanitizeLine keeps text on one line", () => {
	it("turns every line break into a space", () => {
		expect(sanitizeLine("a\nb\r\nc\rd")).toBe("a b c d");
	});

	it("removes escapes like sanitizeText", () => {
		expect(sanitizeLine(`x${ESC}]52;c;ZXZpbA==${BEL}\n${ESC}[31my`)).toBe("x y");
	});
});

// ── Properties ─────────────────────────────────────────────────────────────

const codePoint = (min: number, max: number) => fc.integer({ min, max }).map((c) => String.fromCodePoint(c));
const loneSurrogate = codePoint(0xd800, 0xdfff).map((c) => c);

/** Characters from which escape sequences and their look-alikes are made, plus anything at all. */
const hostileUnit = fc.oneof(
	fc.constantFrom(
		ESC,
		"[",
		"]",
		"P",
		"X",
		"^",
		"_",
		"\\",
		BEL,
		";",
		"0",
		"5",
		"2",
		"m",
		"?",
		"\r",
		"\n",
		"\t",
		"\u200d",
	),
	codePoint(0x00, 0x20),
	codePoint(0x7f, 0x9f),
	fc.constantFrom(...BIDI_CONTROLS.map(([, c]) => c)),
	loneSurrogate,
	fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
	fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
);
const hostileText = fc.string({ unit: hostileUnit, maxLength: 60 });

/** Printable text a model may legitimately send: ASCII, Latin-1, CJK, Hangul, combining marks, emoji with ZWJ. */
const printableUnit = fc.oneof(
	codePoint(0x20, 0x7e),
	codePoint(0xa0, 0xff),
	codePoint(0x4e00, 0x9fff),
	codePoint(0xac00, 0xd7a3),
	codePoint(0x0300, 0x036f),
	codePoint(0x1f300, 0x1faff),
	fc.constantFrom("👨‍👩‍👧", "🏳️‍🌈", "👍🏽", "\u200d", "\ufe0f", "…", "—"),
);
const printableLine = fc.string({ unit: printableUnit, maxLength: 40 });
const printableText = fc.string({
	unit: fc.oneof({ weight: 9, arbitrary: printableUnit }, { weight: 1, arbitrary: fc.constant("\n") }),
	maxLength: 60,
});

/** Sequences that end where they say: removing them must leave the text around them alone. */
const completeSequence = fc.oneof(
	fc.constantFrom(`${ESC}[0m`, `${ESC}[38;5;196m`, `${ESC}[?25h`, `${ESC}[2J`, "\x9b1;2H", `${ESC}7`),
	fc.string({ unit: "grapheme-ascii", maxLength: 10 }).map((payload) => `${ESC}]52;c;${payload}${BEL}`),
	fc.string({ unit: "grapheme-ascii", maxLength: 10 }).map((payload) => `${ESC}P${payload.replace(/\x1b/g, "")}${ST}`),
	fc.string({ unit: "grapheme-ascii", maxLength: 10 }).map((payload) => `\x9d${payload}\x9c`),
	codePoint(0x00, 0x08),
	codePoint(0x0e, 0x1a),
	// DEL and the C1 controls that do not open a sequence (0x90, 0x98, 0x9b, 0x9d–0x9f do).
	fc.constantFrom(..."\x7f\x80\x84\x85\x8d\x8f\x91\x97\x99\x9a\x9c"),
	fc.constantFrom(...BIDI_CONTROLS.map(([, c]) => c)),
);

describe("sanitiser properties", () => {
	it("sanitizeText leaves no ESC, no C0 but newline, no DEL, no C1, no bidi control, no lone surrogate", () => {
		fc.assert(
			fc.property(hostileText, (text) => {
				const clean = sanitizeText(text);
				expect(clean).not.toMatch(FORBIDDEN_IN_TEXT);
				expect(clean).not.toMatch(LONE_SURROGATE);
			}),
			RUNS,
		);
	});

	it("sanitizeLine output has no newline either", () => {
		fc.assert(
			fc.property(hostileText, (text) => {
				const clean = sanitizeLine(text);
				expect(clean).not.toMatch(FORBIDDEN_IN_TEXT);
				expect(clean).not.toMatch(LONE_SURROGATE);
				expect(clean).not.toContain("\n");
			}),
			RUNS,
		);
	});

	it("sanitising is idempotent", () => {
		fc.assert(
			fc.property(hostileText, (text) => {
				const once = sanitizeText(text);
				expect(sanitizeText(once)).toBe(once);
				const line = sanitizeLine(text);
				expect(sanitizeLine(line)).toBe(line);
			}),
			RUNS,
		);
	});

	it("printable text passes through unchanged: letters, CJK, emoji with ZWJ, newlines", () => {
		fc.assert(
			fc.property(printableText, (text) => {
				expect(sanitizeText(text)).toBe(text);
			}),
			RUNS,
		);
		fc.assert(
			fc.property(printableLine, (text) => {
				expect(sanitizeLine(text)).toBe(text);
			}),
			RUNS,
		);
	});

	it("complete escape sequences and controls vanish without touching the text around them", () => {
		fc.assert(
			fc.property(
				fc.array(fc.tuple(printableText, completeSequence), { maxLength: 6 }),
				printableText,
				(pieces, tail) => {
					const dirty = pieces.map(([text, sequence]) => text + sequence).join("") + tail;
					const clean = pieces.map(([text]) => text).join("") + tail;
					expect(sanitizeText(dirty)).toBe(clean);
				},
			),
			RUNS,
		);
	});
});
