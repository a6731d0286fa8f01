/**
 * Properties over random forms, random states (reached by random key
 * sequences), every width from 1 to 240 and every locale: every rendered
 * line fits the width, the form fits its height budget, and the focused row
 * is in view (except while the user reads what PageUp/PageDown scrolled to).
 */

import { setKeybindings, visibleWidth } from "@mariozechner/pi-tui";
import fc from "fast-check";
import { beforeAll, describe, test } from "vitest";
import { AskFormComponent } from "../../src/form/component.ts";
import { formHeight } from "../../src/form/height.ts";
import { renderForm } from "../../src/form/form-view.ts";
import type { AskForm } from "../../src/core/types.ts";
import { arbAskForm } from "../support/arbitraries.ts";
import { quietTui } from "./fake-terminal.ts";
import { EVERY_LOCALE } from "../support/locales.ts";
import { colourTheme, drive, KEY, piKeybindings, plainContext, plainTable, plainTheme } from "./support.ts";

beforeAll(() => setKeybindings(piKeybindings()));

const HOSTILE = ["\x1b]52;c;SGVsbG8=\x07", "\x1b[2J", "\x9b31m", "\u202e", "\x07", "\r", "\t", "\x1b", "\x00"];

/** Valid forms, some with escape sequences and controls spliced into the model's text. */
const arbForm: fc.Arbitrary<AskForm> = fc.tuple(arbAskForm(), fc.boolean(), fc.nat()).map(([form, hostile, seed]) => {
	if (!hostile) return form;
	const dirty = (text: string, salt: number) => text + HOSTILE[(seed + salt) % HOSTILE.length] + text.slice(0, 3);
	return {
		...form,
		...(form.reason !== undefined && { reason: dirty(form.reason, 5) }),
		questions: form.questions.map((q, i) => ({
			...q,
			question: dirty(q.question, i),
			...(q.context !== undefined ? { context: dirty(q.context, i + 1) } : {}),
			options: q.options.map((o, j) => ({
				...o,
				label: dirty(o.label, i + j + 2),
				...(o.preview !== undefined ? { preview: dirty(o.preview, j) } : {}),
			})),
		})),
	};
});

const arbKey = fc.oneof(
	{
		weight: 6,
		arbitrary: fc.constantFrom(
			KEY.up,
			KEY.down,
			KEY.left,
			KEY.right,
			KEY.tab,
			KEY.shiftTab,
			KEY.enter,
			KEY.space,
			"j",
			"k",
		),
	},
	{
		weight: 3,
		arbitrary: fc.constantFrom("1", "2", "3", "4", "5", "6", "n", "N", "s", "c", "p", "?", KEY.pageDown, KEY.pageUp),
	},
	{
		weight: 2,
		arbitrary: fc.constantFrom("a", "word ", "中文", "🚀", "👨‍👩‍👧", KEY.shiftEnter, KEY.backspace, "x".repeat(90)),
	},
	{ weight: 1, arbitrary: fc.constantFrom(KEY.escape, KEY.paste("pasted\n  text ".repeat(40))) },
);

function checkFrame(lines: readonly string[], width: number, height: number, expectFocusRow: boolean): void {
	for (const line of lines) {
		if (visibleWidth(line) > width) throw new Error(`line wider than ${width}: ${JSON.stringify(line)}`);
	}
	if (lines.length > height) throw new Error(`${lines.length} lines for a height of ${height}`);
	if (expectFocusRow && !lines.some((line) => line.startsWith("❯")))
		throw new Error(`focused row not in view:\n${lines.join("\n")}`);
}

describe.each(EVERY_LOCALE)("every line fits, the focused row stays in view (%s)", (_locale, texts) => {
	test("pure views: random forms, random states, widths 1–240, heights 1–60, with and without colours", () => {
		const table = plainTable(undefined, texts);
		const TASK = "pick 数据库 \x1b[31mfor the cache 👩‍💻, then migrate";
		const arbSize = fc.tuple(fc.integer({ min: 1, max: 240 }), fc.integer({ min: 1, max: 60 }));
		const arbTimeLeft = fc.option(fc.constantFrom("0:05", "4:32", "1:01:01"), { nil: undefined });
		fc.assert(
			fc.property(
				arbForm,
				fc.array(arbKey, { maxLength: 30 }),
				arbSize,
				fc.boolean(),
				arbTimeLeft,
				(form, keys, [width, height], coloured, time) => {
					const { state } = drive(form, keys);
					const editorLines = ["─".repeat(width), "typed".slice(0, width), "─".repeat(width)];
					const ctx = plainContext(undefined, coloured ? colourTheme : undefined, texts);
					const timeLeft = time === undefined ? undefined : texts.t("form.timeLeft", { time });
					const lines = renderForm(
						{ state, width, height, table, asker: "planner › scout\x1b[31m", task: TASK, editorLines, timeLeft },
						ctx,
					).lines;
					const plain = coloured ? lines.map((line) => line.replace(/\x1b\[[0-9;]*m/g, "")) : lines;
					checkFrame(lines, width, height, false);
					// On a one-line form a "press again" warning takes the line: the next key ends the form or disarms.
					const warning = height === 1 && (state.escArmed || state.enterArmed !== undefined);
					checkFrame(plain, width, height, state.overlay.kind === "none" && !state.peeking && width >= 2 && !warning);
				},
			),
			{ numRuns: 300 },
		);
	});

	test("the component with pi-tui's Editor: after every key, at the terminal's width, and after resizes", () => {
		fc.assert(
			fc.property(
				arbForm,
				fc.array(arbKey, { maxLength: 25 }),
				fc.integer({ min: 1, max: 240 }),
				fc.integer({ min: 3, max: 60 }),
				fc.array(fc.integer({ min: 1, max: 240 }), { maxLength: 3 }),
				(form, keys, width, rows, resizes) => {
					const { tui } = quietTui(width, rows);
					let closed = false;
					const component = new AskFormComponent({
						tui,
						theme: plainTheme,
						keybindings: piKeybindings(),
						form,
						texts,
						onDone: () => (closed = true),
					});
					component.focused = true;
					// After PageUp/PageDown the user is reading: the focused row may be off-screen until the next other key.
					let reading = false;
					const check = (w: number) => {
						const lines = component.render(w);
						const state = component.currentState;
						// On a one-line form a "press again" warning takes the line: the next key ends the form or disarms.
						const warning = formHeight(rows) === 1 && (state.escArmed || state.enterArmed !== undefined);
						if (!closed)
							checkFrame(
								lines,
								w,
								formHeight(rows),
								state.overlay.kind === "none" && !state.peeking && w >= 2 && !reading && !warning,
							);
					};
					check(width);
					for (const key of keys) {
						component.handleInput(key);
						reading =
							key === KEY.pageUp || key === KEY.pageDown
								? reading || component.currentState.overlay.kind === "none"
								: false;
						check(width);
					}
					for (const w of resizes) check(w);
				},
			),
			{ numRuns: 60 },
		);
	});
});
