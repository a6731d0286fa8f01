/**
 * The body window (layout.ts windowLines) over random bodies, heights,
 * offsets and focus ranges: it shows one unbroken run of the body, a marker
 * row only where lines are hidden, the focus when asked to, and exactly the
 * requested lines when the user is reading.
 */

import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { type WindowMode, windowLines } from "../../src/form/layout.ts";
import { plainContext } from "./support.ts";

const ctx = plainContext();
const WIDTH = 40;

const arbCase = fc
	.record({
		total: fc.integer({ min: 0, max: 80 }),
		height: fc.integer({ min: 1, max: 40 }),
		requested: fc.integer({ min: 0, max: 100 }),
		a: fc.nat(),
		b: fc.nat(),
		mode: fc.constantFrom<WindowMode>("follow", "free"),
	})
	.map(({ total, height, requested, a, b, mode }) => {
		const start = total === 0 ? 0 : a % total;
		const end = Math.min(total, start + 1 + (b % 6));
		return { total, height, requested, focus: { start, end }, mode };
	});

/** What the window shows: the hidden counts its markers name, and the body lines between them. */
function read(lines: readonly string[]) {
	let above = 0;
	let below = 0;
	const content = lines.filter((line) => {
		const up = /^↑ (\d+) more · pgup$/.exec(line);
		const down = /^↓ (\d+) more · pgdn$/.exec(line);
		if (up) above = Number(up[1]);
		if (down) below = Number(down[1]);
		return !up && !down;
	});
	return { above, below, shown: content.map((line) => Number(line.slice(1))) };
}

describe("the body window", () => {
	test("one unbroken run of the body, markers only for hidden lines, the focus in view unless reading", () => {
		fc.assert(
			fc.property(arbCase, ({ total, height, requested, focus, mode }) => {
				const body = Array.from({ length: total }, (_, i) => `L${i}`);
				const { lines, port } = windowLines(body, height, requested, focus, "body", WIDTH, ctx, mode);
				if (total <= height) {
					expect(lines).toEqual(body);
					return;
				}
				expect(lines).toHaveLength(height);
				const { above, below, shown } = read(lines);
				const top = shown[0] ?? 0;
				expect(shown).toEqual(Array.from({ length: shown.length }, (_, i) => top + i));
				expect(port.top).toBe(top);
				if (height >= 3) {
					expect(above).toBe(top);
					expect(below).toBe(total - top - shown.length);
				} else expect(shown).toHaveLength(height);
				expect(top).toBeGreaterThanOrEqual(port.min);
				expect(top).toBeLessThanOrEqual(port.max);

				const inView = (line: number) => line >= top && line < top + shown.length;
				if (mode === "free") {
					expect(top).toBe(Math.min(requested, port.max));
				} else if (focus.end > focus.start) {
					expect(inView(focus.start)).toBe(true);
					if (focus.end - focus.start <= height - 2) expect(inView(focus.end - 1)).toBe(true);
				}
				// PageUp/PageDown may go anywhere: from the first line to the last.
				expect(port.min).toBe(0);
				const last = windowLines(body, height, port.max, focus, "body", WIDTH, ctx, "free");
				expect(read(last.lines).shown.at(-1)).toBe(total - 1);
			}),
			{ numRuns: 2000 },
		);
	});

	test("following the focus moves the window no more than it must", () => {
		fc.assert(
			fc.property(arbCase, ({ total, height, requested, focus }) => {
				const body = Array.from({ length: total }, (_, i) => `L${i}`);
				const free = windowLines(body, height, requested, focus, "body", WIDTH, ctx, "free");
				const shown = read(free.lines).shown;
				const focusShown = shown.includes(focus.start) && (focus.end <= focus.start || shown.includes(focus.end - 1));
				const follow = windowLines(body, height, requested, focus, "body", WIDTH, ctx, "follow");
				if (focusShown) expect(follow.lines).toEqual(free.lines);
			}),
			{ numRuns: 2000 },
		);
	});
});
