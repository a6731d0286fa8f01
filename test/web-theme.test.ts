/**
 * pi's theme as the page's colours (src/web/theme.ts): each colour read back from the escape code pi would send the
 * terminal, as `#rrggbb` only; what pi leaves to the terminal, and anything else, is left out; the stylesheet holds
 * nothing but fixed names and checked values. The page in a browser with pi's colours: test/e2e/web-page.test.ts and
 * test/e2e/web.test.ts.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hexOfAnsi, type PageTheme, pageColors, themeCss } from "../src/web/theme.ts";

/** A theme whose every colour is `code(token)`. */
const themeOf = (code: (token: string) => string): PageTheme => ({
	getFgAnsi: (token) => code(token),
	getBgAnsi: (token) => code(token),
});

describe("pi's theme as the page's colours", () => {
	it("truecolor codes are their #rrggbb; 256-colour codes from the cube and the greys too; dim keeps its colour", () => {
		expect(hexOfAnsi("\x1b[38;2;255;136;0m")).toBe("#ff8800");
		expect(hexOfAnsi("\x1b[48;2;0;0;0m")).toBe("#000000");
		expect(hexOfAnsi("\x1b[38;2;138;190;183m\x1b[2m")).toBe("#8abeb7");
		expect(hexOfAnsi("\x1b[38;5;16m")).toBe("#000000");
		expect(hexOfAnsi("\x1b[38;5;208m")).toBe("#ff8700");
		expect(hexOfAnsi("\x1b[38;5;231m")).toBe("#ffffff");
		expect(hexOfAnsi("\x1b[38;5;244m")).toBe("#808080");
	});

	it("what pi leaves to the terminal (its default, the 16 the user sets) and anything else is no colour", () => {
		for (const code of [
			"\x1b[39m",
			"\x1b[49m",
			"\x1b[38;5;3m",
			"\x1b[31m",
			"\x1b[38;2;256;0;0m",
			"\x1b[38;5;256m",
			"",
			"#ff0000",
			"red",
			"\x1b[38;2;1;2;3;4m",
		])
			expect(hexOfAnsi(code), JSON.stringify(code)).toBeUndefined();
		expect(hexOfAnsi(undefined)).toBeUndefined();
		expect(hexOfAnsi(42)).toBeUndefined();
	});

	it("the page's variables: accent, muted, line, text, error, a card; the button's text black or white on the accent", () => {
		const rgb: Record<string, string> = {
			accent: "\x1b[38;2;200;160;255m",
			muted: "\x1b[38;2;150;150;160m",
			borderMuted: "\x1b[38;2;110;110;120m",
			text: "\x1b[38;2;220;220;225m",
			error: "\x1b[38;2;255;120;100m",
			toolPendingBg: "\x1b[48;2;40;40;45m",
		};
		const colors = pageColors(themeOf((token) => rgb[token] ?? "\x1b[39m"));
		expect(colors).toEqual({
			accent: "#c8a0ff",
			muted: "#9696a0",
			line: "#6e6e78",
			text: "#dcdce1",
			error: "#ff7864",
			card: "#28282d",
			onAccent: "#000000",
		});
		const css = themeCss(colors);
		expect(css).toContain("color-scheme: dark;");
		expect(css).toContain("--accent: #c8a0ff;");
		expect(css).toContain("--on-accent: #000000;");
		expect(pageColors(themeOf(() => "\x1b[38;2;20;40;120m")).onAccent).toBe("#ffffff");
		expect(themeCss({ text: "#202020" })).toContain("color-scheme: light;");
		// pi 0.73's text is the terminal's own: its card says the scheme.
		expect(themeCss({ accent: "#8abeb7", card: "#282832" })).toBe(
			":root {\n\tcolor-scheme: dark;\n\t--accent: #8abeb7;\n\t--card: #282832;\n}\n",
		);
		expect(themeCss({ card: "#f0f0f0" })).toContain("color-scheme: light;");
	});

	it("a theme that gives no RGB, or throws, or is none: no variables, and the page keeps its own", () => {
		expect(themeCss(pageColors(themeOf(() => "\x1b[39m")))).toBe("");
		expect(
			pageColors(
				themeOf(() => {
					throw new Error("Unknown theme color");
				}),
			),
		).toEqual({});
		expect(pageColors(undefined)).toEqual({});
	});

	it("whatever a theme returns, the stylesheet holds only `--name: #rrggbb;` lines (and the scheme)", () => {
		fc.assert(
			fc.property(fc.dictionary(fc.string(), fc.string()), fc.string(), (codes, fallback) => {
				const css = themeCss(pageColors(themeOf((token) => codes[token] ?? fallback)));
				for (const line of css.split("\n").filter((l) => l !== ""))
					expect(line).toMatch(/^(:root \{|\}|\t--[a-z-]+: #[0-9a-f]{6};|\tcolor-scheme: (dark|light);)$/);
			}),
		);
		// Values that are not #rrggbb never reach the stylesheet, even when handed to it directly.
		expect(themeCss({ accent: "red; } body { display: none", text: "#fff</style>" } as never)).toBe("");
	});
});
