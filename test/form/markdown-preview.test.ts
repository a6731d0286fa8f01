/**
 * Previews rendered as markdown: pi-tui's Markdown component with a markdown
 * theme, sanitised first, never wider than the width; plain text stays plain.
 */

import { ENGLISH } from "../../src/i18n/texts.ts";
import { getCapabilities, Markdown, type MarkdownTheme, setCapabilities, visibleWidth } from "@mariozechner/pi-tui";
import fc from "fast-check";
import { describe, expect, test, vi } from "vitest";
import { renderForm } from "../../src/form/form-view.ts";
import { looksLikeMarkdown, TextFitter } from "../../src/form/text-fit.ts";
import { drive, formOf, KEY, option, piKeybindings, plainTable, plainTheme, question } from "./support.ts";
import { keyNames } from "../../src/form/keymap.ts";
import { AskFormComponent } from "../../src/form/component.ts";
import { quietTui } from "./fake-terminal.ts";

const mark = (tag: string) => (s: string) => `\x1b[1m${tag}${s}\x1b[22m`;
/** Styles that add escape codes only, as pi's do; the heading's "§" shows it came through the theme. */
const THEME: MarkdownTheme = {
	heading: (s) => `\x1b[1m§${s}\x1b[22m`,
	link: mark(""),
	linkUrl: mark(""),
	code: mark(""),
	codeBlock: mark(""),
	codeBlockBorder: mark(""),
	quote: mark(""),
	quoteBorder: mark(""),
	hr: mark(""),
	listBullet: mark(""),
	bold: mark(""),
	italic: mark(""),
	strikethrough: mark(""),
	underline: mark(""),
	highlightCode: (code) => code.split("\n").map((line) => `\x1b[36m${line}\x1b[39m`),
};

const MARKDOWN = "# Plan\n\n- keep the **schema**\n- add `retries`\n\n```ts\nconst x = 1;\n```";

describe("markdown previews", () => {
	test("a theme switch (pi calls invalidate) styles a preview shown again with the new theme's colours", () => {
		let heading = "§";
		const theme: MarkdownTheme = { ...THEME, heading: (s) => `\x1b[1m${heading}${s}\x1b[22m` };
		const form = formOf(
			question("plan", { header: "Plan", options: [option("Keep", { preview: MARKDOWN }), option("Drop")] }),
		);
		const { tui } = quietTui(120, 40);
		const component = new AskFormComponent({
			tui,
			theme: plainTheme,
			keybindings: piKeybindings(),
			form,
			onDone: () => {},
			markdownTheme: theme,
		});
		const shown = () =>
			component
				.render(120)
				.join("\n")
				.replace(/\x1b\[[0-9;]*m/g, "");
		expect(shown()).toContain("§Plan");
		heading = "¶";
		component.invalidate();
		expect(shown()).toContain("¶Plan");
		expect(shown()).not.toContain("§Plan");
	});

	test("pi 1.x: Markdown's render is a readonly, cached array — fitting it copies, never writes into it", () => {
		const render = Markdown.prototype.render;
		const spy = vi.spyOn(Markdown.prototype, "render").mockImplementation(function (this: Markdown, width: number) {
			return Object.freeze([...render.call(this, width)]);
		});
		try {
			const fitted = new TextFitter(THEME).preview(
				`${MARKDOWN}\n\n[a link](https://example.com) ${"long ".repeat(30)}`,
				20,
			);
			expect(fitted.markdown).toBe(true);
			expect(fitted.lines.every((line) => visibleWidth(line) <= 20)).toBe(true);
			expect(spy).toHaveBeenCalled();
		} finally {
			spy.mockRestore();
		}
	});

	test("LaTeX stays as the model wrote it (pi 1.x's Markdown renders it by default)", () => {
		const text = "# Formula\n\nThe cost is $x^2 + \\alpha$ per call.";
		const lines = new TextFitter(THEME).preview(text, 80).lines.join("\n");
		expect(lines).toContain("$x^2 + \\alpha$");
	});

	test("what reads as markdown: fences, headings, lists; not code, not diffs", () => {
		expect(looksLikeMarkdown(MARKDOWN)).toBe(true);
		expect(looksLikeMarkdown("```\ncode\n```")).toBe(true);
		expect(looksLikeMarkdown("function f() {\n  return 1;\n}")).toBe(false);
		expect(looksLikeMarkdown("- old line\n- another\n+ new line")).toBe(false);
		expect(looksLikeMarkdown("src/\n  index.ts")).toBe(false);
		expect(looksLikeMarkdown("@@ -1 +1 @@\n# a comment\n+ added")).toBe(false);
	});

	test("a markdown preview is rendered by the Markdown component and theme; plain text is wrapped as it is", () => {
		const fit = new TextFitter(THEME);
		const md = fit.preview(MARKDOWN, 40);
		expect(md.markdown).toBe(true);
		expect(md.lines.some((line) => line.includes("§"))).toBe(true);
		expect(md.lines.some((line) => line.includes("\x1b[36mconst x = 1;"))).toBe(true);
		const plain = fit.preview("function f() {\n  return 1;\n}", 40);
		expect(plain).toEqual({ lines: fit.wrap("function f() {\n  return 1;\n}", 40), markdown: false });
		// Without a theme (tests, a host without pi's theme) every preview is plain.
		expect(new TextFitter().preview(MARKDOWN, 40).markdown).toBe(false);
	});

	test("in a terminal with hyperlinks, a link shows as its text: no model URL hides behind a clickable label", () => {
		const before = getCapabilities();
		setCapabilities({ ...before, hyperlinks: true });
		try {
			const md = new TextFitter(THEME).preview("# Links\n\n- see [the docs](https://evil.example/x)\n- more", 60);
			const all = md.lines.join("\n");
			expect(all).toContain("the docs");
			expect(all).not.toContain("\x1b]8;");
		} finally {
			setCapabilities(before);
		}
	});

	test("fitted once per width: the same width gives the same lines back", () => {
		const fit = new TextFitter(THEME);
		expect(fit.preview(MARKDOWN, 33)).toBe(fit.preview(MARKDOWN, 33));
	});

	test("sanitised first: an escape sequence in the model's markdown never reaches the lines", () => {
		const fit = new TextFitter(THEME);
		const lines = fit.preview("# Title\x1b]52;c;aGk=\x07\n\n- a\x1b[31m\n- b", 30).lines.join("\n");
		expect(lines).not.toContain("\x1b]52");
		expect(lines).not.toContain("\x1b[31m");
	});

	test("every line of a markdown preview fits, at every width 1–240, in the pane and stacked", () => {
		const piece = fc.constantFrom(
			"# Heading",
			"## Sub 中文",
			"- item **bold**",
			"1. first `code`",
			"> quote 🚀",
			"```ts\nconst veryLongIdentifierName = callSomething(withArguments, andMore);\n```",
			"| a | b |\n|---|---|\n| 1 | 2 |",
			"plain words that wrap",
			"[link](https://example.com/a/very/long/path)",
			"---",
		);
		fc.assert(
			fc.property(
				fc.array(piece, { minLength: 1, maxLength: 8 }),
				fc.integer({ min: 1, max: 240 }),
				fc.integer({ min: 3, max: 60 }),
				(pieces, width, height) => {
					const preview = pieces.join("\n\n");
					const form = formOf(
						question("plan", {
							header: "Plan",
							options: [option("A", { preview }), option("B", { preview: "plain" })],
						}),
					);
					const ctx = {
						theme: plainTheme,
						fit: new TextFitter(THEME),
						keys: keyNames(piKeybindings(), ENGLISH),
						texts: ENGLISH,
					};
					const state = drive(form, [KEY.down, KEY.up]).state;
					const lines = renderForm({ state, width, height, table: plainTable() }, ctx).lines;
					for (const line of lines) expect(visibleWidth(line), JSON.stringify(line)).toBeLessThanOrEqual(width);
					for (const line of ctx.fit.preview(preview, width).lines)
						expect(visibleWidth(line)).toBeLessThanOrEqual(width);
				},
			),
			{ numRuns: 300 },
		);
	});
});
