/**
 * The form in every language: the hint line gives way in the same order as
 * in English, whole hints or none; wide (CJK) text is never cut inside a
 * character; the review, the tab bar and the peeking line speak the
 * locale; the peek key is the user's.
 */

import { visibleWidth } from "@mariozechner/pi-tui";
import { describe, expect, test } from "vitest";
import { AskFormComponent } from "../../src/form/component.ts";
import { renderForm } from "../../src/form/form-view.ts";
import { fitHintLine, hintIds } from "../../src/form/hint-line.ts";
import { commandForKey, keyNames, keyTable } from "../../src/form/keymap.ts";
import { initialState } from "../../src/machine/update.ts";
import { CATALOGUES, EVERY_LOCALE, textsFor } from "../support/locales.ts";
import { quietTui } from "./fake-terminal.ts";
import { drive, KEY, piKeybindings, plainContext, plainTable, plainTheme, SCOPE_AND_TARGETS, type } from "./support.ts";

/** States that show each kind of hint line: a question, a multi-select, the review, the editor, help, folded. */
const STATES = {
	question: drive(SCOPE_AND_TARGETS, []).state,
	multiSelect: drive(SCOPE_AND_TARGETS, [KEY.right]).state,
	review: drive(SCOPE_AND_TARGETS, [KEY.right, KEY.right]).state,
	editor: drive(SCOPE_AND_TARGETS, ["n", ...type("why")]).state,
	help: drive(SCOPE_AND_TARGETS, ["?"]).state,
};

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const sameStrings = (a: readonly string[], b: readonly string[]): boolean =>
	a.length === b.length && a.every((item, i) => item === b[i]);

describe.each(EVERY_LOCALE)("%s", (locale, texts) => {
	const ctx = plainContext(undefined, undefined, texts);
	const table = plainTable(undefined, texts);

	test("the hint line keeps its hints in order and drops them from the end, the help key last, at every width", () => {
		for (const [name, state] of Object.entries(STATES)) {
			const ids = hintIds(state);
			const rest = ids.filter((id) => id !== "help");
			let before = Number.POSITIVE_INFINITY;
			// 240 widths × 5 states × 10 locales: each check is made plainly, and through
			// `expect` (for its message) only when it fails; an expect per check was most of the time.
			for (let width = 240; width >= 1; width--) {
				const { line, shown } = fitHintLine(state, table, width, ctx);
				if (visibleWidth(line) > width) expect(visibleWidth(line), `${name} at ${width}`).toBeLessThanOrEqual(width);
				const kept = shown.filter((id) => id !== "help");
				const prefix = rest.slice(0, kept.length);
				if (!sameStrings(kept, prefix)) expect(kept, `${name} at ${width}`).toEqual(prefix);
				// Narrower never shows more.
				if (kept.length > before) expect(kept.length).toBeLessThanOrEqual(before);
				before = kept.length;
				// What is shown is whole: each hint's keys and words, as the table has them.
				const pieces = line.split(" · ");
				if (shown.length > 0) {
					const whole = shown.map((id) => `${table.find((e) => e.id === id)?.hint.keys} ${texts.t(`key.${id}.hint`)}`);
					if (!sameStrings(pieces, whole)) expect(pieces, `${name} at ${width}`).toEqual(whole);
				}
			}
			// Wide enough, every hint is there.
			expect(fitHintLine(state, table, 240, ctx).shown.sort()).toEqual([...ids].sort());
		}
	});

	test("no line is wider than the terminal, cuts a surrogate pair or shows a replacement character, at any width", () => {
		const states = [
			...Object.values(STATES),
			drive(SCOPE_AND_TARGETS, ["p"]).state,
			drive(SCOPE_AND_TARGETS, [KEY.escape]).state,
		];
		for (const state of states) {
			for (let width = 1; width <= 120; width++) {
				for (const height of [1, 3, 8, 30]) {
					const lines = renderForm(
						{
							state: { ...state, form: { ...state.form, reason: "調査のため 👩‍💻 why" } },
							width,
							height,
							table,
							asker: "計画 › 調査",
							task: "データベースを選ぶ",
						},
						ctx,
					).lines;
					// 33,600 frames: checked plainly, through `expect` only when a check fails (see above).
					if (lines.length > height) expect(lines.length).toBeLessThanOrEqual(height);
					for (const line of lines) {
						if (visibleWidth(line) > width) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
						if (LONE_SURROGATE.test(line)) expect(LONE_SURROGATE.test(line), JSON.stringify(line)).toBe(false);
						if (line.includes("\ufffd")) expect(line).not.toContain("\ufffd");
					}
				}
			}
		}
	});

	test("the review, the tab bar, the hints and the folded line are in the locale's words", () => {
		const catalogue = CATALOGUES[locale];
		const review = renderForm({ state: STATES.review, width: 200, height: 40, table }, ctx).lines.join("\n");
		expect(review).toContain(catalogue["review.title"]);
		expect(review).toContain(catalogue["review.tab"]);
		expect(review).toContain(catalogue["review.submit"]);
		expect(review).toContain(catalogue["key.dismiss.hint"]);
		const folded = renderForm(
			{ state: drive(SCOPE_AND_TARGETS, ["p"]).state, width: 200, height: 40, table },
			ctx,
		).lines.join("\n");
		expect(folded).toContain(texts.t("form.peekShow", { key: "p" }));
	});
});

test("the peek key is the user's: it folds and unfolds the form, and the hint, the help and the folded line name it", () => {
	const kb = piKeybindings();
	const texts = textsFor("en");
	const slots = { peek: "f2" } as const;
	const fold = "\x1bOQ";
	expect(commandForKey(fold, "form", kb, slots)).toEqual({ type: "togglePeek" });
	expect(commandForKey(fold, "peeking", kb, slots)).toEqual({ type: "togglePeek" });
	expect(commandForKey("p", "form", kb, slots)).toEqual({ type: "otherKey" });
	expect(keyTable(kb, texts, slots).find((e) => e.id === "peek")?.keys).toBe("f2");
	const ctx = { ...plainContext(kb, undefined, texts), keys: keyNames(kb, texts, slots) };
	const folded = renderForm(
		{
			state: { ...initialState(SCOPE_AND_TARGETS), peeking: true },
			width: 120,
			height: 10,
			table: keyTable(kb, texts, slots),
		},
		ctx,
	).lines[0];
	expect(folded).toContain("f2 shows the form");
});

test("a peek key the user's keybindings give to something else: the form says so, and p folds it instead", () => {
	const kb = piKeybindings({ "tui.select.confirm": ["enter", "ctrl+o"] });
	const { tui } = quietTui(100, 30);
	const component = new AskFormComponent({
		tui,
		theme: plainTheme,
		keybindings: kb,
		form: SCOPE_AND_TARGETS,
		peekKey: "ctrl+o",
		onDone: () => {},
	});
	const first = component.render(100).join("\n");
	expect(first).toContain("ctrl+o is taken by your keybindings, so p folds the form");
	expect(first).toContain("p peek");
	component.handleInput("p");
	expect(component.currentState.peeking).toBe(true);
	component.handleInput("p");
	// ctrl+o is the user's confirm key: it chooses, as their keybindings say.
	component.handleInput("\x0f");
	expect(component.currentState.questions[0]?.chosen).toEqual([0]);
});
