import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cleanName, NAME_MAX, readsAsSelf, sanitizeLine, sanitizeText } from "../src/core/sanitize.ts";

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

// ── Names other processes give themselves ─────────────────────────────────

/** What draws nothing and does not open a sequence: format characters, controls, private use, the blank letters. */
const INVISIBLE = [
	..."\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e",
	...BIDI_CONTROLS.map(([, c]) => c),
	"\u{e0041}",
	"\u{e007f}",
	"\ue000",
	"\u{f0000}",
	"\u3164",
	"\uffa0",
	"\u115f",
	"\u1160",
	"\u2800",
	"\x00",
	"\x07",
	"\x7f",
	"\x85",
];
const invisible = fc.constantFrom(...INVISIBLE);
/** A name as a runner might give it: letters of several scripts, marks, emoji, spaces, punctuation; no control. */
const nameText = fc.string({ unit: fc.oneof(printableUnit, fc.constantFrom(" ", "\u00a0", "\u3000")), maxLength: 40 });
const anyName = fc.string({
	unit: fc.oneof(
		{ weight: 4, arbitrary: printableUnit },
		hostileUnit,
		invisible,
		fc.constantFrom("…", "ｙ", "𝐲", "\u0301"),
	),
	maxLength: 200,
});
const PRINTABLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

describe("cleanName: a name as it may be shown", () => {
	it.each([
		["zero-width and format characters", "sc\u200bo\u2060u\u200dt\ufeff", "scout"],
		["bidi controls", "\u202etuocs\u202c", "tuocs"],
		["controls and escape sequences", "\x1b[31mscout\x1b[0m\x07", "scout"],
		["full-width and mathematical letters", "ｓｃｏｕｔ 𝐬𝐜𝐨𝐮𝐭", "scout scout"],
		["runs of spaces of every kind", "  planner \u00a0\u3000 › \t scout\n", "planner › scout"],
		[
			"marks with nothing under them, and too many on one letter",
			"\u0301\u0301a\u0301\u0302\u0303\u0304\u0305\u0306",
			"á\u0302\u0303\u0304\u0305",
		],
		["a long name", "x".repeat(300), `${"x".repeat(NAME_MAX - 1)}…`],
	])("removes %s", (_what, given, shown) => {
		expect(cleanName(given)).toBe(shown);
	});

	it.each([
		["nothing", ""],
		["spaces", " \u00a0\u3000 "],
		["zero-width characters", "\u200b\u200c\u200d\u2060\ufeff"],
		["bidi controls and tags", "\u202e\u2066\u{e0041}\u{e007f}"],
		["blank letters", "\u3164\uffa0\u115f\u2800"],
		["combining marks alone", "\u0301\u0302 \u0303"],
		["an escape sequence", "\x1b]0;title\x07"],
	])("leaves nothing of %s", (_what, given) => {
		expect(cleanName(given)).toBe("");
	});

	it("an invisible character anywhere in a name changes nothing of how it is shown", () => {
		fc.assert(
			fc.property(nameText, fc.array(fc.tuple(fc.nat(), invisible), { maxLength: 8 }), (name, insertions) => {
				const chars = [...name];
				for (const [at, char] of insertions) chars.splice(at % (chars.length + 1), 0, char);
				expect(cleanName(chars.join(""))).toBe(cleanName(name));
			}),
			RUNS,
		);
	});

	it("whatever it is given: one line of printable text, or nothing; short; cleaned twice, the same", () => {
		fc.assert(
			fc.property(anyName, (text) => {
				const name = cleanName(text);
				expect(name).not.toMatch(/[\p{C}\u115f\u1160\u3164\uffa0\u2800]/u);
				expect(name).not.toMatch(/^\s|\s$|\s\s|[^\S ]/);
				expect(name === "" || PRINTABLE.test(name)).toBe(true);
				expect([...name].length).toBeLessThanOrEqual(NAME_MAX);
				expect(cleanName(name)).toBe(name);
			}),
			RUNS,
		);
	});
});

describe("readsAsSelf: a name that would pass a form off as this session's own", () => {
	it.each([
		"you",
		"YOU",
		" (you) ",
		"y o u",
		"Ｙｏｕ",
		"𝐲𝐨𝐮",
		"уоu",
		"yοu",
		"y0u",
		"Pi",
		"π",
		"ask_user",
		"Ask User",
		"the user",
		"du",
		"vous",
		"você",
		"вы",
		"あなた",
		"你",
	])("%s", (name) => {
		expect(readsAsSelf(cleanName(name))).toBe(true);
	});

	it.each(["scout", "youth", "pilot", "subagent", "planner › you", "Task: ask the user"])("not %s", (name) => {
		expect(readsAsSelf(cleanName(name))).toBe(false);
	});
});
