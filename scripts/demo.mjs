#!/usr/bin/env node
/**
 * `npm run demo`: the real pi TUI with ask_user, offline, no API key needed.
 *
 * A scripted model (test/support/scripted-model.ts) answers any message by
 * calling ask_user with the batch in scripts/demo-script.json, then replies
 * with exactly what the tool returned. pi runs in a throwaway directory (its
 * config, HOME and working dir), removed again when pi exits; nothing of the
 * user's pi setup is read or changed.
 *
 * Plain Node on purpose: it runs from a fresh clone after `npm ci`, no build.
 * The isolation itself is scripts/isolated-pi.mjs, shared with the tests and
 * the benchmark.
 */

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createIsolatedPi, ISOLATION_FLAGS, PI_BIN, REPO_ROOT } from "./isolated-pi.mjs";

if (!existsSync(PI_BIN)) {
	console.error("pi is not installed here yet: run `npm ci` first, then `npm run demo`.");
	process.exit(1);
}

const isolated = createIsolatedPi("pi-ask-user-demo-");
const env = {
	...isolated.env,
	TERM: process.env.TERM ?? "xterm-256color",
	...(process.env.COLORTERM ? { COLORTERM: process.env.COLORTERM } : {}),
	LANG: process.env.LANG ?? "C.UTF-8",
	// The form speaks the user's language (LC_ALL / LC_MESSAGES / LANG, or PI_ASK_USER_LOCALE).
	...Object.fromEntries(
		["LC_ALL", "LC_MESSAGES", "PI_ASK_USER_LOCALE"]
			.filter((name) => process.env[name])
			.map((name) => [name, process.env[name]]),
	),
	PI_SCRIPTED_MODEL_SCRIPT: join(REPO_ROOT, "scripts", "demo-script.json"),
};
const args = [
	...ISOLATION_FLAGS,
	"-e",
	join(REPO_ROOT, "test", "support", "scripted-model.ts"),
	"-e",
	join(REPO_ROOT, "index.ts"),
	"--model",
	"scripted/scripted",
	// e.g. `npm run demo -- --ask-user-locale ja`
	...process.argv.slice(2),
];

console.log("ask_user demo: type anything and press Enter; Esc Esc dismisses; Ctrl+D quits.");

const pi = spawn(PI_BIN, args, { cwd: isolated.cwd, env, stdio: "inherit" });
// pi owns the terminal; a signal meant for the demo is meant for pi.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
	process.on(signal, () => pi.kill(signal));
}
pi.on("error", (error) => {
	console.error(`Could not start pi: ${error.message}`);
	isolated.cleanup();
	process.exit(1);
});
pi.on("exit", (code, signal) => {
	isolated.cleanup();
	process.exit(code ?? (signal ? 1 : 0));
});
