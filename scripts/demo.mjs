#!/usr/bin/env node
/**
 * `npm run demo`: the real pi TUI with ask_user, offline, no API key needed.
 *
 * A scripted model (test/support/scripted-model.ts) answers any message by
 * calling ask_user with the batch in scripts/demo-script.json, then replies
 * with exactly what the tool returned (and to a late answer, that it came).
 * pi runs in the demo's own directory (its config, HOME and working dir,
 * under TMPDIR); nothing of the user's pi setup is read or changed.
 *
 *   npm run demo                  a new demo session (the previous one's folder is removed first)
 *   npm run demo -- --continue    the last demo session again: a form left open comes back as it was
 *   npm run demo -- --clean       removes the demo's folder, and runs nothing
 *
 * The session is kept when pi exits, however it exits (Ctrl+D, a crash,
 * `kill -9`): a question outlives pi, and `--continue` shows it. On exit the
 * demo says how to continue and how to clean up. Any other argument goes to
 * pi (e.g. `npm run demo -- --ask-user-locale ja`).
 *
 * Plain Node on purpose: it runs from a fresh clone after `npm ci`, no build.
 * The isolation itself is scripts/isolated-pi.mjs, shared with the tests and
 * the benchmark.
 */

import { spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { ISOLATION_FLAGS, isolatedPiIn, PI_BIN, REPO_ROOT } from "./isolated-pi.mjs";

/** The demo's folder: one per user, so `--continue` finds it again. */
const ROOT = join(tmpdir(), `pi-ask-user-demo-${process.getuid?.() ?? userInfo().username}`);

const given = process.argv.slice(2);
const continuing = given.includes("--continue") || given.includes("-c");
const cleaning = given.includes("--clean");
const piArgs = given.filter((arg) => !["--continue", "-c", "--clean"].includes(arg));

/** Whether ROOT is a demo folder of ours: a real directory (not a link) owned by this user. */
function ownFolder() {
	if (!existsSync(ROOT)) return false;
	const stat = lstatSync(ROOT);
	if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid())) {
		console.error(`${ROOT} is not a folder of this user's demo: remove it, then run the demo again.`);
		process.exit(1);
	}
	return true;
}

if (cleaning) {
	if (ownFolder()) {
		rmSync(ROOT, { recursive: true, force: true });
		console.log(`Removed the demo's session and folder (${ROOT}).`);
	} else console.log("No demo folder to remove.");
	process.exit(0);
}

if (!existsSync(PI_BIN)) {
	console.error("pi is not installed here yet: run `npm ci` first, then `npm run demo`.");
	process.exit(1);
}

if (continuing && !ownFolder()) {
	console.error("No demo session to continue: `npm run demo` starts one.");
	process.exit(1);
}
if (!continuing) {
	if (ownFolder()) rmSync(ROOT, { recursive: true, force: true });
	mkdirSync(ROOT, { mode: 0o700 });
}

const isolated = isolatedPiIn(ROOT);
const env = {
	...isolated.env,
	TERM: process.env.TERM ?? "xterm-256color",
	...(process.env.COLORTERM ? { COLORTERM: process.env.COLORTERM } : {}),
	LANG: process.env.LANG ?? "C.UTF-8",
	// The form speaks the user's language (LC_ALL / LC_MESSAGES / LANG, or PI_ASK_USER_LOCALE).
	...Object.fromEntries(
		// PI_SCRIPTED_MODEL_READY: where the demo's tests learn that pi has started (test/support/model-script.ts).
		["LC_ALL", "LC_MESSAGES", "PI_ASK_USER_LOCALE", "PI_SCRIPTED_MODEL_READY"]
			.filter((name) => process.env[name])
			.map((name) => [name, process.env[name]]),
	),
	PI_SCRIPTED_MODEL_SCRIPT: join(REPO_ROOT, "scripts", "demo-script.json"),
};
const args = [
	// The session is kept (in the demo's agent dir), so a form left open comes back with --continue.
	...ISOLATION_FLAGS.filter((flag) => flag !== "--no-session"),
	...(continuing ? ["--continue"] : []),
	"-e",
	join(REPO_ROOT, "test", "support", "scripted-model.ts"),
	"-e",
	join(REPO_ROOT, "index.ts"),
	"--model",
	"scripted/scripted",
	...piArgs,
];

console.log(
	continuing
		? "ask_user demo, continued: a form left open comes back; Esc Esc dismisses it; Ctrl+D at pi's empty prompt quits."
		: "ask_user demo: type anything and press Enter; Esc Esc dismisses the form; Ctrl+D at pi's empty prompt quits.",
);

const pi = spawn(PI_BIN, args, { cwd: isolated.cwd, env, stdio: "inherit" });
// pi owns the terminal; a signal meant for the demo is meant for pi.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
	process.on(signal, () => pi.kill(signal));
}
pi.on("error", (error) => {
	console.error(`Could not start pi: ${error.message}`);
	process.exit(1);
});
pi.on("exit", (code, signal) => {
	if (signal && process.stdout.isTTY) {
		// pi was killed and could not give the terminal back: leave its screen, show the cursor, echo typed keys again.
		process.stdout.write("\x1b[?2004l\x1b[<u\x1b[?25h\x1b[?1049l");
		spawnSync("stty", ["sane"], { stdio: "inherit" });
	}
	console.log(
		[
			"",
			// pi's own "To resume this session" line, on a normal exit, is for the user's pi set-up, not the demo's.
			`The demo's session is kept in ${ROOT}${signal ? "" : " (not for the `pi --session` line above)"}:`,
			"  npm run demo -- --continue   continues it: a form left open comes back as it was",
			"  npm run demo -- --clean      removes it (a new `npm run demo` removes it too, and starts afresh)",
		].join("\n"),
	);
	process.exit(code ?? (signal ? 1 : 0));
});
