/**
 * `npm run demo` (scripts/demo.mjs) is what a newcomer runs first: it must
 * show the form for any message, show what the model received, and leave
 * nothing behind when pi exits.
 */

import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { REPO_ROOT } from "../support/pi-env.ts";
import { TmuxPi } from "../support/tmux.ts";

let scratch: string | undefined;
let tui: TmuxPi | undefined;

afterEach(async () => {
	await tui?.kill();
	if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
	tui = undefined;
	scratch = undefined;
});

it("the demo asks a batch for any message, quotes the result, and removes its temp dir on exit", async () => {
	scratch = mkdtempSync(join(tmpdir(), "pi-ask-user-demo-test-"));
	// The demo makes its throwaway pi dir under TMPDIR: point it here to watch it come and go.
	const demoTmp = join(scratch, "tmp");
	mkdirSync(demoTmp);
	tui = await TmuxPi.run([process.execPath, join(REPO_ROOT, "scripts", "demo.mjs")], {
		cwd: REPO_ROOT,
		env: {
			PATH: [dirname(process.execPath), process.env["PATH"] ?? "/usr/bin:/bin"].join(delimiter),
			LANG: "C.UTF-8",
			TMPDIR: demoTmp,
		},
		scratchDir: scratch,
		cols: 120,
		rows: 50,
	});

	await tui.waitFor("type anything and press Enter");
	await tui.waitFor("scripted");
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
	await tui.send("Enter");
	const reply = await tui.waitFor("exactly what the ask_user tool sent back");
	expect(reply).toContain('errors: "Result value" (value "result")');
	expect(reply).toContain('retries: "GET"');
	expect(reply).toContain("changelog: skipped");

	await tui.send("C-d");
	await tui.waitForExit();
	expect(readdirSync(demoTmp)).toEqual([]);
});
