/**
 * The component with pi-tui's real Editor and a real TUI over a fake
 * terminal: typing, Shift+Enter, paste, the 4000-unit refusal, drafts, the
 * cursor marker, exactly-once completion, abort, interrupt and progress.
 */

import { CURSOR_MARKER, Editor, setKeybindings, visibleWidth } from "@mariozechner/pi-tui";
import { beforeAll, describe, expect, test, vi } from "vitest";
import { AskFormComponent, type AskFormComponentOptions } from "../../src/form/component.ts";
import type { AskForm, AskProgress, Collected } from "../../src/core/types.ts";
import { formHeight } from "../../src/form/height.ts";
import { formatTimeLeft } from "../../src/form/time-left.ts";
import { quietTui } from "./fake-terminal.ts";
import { formOf, KEY, option, piKeybindings, plainTheme, question, SCOPE_AND_TARGETS } from "./support.ts";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { phrase } from "../../src/core/types.ts";
import { ENGLISH } from "../../src/i18n/texts.ts";

beforeAll(() => {
	// The Editor reads pi-tui's global keybindings; pi installs its own manager there.
	setKeybindings(piKeybindings());
});

const ONE_QUESTION = formOf(question("scope", { header: "Scope" }));

function mount(
	form: AskForm = ONE_QUESTION,
	extra: Partial<AskFormComponentOptions> = {},
	size = { width: 80, rows: 40 },
) {
	const { tui, terminal } = quietTui(size.width, size.rows);
	const done = vi.fn<(collected: Collected) => void>();
	const progress: AskProgress[] = [];
	const component = new AskFormComponent({
		tui,
		theme: plainTheme,
		keybindings: piKeybindings(),
		form,
		onDone: done,
		onProgress: (p) => progress.push(p),
		// These tests were written for number keys that focus; those that choose have their own tests.
		numberKeys: "focus",
		...extra,
	});
	const press = (...keys: string[]) => {
		for (const key of keys) component.handleInput(key);
	};
	const typeText = (text: string) => press(...[...text]);
	const screen = (width = size.width) => component.render(width);
	return { tui, terminal, component, done, progress, press, typeText, screen };
}

function onlyResult(done: ReturnType<typeof vi.fn<(collected: Collected) => void>>): Collected {
	expect(done).toHaveBeenCalledTimes(1);
	return done.mock.calls[0]![0];
}

describe("free text with pi-tui's Editor", () => {
	test("text typed into the editor faster than frames (a paste without bracketed paste) draws no frame per key", () => {
		const form = mount();
		form.press("4", KEY.enter);
		form.screen();
		const render = vi.spyOn(Editor.prototype, "render");
		try {
			form.typeText("x".repeat(300));
			// The form drew no frame between the keys: the editor's text was not wrapped anew 300 times.
			expect(render).toHaveBeenCalledTimes(0);
			expect(form.screen().join("\n")).toContain("x".repeat(60));
			expect(render).toHaveBeenCalledTimes(1);
		} finally {
			render.mockRestore();
		}
		form.press(KEY.enter);
		expect(onlyResult(form.done).answers["scope"]?.selections[0]?.value).toBe("x".repeat(300));
	});

	test("typing, Shift+Enter and Enter save the text exactly as typed", () => {
		const form = mount();
		form.press("4", KEY.enter);
		form.typeText("  hello 👋");
		form.press(KEY.shiftEnter);
		form.typeText("world  ");
		expect(form.screen().join("\n")).toContain("world");
		form.press(KEY.enter);
		expect(onlyResult(form.done)).toMatchObject({
			status: "answered",
			answers: {
				scope: {
					kind: "single",
					selections: [{ value: "  hello 👋\nworld  ", label: "  hello 👋\nworld  ", custom: true }],
				},
			},
		});
	});

	test("a bracketed paste comes back whole, even one the Editor shows as a marker", () => {
		const form = mount();
		const pasted = Array.from({ length: 30 }, (_, i) => `line ${i + 1}: ${"·".repeat(40)}`).join("\n");
		form.press("4", KEY.enter, KEY.paste(pasted));
		expect(form.screen().join("\n")).toContain("[paste #1");
		form.press(KEY.enter);
		expect(onlyResult(form.done).answers.scope?.selections[0]?.value).toBe(pasted);
	});

	test("more than 4000 code units is refused with a visible message; the editor stays open with the text intact", () => {
		const form = mount();
		form.press("4", KEY.enter, KEY.paste("é".repeat(4001)));
		form.press(KEY.enter);
		expect(form.done).not.toHaveBeenCalled();
		expect(form.component.currentState.overlay.kind).toBe("editor");
		expect(form.screen().join("\n")).toContain("Too long: 4001 characters, the limit is 4000");
		// A key that moves the cursor leaves the text, and the message, as they were; one that changes the text clears it.
		form.press(KEY.left);
		expect(form.screen().join("\n")).toContain("Too long: 4001 characters");
		form.press(KEY.right, KEY.backspace);
		expect(form.screen().join("\n")).not.toContain("Too long");
		form.press(KEY.enter);
		expect(onlyResult(form.done).answers.scope?.selections[0]?.value).toBe("é".repeat(4000));
	});

	test("a message on the text goes once the text changes, in $VISUAL too; a refusal the key itself brings stays", () => {
		const dir = mkdtempSync(join(tmpdir(), "ask-message-"));
		const visual = join(dir, "visual.sh");
		writeFileSync(visual, '#!/bin/sh\nprintf short > "$1"\n');
		chmodSync(visual, 0o755);
		const saved = process.env["VISUAL"];
		process.env["VISUAL"] = visual;
		try {
			const form = mount();
			const tooLong = () => form.press(KEY.paste("é".repeat(4001)), KEY.enter);
			form.press("4", KEY.enter);
			tooLong();
			expect(form.screen().join("\n")).toContain("Too long: 4001 characters");
			form.press("\x07"); // ctrl+g: the text comes back from $VISUAL shortened
			expect(form.screen().join("\n")).not.toContain("Too long");
			expect(form.screen().join("\n")).toContain("short");
			form.press("\x15"); // ctrl+u: the line cleared
			tooLong();
			const missing = join(dir, "missing.png");
			form.press(KEY.paste(missing));
			const screen = form.screen().join("\n");
			expect(screen).not.toContain("Too long");
			expect(screen).toContain(ENGLISH.say(phrase("attach.missing", { path: missing })).slice(0, 30));
		} finally {
			if (saved === undefined) delete process.env["VISUAL"];
			else process.env["VISUAL"] = saved;
			rmSync(dir, { recursive: true, force: true });
		}
	});

	test("Esc in the editor goes back to the options and what was typed comes back on reopening", () => {
		const form = mount(SCOPE_AND_TARGETS);
		form.press("4", KEY.enter);
		form.typeText("half-written");
		form.press(KEY.escape);
		expect(form.component.currentState.overlay.kind).toBe("none");
		expect(form.screen().join("\n")).toContain("Type something… (draft)");
		form.press(KEY.enter);
		expect(form.screen().join("\n")).toContain("half-written");
		form.typeText("!");
		form.press(KEY.enter);
		expect(form.component.currentState.questions[0]?.customText).toBe("half-written!");
	});

	test("a backslash before Enter makes a new line, as in pi's own editor", () => {
		const form = mount();
		form.press("4", KEY.enter);
		form.typeText("a\\");
		form.press(KEY.enter);
		form.typeText("b");
		form.press(KEY.enter);
		expect(onlyResult(form.done).answers.scope?.selections[0]?.value).toBe("a\nb");
	});

	test("an Enter variant the Editor reads as a new line makes a new line, not a save", () => {
		const form = mount();
		form.press("4", KEY.enter);
		form.typeText("one");
		form.press("\x1b\r");
		form.typeText("two");
		form.press(KEY.enter);
		expect(onlyResult(form.done).answers.scope?.selections[0]?.value).toBe("one\ntwo");
	});

	test('Ctrl+J (pi 1.x\'s tui.input.newLine; it sends "\\n", which also reads as Enter) makes a new line, never a save', () => {
		const form = mount();
		form.press("4", KEY.enter);
		form.typeText("one");
		form.press("\n");
		expect(form.done).not.toHaveBeenCalled();
		form.typeText("two");
		form.press(KEY.enter);
		expect(onlyResult(form.done).answers.scope?.selections[0]?.value).toBe("one\ntwo");
	});

	test("notes go through the same editor and undo history does not cross targets", () => {
		const form = mount(SCOPE_AND_TARGETS);
		form.press("n");
		form.typeText("first note");
		form.press(KEY.enter, KEY.down, "n", "\x1f"); // ctrl+- (undo) in a fresh editor has nothing to undo
		expect(form.screen().join("\n")).not.toContain("first note");
		form.typeText("second");
		form.press(KEY.enter);
		expect(form.component.currentState.notes).toEqual({ "optionNote:0:0": "first note", "optionNote:0:1": "second" });
	});

	test("while the component is focused, the editor emits the cursor marker for the IME", () => {
		const form = mount();
		form.press("4", KEY.enter);
		expect(form.screen().join("\n")).not.toContain(CURSOR_MARKER);
		form.component.focused = true;
		expect(form.screen().join("\n")).toContain(CURSOR_MARKER);
		form.component.focused = false;
		expect(form.screen().join("\n")).not.toContain(CURSOR_MARKER);
	});

	test("the editor's lines keep to the width on the narrowest terminals", () => {
		const form = mount();
		form.press("4", KEY.enter);
		form.typeText("中文 text");
		form.component.focused = true;
		for (let width = 1; width <= 12; width++) {
			const lines = form.screen(width);
			expect(lines.length).toBeGreaterThan(0);
			for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
		}
		// Still open and still holding the text: rendering at 1 column did not break the form.
		expect(form.done).not.toHaveBeenCalled();
		form.press(KEY.enter);
		expect(onlyResult(form.done).answers.scope?.selections[0]?.value).toBe("中文 text");
	});
});

describe("typing on “Type something…”", () => {
	test("a key that means something elsewhere (c, s, n, j, a digit) is typed there: the editor opens with it, and Enter saves it as the answer", () => {
		const form = mount(SCOPE_AND_TARGETS);
		form.press("4");
		form.typeText("cache it, skip 2 jobs? no.");
		expect(form.component.currentState.overlay).toMatchObject({
			kind: "editor",
			target: { kind: "custom", question: 0 },
		});
		form.press(KEY.enter);
		expect(form.component.currentState.questions[0]).toMatchObject({
			customText: "cache it, skip 2 jobs? no.",
			customChosen: true,
			skipped: false,
		});
		expect(form.done).not.toHaveBeenCalled();
	});

	test("the Kitty protocol's encoding of a letter and a paste are typed alike; Space still toggles, and elsewhere the letters act as before", () => {
		const form = mount(SCOPE_AND_TARGETS);
		form.press(KEY.right, "4", KEY.space);
		expect(form.component.currentState.overlay).toMatchObject({
			kind: "editor",
			target: { kind: "custom", question: 1 },
		});
		form.press(KEY.escape, "\x1b[99u", KEY.paste("ross-compile"), KEY.enter);
		expect(form.component.currentState.questions[1]?.customText).toBe("cross-compile");
		form.press(KEY.up, "c");
		expect(form.component.currentState.overlay).toMatchObject({ kind: "editor", target: { kind: "chat" } });
	});

	test("its hint names no letter key (they are typed there)", () => {
		const form = mount(SCOPE_AND_TARGETS);
		form.press("4");
		const hint = form.screen().at(-1) ?? "";
		expect(hint).toContain("write");
		for (const word of ["skip", "chat", "help", "note", "peek"]) expect(hint).not.toContain(word);
	});
});

describe("completion", () => {
	test("done is called once: submit, then abort and keys do nothing", () => {
		const form = mount();
		form.press(KEY.enter);
		form.component.abort();
		form.press(KEY.down, KEY.enter, KEY.escape, KEY.escape);
		expect(onlyResult(form.done).status).toBe("answered");
	});

	test("abort closes the form at once with status aborted and keeps the answers", () => {
		const form = mount(SCOPE_AND_TARGETS);
		form.press(KEY.down, KEY.enter);
		form.component.abort();
		form.component.abort();
		const result = onlyResult(form.done);
		expect(result.status).toBe("aborted");
		expect(result.answers.scope?.selections[0]?.label).toBe("Medium");
	});

	test("an abort while the editor is open keeps what was typed as a draft, never in place of the committed answer", () => {
		const form = mount(SCOPE_AND_TARGETS);
		form.press(KEY.down, KEY.enter, KEY.left, "4", KEY.enter);
		form.typeText("half a thought");
		form.component.abort();
		expect(onlyResult(form.done)).toEqual({
			status: "aborted",
			answers: { scope: { kind: "single", selections: [{ value: "Medium", label: "Medium" }] } },
			skipped: [],
			notes: [],
			drafts: [{ questionId: "scope", kind: "answer", text: "half a thought" }],
		});

		const noting = mount(SCOPE_AND_TARGETS);
		noting.press("N");
		noting.typeText("ask Sam");
		noting.press(KEY.ctrlC);
		const result = onlyResult(noting.done);
		expect(result.status).toBe("aborted");
		expect(result.notes).toEqual([]);
		expect(result.drafts).toEqual([{ questionId: "scope", kind: "note", text: "ask Sam" }]);
		expect(result.answers).toEqual({});
	});

	test("the draft marks and the review's list of drafts show on screen; Submit asks before dropping them", () => {
		const form = mount(SCOPE_AND_TARGETS);
		form.press(KEY.down, "n");
		form.typeText("pricier");
		form.press(KEY.escape);
		expect(form.screen().join("\n")).toContain("Medium (recommended) ✎ (draft)");
		form.press(KEY.enter, KEY.enter);
		const review = form.screen().join("\n");
		expect(review).toContain("✎ unsaved note draft on Medium: pricier");
		expect(review).toContain("❯ Submit");
		form.press(KEY.enter);
		expect(form.done).not.toHaveBeenCalled();
		expect(form.screen().join("\n")).toContain("1 unsaved draft — press enter again to submit without it");
		form.press(KEY.enter);
		expect(onlyResult(form.done)).not.toHaveProperty("drafts");
	});

	test("Esc Esc dismisses with the partial answers", () => {
		const form = mount(SCOPE_AND_TARGETS);
		form.press(KEY.enter, KEY.escape);
		expect(form.screen().join("\n")).toContain("Press esc again to dismiss the form");
		form.press(KEY.escape);
		expect(onlyResult(form.done)).toMatchObject({
			status: "dismissed",
			answers: { scope: { selections: [{ label: "Small" }] } },
		});
	});

	test("ctrl+c calls onInterrupt, then the form closes as aborted", () => {
		const onInterrupt = vi.fn();
		const form = mount(SCOPE_AND_TARGETS, { onInterrupt });
		form.press("4", KEY.enter, KEY.ctrlC);
		expect(onInterrupt).toHaveBeenCalledTimes(1);
		expect(onlyResult(form.done).status).toBe("aborted");
	});

	test("an exception while rendering ends the form with status error, answers kept", () => {
		let explode = false;
		const theme = {
			...plainTheme,
			accent: (s: string) =>
				explode
					? (() => {
							throw new Error("boom");
						})()
					: s,
		};
		const form = mount(SCOPE_AND_TARGETS, { theme });
		form.press(KEY.enter);
		explode = true;
		expect(form.screen()).toEqual([]);
		const result = onlyResult(form.done);
		expect(result.status).toBe("error");
		expect(result.error).toContain("boom");
		expect(result.answers.scope).toBeDefined();
		form.component.abort();
		expect(form.done).toHaveBeenCalledTimes(1);
	});

	test("progress: opened, answered, review, submitted", () => {
		const form = mount(SCOPE_AND_TARGETS);
		form.press(KEY.enter, KEY.enter, KEY.enter);
		expect(form.progress.map((p) => [p.phase, p.questionId, p.answered])).toEqual([
			["opened", undefined, 0],
			["answered", "scope", 1],
			["answered", "targets", 2],
			["review", undefined, 2],
			["submitted", undefined, 2],
		]);
		expect(form.progress.every((p) => p.total === 2)).toBe(true);
	});

	test("progress: dismissed", () => {
		const form = mount(SCOPE_AND_TARGETS);
		form.press(KEY.escape, KEY.escape);
		expect(form.progress.map((p) => p.phase)).toEqual(["opened", "dismissed"]);
	});
});

describe("rendering", () => {
	test("the review reads past a focused answer or a note taller than the window (PageDown), and Enter then only brings the focus back", () => {
		const labels = Array.from({ length: 8 }, (_, i) => option(`L${i} long label words here E${i}`));
		const form = mount(
			formOf(question("a", { header: "Features", multiSelect: true, options: labels }), question("b")),
			{ numberKeys: "choose" },
			{ width: 30, rows: 12 },
		);
		form.press("1", "2", "3", "4", "5", "6", "7", "8", KEY.enter, "1", "N");
		form.typeText(Array.from({ length: 80 }, (_, i) => `w${i}`).join(" "));
		form.press(KEY.enter, KEY.up, KEY.up);
		expect(form.component.currentState.review.focus).toBe(0);
		const seen = new Set<string>();
		const look = () =>
			form.screen().forEach((line) => line.match(/\b(E\d|w\d+)\b/g)?.forEach((word) => seen.add(word)));
		for (let i = 0; i < 40; i++) {
			look();
			form.press(KEY.pageDown);
		}
		look();
		for (let i = 0; i < 8; i++) expect(seen, `E${i}`).toContain(`E${i}`);
		for (let i = 0; i < 80; i++) expect(seen, `w${i}`).toContain(`w${i}`);
		form.press(KEY.enter);
		expect(form.component.currentState.tab).toBe(2);
		expect(form.done).not.toHaveBeenCalled();
	});

	test("the render is cached until input, a resize or invalidate()", () => {
		const form = mount(SCOPE_AND_TARGETS);
		const first = form.screen();
		expect(form.screen()).toBe(first);
		form.press(KEY.down);
		const second = form.screen();
		expect(second).not.toBe(first);
		expect(form.screen(60)).not.toBe(second);
		const third = form.screen(60);
		form.component.invalidate();
		expect(form.screen(60)).not.toBe(third);
	});

	test("after invalidate() (pi's theme switch) every part of the form is drawn in the new theme's colours", () => {
		let colour = "A";
		const tagged = (s: string) => `<${colour}>${s}`;
		const theme = { ...plainTheme, muted: tagged, refresh: () => void (colour = "B") };
		const form = mount(SCOPE_AND_TARGETS, { theme });
		expect(form.screen().join("\n")).toContain("<A> □ Targets ");
		form.component.invalidate();
		const redrawn = form.screen().join("\n");
		expect(redrawn).toContain("<B> □ Targets ");
		expect(redrawn).not.toContain("<A>");
	});

	test("the form is never taller than the terminal allows", () => {
		const long = "word ".repeat(190);
		const form = mount(formOf(question("q", { question: long, context: long })), {}, { width: 40, rows: 14 });
		expect(form.screen().length).toBeLessThanOrEqual(formHeight(14));
		expect(form.screen().some((line) => line.startsWith("❯"))).toBe(true);
		form.terminal.height = 8;
		expect(form.screen().length).toBeLessThanOrEqual(formHeight(8));
	});

	test("PageDown scrolls a long preview, PageUp scrolls it back", () => {
		const preview = Array.from({ length: 80 }, (_, i) => `preview line ${i + 1}`).join("\n");
		const form = mount(
			formOf(question("q", { options: [option("A", { preview }), option("B")] })),
			{},
			{ width: 100, rows: 24 },
		);
		expect(form.screen().join("\n")).not.toContain("preview line 40");
		form.press(KEY.pageDown, KEY.pageDown);
		const top = form.component.currentState.questions[0]?.detailScroll ?? 0;
		expect(top).toBeGreaterThan(0);
		expect(form.screen().join("\n")).toContain(`preview line ${top + 1}\n`);
		expect(form.screen().join("\n")).not.toContain("preview line 1\n");
		form.press(KEY.pageUp, KEY.pageUp, KEY.pageUp);
		expect(form.component.currentState.questions[0]?.detailScroll).toBe(0);
	});

	test("it claims PageUp/PageDown from pi's fullscreen viewport only while it has something to scroll or its editor is open", () => {
		const preview = Array.from({ length: 80 }, (_, i) => `preview line ${i + 1}`).join("\n");
		const long = mount(
			formOf(question("q", { options: [option("A", { preview }), option("B")] })),
			{},
			{ width: 100, rows: 24 },
		);
		long.screen();
		expect(long.component.capturesViewportInput).toBe(true);
		const short = mount(ONE_QUESTION);
		short.screen();
		expect(short.component.capturesViewportInput).toBe(false);
		short.press("4", KEY.enter);
		expect(short.component.capturesViewportInput).toBe(true);
	});

	test("inside pi-tui's TUI, keys reach the form and every frame fits the terminal", () => {
		const form = mount(SCOPE_AND_TARGETS, {}, { width: 36, rows: 20 });
		form.tui.addChild(form.component);
		form.tui.setFocus(form.component);
		form.tui.start();
		const keys = [
			KEY.down,
			KEY.enter,
			"4",
			KEY.enter,
			..."中文 emoji 🚀 text that wraps around the narrow terminal",
			KEY.shiftEnter,
			"x",
			KEY.enter,
			"?",
			KEY.pageDown,
			KEY.escape,
			KEY.left,
			KEY.up,
		];
		for (const key of keys) {
			form.terminal.type(key);
			for (const line of form.tui.render(form.terminal.width))
				expect(visibleWidth(line)).toBeLessThanOrEqual(form.terminal.width);
		}
		expect(form.component.focused).toBe(true);
		expect(form.component.currentState.questions[1]?.customText).toContain("中文");
		form.tui.stop();
	});
});

describe("a time limit", () => {
	test("the hint line counts down to the deadline, redrawn once a second, and the ticking stops when the form closes", () => {
		vi.useFakeTimers();
		try {
			vi.setSystemTime(1_000_000);
			const form = mount(ONE_QUESTION, { deadline: 1_000_000 + 65_000 });
			const requested = vi.spyOn(form.tui, "requestRender");
			expect(form.screen().at(-1)).toMatch(/^⏱ 1:05 left · ↑↓ move/);
			vi.advanceTimersByTime(5_000);
			expect(requested).toHaveBeenCalledTimes(5);
			expect(form.screen().at(-1)).toMatch(/^⏱ 1:00 left · /);
			vi.advanceTimersByTime(120_000);
			expect(form.screen().at(-1)).toMatch(/^⏱ 0:00 left · /);
			form.press(KEY.enter);
			expect(onlyResult(form.done).status).toBe("answered");
			requested.mockClear();
			vi.advanceTimersByTime(10_000);
			expect(requested).not.toHaveBeenCalled();
		} finally {
			vi.useRealTimers();
		}
	});

	test("without one, there is no countdown", () => {
		expect(mount().screen().at(-1)).toMatch(/^↑↓ move/);
	});

	test("the time left reads as minutes and seconds, hours when it is that long, rounded up, never negative", () => {
		expect(formatTimeLeft(65_000)).toBe("⏱ 1:05 left");
		expect(formatTimeLeft(4_001)).toBe("⏱ 0:05 left");
		expect(formatTimeLeft(-3_000)).toBe("⏱ 0:00 left");
		expect(formatTimeLeft(3_600_000 + 61_000)).toBe("⏱ 1:01:01 left");
	});
});
