/**
 * Subagents of runners that know nothing of ask_user: pi's own example runner
 * (`examples/extensions/subagent/` in the installed pi package), which starts
 * `pi --mode json -p` children with the inherited environment, and a `pi -p`
 * run from the bash tool. Their children get no `-e` flags: they load
 * ask_user and the scripted model the way a user's pi does, from the
 * `extensions` list of pi's settings (the parent runs with --no-extensions, so
 * it loads only its own `-e` list). Agents are user agents in the agent dir.
 *
 * The parent's TMPDIR is inside the test's temp dir, so its channel's socket
 * can be found (and attacked) there, and nothing is left in the real /tmp.
 */

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PI_BIN, type PiCommand } from "../../scripts/isolated-pi.mjs";
import { type ModelScript, SCRIPTED_MODEL, type ScriptedConversation, type ScriptedReply } from "./model-script.ts";
import { ASK_USER_EXTENSION, createPiEnv, type PiEnv, REPO_ROOT, SCRIPTED_MODEL_EXTENSION } from "./pi-env.ts";
import { type PiProcess, processesOf } from "./harness.ts";

export const PI_EXAMPLE_RUNNER = join(
	REPO_ROOT,
	"node_modules",
	"@earendil-works",
	"pi-coding-agent",
	"examples",
	"extensions",
	"subagent",
	"index.ts",
);

/** The agent every test runs: no `tools:` line, so the child keeps every tool, ask_user included. */
export const AGENT = "helper";

/** The in-process runner (pi's SDK, same process): test/support/in-process-runner.ts. */
export const IN_PROCESS_RUNNER = join(REPO_ROOT, "test", "support", "in-process-runner.ts");
/** `spawn_pi`: `pi -p` started by a plain child_process.spawn (test/support/spawn-runner.ts). */
export const SPAWN_RUNNER = join(REPO_ROOT, "test", "support", "spawn-runner.ts");
/** A client of the channel that is no pi: what any command the model runs can do with the inherited address. */
export const RAW_CHANNEL_CLIENT = join(REPO_ROOT, "test", "support", "raw-channel-client.mjs");

/** By default this checkout's pi with every runner above; `pi` and `runners` for another pi (0.73.1 and its own example runner). */
export function createPlainRunnerPiEnv(
	script: ModelScript,
	{ pi, runners = [PI_EXAMPLE_RUNNER, IN_PROCESS_RUNNER, SPAWN_RUNNER] }: { pi?: PiCommand; runners?: string[] } = {},
): PiEnv {
	const piEnv = childrenLoadAskUser(
		createPiEnv({
			script,
			extensions: [ASK_USER_EXTENSION, ...runners],
			env: { PI_SPAWN_RUNNER_PI: JSON.stringify([PI_BIN]) },
			...(pi ? { pi } : {}),
		}),
	);
	const agentDir = piEnv.env["PI_CODING_AGENT_DIR"] as string;
	mkdirSync(join(agentDir, "agents"));
	writeFileSync(
		join(agentDir, "agents", `${AGENT}.md`),
		`---\nname: ${AGENT}\ndescription: Does a task, asking the user when it must\nmodel: ${SCRIPTED_MODEL}\n---\nDo the task.\n`,
	);
	return piEnv;
}

/**
 * Makes `piEnv` one whose child pis (started with no `-e`) load ask_user and
 * the scripted model from pi's settings, and whose TMPDIR is its own.
 */
export function childrenLoadAskUser(piEnv: PiEnv): PiEnv {
	const tmpDir = join(piEnv.root, "tmp");
	mkdirSync(tmpDir);
	piEnv.env["TMPDIR"] = tmpDir;
	const settingsPath = join(piEnv.env["PI_CODING_AGENT_DIR"] as string, "settings.json");
	const settings = JSON.parse(readFileSync(settingsPath, "utf8")) as Record<string, unknown>;
	writeFileSync(
		settingsPath,
		JSON.stringify({ ...settings, extensions: [SCRIPTED_MODEL_EXTENSION, ASK_USER_EXTENSION] }),
	);
	return piEnv;
}

/** A bash command that runs `pi -p` on `task`, as a model would from the bash tool (stdin closed, offline). */
export function piPrintCommand(task: string, pi: readonly string[] = [PI_BIN]): string {
	return `${pi.join(" ")} --offline --no-session -p --model ${SCRIPTED_MODEL} ${JSON.stringify(task)} </dev/null`;
}

/** The parent's conversation: on `prompt`, run these tasks with pi's example runner (in parallel when more than one), then quote the result. */
export function parentRuns(prompt: string, ...tasks: string[]): ScriptedConversation {
	return { user: prompt, replies: [exampleRunnerCall(...tasks), { text: "Received: {{lastToolResult}}" }] };
}

/** The model's call of pi's example runner on these tasks (in parallel when more than one). */
export function exampleRunnerCall(...tasks: string[]): ScriptedReply {
	const args =
		tasks.length === 1 ? { agent: AGENT, task: tasks[0] } : { tasks: tasks.map((task) => ({ agent: AGENT, task })) };
	return { toolCalls: [{ name: "subagent", arguments: args }] };
}

/** The children of the parent pi (`parentPid`) that run for this test. */
export function childrenOf(piEnv: PiEnv, parentPid: number): PiProcess[] {
	return processesOf(piEnv).filter((p) => p.ppid === parentPid);
}

/** The sockets the parent's channel listens on (its TMPDIR is the test's). */
/** How many processes are connected to the parent's channel now (Linux: its accepted sockets in /proc/net/unix). */
export function channelConnections(piEnv: PiEnv): number {
	const sockets = new Set(channelSockets(piEnv));
	const table = readFileSync("/proc/net/unix", "utf8").split("\n");
	// Columns: Num RefCount Protocol Flags Type St Inode Path; St 03 is a connected socket.
	return table.filter((line) => {
		const columns = line.trim().split(/\s+/);
		return columns[5] === "03" && sockets.has(columns[7] ?? "");
	}).length;
}

export function channelSockets(piEnv: PiEnv): string[] {
	const tmpDir = piEnv.env["TMPDIR"] as string;
	return readdirSync(tmpDir)
		.filter((name) => name.startsWith("pi-ask-user-"))
		.flatMap((dir) => readdirSync(join(tmpDir, dir)).map((name) => join(tmpDir, dir, name)));
}
