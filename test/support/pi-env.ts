/**
 * An isolated, offline pi for one test: a temp dir holding pi's agent dir, a
 * HOME, a working dir, the model script and its log; the environment and the
 * command line that run the real pi binary against it. Nothing outside the
 * temp dir is read or written by pi (see pi-facts: offline flags).
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LOG_ENV, type ModelLogEntry, type ModelScript, SCRIPT_ENV, SCRIPTED_MODEL, type ToolResultLogEntry } from "./model-script.ts";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const PI_BIN = join(REPO_ROOT, "node_modules", ".bin", "pi");
export const SCRIPTED_MODEL_EXTENSION = join(REPO_ROOT, "test", "support", "scripted-model.ts");
export const ASK_USER_EXTENSION = join(REPO_ROOT, "index.ts");

/** The pi version the settings are written for (it stops the changelog screen). */
const PI_VERSION = "0.73.1";

export interface PiEnvOptions {
	script: ModelScript;
	/** Extensions loaded after the scripted model; default: the ask_user extension. */
	extensions?: string[];
	/** Extra environment variables for pi. */
	env?: Record<string, string>;
}

export interface PiEnv {
	/** The temp dir; everything pi touches is inside. */
	readonly root: string;
	/** pi's working directory. */
	readonly cwd: string;
	readonly env: Record<string, string>;
	/** The command line after the pi binary (mode flags such as `--mode rpc` go after these). */
	readonly args: string[];
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
	const root = mkdtempSync(join(tmpdir(), "pi-ask-user-e2e-"));
	const agentDir = join(root, "agent");
	const home = join(root, "home");
	const cwd = join(root, "work");
	for (const dir of [agentDir, home, cwd]) mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(agentDir, "settings.json"),
		JSON.stringify({ quietStartup: true, lastChangelogVersion: PI_VERSION, enableInstallTelemetry: false }),
	);
	const scriptPath = join(root, "script.json");
	const logPath = join(root, "model-log.jsonl");
	writeFileSync(logPath, "");

	const env: Record<string, string> = {
		// pi's bin is a `#!/usr/bin/env node` script: the node running the tests must come first.
		PATH: [dirname(process.execPath), process.env["PATH"] ?? "/usr/bin:/bin"].join(delimiter),
		HOME: home,
		LANG: "C.UTF-8",
		LC_ALL: "C.UTF-8",
		PI_CODING_AGENT_DIR: agentDir,
		PI_OFFLINE: "1",
		PI_TELEMETRY: "0",
		[SCRIPT_ENV]: scriptPath,
		[LOG_ENV]: logPath,
		...options.env,
	};
	const args = [
		"--offline",
		"--no-session",
		"--no-context-files",
		"--no-extensions",
		"--no-skills",
		"--no-prompt-templates",
		"--no-themes",
		"-e",
		SCRIPTED_MODEL_EXTENSION,
		...(options.extensions ?? [ASK_USER_EXTENSION]).flatMap((path) => ["-e", path]),
		"--model",
		SCRIPTED_MODEL,
	];

	let removed = false;
	const piEnv: PiEnv = {
		root,
		cwd,
		env,
		args,
		scriptPath,
		logPath,
		writeScript(script) {
			writeFileSync(scriptPath, JSON.stringify(script, null, "\t"));
		},
		log() {
			return readFileSync(logPath, "utf8")
				.split("\n")
				.filter((line) => line !== "")
				.map((line) => JSON.parse(line) as ModelLogEntry);
		},
		toolResults(toolName) {
			return piEnv
				.log()
				.filter((entry): entry is ToolResultLogEntry => entry.kind === "toolResult")
				.filter((entry) => toolName === undefined || entry.toolName === toolName);
		},
		cleanup() {
			if (removed) return;
			removed = true;
			rmSync(root, { recursive: true, force: true });
		},
	};
	piEnv.writeScript(options.script);
	return piEnv;
}
