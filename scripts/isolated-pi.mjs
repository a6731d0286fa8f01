/**
 * The one place that knows how to run this checkout's pi offline and isolated
 * (pi-facts.md, "Running pi offline and isolated"): a throwaway directory
 * holding pi's agent dir (with settings that keep start-up quiet), a HOME and
 * a working dir; the environment that points pi at them and keeps it offline;
 * and the flags that keep pi away from the user's sessions, context files,
 * extensions, skills, prompt templates and themes. Nothing of the user's pi
 * setup is read or changed.
 *
 * Used by `npm run demo` (scripts/demo.mjs), the start-up benchmark
 * (scripts/bench/startup.ts) and the end-to-end tests (test/support/pi-env.ts,
 * test/support/subagents.ts). Each adds its own locale, terminal, model and
 * extensions on top.
 *
 * Plain JavaScript on purpose: the demo runs it with no build step. The types
 * are in isolated-pi.d.mts beside it, which TypeScript reads for the callers
 * written in TypeScript: change the two together.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** @typedef {import("./isolated-pi.d.mts").IsolatedPi} IsolatedPi */
/** @typedef {import("./isolated-pi.d.mts").PiCommand} PiCommand */

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The current pi's package (a dev dependency; the source is typed against it). */
const PI_PACKAGE_DIR = join(REPO_ROOT, "node_modules", "@earendil-works", "pi-coding-agent");
export const PI_BIN = join(REPO_ROOT, "node_modules", ".bin", "pi");

/**
 * How to run the pi whose package is `packageDir`: its bin, by the node
 * running us (pi 1.x needs Node ≥ 22.19: the tests run under node22.mjs).
 *
 * @param {string} packageDir
 * @returns {PiCommand}
 */
export function piCommandAt(packageDir) {
	const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
	const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin.pi;
	return Object.freeze({
		argv: Object.freeze([process.execPath, join(packageDir, bin)]),
		version: manifest.version,
		nodeDir: dirname(process.execPath),
	});
}

/** @type {PiCommand} This checkout's pi (1.x), run by the node running us. */
export const THIS_PI = piCommandAt(PI_PACKAGE_DIR);

/** Its version: the settings are written for it (it stops the changelog screen). */
export const PI_VERSION = THIS_PI.version;

/** pi's flags for an offline run that reads nothing of the user's; extensions given with `-e path` still load. */
export const ISOLATION_FLAGS = Object.freeze([
	"--offline",
	"--no-session",
	"--no-context-files",
	"--no-extensions",
	"--no-skills",
	"--no-prompt-templates",
	"--no-themes",
]);

/**
 * Makes the throwaway directory under the OS temp dir (TMPDIR), named
 * `<prefix>XXXXXX` so a leftover says whose it is, with the settings of `pi`
 * (default: this checkout's) already written.
 *
 * @param {string} prefix
 * @param {PiCommand} [pi]
 * @returns {IsolatedPi}
 */
export function createIsolatedPi(prefix, pi = THIS_PI) {
	return isolatedPiIn(mkdtempSync(join(tmpdir(), prefix)), pi);
}

/**
 * The same layout in `root`, a directory the caller made (or made before: what
 * pi left there, its sessions, stays; the settings are written again).
 *
 * @param {string} root
 * @param {PiCommand} [pi]
 * @returns {IsolatedPi}
 */
export function isolatedPiIn(root, pi = THIS_PI) {
	const agentDir = join(root, "agent");
	const home = join(root, "home");
	const cwd = join(root, "work");
	for (const dir of [agentDir, home, cwd]) mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(agentDir, "settings.json"),
		JSON.stringify({ quietStartup: true, lastChangelogVersion: pi.version, enableInstallTelemetry: false }),
	);
	const env = {
		// pi's bin is a `#!/usr/bin/env node` script: the node that runs pi must come first.
		PATH: [pi.nodeDir, process.env["PATH"] ?? "/usr/bin:/bin"].join(delimiter),
		HOME: home,
		PI_CODING_AGENT_DIR: agentDir,
		PI_OFFLINE: "1",
		PI_TELEMETRY: "0",
	};
	let removed = false;
	return {
		root,
		agentDir,
		home,
		cwd,
		env,
		cleanup() {
			if (removed) return;
			removed = true;
			rmSync(root, { recursive: true, force: true });
		},
	};
}
