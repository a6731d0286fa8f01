/**
 * The benchmark's output: a table a person reads, each figure beside its
 * target, and as the very last line one JSON object a program reads.
 */

import type { Footprint } from "./footprint.ts";
import type { Stats } from "./keystrokes.ts";
import { type PacedResult, pacedJson, pacedRows } from "./paced.ts";
import { VISIT_GAP_MS } from "./first-ask.ts";
import { RESTORE_TARGET_MS } from "./restore.ts";

export interface BenchResult {
	widths: number[];
	keysPerWidth: number;
	cycleLength: number;
	rows: number;
	median: Record<string, number>;
	p99: Record<string, number>;
	mean: Record<string, number>;
	firstMount: FirstMount;
	questionnaire: { stats: Stats; firstMount: FirstMount; footprint: Footprint };
	/** Another ask tool (--peer), driven the same way in its own argument shape. */
	peer?: {
		path: string;
		name: string;
		stats: Stats;
		firstMount: FirstMount;
		/** Ours, mounting the peer's arguments (its content, not ours). */
		oursOnItsForm: FirstMount;
		heapCourse: HeapCourse;
		footprint: Footprint;
	};
	heapKeys: number;
	heapCourse: HeapCourse;
	footprint: Footprint;
	/**
	 * execute → the first frame, in a fresh process: before (cold) and after (warm) the background preload; the largest
	 * form, and a typical call (the demo's).
	 */
	firstAsk?: {
		coldMs: number;
		warmMs: number;
		typical: { coldMs: number; warmMs: number };
		runs: number;
		/** Each first visit of the warm runs of the largest form (first-ask.ts). */
		visitsMs: number[];
	};
	/** pi's first frame → the form restored after `--continue` (restore.ts). */
	restored?: { medianMs: number; runs: number };
	/** Keys at a person's pace (paced.ts). */
	paced?: PacedResult;
	/** pi's start-up with its compile caches warm, and `cold`, with none (the first start after an install). */
	load?: StartupSummary & { cold?: StartupSummary };
}

export interface StartupSummary {
	runs: number;
	withoutMs: number;
	withMs: number;
	phase: string;
	phaseWithoutMs: number;
	phaseWithMs: number;
	phases: Record<string, { without: number; with: number }>;
	/** pi started with another extension instead: an empty one (the loader's own floor), pi's example, the peer. */
	others: Array<{ name: string; wallMs: number; phaseMs: number }>;
}

/** Median µs, in a warm process: prepareArguments and execute → component (open), its first render at 120 columns, and both (mount). */
export interface FirstMount {
	/** prepareArguments (pi calls it before execute): the first part of openUs. */
	prepareUs: number;
	openUs: number;
	renderUs: number;
	mountUs: number;
}

/**
 * KiB of heap grown after a quarter, half and all of the keys: in all, of it in V8's spaces for compiled code, and the
 * JavaScript data alone (heap-data.mjs).
 */
export type HeapCourse = Record<number, { totalKb: number; codeKb: number; dataKb: number }>;

/** The issue's targets; "≤" each. */
export const TARGETS = {
	keystroke_us_median_120: 60,
	keystroke_us_p99_120: 250,
	/** Ours ÷ the peer's, at 120 columns (--peer). */
	peer_ratio_median_120: 0.15,
	peer_ratio_p99_120: 0.3,
	/** The JavaScript data grown from the first checkpoint to the last (the heap in all counts code V8 optimises late). */
	heap_data_kb_since_first: 16,
	load_ratio: 1.03,
	/** pi's extension phase over an empty extension's, ms: warm, and cold (no compile cache). */
	load_over_empty_ms: 5,
	load_over_empty_cold_ms: 100,
	footprint_tokens: 480,
	/** execute → the first frame, ms. */
	first_ask_ms_cold: 30,
	first_ask_ms_warm: 10,
} as const;

const round = (value: number, digits = 1): number => {
	const scale = 10 ** digits;
	return Math.round(value * scale) / scale;
};

const byWidth = (values: Record<string, number>, widths: number[]): Record<string, number> =>
	Object.fromEntries(widths.map((width) => [String(width), round(values[width] ?? Number.NaN)]));

type HeapPart = "totalKb" | "codeKb" | "dataKb";

const course = (values: HeapCourse, part: HeapPart): Record<string, number> =>
	Object.fromEntries(Object.entries(values).map(([keys, growth]) => [keys, round(growth[part])]));

const courseText = (values: HeapCourse, part: HeapPart): string =>
	Object.entries(values)
		.map(([keys, growth]) => `${round(growth[part])} @${Number(keys) / 1000}k`)
		.join(" · ");

/** What grew from the first checkpoint to the last: flat means nothing grows with the keys. */
const sinceFirst = (values: HeapCourse): { total: number; code: number; other: number } => {
	const points = Object.keys(values)
		.map(Number)
		.sort((a, b) => a - b)
		.map((keys) => values[keys] ?? { totalKb: Number.NaN, codeKb: Number.NaN });
	const first = points[0];
	const last = points[points.length - 1];
	if (!first || !last) return { total: Number.NaN, code: Number.NaN, other: Number.NaN };
	const total = last.totalKb - first.totalKb;
	const code = last.codeKb - first.codeKb;
	return { total: round(total), code: round(code), other: round(total - code) };
};

/** The JavaScript data grown from the first checkpoint to the last, KiB. */
const dataSinceFirst = (values: HeapCourse): number => {
	const points = Object.keys(values).map(Number);
	const grown =
		(values[Math.max(...points)]?.dataKb ?? Number.NaN) - (values[Math.min(...points)]?.dataKb ?? Number.NaN);
	return round(grown);
};

const sinceFirstText = (values: HeapCourse): string => {
	const grown = sinceFirst(values);
	return `${grown.total} = ${grown.code} in the code spaces + ${grown.other} elsewhere`;
};

export function printReport(piVersion: string, result: BenchResult): void {
	const load = result.load;
	const out = [
		"",
		`ask_user benchmark in pi ${piVersion} — largest legal form (4 questions × 5 options, 120-char descriptions, previews, CJK, emoji),`,
		`${result.keysPerWidth} keys per width after warm-up, a ${result.cycleLength}-key cycle, terminal ${result.rows} rows, pi's dark theme`,
		"",
		table(reportRows(result)),
		"",
	];
	if (load) {
		out.push("pi start-up phases, median ms (without → with):");
		out.push(`  ${phasesText(load)}`);
		out.push("");
	}
	process.stdout.write(`${out.join("\n")}\n${JSON.stringify({ [piVersion]: reportJson(result) })}\n`);
}

/** What several figures derive from the results: the ratios at 120 columns and the heap's last growth. */
function derivedOf(result: BenchResult) {
	const q = result.questionnaire;
	const peer = result.peer;
	const ratio = q.stats.median / (result.median[120] ?? Number.NaN);
	const peerRatio = peer && {
		median: (result.median[120] ?? Number.NaN) / peer.stats.median,
		p99: (result.p99[120] ?? Number.NaN) / peer.stats.p99,
	};
	const heapKeys = Object.keys(result.heapCourse).map(Number);
	const heapGrowthKb = result.heapCourse[Math.max(...heapKeys)]?.totalKb ?? Number.NaN;
	return { q, peer, ratio, peerRatio, heapGrowthKb, load: result.load };
}

/** Every figure, for the JSON line. */
function reportJson(result: BenchResult): Record<string, unknown> {
	const { q, peer, ratio, peerRatio, heapGrowthKb, load } = derivedOf(result);
	return {
		keystroke_us_median: byWidth(result.median, result.widths),
		keystroke_us_p99: byWidth(result.p99, result.widths),
		keystroke_us_mean: byWidth(result.mean, result.widths),
		keys_per_width: result.keysPerWidth,
		first_render_us: round(result.firstMount.renderUs),
		prepare_us: round(result.firstMount.prepareUs),
		open_us: round(result.firstMount.openUs),
		first_mount_us: round(result.firstMount.mountUs),
		heap_growth_kb_100k: round(heapGrowthKb),
		heap_growth_kb_course: course(result.heapCourse, "totalKb"),
		heap_growth_kb_code_course: course(result.heapCourse, "codeKb"),
		heap_growth_kb_data_course: course(result.heapCourse, "dataKb"),
		heap_growth_kb_since_first: sinceFirst(result.heapCourse),
		heap_data_kb_since_first: dataSinceFirst(result.heapCourse),
		heap_keys: result.heapKeys,
		questionnaire_ratio_120: round(ratio, 2),
		questionnaire_us_median_120: round(q.stats.median),
		questionnaire_us_p99_120: round(q.stats.p99),
		questionnaire_first_render_us: round(q.firstMount.renderUs),
		questionnaire_first_mount_us: round(q.firstMount.mountUs),
		...(peer && peerRatio
			? {
					peer: {
						path: peer.path,
						tool: peer.name,
						keystroke_us_median_120: round(peer.stats.median),
						keystroke_us_p99_120: round(peer.stats.p99),
						ratio_median_120: round(peerRatio.median, 3),
						ratio_p99_120: round(peerRatio.p99, 3),
						heap_growth_kb_course: course(peer.heapCourse, "totalKb"),
						heap_growth_kb_code_course: course(peer.heapCourse, "codeKb"),
						heap_growth_kb_data_course: course(peer.heapCourse, "dataKb"),
						heap_growth_kb_since_first: sinceFirst(peer.heapCourse),
						first_render_us: round(peer.firstMount.renderUs),
						prepare_us: round(peer.firstMount.prepareUs),
						open_us: round(peer.firstMount.openUs),
						first_mount_us: round(peer.firstMount.mountUs),
						ours_on_its_form: {
							first_render_us: round(peer.oursOnItsForm.renderUs),
							prepare_us: round(peer.oursOnItsForm.prepareUs),
							open_us: round(peer.oursOnItsForm.openUs),
							first_mount_us: round(peer.oursOnItsForm.mountUs),
						},
						footprint_tokens: peer.footprint.tokens,
					},
				}
			: {}),
		...(result.firstAsk
			? {
					first_ask_ms_cold: round(result.firstAsk.coldMs),
					first_ask_ms_warm: round(result.firstAsk.warmMs),
					first_ask_ms_cold_typical: round(result.firstAsk.typical.coldMs),
					first_ask_ms_warm_typical: round(result.firstAsk.typical.warmMs),
					first_ask_runs: result.firstAsk.runs,
					first_visit_ms: visitsJson(result.firstAsk.visitsMs),
				}
			: {}),
		...(result.restored && { restored_ms: result.restored.medianMs, restored_runs: result.restored.runs }),
		...(result.paced && pacedJson(result.paced)),
		...(load ? loadJson(load) : {}),
		footprint_chars: result.footprint.chars,
		footprint_tokens: result.footprint.tokens,
		footprint_tokens_parts: result.footprint.parts,
		questionnaire_footprint_tokens: q.footprint.tokens,
	};
}

/** The table's rows: what, the figure, and its target. */
function reportRows(result: BenchResult): Row[] {
	const { q, peer, ratio, peerRatio, load } = derivedOf(result);
	const rows: Row[] = [];
	const add = (what: string, figure: string, target = "") => rows.push([what, figure, target]);
	for (const width of result.widths) {
		const isTarget = width === 120;
		add(
			`keystroke @${width} cols  median / p99 (µs)`,
			`${round(result.median[width] ?? Number.NaN)} / ${round(result.p99[width] ?? Number.NaN)}`,
			isTarget
				? `${verdict(round(result.median[width] ?? Number.NaN), TARGETS.keystroke_us_median_120)} / ${verdict(round(result.p99[width] ?? Number.NaN), TARGETS.keystroke_us_p99_120)}`
				: "",
		);
	}
	add("questionnaire.ts @120  median / p99 (µs)", `${round(q.stats.median)} / ${round(q.stats.p99)}`);
	add("questionnaire median ÷ ours @120", `${round(ratio, 2)}×`, "> 1 (faster than it)");
	if (peer && peerRatio) {
		add(
			`${peer.name} @120  median / p99 (µs)`,
			`${round(peer.stats.median)} / ${round(peer.stats.p99)}`,
			`--peer ${peer.path}`,
		);
		add(
			`ours ÷ ${peer.name} @120  median / p99`,
			`${round(peerRatio.median, 3)} / ${round(peerRatio.p99, 3)}`,
			`${verdict(round(peerRatio.median, 3), TARGETS.peer_ratio_median_120)} / ${verdict(round(peerRatio.p99, 3), TARGETS.peer_ratio_p99_120)}`,
		);
	}
	const mountText = (mount: FirstMount) =>
		`${round(mount.prepareUs)} + ${round(mount.openUs - mount.prepareUs)} + ${round(mount.renderUs)} = ${round(mount.mountUs)}`;
	add(
		"first mount @120 (µs, median): prepare + execute → component + first render",
		mountText(result.firstMount),
		`questionnaire: ${mountText(q.firstMount)}`,
	);
	if (peer) {
		add(`  ${peer.name}`, mountText(peer.firstMount));
		add(`  ours on ${peer.name}'s form (no context, previews)`, mountText(peer.oursOnItsForm));
	}
	if (result.firstAsk) {
		add(
			`first ask: execute → first frame (ms, median of ${result.firstAsk.runs})`,
			`${round(result.firstAsk.coldMs)} cold / ${round(result.firstAsk.warmMs)} warm`,
			`${firstAskVerdict(result.firstAsk)}; warm: after the background preload`,
		);
		const { typical } = result.firstAsk;
		add(
			"  a typical call (the demo's: three questions, short previews)",
			`${round(typical.coldMs)} cold / ${round(typical.warmMs)} warm`,
			firstAskVerdict(typical),
		);
		const visits = visitsJson(result.firstAsk.visitsMs);
		add(
			`  first visits (ms, median / max of ${visits.keys}): a key onto an option or question not shown before`,
			`${visits.median} / ${visits.max}`,
			`the largest form, keys ${VISIT_GAP_MS} ms apart`,
		);
	}
	if (result.restored)
		add(
			`restored after --continue: pi's first frame → the form (ms, median of ${result.restored.runs})`,
			String(result.restored.medianMs),
			verdict(result.restored.medianMs, RESTORE_TARGET_MS),
		);
	if (result.paced) rows.push(...pacedRows(result.paced, peer?.name, verdict));
	add(`heap growth over ${result.heapKeys} keys (KiB)`, courseText(result.heapCourse, "totalKb"), "");
	add("  of it, compiled code (V8's code and trusted spaces)", courseText(result.heapCourse, "codeKb"));
	add(
		"  the JavaScript data alone (objects, arrays, strings, closures)",
		courseText(result.heapCourse, "dataKb"),
		`from the first checkpoint to the last ${dataSinceFirst(result.heapCourse)}: ${verdict(dataSinceFirst(result.heapCourse), TARGETS.heap_data_kb_since_first)}`,
	);
	add(
		"  from the first checkpoint to the last",
		sinceFirstText(result.heapCourse),
		"flat from the first checkpoint on: ≈ 0",
	);
	if (peer) {
		add(`  ${peer.name}`, courseText(peer.heapCourse, "totalKb"));
		add(`  ${peer.name}, compiled code`, courseText(peer.heapCourse, "codeKb"));
		add(`  ${peer.name}, the JavaScript data alone`, courseText(peer.heapCourse, "dataKb"));
		add(`  ${peer.name}, from the first checkpoint to the last`, sinceFirstText(peer.heapCourse));
	}
	if (load) {
		rows.push(...loadRows(load));
	} else {
		add("pi start-up", "skipped (--skip-load)");
	}
	const parts = result.footprint.parts;
	add(
		"prompt footprint (o200k tokens)",
		`${result.footprint.tokens} (${result.footprint.chars} chars)`,
		verdict(result.footprint.tokens, TARGETS.footprint_tokens),
	);
	add(
		"  description / snippet / guidelines / schema",
		`${parts.description} / ${parts.promptSnippet} / ${parts.promptGuidelines} / ${parts.parameters}`,
		`questionnaire: ${q.footprint.tokens}`,
	);
	return rows;
}

/** `--load-only`: the start-up figures alone, the same way. */
export function printLoadReport(piVersion: string, load: NonNullable<BenchResult["load"]>): void {
	const out = [
		"",
		`pi ${piVersion} start-up:`,
		table(loadRows(load)),
		"",
		"pi start-up phases, median ms (without → with):",
		`  ${phasesText(load)}`,
		"",
	];
	process.stdout.write(`${out.join("\n")}\n${JSON.stringify({ [piVersion]: loadJson(load) })}\n`);
}

type Row = [what: string, figure: string, target: string];
type Load = StartupSummary & { cold?: StartupSummary };

const signed = (ms: number) => `${ms < 0 ? "−" : "+"}${Math.abs(ms)}`;
const verdict = (value: number, limit: number) => `≤ ${limit}  ${value <= limit ? "✓ met" : "✗ MISSED"}`;

const firstAskVerdict = ({ coldMs, warmMs }: { coldMs: number; warmMs: number }): string =>
	`${verdict(round(coldMs), TARGETS.first_ask_ms_cold)} / ${verdict(round(warmMs), TARGETS.first_ask_ms_warm)}`;

function table(rows: Row[]): string {
	const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => [...row[column]!].length)));
	const pad = (text: string, width: number) => text + " ".repeat(Math.max(0, width - [...text].length));
	return rows.map((row) => `  ${pad(row[0], widths[0]!)}  ${pad(row[1], widths[1]!)}  ${row[2]}`.trimEnd()).join("\n");
}

const phasesText = (load: Load) =>
	Object.entries(load.phases)
		.map(([phase, ms]) => `${phase} ${ms.without}→${ms.with}`)
		.join(", ");

/** The start-up's floor: pi with an extension that registers nothing (scripts/bench/empty-extension.ts). */
export const EMPTY_EXTENSION = "an empty extension";

/** The extension-loading phase over the empty extension's: what an extension costs beyond the loader, which the first one of any kind pays. */
function overFloor(load: Load): { ours: number; others: Array<{ name: string; ms: number }> } {
	const floor = load.others.find((other) => other.name === EMPTY_EXTENSION)?.phaseMs ?? Number.NaN;
	const others = load.others.filter((other) => other.name !== EMPTY_EXTENSION);
	return {
		ours: round(load.phaseWithMs - floor),
		others: others.map((other) => ({ name: other.name, ms: round(other.phaseMs - floor) })),
	};
}

function loadRows(load: Load): Row[] {
	const cold = load.cold && overFloor(load.cold);
	const coldRow = (over: ReturnType<typeof overFloor>): Row => [
		"  the same, cold (no compile cache: the first start after an install)",
		[`ours ${signed(over.ours)}`, ...over.others.map((other) => `${other.name} ${signed(other.ms)}`)].join(" · "),
		`ours ${verdict(over.ours, TARGETS.load_over_empty_cold_ms)}`,
	];
	return [...warmRows(load), ...(cold ? [coldRow(cold)] : [])];
}

function warmRows(load: Load): Row[] {
	const ratio = load.withMs / load.withoutMs;
	const floor = overFloor(load);
	const peers = floor.others.filter((other) => other.name.startsWith("the peer"));
	const lightest = Math.min(...peers.map((peer) => peer.ms));
	return [
		[
			`pi --mode rpc → get_state (ms, median of ${load.runs})`,
			`${round(load.withMs)} with / ${round(load.withoutMs)} without`,
			"",
		],
		["load ratio (with ÷ without)", `${round(ratio, 3)}`, verdict(round(ratio, 3), TARGETS.load_ratio)],
		[
			`pi's "${load.phase}" phase (ms, PI_TIMING=1)`,
			`${load.phaseWithMs} with / ${load.phaseWithoutMs} without`,
			`ours: ${signed(round(load.phaseWithMs - load.phaseWithoutMs))} ms`,
		],
		...load.others.map(
			(other): Row => [
				`  with ${other.name} instead`,
				`${other.phaseMs} (get_state ${round(other.wallMs)} ms, ratio ${round(other.wallMs / load.withoutMs, 3)})`,
				"",
			],
		),
		[
			"  over the empty extension (the loader's own start-up)",
			[`ours ${signed(floor.ours)}`, ...floor.others.map((other) => `${other.name} ${signed(other.ms)}`)].join(" · "),
			`ours ${verdict(floor.ours, TARGETS.load_over_empty_ms)}${
				peers.length > 0 ? `, ≤ the lightest peer's ${floor.ours <= lightest ? "✓ met" : "✗ MISSED"}` : ""
			}`,
		],
	];
}

function loadJson(load: Load): Record<string, unknown> {
	const floor = overFloor(load);
	return {
		load_ms_median: round(load.withMs),
		load_ms_median_without: round(load.withoutMs),
		load_ratio: round(load.withMs / load.withoutMs, 3),
		load_phase_ms: round(load.phaseWithMs - load.phaseWithoutMs),
		load_phase_over_empty_ms: floor.ours,
		load_phase_over_empty_others_ms: Object.fromEntries(floor.others.map((other) => [other.name, other.ms])),
		load_ratio_others: Object.fromEntries(
			load.others.map((other) => [other.name, round(other.wallMs / load.withoutMs, 3)]),
		),
		...(load.cold && {
			load_phase_over_empty_cold_ms: overFloor(load.cold).ours,
			load_phase_over_empty_cold_others_ms: Object.fromEntries(
				overFloor(load.cold).others.map((other) => [other.name, other.ms]),
			),
		}),
		load_phase: load.phase,
		load_runs: load.runs,
	};
}

/** The first visits' times: median and max in ms, and how many. */
function visitsJson(visits: readonly number[]): { median: number; max: number; keys: number } {
	const sorted = [...visits].sort((a, b) => a - b);
	const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
	return { median: round(median), max: round(sorted.at(-1) ?? Number.NaN), keys: sorted.length };
}
