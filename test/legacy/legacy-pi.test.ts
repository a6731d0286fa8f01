/**
 * ask_user in the former pi (`@mariozechner/pi-coding-agent` 0.73.1, its last
 * release under that name), loaded unchanged: the same index.ts, whose
 * `@mariozechner/*` and `@sinclair/typebox` imports both pis serve. The main
 * flow of every mode — the TUI form, the browser page, the RPC dialogs, print mode, a subagent
 * asking through its parent — each asserting on what the scripted model
 * received. The whole suite runs in the current pi (test/e2e/).
 *
 * scripts/legacy-pi.mjs installs that pi on first use (npm ci into
 * node_modules/.cache/legacy-pi).
 */

/// <reference lib="dom" />
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildPackage } from "../../scripts/build.mjs";
import { launchChromium } from "../../scripts/chromium.mjs";
import { beforeAll, describe, expect, it } from "vitest";
import type { PiCommand } from "../../scripts/isolated-pi.mjs";
import { ensureLegacyPi, legacyPiPackageDir } from "../../scripts/legacy-pi.mjs";
import { ROW } from "../support/walker-rows.ts";
import {
	ASK,
	askResults,
	askScript,
	DB_FORM,
	dismissWithEscEsc,
	onlyAskResult,
	TWO_QUESTIONS,
	WHAT_NOW,
	submitTwoQuestions,
} from "../support/ask-fixtures.ts";
import { answerDemoBatch, DEMO_BATCH, expectDemoBatchAnswered } from "../support/demo-batch.ts";
import { parentGoneAfterTheCheck, runHeadless } from "../support/headless.ts";
import {
	callTool,
	IMAGES_ENV,
	type ModelCallLogEntry,
	QUOTE_PREFIX,
	quoteLastToolResult,
	SCRIPTED_MODEL,
	SCRIPTED_VISION_MODEL,
	scriptOf,
} from "../support/model-script.ts";
import { PNG_1X1 } from "../support/images.ts";
import { createPiEnv, type PiEnv, REPO_ROOT } from "../support/pi-env.ts";
import { answerInOrder, choose, RpcPi } from "../support/rpc-client.ts";
import {
	childrenLoadAskUser,
	createPlainRunnerPiEnv,
	exampleRunnerCall,
	piPrintCommand,
} from "../support/plain-runners.ts";
import { startedPerTest, until } from "../support/harness.ts";
import {
	answerAndKeep,
	expectTheAnswer,
	expectTheRevision,
	killWithFormOpen,
	script as keptFormScript,
	modelCalls,
	reviseAnswered,
	reviseScript,
	revisions,
	submitRestored,
} from "../support/kept-forms.ts";
import {
	CHILD_ARGS,
	childAsks,
	createRelayPiEnv,
	expectParentStopped,
	parentDelegates,
	parentGoesOnAfter,
} from "../support/subagents.ts";
import { TmuxPi } from "../support/tmux.ts";
import { solidPng } from "../support/images.ts";

let legacyPi: PiCommand;
const started = startedPerTest();

beforeAll(async () => {
	legacyPi = await ensureLegacyPi();
}, 300_000);

/** Starts pi 0.73.1's TUI in a `cols`×`rows` terminal, says `prompt`, and waits for `firstQuestion`. */
async function openForm(
	env: PiEnv,
	prompt: string,
	firstQuestion: string,
	size = { cols: 100, rows: 40 },
): Promise<TmuxPi> {
	started.piEnv = env;
	const tui = (started.tui = await TmuxPi.start(env, size));
	await tui.waitForReady();
	await tui.type(prompt);
	await tui.send("Enter");
	await tui.waitFor(firstQuestion);
	return tui;
}

function callsFor(env: PiEnv, user: string): ModelCallLogEntry[] {
	return env.log().filter((e): e is ModelCallLogEntry => e.kind === "call" && e.user.includes(user));
}

describe("the former pi (@mariozechner/pi-coding-agent 0.73.1) runs ask_user unchanged", () => {
	it("is pi 0.73.1", () => {
		expect(legacyPi.version).toBe("0.73.1");
		expect(legacyPi.argv.join(" ")).toContain("@mariozechner/pi-coding-agent");
	});

	it("TUI: the demo's three questions at 40 columns, answered with a note, reviewed and submitted", async () => {
		const env = createPiEnv({ script: askScript(DEMO_BATCH), pi: legacyPi });
		const screen = await openForm(env, ASK, "How should", { cols: 40, rows: 40 });
		await answerDemoBatch(screen);

		expect(await screen.isRunning()).toBe(true);
		expectDemoBatchAnswered(onlyAskResult(env));
	});

	it("TUI, as a package from npm runs it (its build): the demo's three questions answered and submitted", async () => {
		const extension = await buildPackage(join(REPO_ROOT, "node_modules", ".cache", "pi-ask-user-legacy-test"));
		const env = createPiEnv({ script: askScript(DEMO_BATCH), pi: legacyPi, extensions: [extension] });
		const screen = await openForm(env, ASK, "How should", { cols: 40, rows: 40 });
		await answerDemoBatch(screen);

		expect(await screen.isRunning()).toBe(true);
		expectDemoBatchAnswered(onlyAskResult(env));
	});

	it("TUI: a form open when pi is killed comes back after --continue, and its answer reaches the model as a message", async () => {
		const env = (started.piEnv = createPiEnv({ script: keptFormScript(), sessions: true, pi: legacyPi }));
		await killWithFormOpen(env, started);
		const again = (started.tui = await TmuxPi.start(env, { extraArgs: ["--continue"] }));
		expect(await again.waitFor("Restored")).toContain("Database");
		expectTheAnswer(await submitRestored(again, env));
	});

	it("TUI: an answered form, /ask-user, the answer changed and submitted again: the revised answer reaches the model, also steered into a streaming run", async () => {
		const env = (started.piEnv = createPiEnv({ script: reviseScript(), sessions: true, pi: legacyPi }));
		const tui = await answerAndKeep(env, started);
		const [first] = env.toolResults("ask_user");
		await tui.type("work");
		await tui.send("Enter");
		await until(() => modelCalls(env).some((call) => call.user === "work"), "the run's first model call");
		await reviseAnswered(tui);
		await tui.waitForGone("Review your answers");
		writeFileSync(join(env.cwd, "go"), "");
		await until(() => revisions(env).length === 1, "the revised answer reaching the model");
		expectTheRevision(revisions(env)[0] ?? "", first?.toolCallId ?? "");
		expect(env.toolResults("bash").map((result) => result.text.trim())).toEqual(["waited"]);
	});

	it("TUI: a dropped file's path and an @ completion attach and reach a model that reads images as image content; Ctrl+V says this pi has no clipboard reader", async () => {
		const env = createPiEnv({ script: askScript(TWO_QUESTIONS), pi: legacyPi, env: { [IMAGES_ENV]: "1" } });
		const png = solidPng(8, 6, [0, 0, 0]);
		const chart = solidPng(4, 4, [0, 255, 0]);
		writeFileSync(join(env.cwd, "shot.png"), png);
		writeFileSync(join(env.cwd, "chart.png"), chart);
		const screen = await openForm(env, ASK, "Which database");
		await screen.send("Up", "Up");
		await screen.type("this one");
		await screen.send("C-v");
		await screen.waitFor("Pasting an image needs");
		await screen.paste(join(env.cwd, "shot.png"));
		await screen.waitFor(`📎 shot.png ${png.length} B`);
		// pi 0.73.1's own completion, with fd: Enter on the file attaches it.
		await screen.type(" @chart");
		await screen.waitFor(/chart\.png\s+chart\.png/);
		await screen.send("Enter");
		await screen.waitFor(`📎 chart.png ${chart.length} B`);
		await submitTwoQuestions(screen);

		const seen = onlyAskResult(env);
		expect(seen.text).toContain('db: wrote "this one" + 📎 shot.png (image) + 📎 chart.png (image)');
		// pi 0.73.1 exports no resizing: each image goes as it is, within the limits.
		const seenImage = (bytes: Buffer) => ({
			mimeType: "image/png",
			bytes: bytes.length,
			sha256: createHash("sha256").update(bytes).digest("hex"),
		});
		expect(env.toolResults("ask_user")[0]?.images).toEqual([seenImage(png), seenImage(chart)]);
	});

	it("TUI: Esc twice dismisses, keeps the answer given, and ends the turn", async () => {
		const env = createPiEnv({ script: askScript(TWO_QUESTIONS), pi: legacyPi });
		const screen = await openForm(env, ASK, "Which database");

		await screen.send("2");
		await screen.waitFor("What should the command");
		await screen.send("Escape");
		await screen.waitFor("again to");
		await screen.send("Escape");
		await screen.waitForGone("What should the command");
		await screen.waitForGone("Working...");
		await screen.type(WHAT_NOW);
		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);

		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("dismissed");
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "SQLite", label: "SQLite" }]);
		// terminate: the model was not called again after the dismissal, only on the next prompt.
		expect(callsFor(env, ASK)).toHaveLength(1);
	});

	it("the browser page: opened from the form's link, answered with notes and a photo, submitted; the model gets those answers and the image, in pi 0.73.1's colours", async () => {
		const env = createPiEnv({
			script: askScript(TWO_QUESTIONS),
			pi: legacyPi,
			env: { PI_ASK_USER_WEB: "1", COLORTERM: "truecolor", [IMAGES_ENV]: "1" },
		});
		// A 1×1 PNG, chosen on the note on the whole form.
		const shot = join(env.root, "shot.png");
		const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
		writeFileSync(shot, Buffer.from(png, "base64"));
		const screen = await openForm(env, ASK, "Which database", { cols: 120, rows: 40 });
		const url = /http:\/\/127\.0\.0\.1:\d+\/ask\/[A-Za-z0-9_-]{16,}\//.exec(await screen.waitFor("/ask/"))?.[0] ?? "";
		const browser = await launchChromium();
		try {
			const page = await browser.newPage({ viewport: { width: 360, height: 640 } });
			await page.goto(url);
			await page.getByText("SQLite", { exact: true }).click();
			await page.getByText("launch", { exact: true }).click();
			await page.locator('fieldset[data-index="0"] details.note > summary').click();
			await page.locator('fieldset[data-index="0"] textarea.note-text').fill("for the pilot");
			await expect(page.locator(".review li").first().textContent()).resolves.toBe("Database: SQLite✎ for the pilot");
			await page.locator(".review details.form-note > summary").click();
			await page.locator(".review textarea.form-note-text").fill("keep it small");
			await page.locator(".review .files input.file-input").setInputFiles(shot);
			await page.locator(".review .files .file").waitFor();
			// pi 0.73.1's dark theme, as its ctx.ui.theme gives it: its accent, and a dark page for its cards.
			const colors = await page.evaluate(() => {
				const root = getComputedStyle(document.documentElement);
				return { accent: root.getPropertyValue("--accent").trim(), scheme: root.colorScheme };
			});
			expect(colors).toEqual({ accent: "#8abeb7", scheme: "dark" });
			await page.getByRole("button", { name: "Submit" }).click();
			await page.getByText("the agent has your answers").waitFor();
		} finally {
			await browser.close();
		}
		await screen.waitFor(QUOTE_PREFIX);
		const seen = onlyAskResult(env);
		expect(seen.details).toMatchObject({ status: "answered", answeredBy: "the browser" });
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "SQLite", label: "SQLite" }]);
		expect(seen.details.answers["cli"]?.selections).toEqual([{ value: "launch-cli", label: "launch" }]);
		expect(seen.text).toContain('Note on the whole form: "keep it small" + 📎 shot.png (image)');
		expect(seen.text).toContain('note: "for the pilot"');
		const bytes = Buffer.from(png, "base64");
		const sha256 = createHash("sha256").update(bytes).digest("hex");
		expect(env.toolResults("ask_user")[0]?.images).toEqual([{ mimeType: "image/png", bytes: bytes.length, sha256 }]);
	});

	it("RPC: one select per question, then the review; Submit sends both answers", async () => {
		const env = (started.piEnv = createPiEnv({ script: askScript(TWO_QUESTIONS), pi: legacyPi }));
		const handler = answerInOrder(choose("Postgres"), choose("launch"), choose(ROW.submit));
		const client = (started.rpc = RpcPi.start(env, handler));
		await client.prompt(ASK);

		expect(handler.unexpected).toEqual([]);
		expect(client.dialogs.map((d) => d.method)).toEqual(["select", "select", "select"]);
		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "Postgres", label: "Postgres" }]);
		expect(seen.details.answers["cli"]?.selections).toEqual([{ value: "launch-cli", label: "launch" }]);
	});

	it("print mode: with nobody to ask through, ask_user is never offered; a call that gets through is no_ui, told not to call again, and ask_user is gone from the next prompt's tools", async () => {
		const script = scriptOf(
			{ user: "first", replies: [callTool("ask_user", TWO_QUESTIONS), quoteLastToolResult] },
			{ user: "second", replies: [{ text: "Tools now: {{tools}}" }] },
		);
		const alone = (started.piEnv = createPiEnv({ script, pi: legacyPi }));
		expect((await runHeadless(alone, "print", ["first: ask me"])).exitCode).toBe(0);
		expect(
			alone
				.log()
				.filter((e) => e.kind === "call")
				.every((e) => e.kind === "call" && !e.tools.includes("ask_user")),
		).toBe(true);
		alone.cleanup();

		const env = (started.piEnv = createPiEnv({ script, pi: legacyPi, env: await parentGoneAfterTheCheck() }));
		const run = await runHeadless(env, "print", ["first: ask me", "second: go on"]);
		expect(run.exitCode, run.stderr).toBe(0);

		expect(askResults(env).map((r) => [r.details.status, r.isError])).toEqual([["no_ui", false]]);
		expect(onlyAskResult(env).text).toMatch(/do not call it again/i);
		const [firstCall] = callsFor(env, "first");
		const [secondCall] = callsFor(env, "second");
		expect(firstCall?.tools).toContain("ask_user");
		expect(secondCall?.tools).toEqual(firstCall?.tools.filter((t) => t !== "ask_user"));
	});

	it("a subagent (a child pi 0.73.1 in RPC mode) asks through the parent's TUI, labelled; the answers reach the child", async () => {
		const form = {
			questions: [
				{
					id: "db",
					question: "Which database should the service use?",
					options: [{ label: "Postgres" }, { label: "SQLite" }],
				},
			],
		};
		const script = scriptOf(
			childAsks("SCOUT TASK", { ...form, reason: "The adapter depends on it." }, "Scout"),
			parentDelegates("delegate this", { agent: "scout", task: "SCOUT TASK: ask" }),
		);
		const env = createRelayPiEnv(script, {}, legacyPi);
		const screen = await openForm(env, "delegate this", "Which database");

		const shown = await screen.capture();
		expect(shown).toContain("Asked by scout · SCOUT TASK: ask");
		expect(shown).toContain("Why: The adapter depends on it.");
		await screen.send("2");
		await screen.waitFor(`${QUOTE_PREFIX} Scout got:`);

		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "SQLite", label: "SQLite" }]);
		expect(env.toolResults("subagent").map((r) => r.text)).toEqual([`Scout got: ${seen.text}`]);
	});

	it("a file pasted into a subagent's form in the parent's TUI crosses to the child: its model (one that reads images) receives the image", async () => {
		const childArgs = CHILD_ARGS.map((arg) => (arg === SCRIPTED_MODEL ? SCRIPTED_VISION_MODEL : arg));
		const script = scriptOf(
			childAsks("SCOUT TASK", DB_FORM, "Scout"),
			parentDelegates("delegate this", { agent: "scout", task: "SCOUT TASK: ask" }),
		);
		const env = createRelayPiEnv(script, { PI_SUBAGENT_ARGS: JSON.stringify(childArgs) }, legacyPi);
		writeFileSync(join(env.cwd, "layout.png"), PNG_1X1);
		const screen = await openForm(env, "delegate this", "Which database");
		await screen.send("Down", "Down");
		await screen.waitFor(/❯.*Type something/);
		await screen.send("Enter");
		await screen.paste(join(env.cwd, "layout.png"));
		await screen.waitFor("📎 layout.png");
		await screen.type("this one");
		await screen.send("Enter");
		await screen.waitFor(`${QUOTE_PREFIX} Scout got:`);

		const [child] = env.toolResults("ask_user");
		expect(child?.images?.map((image) => [image.mimeType, image.bytes])).toEqual([["image/png", PNG_1X1.length]]);
		expect(child?.text).toContain('db: wrote "this one" + 📎 layout.png (image)');
	});

	it("Esc twice on the form of a child of pi's own example runner stops the parent's run too: its next tool call is refused, not run, until the user speaks", async () => {
		const script = scriptOf(
			childAsks("SCOUT TASK", DB_FORM, "Scout"),
			...parentGoesOnAfter("delegate this", exampleRunnerCall("SCOUT TASK: pick a database")),
		);
		const runner = join(await legacyPiPackageDir(), "examples", "extensions", "subagent", "index.ts");
		const env = createPlainRunnerPiEnv(script, { pi: legacyPi, runners: [runner] });
		const screen = await openForm(env, "delegate this", "Which database");
		await dismissWithEscEsc(screen);

		// pi 0.73 ignores terminate on a refused call: its model is called once more, with the refusal, as after a dismissal of its own form.
		await expectParentStopped(env, screen, "delegate this", { legacy: true });
		expect(askResults(env)[0]?.details.status).toBe("dismissed");
		expect(env.toolResults("subagent")[0]?.text).toContain("Scout got: User dismissed the questions");
	});

	it("a `pi -p` the model runs from bash (pi 0.73.1 too) asks through the parent's TUI by the local channel", async () => {
		const form = {
			questions: [
				{
					id: "db",
					question: "Which database should the service use?",
					options: [{ label: "Postgres" }, { label: "SQLite" }],
				},
			],
		};
		const script = scriptOf(childAsks("BASH TASK", form, "Bash child"), {
			user: "delegate this",
			replies: [
				callTool("bash", { command: piPrintCommand("BASH TASK: pick a database", legacyPi.argv) }),
				quoteLastToolResult,
			],
		});
		const env = childrenLoadAskUser(createPiEnv({ script, pi: legacyPi }));
		const screen = await openForm(env, "delegate this", "Which database", { cols: 100, rows: 40 });
		expect(await screen.capture()).toContain("Asked by subagent · BASH TASK: pick a database");
		await screen.send("2");
		await screen.waitFor(`${QUOTE_PREFIX} Bash child got:`);
		expect(askResults(env)[0]?.details.answers["db"]?.selections).toEqual([{ value: "SQLite", label: "SQLite" }]);
	});
});
