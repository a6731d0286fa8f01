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
 * (test/support/pi-env.ts builds the same isolated environment for the tests.)
 */

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const piBin = join(repo, "node_modules", ".bin", "pi");
if (!existsSync(piBin)) {
	console.error("pi is not installed here yet: run `npm ci` first, then `npm run demo`.");
	process.exit(1);
}

const root = mkdtempSync(join(tmpdir(), "pi-ask-user-demo-"));
const removeRoot = () => rmSync(root, { recursive: true, force: true });
const agentDir = join(root, "agent");
const home = join(root, "home");
const cwd = join(root, "work");
for (const dir of [agentDir, home, cwd]) mkdirSync(dir, { recursive: true });
writeFileSync(
	join(agentDir, "settings.json"),
	JSON.stringify({ quietStartup: true, lastChangelogVersion: "0.73.1", enableInstallTelemetry: false }),
);

const env = {
	PATH: [dirname(process.execPath), process.env.PATH ?? "/usr/bin:/bin"].join(delimiter),
	HOME: home,
	TERM: process.env.TERM ?? "xterm-256color",
	...(process.env.COLORTERM ? { COLORTERM: process.env.COLORTERM } : {}),
	LANG: process.env.LANG ?? "C.UTF-8",
	PI_CODING_AGENT_DIR: agentDir,
	PI_OFFLINE: "1",
	PI_TELEMETRY: "0",
	PI_SCRIPTED_MODEL_SCRIPT: join(repo, "scripts", "demo-script.json"),
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
	join(repo, "test", "support", "scripted-model.ts"),
	"-e",
	join(repo, "index.ts"),
	"--model",
	"scripted/scripted",
];

console.log("ask_user demo: type anything and press Enter; Esc Esc dismisses; Ctrl+D quits.");

const pi = spawn(piBin, args, { cwd, env, stdio: "inherit" });
// pi owns the terminal; a signal meant for the demo is meant for pi.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
	process.on(signal, () => pi.kill(signal));
}
pi.on("error", (error) => {
	console.error(`Could not start pi: ${error.message}`);
	removeRoot();
	process.exit(1);
});
pi.on("exit", (code, signal) => {
	removeRoot();
	process.exit(code ?? (signal ? 1 : 0));
});
