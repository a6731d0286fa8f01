/**
 * Many asks answered one after another in one session: the real pi TUI in tmux, with a session file (so every form is
 * kept on disk while it is open), and a scripted model that calls ask_user again after every answer. Each form is
 * answered with a key as soon as it opens; every TYPED_EVERY-th with a text typed into its editor, waited for on disk,
 * then saved. The probe in pi (soak-probe.ts) samples its heap after a full collection, its open file descriptors and
 * its active timers as it goes; the kept folder is read at the end.
 *
 * pi keeps every turn of a conversation, so its heap grows with any tool: the same turns with pi's own select dialog
 * in place of ask_user (probe-extension.ts's probe_select), answered the same way, are the baseline its growth is
 * measured against.
 */

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AskDetails } from "../../src/core/types.ts";
import { expectNoProcessesLeft } from "../../test/support/harness.ts";
import { callTool, scriptOf } from "../../test/support/model-script.ts";
import { ASK_USER_EXTENSION, createPiEnv, type PiEnv, REPO_ROOT } from "../../test/support/pi-env.ts";
import { TmuxPi } from "../../test/support/tmux.ts";
import { PI_WITH_GC, ProbeLog, SOAK_PROBE, type Sample } from "./probe.ts";
import { soon } from "./soon.ts";

/** Every this many asks (fewer in a short soak), one is answered with text typed into its editor. */
const TYPED_EVERY = 100;
const PROMPT = "soak: ask again and again";
const PROBE_SELECT = join(REPO_ROOT, "test", "support", "probe-extension.ts");

export interface SequentialFigures {
	asks: number;
	answered: number;
	/** Every answer reached the model as given, in order. */
	asGiven: boolean;
	/** Of them, answered with typed text that was on disk before it was saved. */
	typed: number;
	/** The heap after a full collection, MiB: at the first sample, half way, at the end. */
	heapMiB: number[];
	/** Its growth per ask over the second half, KiB; the same with pi's own select dialog in ask_user's place (`baselineTurns` of them). */
	heapKiBPerAsk: number;
	baselineKiBPerTurn: number;
	baselineTurns: number;
	/** Open file descriptors: before the first ask, at the first sample, half way, at the end, after the run. */
	fds: number[];
	/** Files left in the session's kept folder (forms, and aside files of writes). */
	keptLeft: number;
	/** Timers active a second after the run, less those active before it. */
	timersLeft: number;
	msPerAsk: number;
	leftRunning: number;
}

interface Run {
	answered: number;
	asGiven: boolean;
	typed: number;
	samples: Sample[];
	msPerTurn: number;
	keptLeft: number;
	leftRunning: number;
}

export async function soakSequential(asks: number, log: (line: string) => void): Promise<SequentialFigures> {
	const ours = await run("ask_user", asks, log);
	const baselineTurns = Math.min(asks, 300);
	const baseline = await run("probe_select", baselineTurns, log);
	const course = ours.samples.filter((s) => !s.idle);
	const [atStart, atEnd] = [ours.samples.find((s) => s.idle), ours.samples.at(-1)] as [Sample, Sample];
	const [first, mid, last] = thirds(course, atEnd);
	const [, baseMid, baseLast] = thirds(
		baseline.samples.filter((s) => !s.idle),
		baseline.samples.at(-1) as Sample,
	);
	return {
		asks,
		answered: ours.answered,
		asGiven: ours.asGiven,
		typed: ours.typed,
		heapMiB: [first, mid, last].map((s) => Math.round((s.heapBytes / 1024 / 1024) * 10) / 10),
		heapKiBPerAsk: slope(mid, last),
		baselineKiBPerTurn: slope(baseMid, baseLast),
		baselineTurns,
		fds: [atStart, first, mid, last, atEnd].map((s) => s.fds),
		keptLeft: ours.keptLeft,
		timersLeft: (atEnd.resources["Timeout"] ?? 0) - (atStart.resources["Timeout"] ?? 0),
		msPerAsk: ours.msPerTurn,
		leftRunning: ours.leftRunning + baseline.leftRunning,
	};
}

/** The first sample, the one half way and the last. */
function thirds(samples: Sample[], otherwise: Sample): [Sample, Sample, Sample] {
	return [
		samples[0] ?? otherwise,
		samples[Math.floor((samples.length - 1) / 2)] ?? otherwise,
		samples.at(-1) ?? otherwise,
	];
}

/** The heap's growth from one sample to another, KiB per ended tool call. */
function slope(from: Sample, to: Sample): number {
	return Math.round(((to.heapBytes - from.heapBytes) / 1024 / Math.max(1, to.n - from.n)) * 10) / 10;
}

/** `turns` calls of `tool` in one run, each answered on screen as soon as it waits. */
async function run(tool: "ask_user" | "probe_select", turns: number, log: (line: string) => void): Promise<Run> {
	const every = Math.max(1, Math.floor(turns / 10));
	const typedEvery = Math.min(TYPED_EVERY, Math.ceil(turns / 3));
	const question = (i: number) => `Ask ${i + 1}: which?`;
	const calls = Array.from({ length: turns }, (_, i) =>
		tool === "ask_user"
			? callTool(tool, { questions: [{ id: "pick", header: "Pick", question: question(i), options: OPTIONS }] })
			: callTool(tool, { title: question(i), options: ["Left", "Right"] }),
	);
	const env = createPiEnv({
		script: scriptOf({ user: PROMPT, replies: [...calls, { text: "done" }] }),
		extensions: [ASK_USER_EXTENSION, SOAK_PROBE, ...(tool === "probe_select" ? [PROBE_SELECT] : [])],
		pi: PI_WITH_GC,
		sessions: true,
	});
	const probe = new ProbeLog(join(env.root, "probe.jsonl"));
	Object.assign(env.env, probe.env(every));
	noCompaction(env);
	const tui = await TmuxPi.start(env, { cols: 100, rows: 30 });
	try {
		await tui.waitForReady();
		await soon(() => probe.samples().some((s) => s.idle), "the probe's first sample");
		await tui.type(PROMPT);
		await tui.send("Enter");
		const given: string[] = [];
		const started = Date.now();
		for (let i = 1; i <= turns; i++) {
			await soon(() => probe.count(tool === "ask_user" ? "opened" : "prompt") >= i, `${tool} ${i} to wait`);
			// Now and then, that it is the form on screen; keys sent at once reach it (the answers prove it).
			if (i % every === 1 || every === 1) await tui.waitFor(question(i - 1));
			if (tool === "ask_user" && i % typedEvery === 0) {
				const text = `typed-${i}`;
				await tui.send("3");
				await tui.waitFor("enter save");
				await tui.type(text);
				await soon(() => keptFiles(env).some((file) => readFileSync(file, "utf8").includes(text)), `${text} on disk`);
				await tui.send("Enter");
				given.push(text);
			} else {
				const right = Math.random() < 0.5;
				if (tool === "ask_user") await tui.send(right ? "2" : "1");
				else await tui.send(...(right ? ["Down", "Enter"] : ["Enter"]));
				given.push(right ? "Right" : "Left");
			}
			await soon(() => probe.count("ended") >= i, `${tool} ${i} to end`);
			if (i % every === 0)
				log(`sequential: ${i} of ${turns} ${tool === "ask_user" ? "asks" : "select dialogs (the baseline)"} answered`);
		}
		const msPerTurn = Math.round(((Date.now() - started) / turns) * 10) / 10;
		await tui.waitFor("done");
		await soon(() => probe.samples().filter((s) => s.idle).length >= 2, "the probe's sample after the run");
		const results = env.toolResults(tool);
		const received = results.map((entry) =>
			tool === "ask_user"
				? (entry.details as AskDetails).answers["pick"]?.selections[0]?.label
				: entry.text.replace("probe chose: ", ""),
		);
		return {
			answered:
				tool === "ask_user"
					? results.filter((r) => (r.details as AskDetails).status === "answered").length
					: results.length,
			asGiven: JSON.stringify(received) === JSON.stringify(given),
			typed: given.filter((text) => text.startsWith("typed-")).length,
			samples: probe.samples(),
			msPerTurn,
			keptLeft: keptBeyondAnswered(env) + asideFiles(env),
			leftRunning: await quit(env, tui),
		};
	} finally {
		await tui.kill();
		await leftRunning(env, 0);
		env.cleanup();
	}
}

const OPTIONS = [{ label: "Left" }, { label: "Right" }];

/** No compaction: the scripted model cannot summarise, and a thousand asks are a long conversation. */
export function noCompaction(env: PiEnv): void {
	const path = join(env.env["PI_CODING_AGENT_DIR"] as string, "settings.json");
	const settings = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
	writeFileSync(path, JSON.stringify({ ...settings, compaction: { enabled: false } }));
}

/** Quits pi as a user does (Ctrl+D on an empty editor); how many of its processes still run 5 s later (then killed). */
export async function quit(env: PiEnv, tui: TmuxPi): Promise<number> {
	await tui.send("C-d");
	await tui.waitForExit().catch(() => {});
	await tui.kill();
	return leftRunning(env);
}

/** How many processes of `env` still run after `timeoutMs`; they are killed. */
export async function leftRunning(env: PiEnv, timeoutMs = 5_000): Promise<number> {
	try {
		await expectNoProcessesLeft(env, timeoutMs);
		return 0;
	} catch (error) {
		return (String(error).match(/^pid /gm) ?? []).length;
	}
}

function sessionFiles(env: PiEnv): string[] {
	const sessions = join(env.env["PI_CODING_AGENT_DIR"] as string, "sessions");
	if (!existsSync(sessions)) return [];
	return (readdirSync(sessions, { recursive: true }) as string[]).map((name) => join(sessions, name));
}

function keptFiles(env: PiEnv): string[] {
	return sessionFiles(env).filter((path) => /\.ask-user\/[^/]+\.json$/.test(path));
}

/** How many answered forms a folder may hold before an answer prunes it: MAX_KEPT (src/kept/store.ts) twice over. */
const ANSWERED_KEPT = 2 * 20;

/** Kept files but the answered forms a session keeps for a revision. */
function keptBeyondAnswered(env: PiEnv): number {
	const files = keptFiles(env);
	const answered = files.filter((file) => readFileSync(file, "utf8").includes('"status":"answered"')).length;
	return files.length - answered + Math.max(0, answered - ANSWERED_KEPT);
}

function asideFiles(env: PiEnv): number {
	return sessionFiles(env).filter((path) => /\.ask-user\/[^/]+\.tmp$/.test(path)).length;
}
