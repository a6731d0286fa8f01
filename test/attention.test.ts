import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attentionBytes, BEL } from "../src/route/attention.ts";

const ESC = "\x1b";
const count = (text: string, what: string) => text.split(what).length - 1;

/** The notification's protocol, read back from the bytes written for a desktop notification. */
function notifyProtocol(env: Record<string, string>): string {
	const bytes = attentionBytes("desktop", env, "t", "b");
	if (bytes === BEL) return "bell";
	const code = /^\x1b\](777|99|9);/.exec(bytes)?.[1];
	return code === undefined ? bytes : `osc${code}`;
}

/** Anything a model could put in a question or an asker, weighted towards what ends or opens a sequence. */
const hostileText = fc
	.array(
		fc.oneof(
			fc.string({ unit: "grapheme" }),
			fc.constantFrom(
				ESC,
				BEL,
				"\x9c",
				"\x9d",
				"\x90",
				`${ESC}\\`,
				`${ESC}]0;pwned${BEL}`,
				`${ESC}P`,
				";",
				"\u202e",
				"\n",
				"\r",
				"\x00",
			),
		),
		{ maxLength: 12 },
	)
	.map((parts) => parts.join(""));

const environments = [
	{},
	{ TERM_PROGRAM: "WezTerm" },
	{ TERM_PROGRAM: "ghostty" },
	{ KITTY_WINDOW_ID: "1" },
	{ WT_SESSION: "x" },
	{ TERM_PROGRAM: "iTerm.app" },
	{ TERM: "foot" },
	{ TMUX: "/tmp/tmux-0/default,1,0", KITTY_WINDOW_ID: "3" },
	{ TMUX: "/tmp/tmux-0/default,1,0", TERM_PROGRAM: "tmux" },
];

describe("notification text", () => {
	it("is printable, one line, without the OSC field separator, and within its length, whatever the model wrote", () => {
		const long = fc.string({ unit: "grapheme", minLength: 100, maxLength: 300 });
		fc.assert(
			fc.property(fc.oneof(hostileText, long), fc.oneof(hostileText, long), (title, body) => {
				const bytes = attentionBytes("desktop", { TERM_PROGRAM: "WezTerm" }, title, body);
				const frame = `${ESC}]777;notify;`;
				expect(bytes.startsWith(frame) && bytes.endsWith(BEL + BEL)).toBe(true);
				const fields = bytes.slice(frame.length, -2).split(";");
				expect(fields).toHaveLength(2);
				for (const field of fields) expect(field).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202a-\u202e]/);
				expect([...(fields[0] ?? "")].length).toBeLessThanOrEqual(40);
				expect([...(fields[1] ?? "")].length).toBeLessThanOrEqual(120);
			}),
		);
		const cut = attentionBytes("desktop", { TERM_PROGRAM: "WezTerm" }, "x".repeat(50), "y;\n z");
		expect(cut).toBe(`${ESC}]777;notify;${"x".repeat(39)}…;y, z${BEL}${BEL}`);
	});

	it("the bytes for every terminal frame the text and nothing else: no ESC, BEL or ST from the text survives", () => {
		fc.assert(
			fc.property(
				hostileText,
				hostileText,
				fc.constantFrom(...environments),
				fc.constantFrom("bell" as const, "desktop" as const),
				(title, body, env, mode) => {
					const bytes = attentionBytes(mode, env, title, body);
					const frame = attentionBytes(mode, env, "t", "b");
					expect(count(bytes, ESC)).toBe(count(frame, ESC));
					expect(count(bytes, BEL)).toBe(count(frame, BEL));
					expect(bytes).not.toMatch(/[\x80-\x9f]/);
				},
			),
		);
	});
});

describe("which terminal, which sequence", () => {
	it("reads the variables terminals set", () => {
		expect(notifyProtocol({ TERM_PROGRAM: "WezTerm" })).toBe("osc777");
		expect(notifyProtocol({ TERM_PROGRAM: "ghostty" })).toBe("osc777");
		expect(notifyProtocol({ TERM: "foot" })).toBe("osc777");
		expect(notifyProtocol({ TERM: "rxvt-unicode-256color" })).toBe("osc777");
		expect(notifyProtocol({ KITTY_WINDOW_ID: "1", TERM_PROGRAM: "WezTerm" })).toBe("osc99");
		expect(notifyProtocol({ WT_SESSION: "x" })).toBe("osc9");
		expect(notifyProtocol({ TERM_PROGRAM: "iTerm.app" })).toBe("osc9");
		expect(notifyProtocol({ TERM_PROGRAM: "tmux", LC_TERMINAL: "iTerm2" })).toBe("osc9");
		expect(notifyProtocol({ TERM: "xterm-256color" })).toBe("bell");
	});

	it("bell: one BEL; off: nothing; desktop: the notification, then a BEL", () => {
		expect(attentionBytes("bell", { TERM_PROGRAM: "WezTerm" }, "pi", "1 question waiting")).toBe(BEL);
		expect(attentionBytes("off", { TERM_PROGRAM: "WezTerm" }, "pi", "1 question waiting")).toBe("");
		expect(attentionBytes("desktop", { TERM_PROGRAM: "WezTerm" }, "pi", "2 questions waiting")).toBe(
			`${ESC}]777;notify;pi;2 questions waiting${BEL}${BEL}`,
		);
		expect(attentionBytes("desktop", { KITTY_WINDOW_ID: "1" }, "pi", "b")).toBe(
			`${ESC}]99;i=pi-ask-user:d=0;pi${ESC}\\${ESC}]99;i=pi-ask-user:p=body;b${ESC}\\${BEL}`,
		);
		expect(attentionBytes("desktop", { WT_SESSION: "1" }, "pi", "b")).toBe(`${ESC}]9;pi: b${BEL}${BEL}`);
		expect(attentionBytes("desktop", {}, "pi", "b")).toBe(BEL);
	});

	it("inside tmux the notification is wrapped for passthrough, its ESCs doubled, and the bell follows unwrapped", () => {
		const bytes = attentionBytes("desktop", { TMUX: "x", KITTY_WINDOW_ID: "1" }, "pi", "b");
		expect(bytes.startsWith(`${ESC}Ptmux;${ESC}${ESC}]99;`)).toBe(true);
		expect(bytes.endsWith(`${ESC}\\${BEL}`)).toBe(true);
		expect(attentionBytes("desktop", { TMUX: "x", WT_SESSION: "1" }, "pi", "x")).toBe(
			`${ESC}Ptmux;${ESC}${ESC}]9;pi: x${BEL}${ESC}\\${BEL}`,
		);
	});
});
