/**
 * An isolated, offline pi for one test, run by the scripted model: the
 * throwaway dir of scripts/isolated-pi.mjs (pi's agent dir, a HOME, a working
 * dir; shared with the demo and the benchmark) plus the model script and its
 * log, and the environment and command line that run the real pi binary
 * against it. Nothing outside the temp dir is read or written by pi.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createIsolatedPi, ISOLATION_FLAGS, type PiCommand, REPO_ROOT, THIS_PI } from "../../scripts/isolated-pi.mjs";
import {
	LOG_ENV,
	type ModelLogEntry,
	type ModelScript,
	READY_ENV,
	SCRIPT_ENV,
	SCRIPTED_MODEL,
	type ToolResultLogEntry,
} from "./model-script.ts";

export { REPO_ROOT } from "../../scripts/isolated-pi.mjs";

/**
 * How long an end-to-end test waits for what it expects (a screen, a message,
 * a process). Generous on purpose: a wait ends as soon as the thing appears,
 * and on a loaded machine pi alone can take many seconds to start.
 */
export const WAIT_MS = 30_000;
export const SCRIPTED_MODEL_EXTENSION = join(REPO_ROOT, "test", "support", "scripted-model.ts");
/** The extension the tests load: this checkout's index.ts, or with ASK_USER_TEST_PACKAGE=<dir> a built package's there. */
export const ASK_USER_EXTENSION = join(process.env.ASK_USER_TEST_PACKAGE ?? REPO_ROOT, "index.ts");

export interface PiEnvOptions {
	script: ModelScript;
	/** Extensions loaded after the scripted model; default: the ask_user extension. */
	extensions?: string[];
	/** Extra environment variables for pi. */
	env?: Record<string, string>;
	/** The pi to run; default: this checkout's (1.x). */
	pi?: PiCommand;
	/** Keep sessions (in the temp dir's agent dir), so a later run can `--continue` one; default: none. */
	sessions?: boolean;
	/** Load the packages `pi install` put in the temp dir's agent dir (no `--no-extensions`); default: none. */
	packages?: boolean;
}

export interface PiEnv {
	/** The temp dir; everything pi touches is inside. */
	readonly root: string;
	/** pi's working directory. */
	readonly cwd: string;
	readonly env: Record<string, string>;
	/** The whole command line, pi itself first (mode flags such as `--mode rpc` go after it). */
	readonly command: readonly string[];
	readonly scriptPath: string;
	readonly logPath: string;
	/** Replaces the script; the model reads it on every call. */
	writeScript(script: ModelScript): void;
	/** Everything the model logged so far. */
	log(): ModelLogEntry[];
	/** The tool results the model received, in order. */
	toolResults(toolName?: string): ToolResultLogEntry[];
	/** Removes the temp dir. Safe to call twice. */
	cleanup(): void;
}

export function createPiEnv(options: PiEnvOptions): PiEnv {
	const pi = options.pi ?? THIS_PI;
	const isolated = createIsolatedPi("pi-ask-user-e2e-", pi);
	const scriptPath = join(isolated.root, "script.json");
	const logPath = join(isolated.root, "model-log.jsonl");
	writeFileSync(logPath, "");

	const env: Record<string, string> = {
		...isolated.env,
		LANG: "C.UTF-8",
		LC_ALL: "C.UTF-8",
		[SCRIPT_ENV]: scriptPath,
		[LOG_ENV]: logPath,
		[READY_ENV]: join(isolated.root, "ready"),
		...options.env,
	};
	const command = [
		...pi.argv,
		...ISOLATION_FLAGS.filter(
			(flag) => !(options.sessions && flag === "--no-session") && !(options.packages && flag === "--no-extensions"),
		),
		"-e",
		SCRIPTED_MODEL_EXTENSION,
		...(options.extensions ?? [ASK_USER_EXTENSION]).flatMap((path) => ["-e", path]),
		"--model",
		SCRIPTED_MODEL,
	];

	const piEnv: PiEnv = {
		root: isolated.root,
		cwd: isolated.cwd,
		env,
		command,
		scriptPath,
		logPath,
		writeScript(script) {
			writeFileSync(scriptPath, JSON.stringify(script, null, "\t"));
		},
		log() {
			// Only whole lines: pi may be appending an entry as the test reads, and a long one lands in more than one write.
			const lines = readFileSync(logPath, "utf8").split("\n").slice(0, -1);
			return lines.filter((line) => line !== "").map((line) => JSON.parse(line) as ModelLogEntry);
		},
		toolResults(toolName) {
			return piEnv
				.log()
				.filter((entry): entry is ToolResultLogEntry => entry.kind === "toolResult")
				.filter((entry) => toolName === undefined || entry.toolName === toolName);
		},
		cleanup: isolated.cleanup,
	};
	piEnv.writeScript(options.script);
	return piEnv;
}
