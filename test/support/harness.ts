/**
 * The one harness of the end-to-end tests: what a test started (a TUI in
 * tmux, an RPC client, the isolated pi's temp dir) is ended after it, and the
 * test fails if a process of it is left running. Every process of a test is
 * found through /proc by its environment (the test's own pi agent dir), so a
 * child that outlived its parent, reparented to init, is still found.
 */

import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach } from "vitest";
import { RELAY_ENV } from "../../src/core/types.ts";
import { type PiEnv, WAIT_MS } from "./pi-env.ts";
import type { RpcPi } from "./rpc-client.ts";
import { isRunningProcess, type TmuxPi } from "./tmux.ts";

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

/**
 * The no-leftovers check: waits for every process of `piEnv` to end; if any
 * outlives `timeoutMs`, kills it (so one failure doesn't leak into the next
 * test) and throws naming it.
 */
export async function expectNoProcessesLeft(piEnv: PiEnv, timeoutMs = WAIT_MS): Promise<void> {
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
	throw new Error(
		`Processes of the test still running ${timeoutMs} ms after it ended:\n${left.map((p) => `pid ${p.pid} (parent ${p.ppid})${p.subagent ? ", a subagent" : ""}`).join("\n")}`,
	);
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
export async function endPiTest(started: {
	tui?: TmuxPi | undefined;
	rpc?: RpcPi | undefined;
	piEnv?: PiEnv | undefined;
}): Promise<void> {
	await started.tui?.kill();
	await started.rpc?.close();
	try {
		if (started.piEnv) await expectNoProcessesLeft(started.piEnv);
	} finally {
		started.piEnv?.cleanup();
	}
}
