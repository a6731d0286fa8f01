/**
 * The question view's vertical layout at real terminal sizes, through the
 * component (pi-tui's TUI over a fake terminal): PageUp reaches the first
 * line of a question taller than the screen, the next other key brings the
 * focused row back, rows go to content before spacing, and on the shortest
 * terminals the focused row (or the editor's cursor line) is what stays.
 */

import { setKeybindings, visibleWidth } from "@mariozechner/pi-tui";
import { beforeAll, describe, expect, test, vi } from "vitest";
import { AskFormComponent } from "../../src/form/component.ts";
import { formHeight, PI_FOOTER_ROWS } from "../../src/form/height.ts";
import { renderQuestionView } from "../../src/form/question-view.ts";
import type { AskForm } from "../../src/core/types.ts";
import { quietTui } from "./fake-terminal.ts";
import { drive, formOf, KEY, option, piKeybindings, plainContext, plainTheme, question } from "./support.ts";

beforeAll(() => setKeybindings(piKeybindings()));

/** The first question of scripts/demo-script.json, with the demo's other two tabs. */
const DEMO_QUESTION = "How should the new HTTP client report failures to its callers?";
const DEMO = formOf(
	question("errors", {
		header: "Errors",
		question: DEMO_QUESTION,
		context: "Today every call site wraps fetch in its own try/catch; 14 of them swallow the error.",
		options: [
			option("Result value", {
				recommended: true,
				description: "Return { ok, value } or { ok, error }; the type system makes callers handle it.",
				preview:
					'const res = await client.get("/users");\nif (!res.ok) {\n  log.warn(res.error.message);\n  return [];\n}\nreturn res.value;',
			}),
			option("Throw HttpError", {
				description: "Keep exceptions, but one typed error class with status and body.",
				preview:
					'try {\n  return await client.get("/users");\n} catch (e) {\n  if (e instanceof HttpError && e.status === 404) return [];\n  throw e;\n}',
			}),
			option("Callbacks", {
				description: "onSuccess / onError handlers per call.",
				preview:
					'client.get("/users", {\n  onSuccess: (users) => render(users),\n  onError: (e) => toast(e.message),\n});',
			}),
		],
	}),
	question("retries", { header: "Retries", multiSelect: true }),
	question("changelog", { header: "Changelog", required: false }),
);

/** Numbered words up to `length` characters: every word can be looked for on screen. */
function words(prefix: string, length: number): string {
	let text = "";
	for (let i = 1; text.length < length; i++) text += `${text ? " " : ""}${prefix}${i}`;
	return text.slice(0, length).trimEnd();
}

/** A legal question and context near their limits (1000 characters each). */
const LONG_QUESTION = words("q", 983);
const LONG = formOf(
	question("long", { header: "Long", question: LONG_QUESTION, context: words("c", 982) }),
	question("other"),
);

function mount(form: AskForm, width: number, rows: number) {
	const { tui } = quietTui(width, rows);
	const done = vi.fn();
	const component = new AskFormComponent({ tui, theme: plainTheme, keybindings: piKeybindings(), form, onDone: done });
	component.focused = true;
	const screen = () => {
		const lines = component.render(width);
		expect(lines.length).toBeLessThanOrEqual(formHeight(rows));
		for (const line of lines) expect(visibleWidth(line), line).toBeLessThanOrEqual(width);
		return lines;
	};
	const press = (...keys: string[]) => {
		for (const key of keys) component.handleInput(key);
	};
	/** PageUp/PageDown until the screen stops changing; every screen on the way. */
	const pageAll = (key: string) => {
		const seen = [screen()];
		for (let i = 0; i < 100; i++) {
			press(key);
			const next = screen();
			if (next.join("\n") === seen[seen.length - 1]?.join("\n")) break;
			seen.push(next);
		}
		return seen;
	};
	return { component, done, screen, press, pageAll };
}

const focusedRow = (lines: readonly string[]) => lines.find((line) => line.startsWith("❯"));

describe("a question taller than the screen", () => {
	test("60×16, the demo: the question shows from the start, PageDown leaves it, PageUp comes back to its first line", () => {
		const form = mount(DEMO, 60, 16);
		const first = form.screen();
		expect(first.some((line) => line.startsWith("How should the new HTTP client"))).toBe(true);
		expect(focusedRow(first)).toBe("❯ ○ 1. Result value (recommended)");
		const down = form.pageAll(KEY.pageDown);
		expect(down.at(-1)?.some((line) => line.startsWith("How should"))).toBe(false);
		expect(down.at(-1)?.join("\n")).toContain("Preview:");
		const up = form.pageAll(KEY.pageUp);
		expect(up.at(-1)?.some((line) => line.startsWith("How should the new HTTP client"))).toBe(true);
	});

	test("40×15, the demo: the question starts above the focused row; PageUp shows it, ↓ shows the focused row again", () => {
		const form = mount(DEMO, 40, 15);
		const first = form.screen();
		expect(first.some((line) => line.startsWith("How should"))).toBe(false);
		expect(first.some((line) => /^↑ \d+ more · pgup$/.test(line))).toBe(true);
		expect(focusedRow(first)).toBeDefined();
		const top = form.pageAll(KEY.pageUp).at(-1) ?? [];
		expect(
			top.some((line) => line.startsWith("How should the new HTTP client")),
			top.join("\n"),
		).toBe(true);
		expect(
			top.some((line) => /^↑ \d+ more/.test(line)),
			top.join("\n"),
		).toBe(false);
		form.pageAll(KEY.pageDown);
		expect(focusedRow(form.screen())).toBeUndefined();
		form.press(KEY.down);
		expect(focusedRow(form.screen())).toBe("❯ ○ 2. Throw HttpError");
	});

	test("80×24, a 983-character question and a 982-character context: PageUp reaches the first line, every word can be read, ↓ brings the focus back", () => {
		const form = mount(LONG, 80, 24);
		const first = form.screen();
		expect(focusedRow(first)).toBe("❯ ○ 1. Alpha");
		expect(first.some((line) => /^↑ \d+ more · pgup$/.test(line))).toBe(true);

		const up = form.pageAll(KEY.pageUp);
		const top = up.at(-1) ?? [];
		const firstLine = top.find((line) => line.startsWith("q1 q2 q3"));
		expect(firstLine, top.join("\n")).toBeDefined();
		expect(focusedRow(top)).toBeUndefined();

		// Never cut silently: paging down from the top shows every word of the question.
		const shown = new Set(form.pageAll(KEY.pageDown).flatMap((lines) => lines.join(" ").split(/\s+/)));
		for (const word of LONG_QUESTION.split(" ")) expect(shown.has(word), word).toBe(true);

		form.pageAll(KEY.pageUp);
		form.press(KEY.down);
		const after = form.screen();
		expect(focusedRow(after)).toBe("❯ ○ 2. Beta");
	});

	test("any other key brings the focused row back, even one that changes nothing", () => {
		const form = mount(LONG, 80, 24);
		form.pageAll(KEY.pageUp);
		expect(focusedRow(form.screen())).toBeUndefined();
		form.press("1"); // the row already focused
		expect(focusedRow(form.screen())).toBe("❯ ○ 1. Alpha");
	});

	test("the view: `reading` shows the requested lines, without it the window follows the focus", () => {
		const ctx = plainContext();
		const state = drive(LONG, [KEY.down]).state;
		const scrolled = { ...state, questions: state.questions.map((qs, i) => (i === 0 ? { ...qs, scroll: 0 } : qs)) };
		const reading = renderQuestionView({ ...scrolled, reading: true }, 0, 80, 18, ctx);
		expect(reading.lines[0]).toMatch(/^q1 q2 q3/);
		expect(focusedRow(reading.lines)).toBeUndefined();
		expect(reading.body).toMatchObject({ top: 0, min: 0 });
		const following = renderQuestionView(scrolled, 0, 80, 18, ctx);
		expect(focusedRow(following.lines)).toBe("❯ ○ 2. Beta");
		// PageUp/PageDown may still go anywhere: the port spans the whole body.
		expect(following.body.min).toBe(0);
		expect(following.body.max).toBe(reading.body.max);
	});
});

describe("content before spacing", () => {
	// 25 rows: the demo's question fits exactly (24 before the You decide row).
	test("80×25, the demo: no blank rows and no rule; the whole preview is on screen", () => {
		const form = mount(DEMO, 80, 25);
		const lines = form.screen();
		expect(lines).not.toContain("");
		expect(lines.some((line) => line.startsWith("─"))).toBe(false);
		expect(lines.some((line) => / more · pg(up|dn)$/.test(line))).toBe(false);
		const preview = lines.indexOf("Preview:");
		expect(lines.slice(preview + 1, preview + 7)).toEqual([
			'const res = await client.get("/users");',
			"if (!res.ok) {",
			"  log.warn(res.error.message);",
			"  return [];",
			"}",
			"return res.value;",
		]);
	});

	test("with rows to spare the spacing comes back: the rule, the blank under the tab bar, and blanks around the options", () => {
		const lines = mount(DEMO, 80, 40).screen();
		expect(lines[0]).toMatch(/^─+$/);
		expect(lines[2]).toBe("");
		expect(lines[3]).toBe(DEMO_QUESTION);
		expect(lines[lines.indexOf("  ○ 4. Type something…") + 1]).toBe("  ○ 5. You decide");
		expect(lines[lines.indexOf("  ○ 5. You decide") + 1]).toBe("");
	});

	test("84×24, side by side, is unchanged: the rule, the blanks, the whole pane", () => {
		const lines = mount(DEMO, 84, 24).screen();
		expect(lines[0]).toMatch(/^─+$/);
		expect(lines.slice(1, 4)).toEqual([expect.stringContaining("□ Errors"), "", DEMO_QUESTION]);
		expect(lines[6]).toBe("");
		expect(lines[7]).toMatch(/^❯ ○ 1\. Result value \(recommended\) +│ Result value$/);
		expect(lines.some((line) => line.endsWith("│ return res.value;"))).toBe(true);
	});

	test("where the question fits, the layout stays still while the focus moves, though the previews differ in length", () => {
		for (let rows = 24; rows <= 34; rows++) {
			for (const width of [80, 84, 120]) {
				const form = mount(DEMO, width, rows);
				const frames = [0, 1, 2, 3].map(() => {
					const lines = form.screen();
					form.press(KEY.down);
					return lines;
				});
				const where = `${width}×${rows}`;
				for (const lines of frames)
					expect(
						lines.some((line) => / more · pg(up|dn)$/.test(line)),
						where,
					).toBe(false);
				const firstRow = frames.map((lines) => lines.findIndex((line) => line.includes("○ 1. Result value")));
				expect(new Set(firstRow).size, where).toBe(1);
			}
		}
	});
});

describe("the shortest terminals", () => {
	test("the form never reaches under pi's footer, and has a line from 3 rows on", () => {
		for (let rows = 3; rows <= 200; rows++) {
			expect(formHeight(rows), `${rows} rows`).toBeLessThanOrEqual(rows - PI_FOOTER_ROWS);
			expect(formHeight(rows)).toBeGreaterThanOrEqual(1);
		}
		expect(formHeight(24)).toBe(20);
	});

	test("100×3: the one line above the footer is the focused row", () => {
		expect(mount(DEMO, 100, 3).screen()).toEqual([
			expect.stringMatching(/^❯ ○ 1\. Result value \(recommended\) +│ Result value$/),
		]);
	});

	test("every height from 3 rows: the focused row is on screen, and so is the editor's cursor line", () => {
		for (const width of [30, 60, 100]) {
			for (let rows = 3; rows <= 12; rows++) {
				const form = mount(DEMO, width, rows);
				form.press(KEY.down);
				expect(focusedRow(form.screen()), `${width}×${rows}`).toMatch(/^❯ ○ 2\./);
				form.press("4", ..."typed");
				// The cursor: pi-tui's marker for the IME, then the drawn cursor (pi 1.x's mark, reverse video in 0.73).
				expect(form.screen().join("\n"), `${width}×${rows}, editor`).toMatch(
					/typed(\x1b_pi:c\x07)?(\x1b_pi:fc\x07|\x1b\[7m)/,
				);
			}
		}
	});
});

describe("keys while the focused option is scrolled out of sight", () => {
	test("Enter, Space or n only bring it back; the next one acts on it", () => {
		const form = mount(LONG, 80, 24);
		form.pageAll(KEY.pageUp);
		expect(focusedRow(form.screen())).toBeUndefined();
		form.press(KEY.enter);
		expect(form.component.currentState.tab).toBe(0);
		expect(form.component.currentState.questions[0]?.chosen).toEqual([]);
		expect(focusedRow(form.screen())).toBe("❯ ○ 1. Alpha");
		form.press(KEY.enter);
		expect(form.component.currentState.questions[0]?.chosen).toEqual([0]);
	});

	test("while the focused option is still on screen, reading changes nothing: Enter chooses it", () => {
		const form = mount(DEMO, 60, 16);
		form.press(KEY.pageDown);
		expect(focusedRow(form.screen())).toBeDefined();
		form.press(KEY.enter);
		expect(form.component.currentState.questions[0]?.chosen).toEqual([0]);
	});
});

describe("'press again' warnings on the shortest terminals", () => {
	test("the Esc warning is on screen at every height from 3 rows, and the next Esc dismisses", () => {
		for (let rows = 3; rows <= 8; rows++) {
			const form = mount(DEMO, 80, rows);
			form.press(KEY.escape);
			expect(form.screen().join("\n"), `80×${rows}`).toContain("Press esc again to dismiss the form");
			form.press(KEY.escape);
			expect(form.done, `80×${rows}`).toHaveBeenCalledTimes(1);
		}
	});

	test("so is the review's Cancel warning", () => {
		for (let rows = 3; rows <= 8; rows++) {
			const form = mount(DEMO, 80, rows);
			form.press(KEY.tab, KEY.tab, KEY.tab, KEY.down, KEY.enter);
			expect(form.screen().join("\n"), `80×${rows}`).toMatch(/again to dismiss the form/);
		}
	});
});
