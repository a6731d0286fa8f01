/**
 * What loading ask_user costs pi at start-up: the real `pi --mode rpc`, from
 * spawn until it answers `get_state`, with `-e <extension>` or without.
 *
 * Offline and isolated like the demo and the tests (scripts/isolated-pi.mjs:
 * a temp agent dir, HOME and working dir, PI_OFFLINE, the --no-* flags). The
 * model pi needs before it will serve RPC comes from a models.json entry that
 * points at a closed local port and is never called — so the baseline loads
 * no extension at all. pi pays its loader's own start-up (jiti) for the first
 * extension it loads, whichever it is: main.ts also starts pi with an empty
 * extension, pi's example and a peer, so each is measured over that floor.
 *
 * With PI_TIMING=1 pi prints its start-up phases to stderr. pi's time(label)
 * marks the END of a phase. pi 1.x labels the phase that loads extensions
 * "createAgentSessionRuntime"; in 0.73 it ended at time("readPipedStdin"),
 * which in RPC mode (no stdin read) is the extension-loading phase.
 * bench.mjs says which.
 */

import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { createIsolatedPi, ISOLATION_FLAGS, piCommandAt } from "../isolated-pi.mjs";

export interface StartupRun {
	/** The extension loaded (`-e`), or none. */
	extension: string | undefined;
	/** Spawn → the get_state response, milliseconds. */
	wallMs: number;
	/** pi's own phases (PI_TIMING=1), milliseconds. */
	phases: Record<string, number>;
}

export interface StartupEnv {
	/** `cold`: with no compile cache, neither jiti's transform cache nor Node's, as the first start after an install. */
	run(extension: string | undefined, cold?: boolean): Promise<StartupRun>;
	cleanup(): void;
}

/** `packageDir`: the pi to start (its package directory). */
export function createStartupEnv(packageDir: string): StartupEnv {
	const pi = piCommandAt(packageDir);
	const isolated = createIsolatedPi("pi-ask-user-bench-", pi);
	writeFileSync(
		join(isolated.agentDir, "models.json"),
		JSON.stringify({
			providers: {
				bench: {
					baseUrl: "http://127.0.0.1:9/v1",
					api: "openai-completions",
					apiKey: "bench-offline-key",
					models: [{ id: "offline" }],
				},
			},
		}),
	);
	const env: Record<string, string> = {
		...isolated.env,
		LANG: "C.UTF-8",
		LC_ALL: "C.UTF-8",
		PI_TIMING: "1",
	};
	const baseArgs = [...ISOLATION_FLAGS, "--model", "bench/offline", "--mode", "rpc"];
	return {
		run: (extension, cold = false) =>
			runOnce(
				pi.argv,
				extension === undefined ? baseArgs : ["-e", extension, ...baseArgs],
				cold ? { ...env, ...COLD_ENV } : env,
				isolated.cwd,
				extension,
			),
		cleanup: isolated.cleanup,
	};
}

const TIMEOUT_MS = 30_000;

/** No compile cache: jiti transforms every file again, Node compiles every module again. */
const COLD_ENV = { JITI_FS_CACHE: "false", NODE_DISABLE_COMPILE_CACHE: "1" };

function runOnce(
	piArgv: readonly string[],
	args: string[],
	env: Record<string, string>,
	cwd: string,
	extension: string | undefined,
): Promise<StartupRun> {
	return new Promise((resolve, reject) => {
		const start = performance.now();
		const [command = "pi", ...piArgs] = piArgv;
		const child = spawn(command, [...piArgs, ...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
		let wallMs: number | undefined;
		let stderr = "";
		let stdout = "";
		const decoder = new StringDecoder("utf8");
		const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
		child.stdout.on("data", (chunk: Buffer) => {
			stdout += decoder.write(chunk);
			if (wallMs === undefined && /"command":"get_state"/.test(stdout)) {
				wallMs = performance.now() - start;
				child.kill("SIGTERM");
			}
		});
		child.stderr.on("data", (chunk: Buffer) => {
			stderr += chunk.toString("utf8");
		});
		child.on("error", reject);
		child.on("exit", () => {
			clearTimeout(timer);
			if (wallMs === undefined) {
				reject(new Error(`pi did not answer get_state (args: ${args.join(" ")}):\n${stderr.slice(-2000)}`));
				return;
			}
			resolve({ extension, wallMs, phases: parsePhases(stderr) });
		});
		// Left open: pi in RPC mode may stop reading once stdin ends.
		child.stdin.write(`${JSON.stringify({ type: "get_state", id: "bench" })}\n`);
	});
}

/** `  label: 12ms` lines of pi's "--- Startup Timings ---" block. */
export function parsePhases(stderr: string): Record<string, number> {
	const phases: Record<string, number> = {};
	for (const match of stderr.matchAll(/^\s+([\w.]+): (\d+)ms$/gm)) {
		const [, label, ms] = match;
		if (label !== undefined && ms !== undefined) phases[label] = Number(ms);
	}
	return phases;
}
