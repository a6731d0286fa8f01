/**
 * Keys at a person's pace. A person's keys come tens of milliseconds apart, and in between the terminal, pi and the
 * rest of the process run: what a key reads is no longer in the caches, and code V8 had hot may have cooled. So each
 * key here comes after an idle gap (the event loop free, a timer to wake it, as a key's arrival does) in which other
 * memory is touched, then is timed as in the tight loop: handleInput and render together. The tools take their keys by
 * turns, so what the machine does meanwhile falls on all of them alike.
 */

import { setTimeout as sleep } from "node:timers/promises";
import type { KeyDriver, Stats } from "./keystrokes.ts";
import { stats } from "./keystrokes.ts";

export const PACE = { gapMs: 20, touchedBytes: 16 * 1024 * 1024 } as const;

/** Memory of no one's: 16 MiB written through, a cache line at a time, in every gap. */
const other = new Uint8Array(PACE.touchedBytes);
let stamp = 0;

function touchOtherMemory(): void {
	stamp = (stamp + 1) & 0xff;
	for (let at = 0; at < other.length; at += 64) other[at] = stamp;
}

/** `keys` paced keys for each driver, by turns; each driver's samples in µs. */
export async function measurePaced(drivers: readonly KeyDriver[], keys: number): Promise<Stats[]> {
	const samples = drivers.map(() => [] as number[]);
	for (let i = 0; i < keys; i++) {
		for (const [at, driver] of drivers.entries()) {
			await sleep(PACE.gapMs);
			touchOtherMemory();
			driver.press(1, samples[at]);
		}
	}
	return samples.map((list) => stats(list));
}

export interface PacedResult {
	keys: number;
	gapMs: number;
	touchedMiB: number;
	/** By width. */
	ours: Record<number, Stats>;
	questionnaire?: Stats;
	peer?: Stats;
}

export const PACED_TARGETS = { median_us_120: 100, p99_us_120: 500 } as const;

type Row = [what: string, figure: string, target: string];
const round = (value: number) => Math.round(value * 10) / 10;
const figure = (of: Stats | undefined) => `${round(of?.median ?? Number.NaN)} / ${round(of?.p99 ?? Number.NaN)}`;

/** The table's rows; `verdict` says a figure against its target. */
export function pacedRows(
	paced: PacedResult,
	peerName: string | undefined,
	verdict: (value: number, limit: number) => string,
): Row[] {
	const rows: Row[] = [];
	for (const [width, own] of Object.entries(paced.ours)) {
		const median = verdict(round(own.median), PACED_TARGETS.median_us_120);
		const target = width === "120" ? `${median} / ${verdict(round(own.p99), PACED_TARGETS.p99_us_120)}` : "";
		rows.push([`at a person's pace @${width} cols  median / p99 (µs), ${own.count} keys`, figure(own), target]);
	}
	const pace = `each key after ${paced.gapMs} ms idle and ${paced.touchedMiB} MiB touched`;
	if (paced.questionnaire)
		rows.push(["  questionnaire.ts @120, the same keys by turns", figure(paced.questionnaire), pace]);
	if (paced.peer && peerName) rows.push([`  ${peerName} @120, the same keys by turns`, figure(paced.peer), ""]);
	return rows;
}

export function pacedJson(paced: PacedResult): Record<string, unknown> {
	const pair = (of: Stats | undefined) => ({
		median: round(of?.median ?? Number.NaN),
		p99: round(of?.p99 ?? Number.NaN),
	});
	return {
		paced_us: Object.fromEntries(Object.entries(paced.ours).map(([width, own]) => [width, pair(own)])),
		paced_keys_120: paced.keys,
		paced_gap_ms: paced.gapMs,
		paced_touched_mib: paced.touchedMiB,
		...(paced.questionnaire && { paced_questionnaire_us_120: pair(paced.questionnaire) }),
		...(paced.peer && { paced_peer_us_120: pair(paced.peer) }),
	};
}
