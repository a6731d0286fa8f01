/**
 * What pi's start-up loads of ask_user: only what registering the tool needs
 * (ARCHITECTURE.md, "Layers", "Start-up"); pi's loader compiles each module of
 * a checkout's TypeScript, so one more module here is one more in every start
 * of a checkout, and a package from npm has it compiled nothing but index.ts.
 * Read from the real pi's own traces: jiti's debug lines name every file it
 * loads, and pi prints its start-up timings once start-up is over.
 */

import { join, relative } from "node:path";
import { buildPackage } from "../../scripts/build.mjs";
import type { AskDetails } from "../../src/core/types.ts";
import { ASK, askScript, DB_FORM } from "../support/ask-fixtures.ts";
import { TmuxPi } from "../support/tmux.ts";
import { describe, expect, it } from "vitest";
import { runHeadless } from "../support/headless.ts";
import { scriptOf } from "../support/model-script.ts";
import { createPiEnv, REPO_ROOT } from "../support/pi-env.ts";
import { startedPerTest, until } from "../support/harness.ts";

const started = startedPerTest();
/** The package built once for this file's tests: index.ts's path. */
let packaged: Promise<string> | undefined;
const builtPackage = () =>
	(packaged ??= buildPackage(join(REPO_ROOT, "node_modules", ".cache", "pi-ask-user-startup-test")));

/** This package's files in the order jiti loaded them, split where pi's start-up ended. */
function loads(stderr: string, root = REPO_ROOT, how = "transpile"): { startUp: string[]; after: string[] } {
	const end = stderr.indexOf("--- Startup Timings");
	expect(end, "pi printed no start-up timings").toBeGreaterThan(0);
	const ours = (text: string) =>
		[...text.matchAll(new RegExp(`\\[jiti\\] \\[${how}\\] \\[\\w+\\] (\\S+)`, "g"))]
			.map(([, file]) => relative(root, file ?? ""))
			.filter((file) => file === "index.ts" || /^(src|dist)\//.test(file));
	return { startUp: ours(stderr.slice(0, end)), after: ours(stderr.slice(end)) };
}

describe("pi's start-up", () => {
	it("loads seven small modules of a checkout, what pi must see at load; a session and a run load what they use", async () => {
		const env = (started.piEnv = createPiEnv({
			script: scriptOf({ user: "hi", replies: [{ text: "Hello." }] }),
			env: { JITI_DEBUG: "1", PI_TIMING: "1" },
		}));
		const run = await runHeadless(env, "print", ["hi"]);
		expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
		const { startUp, after } = loads(run.stderr);
		expect(startUp.sort()).toEqual([
			"index.ts",
			"src/core/loaded.ts",
			"src/core/params.ts",
			"src/extension/register.ts",
			"src/i18n/locale.ts",
			"src/settings/flags.ts",
			"src/tool/tool.ts",
		]);
		// A print-mode session that asks nothing: its start reads the settings and sets the router up; its run loads what a
		// call runs (prepareArguments is synchronous). Never the form, the walker, the page, the relay, the kept forms, or
		// another language's catalogue.
		expect(after).toEqual(
			expect.arrayContaining([
				"src/extension/runtime.ts",
				"src/route/offer.ts",
				"src/route/router.ts",
				"src/settings/read.ts",
				"src/settings/table.ts",
			]),
		);
		expect(after).toContain("src/tool/call.ts");
		const unused = after.filter((file) => /^src\/(form|walker|web|relay|kept|i18n\/locales)\//.test(file));
		expect(unused).toEqual([]);
	});

	it("compiles nothing of a package from npm but index.ts: Node loads its build as it is", async () => {
		const extension = await builtPackage();
		const root = join(extension, "..");
		const env = (started.piEnv = createPiEnv({
			script: scriptOf({ user: "hi", replies: [{ text: "Hello." }] }),
			env: { JITI_DEBUG: "1", PI_TIMING: "1" },
			extensions: [extension],
		}));
		const run = await runHeadless(env, "print", ["hi"]);
		expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
		const compiled = loads(run.stderr, root);
		expect([...compiled.startUp, ...compiled.after]).toEqual(["index.ts"]);
		const native = loads(run.stderr, root, "native");
		expect(native.startUp).toEqual([expect.stringMatching(/^dist\/ask-user-[\w-]+\.mjs$/)]);
	});

	it("a package's build goes on after /reload: its modules stay loaded, and the form they draw answers", async () => {
		const extension = await builtPackage();
		const env = (started.piEnv = createPiEnv({ script: askScript(DB_FORM), extensions: [extension] }));
		const tui = (started.tui = await TmuxPi.start(env, { cols: 100, rows: 40 }));
		await tui.waitForReady();
		await tui.type("/reload");
		await tui.send("Enter");
		await tui.waitFor(/Reloaded .*extensions/);
		await tui.type(ASK);
		await tui.send("Enter");
		await tui.waitFor("Which database");
		await tui.send("1");
		await tui.send("Enter");
		await tui.waitForGone("Which database");
		await until(() => env.toolResults("ask_user").length > 0, "the tool's result");
		const [result] = env.toolResults("ask_user");
		expect((result?.details as AskDetails | undefined)?.status).toBe("answered");
	});
});
