/**
 * pi's theme as the page's colours: each colour pi would send the terminal, read back from its escape code (truecolor,
 * or a 256-colour index from the fixed cube and greys) as `#rrggbb`, and nothing else. A colour pi leaves to the
 * terminal (its default, the 16 the user configures) or gives in any other form is left out, and the page keeps its
 * own. What reaches the page's stylesheet is fixed names with values that match /^#[0-9a-f]{6}$/: no theme can add CSS.
 */

import type { Theme } from "@mariozechner/pi-coding-agent";

/** What the page reads of pi's theme (`ctx.ui.theme`: the same methods in pi 1.6 and 0.73). */
export type PageTheme = Pick<Theme, "getFgAnsi" | "getBgAnsi">;

/** The page's CSS variables, each from one of pi's theme colours (fg, then bg). */
const FOREGROUNDS = {
	accent: "accent",
	muted: "muted",
	line: "borderMuted",
	text: "text",
	error: "error",
} as const satisfies Record<string, Parameters<Theme["getFgAnsi"]>[0]>;
const BACKGROUNDS = { card: "toolPendingBg" } as const satisfies Record<string, Parameters<Theme["getBgAnsi"]>[0]>;

export type PageColors = Partial<Record<keyof typeof FOREGROUNDS | keyof typeof BACKGROUNDS | "onAccent", string>>;

const HEX = /^#[0-9a-f]{6}$/;
const CUBE = [0, 95, 135, 175, 215, 255];

/** `#rrggbb` of the colour an SGR escape code sets (`38;…` or `48;…`), or undefined. */
export function hexOfAnsi(ansi: unknown): string | undefined {
	if (typeof ansi !== "string") return undefined;
	const code = /^\x1b\[(?:38|48);(2;(\d{1,3});(\d{1,3});(\d{1,3})|5;(\d{1,3}))m/.exec(ansi);
	if (!code) return undefined;
	const [, , r, g, b, index] = code;
	const rgb = index === undefined ? [r, g, b].map(Number) : paletteRgb(Number(index));
	if (!rgb || rgb.some((n) => !(n >= 0 && n <= 255))) return undefined;
	return `#${rgb.map((n) => n.toString(16).padStart(2, "0")).join("")}`;
}

/** The xterm 256-colour palette from 16 on (the 6×6×6 cube, then 24 greys); the first 16 are the terminal's own. */
function paletteRgb(index: number): number[] | undefined {
	if (index >= 232 && index <= 255) return Array(3).fill(8 + 10 * (index - 232));
	if (index < 16 || index > 231) return undefined;
	const n = index - 16;
	return [Math.floor(n / 36), Math.floor(n / 6) % 6, n % 6].map((level) => CUBE[level] ?? -1);
}

/** The page's colours from pi's theme; a colour pi does not give as RGB (or a theme that throws) is left out. */
export function pageColors(theme: PageTheme | undefined): PageColors {
	if (!theme) return {};
	const read = (get: () => string) => {
		try {
			return hexOfAnsi(get());
		} catch {
			return undefined;
		}
	};
	const colors: PageColors = {};
	for (const [name, token] of Object.entries(FOREGROUNDS))
		colors[name as keyof PageColors] = read(() => theme.getFgAnsi(token));
	for (const [name, token] of Object.entries(BACKGROUNDS))
		colors[name as keyof PageColors] = read(() => theme.getBgAnsi(token));
	// The button's text: black or white, whichever contrasts more with the accent (they break even at 0.179).
	if (colors.accent) colors.onAccent = luminance(colors.accent) > 0.179 ? "#000000" : "#ffffff";
	return Object.fromEntries(Object.entries(colors).filter(([, value]) => value !== undefined)) as PageColors;
}

/** Relative luminance (WCAG) of `#rrggbb`, 0 to 1. */
function luminance(hex: string): number {
	const [r = 0, g = 0, b = 0] = [1, 3, 5].map((at) => {
		const c = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
		return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
	});
	return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The stylesheet of the page's colours, each variable checked again; light or dark as pi's theme is: by its text (light
 * text, a dark theme), else (pi 0.73's text is the terminal's own) by its card. A card without a scheme is left out: it
 * could be dark under the browser's dark text.
 */
export function themeCss(colors: PageColors): string {
	const known = (value: string | undefined): value is string => typeof value === "string" && HEX.test(value);
	const darkBy = (): boolean | undefined => {
		if (known(colors.text)) return luminance(colors.text) > 0.5;
		return known(colors.card) ? luminance(colors.card) < 0.2 : undefined;
	};
	const dark = darkBy();
	const lines = Object.entries(colors)
		.filter(([name, value]) => /^[a-zA-Z]+$/.test(name) && known(value) && (name !== "card" || dark !== undefined))
		.map(([name, value]) => `\t--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${value};`);
	if (dark !== undefined) lines.unshift(`\tcolor-scheme: ${dark ? "dark" : "light"};`);
	return lines.length > 0 ? `:root {\n${lines.join("\n")}\n}\n` : "";
}
