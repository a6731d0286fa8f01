/**
 * Per-keystroke cost: handleInput + render, timed together for each key, as
 * the user pays it (pi-tui renders after every key that asks for it).
 *
 * The key cycle is the same raw bytes for every tool, built so that both
 * forms stay open forever and come back to the same state after each cycle
 * (nothing accumulates): on each question tab, moves, a toggle on and off,
 * help opened and closed, the "Type something…" row's editor opened, typed
 * into (ASCII, CJK, emoji), emptied and closed, then tab switches; on the
 * Submit tab a move down and up, then Tab back to the first question. A
 * tool whose questions have fewer options gets the same cycle with as many
 * moves as reach its free-text row (keyCycle).
 * Keys a tool does not use (Space and ? in the questionnaire) still count:
 * they cost that tool next to nothing, which only flatters it.
 */

import type { Component } from "@mariozechner/pi-tui";

const KEY = {
	up: "\x1b[A",
	down: "\x1b[B",
	right: "\x1b[C",
	left: "\x1b[D",
	tab: "\t",
	enter: "\r",
	escape: "\x1b",
	backspace: "\x7f",
	space: " ",
	help: "?",
} as const;

const times = <T>(count: number, item: T): T[] => Array.from({ length: count }, () => item);

/**
 * One question tab's worth of keys for a question of `options` options;
 * starts and ends with the focus on the first option, reaching the free-text
 * row (after the options) and coming back.
 */
function questionTab(options: number): string[] {
	return [
		KEY.down,
		KEY.down,
		KEY.up,
		KEY.up,
		KEY.space,
		KEY.space,
		KEY.help,
		KEY.help,
		...times(options, KEY.down),
		KEY.enter,
		"h",
		"中",
		"🚀",
		...times(3, KEY.backspace),
		KEY.escape,
		...times(options, KEY.up),
		KEY.right,
		KEY.left,
		KEY.right,
	];
}

const SUBMIT_TAB: readonly string[] = [KEY.down, KEY.up, KEY.tab];

/** The whole cycle for a form of four questions of `options` options each: every tab once, back to the first. */
export function keyCycle(options: number): readonly string[] {
	const tab = questionTab(options);
	return [...tab, ...tab, ...tab, ...tab, ...SUBMIT_TAB];
}

/** The cycle for the largest legal form (5 options a question). */
export const KEY_CYCLE: readonly string[] = keyCycle(5);

/** Feeds the cycle to one component at one width, timing each key. */
export class KeyDriver {
	private position = 0;

	constructor(
		readonly component: Component,
		readonly width: number,
		private readonly isClosed: () => boolean,
		/** Ends the tool call behind the component (ask_user keeps one form open at a time). */
		readonly close: () => Promise<void>,
		readonly cycle: readonly string[] = KEY_CYCLE,
	) {}

	/** Presses `count` keys; records each key's microseconds into `samples` when given. */
	press(count: number, samples?: number[]): void {
		const { component, width, cycle } = this;
		const handle = component.handleInput?.bind(component);
		if (!handle) throw new Error("the component takes no input");
		for (let i = 0; i < count; i++) {
			const key = cycle[this.position] ?? KEY.down;
			this.position = (this.position + 1) % cycle.length;
			const start = process.hrtime.bigint();
			handle(key);
			component.render(width);
			const end = process.hrtime.bigint();
			samples?.push(Number(end - start) / 1000);
		}
		if (this.isClosed()) throw new Error("the form closed during the key cycle: the cycle is not stationary");
	}
}

export interface Stats {
	median: number;
	p99: number;
	mean: number;
	count: number;
}

export function stats(samples: readonly number[]): Stats {
	const sorted = Float64Array.from(samples).sort();
	const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
	let sum = 0;
	for (const value of sorted) sum += value;
	return { median: at(0.5), p99: at(0.99), mean: sum / sorted.length, count: sorted.length };
}

/**
 * Measures several drivers in turn, one cycle each, until each has `keys`
 * samples: drift of the machine (another process, a GC of someone else's
 * garbage) falls on all of them alike.
 */
export function measureInterleaved(drivers: readonly KeyDriver[], warmup: number, keys: number): number[][] {
	for (const driver of drivers) driver.press(warmup);
	const samples = drivers.map(() => [] as number[]);
	while (samples.some((list) => list.length < keys)) {
		drivers.forEach((driver, i) => driver.press(driver.cycle.length, samples[i]));
	}
	return samples;
}
