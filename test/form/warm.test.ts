/**
 * The warmer (src/form/warm.ts): while the user reads, the frames the next keys may show are drawn off screen, so a key
 * onto an option with a long preview finds it wrapped. What it must never do: change a line the user sees, or run on
 * after the form is closed.
 */

import { setKeybindings } from "@mariozechner/pi-tui";
import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { AskFormComponent } from "../../src/form/component.ts";
import { TextFitter } from "../../src/form/text-fit.ts";
import { WARM_AFTER_MS } from "../../src/form/warm.ts";
import type { Collected } from "../../src/core/types.ts";
import { quietTui } from "./fake-terminal.ts";
import { formOf, KEY, option, piKeybindings, plainTheme, question } from "./support.ts";

beforeAll(() => setKeybindings(piKeybindings()));
afterEach(() => {
	vi.restoreAllMocks();
	vi.useRealTimers();
});

/** A preview longer than the pane, different per option. */
const preview = (name: string) =>
	Array.from({ length: 60 }, (_, i) => `${name} line ${i}: 設定を変更 café 👩‍💻 ${"word ".repeat(i % 17)}`).join("\n");
const withPreviews = (id: string) =>
	question(id, { options: ["Alpha", "Beta", "Gamma"].map((label) => option(label, { preview: preview(id + label) })) });
const FORM = formOf(withPreviews("db"), withPreviews("cache"));

function mount() {
	const { tui } = quietTui(120, 40);
	let width = 120;
	const done = vi.fn<(collected: Collected) => void>();
	const component = new AskFormComponent({
		tui,
		theme: plainTheme,
		keybindings: piKeybindings(),
		form: FORM,
		onDone: done,
	});
	return {
		component,
		done,
		screen: () => component.render(width),
		resize: (to: number) => {
			width = to;
		},
	};
}

/**
 * Every preview a fitter is asked for, and which of those that fitter had not been asked for before: a wrap (its memo
 * keeps each after the first), where a fitter of another context would not have saved the form's.
 */
function watchPreviews() {
	const seen = new WeakMap<TextFitter, Set<string>>();
	let fresh: string[] = [];
	const real = TextFitter.prototype.preview;
	vi.spyOn(TextFitter.prototype, "preview").mockImplementation(function (this: TextFitter, text, width) {
		const key = `${width}:${text.slice(0, 12)}`;
		let mine = seen.get(this);
		if (!mine) seen.set(this, (mine = new Set()));
		if (!mine.has(key)) fresh.push(key);
		mine.add(key);
		return real.call(this, text, width);
	});
	return {
		/** The previews wrapped since the last call. */
		wrapped() {
			const out = fresh;
			fresh = [];
			return out;
		},
	};
}

describe("the frames of the next keys, drawn while the user reads", () => {
	test("after a pause, a key onto another option or question wraps no preview: it was wrapped while the user read", () => {
		vi.useFakeTimers();
		const previews = watchPreviews();
		const form = mount();
		form.screen();
		expect(previews.wrapped()).toHaveLength(1);
		vi.advanceTimersByTime(WARM_AFTER_MS + 100);
		expect(previews.wrapped().length).toBeGreaterThan(0);
		for (const key of [KEY.down, KEY.down, KEY.tab, KEY.down]) {
			form.component.handleInput(key);
			form.screen();
			expect(previews.wrapped(), `after ${JSON.stringify(key)}`).toEqual([]);
			vi.advanceTimersByTime(WARM_AFTER_MS + 100);
			previews.wrapped();
		}
	});

	test("nothing is drawn before the pause; a form drawn ahead shows exactly what one drawn on each key shows", () => {
		vi.useFakeTimers();
		const previews = watchPreviews();
		const warmed = mount();
		warmed.screen();
		previews.wrapped();
		vi.advanceTimersByTime(WARM_AFTER_MS - 1);
		expect(previews.wrapped()).toEqual([]);
		vi.advanceTimersByTime(1_000);
		expect(previews.wrapped().length).toBeGreaterThan(0);
		// Timers stand still from here: the second form draws each frame as its key comes.
		const cold = mount();
		cold.screen();
		for (const key of [KEY.down, KEY.tab, KEY.down, KEY.up, KEY.shiftTab, KEY.down, KEY.down]) {
			warmed.component.handleInput(key);
			cold.component.handleInput(key);
			expect(warmed.screen()).toEqual(cold.screen());
		}
	});

	test("one frame per turn of the event loop, nearest row first; a key in the pause, or a new width, starts it again", () => {
		vi.useFakeTimers();
		const previews = watchPreviews();
		const form = mount();
		form.screen();
		previews.wrapped();
		vi.advanceTimersByTime(100);
		form.component.handleInput(KEY.down);
		form.screen();
		expect(previews.wrapped()).toEqual(["89:dbBeta line "]);
		vi.advanceTimersByTime(100);
		expect(previews.wrapped()).toEqual([]);
		vi.advanceTimersByTime(WARM_AFTER_MS - 100);
		// Below first (Gamma), then above: Alpha was shown already.
		expect(previews.wrapped()).toEqual(["89:dbGamma line"]);
		vi.advanceTimersByTime(1_000);
		expect(previews.wrapped()).toEqual(["89:cacheAlpha l"]);
		form.resize(100);
		form.screen();
		vi.advanceTimersByTime(1_000);
		expect(previews.wrapped().filter((key) => key.startsWith("69:"))).toHaveLength(4);
	});

	test("nothing is left to run once the form is closed, or pi drops it", () => {
		vi.useFakeTimers();
		const submitted = mount();
		submitted.screen();
		expect(vi.getTimerCount()).toBe(1);
		submitted.component.handleInput(KEY.escape);
		submitted.component.handleInput(KEY.escape);
		expect(submitted.done).toHaveBeenCalledTimes(1);
		expect(vi.getTimerCount()).toBe(0);
		const dropped = mount();
		dropped.screen();
		vi.advanceTimersByTime(WARM_AFTER_MS);
		dropped.component.dispose();
		expect(vi.getTimerCount()).toBe(0);
		// A new theme (invalidate) draws anew, and draws ahead again only after its first frame.
		const themed = mount();
		themed.screen();
		themed.component.invalidate();
		expect(vi.getTimerCount()).toBe(0);
	});
});
