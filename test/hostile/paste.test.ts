/**
 * A 1 MB bracketed paste into the free-text editor, delivered the way pi's
 * terminal delivers it: 64 KiB chunks through pi-tui's StdinBuffer, which
 * hands the reassembled paste to the focused component. The 4000-unit rule
 * refuses it with a visible message, nothing freezes (each step well under
 * the generous 2 s bound), and nothing typed is lost — neither the text typed
 * before the paste nor the paste itself.
 */

import { setKeybindings, StdinBuffer, visibleWidth } from "@mariozechner/pi-tui";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { AskFormComponent } from "../../src/form/component.ts";
import type { Collected } from "../../src/core/types.ts";
import { LIMITS } from "../../src/core/types.ts";
import { quietTui } from "../form/fake-terminal.ts";
import { formOf, KEY, piKeybindings, plainTheme, question } from "../form/support.ts";

beforeAll(() => setKeybindings(piKeybindings()));

const WIDTH = 100;
const ROWS = 40;
/** Generous: a person notices 100 ms; 2 s is a frozen terminal. */
const FROZEN_MS = 2_000;
const CHUNK = 64 * 1024;

/** About 1 MB of plain lines: what a log or a file dump looks like. */
const MEGABYTE = Array.from(
	{ length: 16_000 },
	(_, i) => `line ${String(i).padStart(5, "0")}: ${"lorem ipsum dolor sit amet ".repeat(2)}`,
).join("\n");

let buffer: StdinBuffer | undefined;
afterEach(() => buffer?.destroy());

function mount() {
	const { tui } = quietTui(WIDTH, ROWS);
	const results: Collected[] = [];
	const component = new AskFormComponent({
		tui,
		theme: plainTheme,
		keybindings: piKeybindings(),
		form: formOf(question("scope", { header: "Scope" }), question("notes", { header: "Notes" })),
		onDone: (collected) => results.push(collected),
		numberKeys: "focus",
	});
	component.focused = true;
	buffer = new StdinBuffer({ timeout: 10 });
	buffer.on("data", (sequence) => component.handleInput(sequence));
	buffer.on("paste", (content) => component.handleInput(`\x1b[200~${content}\x1b[201~`));
	/** Feeds raw terminal bytes in chunks, then renders; returns the frame and how long it all took. */
	const terminal = (bytes: string) => {
		const started = performance.now();
		for (let at = 0; at < bytes.length; at += CHUNK) buffer!.process(bytes.slice(at, at + CHUNK));
		// A lone Esc waits in the buffer for its 10 ms timeout (it could start a sequence); end the wait now.
		for (const sequence of buffer!.flush()) component.handleInput(sequence);
		const lines = component.render(WIDTH);
		return { lines, ms: performance.now() - started };
	};
	return { component, results, terminal };
}

describe("a 1 MB paste into the editor", () => {
	test("is refused by the 4000-unit rule, visibly, without freezing, and loses nothing", () => {
		expect(MEGABYTE.length).toBeGreaterThan(1_000_000);
		const { component, results, terminal } = mount();
		const earlier = "Typed before the paste: ";
		terminal("4"); // the "Type something…" row of the first question
		terminal(KEY.enter);
		for (const key of earlier) terminal(key);

		const paste = terminal(KEY.paste(MEGABYTE));
		expect(paste.ms).toBeLessThan(FROZEN_MS);
		for (const line of paste.lines) expect(visibleWidth(line)).toBeLessThanOrEqual(WIDTH);

		const submit = terminal(KEY.enter);
		expect(submit.ms).toBeLessThan(FROZEN_MS);
		expect(results).toEqual([]);
		expect(component.currentState.overlay.kind).toBe("editor");
		expect(submit.lines.join("\n")).toContain(
			`Too long: ${earlier.length + MEGABYTE.length} characters, the limit is ${LIMITS.freeText}`,
		);

		// Still answering at the speed of typing with a megabyte in the editor.
		const keystroke = terminal("x");
		expect(keystroke.ms).toBeLessThan(FROZEN_MS);
		const erase = terminal(KEY.backspace);
		expect(erase.ms).toBeLessThan(FROZEN_MS);

		// Esc keeps the whole text as a draft, and the editor brings it back.
		const back = terminal(KEY.escape);
		expect(back.ms).toBeLessThan(FROZEN_MS);
		expect(component.currentState.overlay.kind).toBe("none");
		expect(Object.values(component.currentState.drafts)).toEqual([earlier + MEGABYTE]);
		const reopen = terminal(KEY.enter);
		expect(reopen.ms).toBeLessThan(FROZEN_MS);
		expect(component.currentState.overlay.kind).toBe("editor");
		expect(reopen.lines.join("\n")).toContain("line 15999");
	});

	test("a paste that fits is kept exactly, after the text typed before it", () => {
		const { component, results, terminal } = mount();
		const earlier = "Before: ";
		const fits = MEGABYTE.slice(0, LIMITS.freeText - earlier.length);
		terminal("4");
		terminal(KEY.enter);
		for (const key of earlier) terminal(key);
		const paste = terminal(KEY.paste(fits));
		expect(paste.ms).toBeLessThan(FROZEN_MS);
		terminal(KEY.enter);
		expect(component.currentState.overlay.kind).toBe("none");
		expect(component.currentState.questions[0]?.customText).toBe(earlier + fits);
		expect(results).toEqual([]);
	});
});
