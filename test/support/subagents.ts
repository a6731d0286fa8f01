/**
 * The subagent relay end to end: a parent pi with the example runner loaded,
 * whose `subagent` tool spawns child pis (`--mode rpc`) that run the same
 * scripted model, offline and isolated like the parent. Children inherit the
 * parent's environment — the model's script and log, the isolation variables —
 * and get their command line from PI_SUBAGENT_ARGS.
 *
 * Children and parent share one script (conversations told apart by their user
 * text: the parent's prompt, the task the parent's model hands over) and one
 * log. The log stays readable because each side calls different tools: only
 * children call ask_user, only runners call subagent.
 *
 * Every process of a test is found through /proc by its environment (the
 * test's own pi agent dir), so a child that outlived its parent, reparented to
 * init, is still found.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach } from "vitest";
import { ISOLATION_FLAGS, type PiCommand } from "../../scripts/isolated-pi.mjs";
import { RELAY_ENV } from "../../src/router.ts";
import { callTool, type ModelScript, quoteLastToolResult, SCRIPTED_MODEL, type ScriptedConversation } from "./model-script.ts";
import { ASK_USER_EXTENSION, createPiEnv, type PiEnv, REPO_ROOT, SCRIPTED_MODEL_EXTENSION, WAIT_MS } from "./pi-env.ts";
import type { RpcPi } from "./rpc-client.ts";
import { isRunningProcess, TmuxPi } from "./tmux.ts";

export const RUNNER_EXTENSION = join(REPO_ROOT, "examples", "subagent-runner", "index.ts");

/**
 * What every child gets after the runner's own `--mode rpc --no-session -e <ask_user>`
 * (so --no-session is left out here): offline and isolated, the scripted
 * model, and the runner too, so a child can run subagents of its own (nesting).
 */
export const CHILD_ARGS = [
	...ISOLATION_FLAGS.filter((flag) => flag !== "--no-session"),
	"-e",
	SCRIPTED_MODEL_EXTENSION,
	"-e",
	RUNNER_EXTENSION,
	"--model",
	SCRIPTED_MODEL,
];

/**
 * A pi env whose pi loads ask_user and the example runner, and whose children
 * are scripted too; `env` reaches the parent and, inherited, every child. The
 * children are the same pi as the parent (the runner starts its own node and script).
 */
export function createRelayPiEnv(script: ModelScript, env: Record<string, string> = {}, pi?: PiCommand): PiEnv {
	return createPiEnv({
		script,
		extensions: [ASK_USER_EXTENSION, RUNNER_EXTENSION],
		env: { PI_SUBAGENT_ARGS: JSON.stringify(CHILD_ARGS), ...env },
		...(pi ? { pi } : {}),
	});
}

/**
 * A child's conversation: on its task, call ask_user with `form`, then report
 * "<reportAs> got: <the ask_user result>". With `pidFile`, it first writes its
 * pid there, in the work dir (bash's parent process is the child pi).
 */
export function childAsks(task: string, form: unknown, reportAs: string, pidFile?: string): ScriptedConversation {
	const report = { text: `${reportAs} got: {{lastToolResult}}` };
	const writePid = pidFile === undefined ? [] : [callTool("bash", { command: `echo $PPID > ${pidFile}` })];
	return { user: task, replies: [...writePid, callTool("ask_user", form), report] };
}

/** The parent's conversation: on `prompt`, run these subagents (all in one turn, in parallel), then quote the last result. */
export function parentDelegates(prompt: string, ...runs: Array<{ agent: string; task: string }>): ScriptedConversation {
	return {
		user: prompt,
		replies: [{ toolCalls: runs.map((args) => ({ name: "subagent", arguments: args })) }, quoteLastToolResult],
	};
}

/**
 * Starts pi's TUI for `piEnv` (100×40), hands it to `started` at once (so the
 * test's clean-up stops it whatever happens next), and says `prompt`.
 */
export async function startTuiWith(piEnv: PiEnv, prompt: string, started: (tui: TmuxPi) => void): Promise<TmuxPi> {
	const tui = await TmuxPi.start(piEnv, { cols: 100, rows: 40 });
	started(tui);
	await tui.waitFor("scripted");
	await tui.type(prompt);
	await tui.send("Enter");
	return tui;
}

/** True once a model (whoever runs `task`) has been called on it for reply number `replyIndex` (0-based). */
export function modelCalled(piEnv: PiEnv, task: string, replyIndex = 0): boolean {
	return piEnv.log().some((e) => e.kind === "call" && e.user.includes(task) && e.replyIndex === replyIndex);
}

/** Polls `condition` until it holds; fails after `timeoutMs`, naming `what` it waited for. */
export async function until(condition: () => boolean, what: string, timeoutMs = WAIT_MS): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(50);
	}
}

export interface PiProcess {
	pid: number;
	/** The parent process id: a subagent's is its runner's pi. */
	ppid: number;
	/** Spawned by a relay-aware runner (PI_ASK_USER_RELAY=1): a subagent, not the test's own pi. */
	subagent: boolean;
}

/**
 * Every live process started for `piEnv`: the parent pi and all its
 * subagents, however deep. Found by environment, not command line: pi sets
 * `process.title`, which overwrites its /proc cmdline with "pi".
 */
export function processesOf(piEnv: PiEnv): PiProcess[] {
	const marker = `PI_CODING_AGENT_DIR=${piEnv.env["PI_CODING_AGENT_DIR"]}`;
	const relayed = `${RELAY_ENV}=1`;
	const found: PiProcess[] = [];
	for (const name of readdirSync("/proc")) {
		if (!/^\d+$/.test(name)) continue;
		const pid = Number(name);
		let environ: string[];
		let stat: string;
		try {
			environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
			stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		} catch {
			continue; // gone meanwhile, or not ours to read
		}
		if (!environ.includes(marker) || !isRunningProcess(pid)) continue;
		// stat: "pid (comm) state ppid …"; comm may hold spaces, so read after the last ")".
		const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
		found.push({ pid, ppid, subagent: environ.includes(relayed) });
	}
	return found;
}

/** The subagents of the test that are running now. */
export function subagentsOf(piEnv: PiEnv): PiProcess[] {
	return processesOf(piEnv).filter((p) => p.subagent);
}

/** Waits until `count` subagents run; returns them. */
export async function waitForSubagents(piEnv: PiEnv, count: number, timeoutMs = WAIT_MS): Promise<PiProcess[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const children = subagentsOf(piEnv);
		if (children.length === count) return children;
		if (Date.now() > deadline) {
			throw new Error(`Expected ${count} subagent processes, found ${children.length}: ${JSON.stringify(children)}`);
		}
		await sleep(50);
	}
}

/** Kills one subagent of the test with SIGKILL, after checking that `pid` is one (never anything else). */
export function killSubagent(piEnv: PiEnv, pid: number | undefined): void {
	const target = subagentsOf(piEnv).find((p) => p.pid === pid);
	if (target === undefined) throw new Error(`${String(pid)} is not a running subagent of this test`);
	process.kill(target.pid, "SIGKILL");
}

/**
 * The no-leftovers check: waits for every process of `piEnv` to end; if any
 * outlives `timeoutMs`, kills it (so one failure doesn't leak into the next
 * test) and throws naming it.
 */
export async function expectNoProcessesLeft(piEnv: PiEnv, timeoutMs = 3_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let left = processesOf(piEnv);
	while (left.length > 0 && Date.now() < deadline) {
		await sleep(50);
		left = processesOf(piEnv);
	}
	if (left.length === 0) return;
	for (const { pid } of left) {
		try {
			process.kill(pid, "SIGKILL");
		} catch {
			// Ended meanwhile.
		}
	}
	throw new Error(`Processes of the test still running ${timeoutMs} ms after it ended:\n${left.map((p) => `pid ${p.pid} (parent ${p.ppid})${p.subagent ? ", a subagent" : ""}`).join("\n")}`);
}

/**
 * What a test file's tests start, ended after each test by endPiTest (which
 * also fails the test if a process of it is left): assign `tui`, `rpc`,
 * `piEnv` as they start. Call once at the top of a test file.
 */
export function startedPerTest(): { tui?: TmuxPi | undefined; rpc?: RpcPi | undefined; piEnv?: PiEnv | undefined } {
	const started: { tui?: TmuxPi | undefined; rpc?: RpcPi | undefined; piEnv?: PiEnv | undefined } = {};
	afterEach(async () => {
		const ending = { ...started };
		started.tui = undefined;
		started.rpc = undefined;
		started.piEnv = undefined;
		await endPiTest(ending);
	});
	return started;
}

/**
 * The end of a test that started pi: stops the TUI and the RPC client it
 * started, checks that no process of the test is left, and removes its temp dir.
 */
export async function endPiTest(started: { tui?: TmuxPi | undefined; rpc?: RpcPi | undefined; piEnv?: PiEnv | undefined }): Promise<void> {
	await started.tui?.kill();
	await started.rpc?.close();
	try {
		if (started.piEnv) await expectNoProcessesLeft(started.piEnv);
	} finally {
		started.piEnv?.cleanup();
	}
}
