/**
 * The benchmark, in the order it runs: load the tools as pi would (ours, pi's
 * questionnaire example and, with --peer PATH, another ask tool), measure
 * their prompt footprint, heap growth over 100,000 keys (--heap-keys N) and
 * its course, in all and in V8's compiled code (ours first, so nothing else
 * has run in the process yet; then the peer's), the first mount
 * (prepareArguments and execute → component, then its first render; ours
 * also on the peer's form), the per-key
 * cost at four widths (ours against the others at 120 columns, interleaved),
 * and pi's start-up with and without ask_user. Then the table and, last, one
 * line of JSON (report.ts).
 */

import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { Session } from "node:inspector/promises";
import { basename, dirname, join, resolve } from "node:path";
import { runInNewContext } from "node:vm";
import { getHeapSpaceStatistics, setFlagsFromString, writeHeapSnapshot } from "node:v8";
import { initTheme, type Theme, type ToolDefinition } from "@mariozechner/pi-coding-agent";
import { setKeybindings, visibleWidth } from "@mariozechner/pi-tui";
import { quietTui } from "../../test/form/fake-terminal.ts";
import { piKeybindings } from "../../test/form/support.ts";
import { firstAskOnce, measureFirstAsk } from "./first-ask.ts";
import { measurePaced, PACE, type PacedResult, pacedRows } from "./paced.ts";
import { measureRestore } from "./restore.ts";
import { ensureLegacyPi } from "../legacy-pi.mjs";
import { measureFirstCallRate, printFirstCallRate } from "./first-call.ts";
import { footprintOf } from "./footprint.ts";
import { largestAskParams, optionCount, peerParams, questionnaireParams } from "./forms.ts";
import { KEY_CYCLE, KeyDriver, keyCycle, measureInterleaved, stats } from "./keystrokes.ts";
import { captureTools, type EventHandler, type ExtensionFactory, mountTool, type Screen } from "./mount.ts";
import {
	type BenchResult,
	EMPTY_EXTENSION,
	type FirstMount,
	type HeapCourse,
	printLoadReport,
	printReport,
	type StartupSummary,
} from "./report.ts";
import { createStartupEnv, type StartupRun } from "./startup.ts";

export interface BenchOptions {
	repo: string;
	/** Ours: the built package's index.ts (scripts/build.mjs), as a package from npm has it. */
	extension: string;
	argv: string[];
	jiti: { import(id: string, options?: { default?: boolean }): Promise<unknown> };
	/** The pi measured (bench.mjs picks it): its version, its package, and the start-up phase in which it loads extensions. */
	pi: BenchPi;
}

export interface BenchPi {
	version: string;
	packageDir: string;
	loadPhase: string;
	/** bench.mjs's --pi value, for the child processes it spawns. */
	piArg: string;
}

const WIDTHS = [40, 80, 120, 200] as const;
const ROWS = 40;
/** pi's own example ask tool, in the pi measured. */
const QUESTIONNAIRE = ["examples", "extensions", "questionnaire.ts"];

export async function runBench(options: BenchOptions): Promise<void> {
	const quick = options.argv.includes("--quick");
	const loadOnly = options.argv.includes("--load-only");
	const keys = numberFlag(options.argv, "--keys") ?? (quick ? 2_000 : 12_000);
	const warmup = quick ? 500 : 3_000;
	const heapKeys = numberFlag(options.argv, "--heap-keys") ?? (quick ? 10_000 : 100_000);
	const loadRuns = numberFlag(options.argv, "--runs") ?? (quick ? 3 : 9);
	const log = (line: string) => process.stderr.write(`${line}\n`);
	const firstAskKind = options.argv[options.argv.indexOf("--first-ask") + 1];
	const firstAskForm = stringFlag(options.argv, "--first-ask-form") === "typical" ? "typical" : "largest";
	if (options.argv.includes("--first-ask"))
		return firstAskOnce(options.repo, options.extension, options.jiti, firstAskKind === "warm", firstAskForm);
	if (options.argv.includes("--first-call")) return printFirstCallRate(measureFirstCallRate(options.repo));

	log(`pi ${options.pi.version}`);
	const startup = () => {
		log(
			`· pi start-up, ${loadRuns} runs without an extension, with ask_user, an empty extension, pi's example and the peer`,
		);
		return measureStartup(options, loadRuns);
	};
	if (loadOnly) return printLoadReport(options.pi.version, await startup());

	const tools = await prepareTools(options);
	const { screen, drive, ours, questionnaire, oursArgs, questionnaireArgs, peer, peerPath, peerArgs, peerCycle } =
		tools;
	const pacedKeys = numberFlag(options.argv, "--paced-keys") ?? (quick ? 100 : 1_000);
	if (options.argv.includes("--paced-only")) {
		const paced = await measurePacedKeys(tools, pacedKeys, log);
		for (const row of pacedRows(paced, (await peer?.())?.name, (value, limit) => (value <= limit ? "✓" : "✗")))
			console.log(row.join("  "));
		return;
	}

	log("· footprint");
	const footprint = footprintOf(await ours());
	const questionnaireFootprint = footprintOf(await questionnaire());
	const peerTool = await peer?.();

	// First, before anything else has run in this process: what is left on the heap is ours alone.
	log(`· heap over ${heapKeys} keys`);
	const heapCourse = await heapCourseOf(drive(ours, oursArgs, 120), warmup, heapKeys, "spaces");
	if (peer) log(`· the peer's heap over ${heapKeys} keys`);
	const peerHeapCourse = peer
		? await heapCourseOf(drive(peer, peerArgs, 120, peerCycle), warmup, heapKeys, "spaces")
		: undefined;
	// Then the data, from heap snapshots: a snapshot leaves V8's profiler state on the heap, which the course in all
	// would count.
	log(`· the data on the heap over ${heapKeys} keys`);
	withData(heapCourse, await heapCourseOf(drive(ours, oursArgs, 120), warmup, heapKeys, "data"));
	if (peer && peerHeapCourse)
		withData(peerHeapCourse, await heapCourseOf(drive(peer, peerArgs, 120, peerCycle), warmup, heapKeys, "data"));

	log("· first mount");
	const mounts = quick ? 50 : 300;
	const firstRender = await measureFirstMount(ours, oursArgs, screen, mounts);
	const questionnaireFirstRender = await measureFirstMount(questionnaire, questionnaireArgs, screen, mounts);
	const peerFirstMount = peer ? await measureFirstMount(peer, peerArgs, screen, mounts) : undefined;
	// The same content as the peer's (no context, previews or recommended marks): what drawing more costs, apart.
	const peerFormFirstMount = peer ? await measureFirstMount(ours, peerArgs, screen, mounts) : undefined;

	const { median, p99, mean, questionnaireStats, peerStats } = await measureKeystrokes(tools, warmup, keys, log);
	const paced = await measurePacedKeys(tools, pacedKeys, log);

	const firstAskRuns = quick ? 1 : 5;
	log(`· first ask, ${firstAskRuns} fresh processes cold and warm, for the largest form and a typical call`);
	const firstAsk = {
		...measureFirstAsk(options.repo, options.pi.piArg, firstAskRuns, "largest"),
		typical: measureFirstAsk(options.repo, options.pi.piArg, firstAskRuns, "typical"),
		runs: firstAskRuns,
	};
	const restoreRuns = quick ? 1 : 7;
	log(`· a form restored after --continue, ${restoreRuns} starts in tmux`);
	const legacy = options.pi.piArg === "legacy" ? await ensureLegacyPi() : undefined;
	const restored = { ...(await measureRestore(restoreRuns, legacy)), runs: restoreRuns };

	const load = options.argv.includes("--skip-load") ? undefined : await startup();

	printReport(options.pi.version, {
		widths: [...WIDTHS],
		keysPerWidth: keys,
		cycleLength: KEY_CYCLE.length,
		rows: ROWS,
		median,
		p99,
		mean,
		firstMount: firstRender,
		questionnaire: {
			stats: questionnaireStats,
			firstMount: questionnaireFirstRender,
			footprint: questionnaireFootprint,
		},
		...(peerTool && peerPath !== undefined && peerFirstMount && peerHeapCourse && peerFormFirstMount
			? {
					peer: {
						path: peerPath,
						name: peerTool.name,
						stats: peerStats,
						firstMount: peerFirstMount,
						oursOnItsForm: peerFormFirstMount,
						heapCourse: peerHeapCourse,
						footprint: footprintOf(peerTool),
					},
				}
			: {}),
		heapKeys,
		heapCourse,
		footprint,
		firstAsk,
		restored,
		paced,
		load,
	});
}

/** pi's theme and keybindings set up as pi does, and the tools loaded: ours, pi's example, the peer (--peer). */
async function prepareTools(options: BenchOptions) {
	initTheme("dark");
	const theme = piThemeProxy();
	const keybindings = piKeybindings();
	// pi installs its keybindings globally at start-up; pi-tui's Editor reads them from there.
	setKeybindings(keybindings);
	const screen = (width: number): Screen => ({ tui: quietTui(width, ROWS).tui, theme, keybindings });
	const ours = await loadTool(options, [options.extension], "ask_user");
	const questionnaire = await loadTool(options, [options.pi.packageDir, ...QUESTIONNAIRE], "questionnaire");
	const peerPath = stringFlag(options.argv, "--peer");
	const peer = peerPath === undefined ? undefined : await loadTool(options, [resolve(peerPath)]);
	const peerArgs = peer ? peerParams((await peer()).parameters) : undefined;
	const drive = async (tool: ToolSource, args: unknown, width: number, cycle = KEY_CYCLE): Promise<KeyDriver> => {
		const mounted = await mountTool(await tool(), args, screen(width));
		return new KeyDriver(mounted.component, width, mounted.closed, mounted.close, cycle);
	};
	const peerCycle = peerArgs ? keyCycle(optionCount(peerArgs)) : KEY_CYCLE;
	return {
		argv: options.argv,
		screen,
		drive,
		ours,
		questionnaire,
		oursArgs: largestAskParams(),
		questionnaireArgs: questionnaireParams(),
		peer,
		peerPath,
		peerArgs,
		peerCycle,
	};
}

/** The heap's course under one driver, which is closed after. */
async function heapCourseOf(
	driving: Promise<KeyDriver>,
	warmup: number,
	keys: number,
	read: HeapRead,
): Promise<HeapCourse> {
	const driver = await driving;
	const course = measureHeapCourse(driver, warmup, keys, read);
	await driver.close();
	return course;
}

/** The data's course taken into the course in all, checkpoint by checkpoint. */
function withData(course: HeapCourse, data: HeapCourse): void {
	for (const [keys, point] of Object.entries(course)) point.dataKb = data[Number(keys)]?.dataKb ?? Number.NaN;
}

/** Ours at every width; at 120 columns pi's example and the peer interleaved with it. */
async function measureKeystrokes(
	tools: Awaited<ReturnType<typeof prepareTools>>,
	warmup: number,
	keys: number,
	log: (line: string) => void,
) {
	const { drive, ours, questionnaire, oursArgs, questionnaireArgs, peer, peerArgs, peerCycle } = tools;
	const median: Record<string, number> = {};
	const p99: Record<string, number> = {};
	const mean: Record<string, number> = {};
	let questionnaireStats = stats([]);
	let peerStats = stats([]);
	for (const width of WIDTHS) {
		log(`· keystrokes at ${width} columns`);
		const drivers = [await drive(ours, oursArgs, width)];
		if (width === 120) drivers.push(await drive(questionnaire, questionnaireArgs, width));
		if (width === 120 && peer) drivers.push(await drive(peer, peerArgs, width, peerCycle));
		const samples = measureInterleaved(drivers, warmup, keys);
		checkFits(drivers[0]!, width);
		for (const driver of drivers) await driver.close();
		const own = stats(samples[0] ?? []);
		median[width] = own.median;
		p99[width] = own.p99;
		mean[width] = own.mean;
		if (width === 120) questionnaireStats = stats(samples[1] ?? []);
		if (width === 120 && peer) peerStats = stats(samples[2] ?? []);
	}
	return { median, p99, mean, questionnaireStats, peerStats };
}

/**
 * At a person's pace (paced.ts): `keys` keys at 120 columns for ours, pi's example and the peer by turns, a quarter of
 * that for ours at the other widths; each form first takes one cycle the same way, unmeasured.
 */
async function measurePacedKeys(
	tools: Awaited<ReturnType<typeof prepareTools>>,
	keys: number,
	log: (line: string) => void,
): Promise<PacedResult> {
	const { drive, ours, questionnaire, oursArgs, questionnaireArgs, peer, peerArgs, peerCycle } = tools;
	const result: PacedResult = { keys, gapMs: PACE.gapMs, touchedMiB: PACE.touchedBytes / 2 ** 20, ours: {} };
	// --paced-alone: ours with nothing else between its keys, apart from what another tool's keys leave behind.
	const others = !tools.argv.includes("--paced-alone");
	for (const width of WIDTHS) {
		const count = width === 120 ? keys : Math.ceil(keys / 4);
		log(`· ${count} keys at a person's pace at ${width} columns`);
		const drivers = [await drive(ours, oursArgs, width)];
		if (width === 120 && others) drivers.push(await drive(questionnaire, questionnaireArgs, width));
		if (width === 120 && others && peer) drivers.push(await drive(peer, peerArgs, width, peerCycle));
		await measurePaced(drivers, KEY_CYCLE.length);
		const profile = width === 120 ? stringFlag(tools.argv, "--paced-profile") : undefined;
		const [own, theirs, peers] = await profiled(profile, () => measurePaced(drivers, count));
		for (const driver of drivers) await driver.close();
		if (own) result.ours[width] = own;
		if (width === 120) result.questionnaire = theirs;
		if (width === 120 && peer) result.peer = peers;
	}
	return result;
}

/** `measure` run under V8's sampling profiler (every 20 µs) when `file` is given, the profile written there. */
async function profiled<T>(file: string | undefined, measure: () => Promise<T>): Promise<T> {
	if (file === undefined) return measure();
	const session = new Session();
	session.connect();
	await session.post("Profiler.enable");
	await session.post("Profiler.setSamplingInterval", { interval: 20 });
	await session.post("Profiler.start");
	const result = await measure();
	const { profile } = await session.post("Profiler.stop");
	writeFileSync(file, JSON.stringify(profile));
	session.disconnect();
	return result;
}

/**
 * A fresh copy of the tool for each form: ours keeps one form on screen at a
 * time per extension instance (its FIFO queue), and these forms never close.
 */
type ToolSource = () => Promise<ToolDefinition>;

/** `name`: the tool to take; without it, the first the extension registers (a peer's). */
async function loadTool(options: BenchOptions, path: string[], name?: string): Promise<ToolSource> {
	const factory = (await options.jiti.import(join(...path), { default: true })) as ExtensionFactory;
	// As pi does before the agent's first run (ours loads what a call runs after start-up, and by then at the latest).
	const starting: EventHandler[] = [];
	await captureTools(factory, (event, handler) => void (event === "before_agent_start" && starting.push(handler)));
	for (const handler of starting) await handler({ type: "before_agent_start" }, { mode: "tui", hasUI: true, ui: {} });
	return async () => {
		const tools = await captureTools(factory);
		const tool = name === undefined ? tools.values().next().value : tools.get(name);
		if (!tool) throw new Error(`${path.join("/")} registered no tool${name === undefined ? "" : ` named ${name}`}`);
		return tool;
	};
}

/**
 * Median µs of: prepareArguments and the tool's execute up to the component
 * (open; prepare is its first part), the component's first render at 120
 * columns, and the two together (mount), each of `count` forms in this warm
 * process.
 */
async function measureFirstMount(
	tool: ToolSource,
	args: unknown,
	screen: (width: number) => Screen,
	count: number,
): Promise<FirstMount> {
	const open: number[] = [];
	const prepare: number[] = [];
	const render: number[] = [];
	const mount: number[] = [];
	for (let i = 0; i < count + 20; i++) {
		const mounted = await mountTool(await tool(), args, screen(120));
		const t0 = process.hrtime.bigint();
		mounted.component.render(120);
		const t1 = process.hrtime.bigint();
		await mounted.close();
		if (i < 20) continue;
		const renderUs = Number(t1 - t0) / 1000;
		open.push(mounted.openUs);
		prepare.push(mounted.prepareUs);
		render.push(renderUs);
		mount.push(mounted.openUs + renderUs);
	}
	return {
		prepareUs: stats(prepare).median,
		openUs: stats(open).median,
		renderUs: stats(render).median,
		mountUs: stats(mount).median,
	};
}

/**
 * What pi hands to ui.custom factories: not the Theme itself but a proxy that
 * reads the current one from globalThis on every access (pi's theme.js; not
 * exported), so a theme switch reaches open components. Rebuilt here so its
 * cost is in the figures too.
 */
function piThemeProxy(): Theme {
	const keys = [Symbol.for("@earendil-works/pi-coding-agent:theme"), Symbol.for("@mariozechner/pi-coding-agent:theme")];
	const current = () => {
		const holder = globalThis as Record<symbol, Theme | undefined>;
		const theme = holder[keys[0]!] ?? holder[keys[1]!];
		if (!theme) throw new Error("pi's theme is not initialised");
		return theme;
	};
	current();
	return new Proxy({} as Theme, { get: (_target, prop) => current()[prop as keyof Theme] });
}

function checkFits(driver: KeyDriver, width: number): void {
	for (const line of driver.component.render(width)) {
		if (visibleWidth(line) > width) throw new Error(`a line wider than ${width} columns: ${JSON.stringify(line)}`);
	}
}

function forceGc(): () => void {
	const exposed = (globalThis as { gc?: () => void }).gc;
	if (exposed) return exposed;
	setFlagsFromString("--expose-gc");
	return runInNewContext("gc") as () => void;
}

/**
 * V8's spaces for compiled code: machine code, and (V8 12 on) the trusted
 * space with its metadata. What grows there is code V8 optimised, not data.
 */
const CODE_SPACES = new Set(["code_space", "code_large_object_space", "trusted_space", "trusted_large_object_space"]);

function codeSpaceUsed(): number {
	let used = 0;
	for (const space of getHeapSpaceStatistics()) if (CODE_SPACES.has(space.space_name)) used += space.space_used_size;
	return used;
}

/** What a pass over the keys reads at each checkpoint: the heap's spaces, or the data in a heap snapshot. */
type HeapRead = "spaces" | "data";

/** The JavaScript data on the heap now, in bytes, from a heap snapshot read in another process (heap-data.mjs). */
function heapData(): number {
	const file = writeHeapSnapshot(join(tmpdir(), `ask-user-bench-${process.pid}.heapsnapshot`));
	try {
		const read = spawnSync(process.execPath, [join(import.meta.dirname, "heap-data.mjs"), file], { encoding: "utf8" });
		if (read.status !== 0) throw new Error(`heap-data.mjs failed: ${read.stderr}`);
		return (JSON.parse(read.stdout) as { data: number }).data;
	} finally {
		rmSync(file, { force: true });
	}
}

/**
 * KiB of heap after a quarter, half and all of `count` keys, each minus the
 * heap after the warm-up, each read after full collections: flat from the
 * first checkpoint on means nothing grows with the keys. In all, in the code
 * spaces, and the JavaScript data alone (a heap snapshot's objects, arrays,
 * strings, closures): code V8 optimises late (the few functions a key cycle
 * calls once or twice) grows the old space too, with its metadata, and is
 * bounded; the data is what the keys leave.
 */
function measureHeapCourse(driver: KeyDriver, warmup: number, count: number, read: HeapRead): HeapCourse {
	const gc = forceGc();
	const settle = () => {
		for (let i = 0; i < 4; i++) gc();
		if (read === "data") return { total: Number.NaN, code: Number.NaN, data: heapData() };
		return { total: process.memoryUsage().heapUsed, code: codeSpaceUsed(), data: Number.NaN };
	};
	driver.press(warmup);
	const before = settle();
	const course: HeapCourse = {};
	let pressed = 0;
	for (const at of [count / 4, count / 2, count].map(Math.floor)) {
		driver.press(at - pressed);
		pressed = at;
		const now = settle();
		course[at] = {
			totalKb: (now.total - before.total) / 1024,
			codeKb: (now.code - before.code) / 1024,
			dataKb: (now.data - before.data) / 1024,
		};
	}
	return course;
}

/**
 * pi started without an extension, with ours, and, over the loader's floor, with an empty extension, pi's example and
 * the peer (--peer): interleaved, each in turn first, so drift falls on all alike.
 */
async function measureStartup(options: BenchOptions, runs: number): Promise<NonNullable<BenchResult["load"]>> {
	const env = createStartupEnv(options.pi.packageDir);
	const phase = options.pi.loadPhase;
	const peerPath = stringFlag(options.argv, "--peer");
	const ours = options.extension;
	const others = [
		{ name: EMPTY_EXTENSION, path: join(options.repo, "scripts", "bench", "empty-extension.ts") },
		{ name: "pi's questionnaire example", path: join(options.pi.packageDir, ...QUESTIONNAIRE) },
		...(peerPath === undefined
			? []
			: [{ name: `the peer (${basename(dirname(resolve(peerPath)))})`, path: resolve(peerPath) }]),
	];
	try {
		// One unmeasured run each: jiti's transform cache and the OS file cache warm up, as on any second start.
		await env.run(undefined);
		await env.run(ours);
		// Another extension this pi cannot load (pi 0.73 does not serve the new package names) is left out, and said so.
		for (const other of [...others]) {
			await env.run(other.path).catch((error: unknown) => {
				const line =
					String(error)
						.split("\n")
						.find((text) => text.includes("Failed to load")) ?? "";
				process.stderr.write(
					`  left out: ${other.name}, which this pi cannot load (${line.slice(line.lastIndexOf(": ") + 2)})\n`,
				);
				others.splice(others.indexOf(other), 1);
			});
		}
		const extensions = [undefined, ours, ...others.map((other) => other.path)];
		const measure = async (cold: boolean) => {
			const all: StartupRun[] = [];
			for (let i = 0; i < runs; i++) {
				const order = [...extensions.slice(i % extensions.length), ...extensions.slice(0, i % extensions.length)];
				for (const extension of order) all.push(await env.run(extension, cold));
			}
			return summary(all, ours, others, runs, phase);
		};
		return { ...(await measure(false)), cold: await measure(true) };
	} finally {
		env.cleanup();
	}
}

/** The medians of one set of start-ups. */
function summary(
	all: StartupRun[],
	ours: string,
	others: Array<{ name: string; path: string }>,
	runs: number,
	phase: string,
): StartupSummary {
	{
		const pick = (extension: string | undefined) => all.filter((run) => run.extension === extension);
		const phaseMedian = (list: StartupRun[], phase: string) =>
			stats(list.map((run) => run.phases[phase] ?? Number.NaN)).median;
		const wallMedian = (list: StartupRun[]) => stats(list.map((run) => run.wallMs)).median;
		const without = pick(undefined);
		const withExt = pick(ours);
		const phases = [...new Set([...without, ...withExt].flatMap((run) => Object.keys(run.phases)))];
		return {
			runs,
			withoutMs: wallMedian(without),
			withMs: wallMedian(withExt),
			phase,
			phaseWithoutMs: phaseMedian(without, phase),
			phaseWithMs: phaseMedian(withExt, phase),
			phases: Object.fromEntries(
				phases.map((phase) => [phase, { without: phaseMedian(without, phase), with: phaseMedian(withExt, phase) }]),
			),
			others: others.map((other) => ({
				name: other.name,
				wallMs: wallMedian(pick(other.path)),
				phaseMs: phaseMedian(pick(other.path), phase),
			})),
		};
	}
}

function stringFlag(argv: string[], name: string): string | undefined {
	const at = argv.indexOf(name);
	return at >= 0 ? argv[at + 1] : undefined;
}

function numberFlag(argv: string[], name: string): number | undefined {
	const at = argv.indexOf(name);
	const value = at >= 0 ? Number(argv[at + 1]) : Number.NaN;
	return Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
}
