/**
 * `npm run demo` (scripts/demo.mjs) is what a newcomer runs first: it must
 * show the form for any message and show what the model received; keep its
 * session when pi exits, however it exits, and say how to continue it;
 * bring an open form back with `--continue`, the late answer replied to
 * rather than asked again; and leave nothing behind after `--clean`.
 */

import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterEach, expect, it } from "vitest";
import { processesOf, until } from "../support/harness.ts";
import { READY_ENV } from "../support/model-script.ts";
import { type PiEnv, REPO_ROOT } from "../support/pi-env.ts";
import { TmuxPi } from "../support/tmux.ts";

const DEMO = join(REPO_ROOT, "scripts", "demo.mjs");
const TYPED = "zebra-lantern-42";

let scratch: string | undefined;
let tui: TmuxPi | undefined;

afterEach(async () => {
	await tui?.kill();
	if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
	tui = undefined;
	scratch = undefined;
});

/** A scratch TMPDIR for the demo (it keeps its folder there), and the demo's environment. */
function demoEnv(): { demoTmp: string; env: Record<string, string> } {
	scratch = mkdtempSync(join(tmpdir(), "pi-ask-user-demo-test-"));
	const demoTmp = join(scratch, "tmp");
	mkdirSync(demoTmp);
	return {
		demoTmp,
		env: {
			PATH: [dirname(process.execPath), process.env["PATH"] ?? "/usr/bin:/bin"].join(delimiter),
			LANG: "C.UTF-8",
			TMPDIR: demoTmp,
			[READY_ENV]: join(scratch, "ready"),
		},
	};
}

function runDemo(env: Record<string, string>, ...args: string[]): Promise<TmuxPi> {
	return TmuxPi.run([process.execPath, DEMO, ...args], {
		cwd: REPO_ROOT,
		env,
		scratchDir: scratch ?? "",
		cols: 120,
		rows: 50,
	});
}

/** The demo's one folder under its TMPDIR. */
function demoFolder(demoTmp: string): string {
	const [name, ...more] = readdirSync(demoTmp);
	expect(more).toEqual([]);
	return join(demoTmp, name ?? "");
}

/** The saved states of the demo session's open forms. */
function keptForms(root: string): string[] {
	const sessions = join(root, "agent", "sessions");
	if (!existsSync(sessions)) return [];
	return (readdirSync(sessions, { recursive: true }) as string[])
		.filter((name) => /\.ask-user\/.+\.json$/.test(name))
		.map((name) => join(sessions, name));
}

it("the demo asks a batch for any message, quotes the result; on exit it keeps its session and says how to continue; --clean removes it", async () => {
	const { demoTmp, env } = demoEnv();
	tui = await runDemo(env);
	await tui.waitFor("type anything and press Enter");
	await tui.waitForReady();
	expect(readdirSync(demoTmp)).toHaveLength(1);
	await tui.type("hello");
	await tui.send("Enter");
	await tui.waitFor("How should the new HTTP client");
	const first = await tui.capture();
	expect(first).toContain("Result value (recommended)");
	expect(first).toContain("const res = await client.get");

	await tui.send("Enter");
	await tui.waitFor("Which requests may the client retry");
	await tui.send("Space", "Enter");
	await tui.waitFor("breaking change");
	await tui.send("s");
	await tui.waitFor("Review your answers");
	// A note on the whole form with a quote and a backslash: the reply quotes the result as it is, escapes and all.
	await tui.send("n");
	await tui.waitFor("Your note on the whole form");
	await tui.type('keep the "v1" \\ path');
	await tui.send("Enter");
	await tui.waitForGone("Your note on the whole form");
	await tui.send("Enter");
	const reply = await tui.waitFor("exactly what the ask_user tool sent back");
	expect(reply).toContain('errors: "Result value" (value "result")');
	expect(reply).toContain('retries: "GET"');
	expect(reply).toContain("changelog: skipped");
	expect(reply).toContain(String.raw`"keep the \"v1\" \\ path"`);

	await tui.send("C-d");
	const exit = await tui.waitFor("npm run demo -- --clean");
	expect(exit).toContain(`The demo's session is kept in ${demoFolder(demoTmp)}`);
	expect(exit).toContain("npm run demo -- --continue");
	await tui.waitForExit();
	expect(readdirSync(join(demoFolder(demoTmp), "agent", "sessions"))).toHaveLength(1);

	const cleaned = await promisify(execFile)(process.execPath, [DEMO, "--clean"], { cwd: REPO_ROOT, env });
	expect(cleaned.stdout).toContain("Removed the demo's session");
	expect(readdirSync(demoTmp)).toEqual([]);
});

it("kill -9 of the demo's pi, then npm run demo -- --continue: the form is back with what was typed, and the late answer is replied to", async () => {
	const { demoTmp, env } = demoEnv();
	tui = await runDemo(env);
	await tui.waitForReady();
	await tui.type("hello");
	await tui.send("Enter");
	await tui.waitFor("How should the new HTTP client");
	// Throw HttpError chosen; on the multi-select GET ticked and a note on it typed, not saved.
	await tui.send("2");
	await tui.waitFor("Which requests may the client retry");
	await tui.send("Space", "n");
	await tui.waitFor("Your note on");
	await tui.type(TYPED);
	const root = demoFolder(demoTmp);
	await until(
		() => keptForms(root).some((file) => readFileSync(file, "utf8").includes(TYPED)),
		"what was typed saved beside the session",
	);

	const [pi, ...others] = processesOf({ env: { PI_CODING_AGENT_DIR: join(root, "agent") } } as unknown as PiEnv);
	expect(others).toEqual([]);
	process.kill(pi?.pid ?? 0, "SIGKILL");
	expect(await tui.waitFor("npm run demo -- --continue")).toContain(`The demo's session is kept in ${root}`);
	await tui.waitForExit();
	await tui.kill();
	expect(existsSync(root)).toBe(true);

	tui = await runDemo(env, "--continue");
	const restored = await tui.waitFor("Restored");
	expect(restored).toContain(TYPED);
	expect(restored).toContain("■ Errors");
	await tui.send("Enter"); // the note saved
	await tui.waitForGone("Your note on");
	await tui.send("Enter"); // the multi-select done
	await tui.waitFor("breaking change");
	await tui.send("s");
	const review = await tui.waitFor("Review your answers");
	expect(review).toContain("Throw HttpError");
	expect(review).toContain(TYPED);
	await tui.send("Enter");
	const reply = await tui.waitFor("Your answer came after the form outlived pi");
	expect(reply).toContain(`note on "GET": "${TYPED}"`);
	await tui.waitFor("Type anything to get the form again");
	expect(await tui.capture()).not.toContain("Review your answers");
	await until(
		() => keptForms(root).every((file) => readFileSync(file, "utf8").includes('"status":"answered"')),
		"the answered form kept as answered",
	);
	await tui.send("C-d");
	await tui.waitForExit();
});
