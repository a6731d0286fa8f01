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
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "vitest";
import { ISOLATION_FLAGS, type PiCommand } from "../../scripts/isolated-pi.mjs";
import { type PiProcess, processesOf, until } from "./harness.ts";
import {
	callTool,
	type ModelCallLogEntry,
	type ModelScript,
	quoteLastToolResult,
	SCRIPTED_MODEL,
	type ScriptedConversation,
	type ScriptedReply,
} from "./model-script.ts";
import { ASK_USER_EXTENSION, createPiEnv, type PiEnv, REPO_ROOT, SCRIPTED_MODEL_EXTENSION, WAIT_MS } from "./pi-env.ts";
import { TmuxPi } from "./tmux.ts";

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

/** The file the parent's model would create if it went on working after a subagent's dismissed form. */
export const WENT_ON_FILE = "parent-went-on";
/** What the user says once the parent's run is over. */
export const USER_SPEAKS = "over to you";

/**
 * The parent's conversation for a subagent's dismissed form: on `prompt`, `delegate` (the runner's tool call);
 * after the subagent's result, go on working (bash touches WENT_ON_FILE); then quote the last result. When the
 * user speaks (USER_SPEAKS), quote the last result again.
 */
export function parentGoesOnAfter(prompt: string, delegate: ScriptedReply): ScriptedConversation[] {
	const goOn = callTool("bash", { command: `touch ${WENT_ON_FILE}` });
	return [
		{ user: prompt, replies: [delegate, goOn, quoteLastToolResult] },
		{ user: USER_SPEAKS, replies: [quoteLastToolResult] },
	];
}

/**
 * After the user dismissed a subagent's form in the parent (parentGoesOnAfter's script): the parent's model reads
 * the subagent's result; once the parent's run is over, the user speaks. The parent stopped as after a dismissal of
 * its own form: its next tool call was refused, not run, and (pi 1.x, `terminate` on the refused call) its model was
 * not called again before the user spoke; pi 0.73, which ignores that `terminate`, calls it once more (`legacy`).
 */
export async function expectParentStopped(
	piEnv: PiEnv,
	screen: TmuxPi,
	prompt: string,
	{ legacy = false } = {},
): Promise<void> {
	await until(() => modelCalled(piEnv, prompt, 1), "the parent's model to read the subagent's result");
	await screen.waitForGone("Working...");
	await screen.type(USER_SPEAKS);
	await screen.send("Enter");
	await until(() => modelCalled(piEnv, USER_SPEAKS), "the parent's model to hear the user");

	const calls = piEnv.log().filter((e): e is ModelCallLogEntry => e.kind === "call" && e.user.includes(prompt));
	expect(calls.map((call) => call.replyIndex)).toEqual(legacy ? [0, 1, 2] : [0, 1]);
	const went = piEnv.toolResults("bash");
	expect(went.map((r) => r.isError)).toEqual([true]);
	expect(went[0]?.text).toContain("the user dismissed ask_user");
	expect(existsSync(join(piEnv.cwd, WENT_ON_FILE))).toBe(false);
}

/**
 * Starts pi's TUI for `piEnv` (100×40), hands it to `started` at once (so the
 * test's clean-up stops it whatever happens next), and says `prompt`.
 */
export async function startTuiWith(piEnv: PiEnv, prompt: string, started: (tui: TmuxPi) => void): Promise<TmuxPi> {
	const tui = await TmuxPi.start(piEnv, { cols: 100, rows: 40 });
	started(tui);
	await tui.waitForReady();
	await tui.type(prompt);
	await tui.send("Enter");
	return tui;
}

/** True once a model (whoever runs `task`) has been called on it for reply number `replyIndex` (0-based). */
export function modelCalled(piEnv: PiEnv, task: string, replyIndex = 0): boolean {
	return piEnv.log().some((e) => e.kind === "call" && e.user.includes(task) && e.replyIndex === replyIndex);
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
