/** The soak's small helpers: a quick poll, and a seeded random source. */

import { setTimeout as sleep } from "node:timers/promises";
import { WAIT_MS } from "../../test/support/pi-env.ts";

/** Polls `condition` every few milliseconds until it holds (the harness's `until`, quicker: a soak waits thousands of times). */
export async function soon(condition: () => boolean, what: string, timeoutMs = WAIT_MS, pollMs = 5): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(pollMs);
	}
}

/** A seeded random source (mulberry32), so a soak's choices can be run again with its seed. */
export type Random = (() => number) & { pick<T>(items: readonly T[]): T | undefined };

export function seeded(seed: number): Random {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return Object.assign(next, { pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] });
}
