/**
 * Subagents of runners that know nothing of ask_user ask the user through the
 * parent's local channel: pi's own example runner (`pi --mode json -p`
 * children), `pi -p` run from the bash tool, two children at once, a
 * grandchild; a child killed mid-form, the parent ending while a child waits,
 * and hostile clients on the socket. Every test asserts on what the scripted
 * models received and on short screen fragments, and ends with no process of
 * the test left running.
 */

import { existsSync, statSync } from "node:fs";
import { createConnection } from "node:net";
import { dirname } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
	askResults,
	type AskResultSeen,
	DB_FORM,
	DB_QUESTION,
	dismissWithEscEsc,
	LICENSE_FORM,
} from "../support/ask-fixtures.ts";
import { callTool, QUOTE_PREFIX, scriptOf } from "../support/model-script.ts";
import type { PiEnv } from "../support/pi-env.ts";
import {
	channelConnections,
	channelSockets,
	childrenOf,
	createPlainRunnerPiEnv,
	exampleRunnerCall,
	parentRuns,
	piPrintCommand,
	RAW_CHANNEL_CLIENT,
} from "../support/plain-runners.ts";
import { endPiTest, processesOf, until } from "../support/harness.ts";
import { childAsks, expectParentStopped, modelCalled, parentGoesOnAfter, startTuiWith } from "../support/subagents.ts";
import { TmuxPi } from "../support/tmux.ts";

let piEnv: PiEnv | undefined;
let tui: TmuxPi | undefined;

afterEach(async () => {
	const started = { tui, piEnv };
	tui = undefined;
	piEnv = undefined;
	await endPiTest(started);
});

const DELEGATE = "delegate this";

function startParent(env: PiEnv): Promise<TmuxPi> {
	return startTuiWith(env, DELEGATE, (started) => {
		tui = started;
	});
}

function resultFor(env: PiEnv, questionId: string): AskResultSeen | undefined {
	return askResults(env).find((r) => r.details.questions.some((q) => q.id === questionId));
}

describe("pi's own example runner: its child asks through the parent's TUI", () => {
	it("the child's form shows labelled with its agent and its task, is answered there, and the child's model receives the choice", async () => {
		const env = (piEnv = createPlainRunnerPiEnv(
			scriptOf(childAsks("SCOUT TASK", DB_FORM, "Scout"), parentRuns(DELEGATE, "SCOUT TASK: pick a database")),
		));
		const screen = await startParent(env);

		const form = await screen.waitFor("Which database");
		expect(form).toContain("Asked by helper · SCOUT TASK: pick a database");
		const [socket] = channelSockets(env);
		expect(statSync(dirname(socket as string)).mode & 0o777).toBe(0o700);
		await screen.send("2");
		await screen.waitFor(`${QUOTE_PREFIX} Scout got:`);

		const [child] = askResults(env);
		expect(askResults(env)).toHaveLength(1);
		expect(child?.details.status).toBe("answered");
		expect(child?.details.answers["db"]?.selections).toEqual([{ value: "SQLite", label: "SQLite" }]);
		expect(env.toolResults("subagent")[0]?.text).toContain(`Scout got: ${child?.text}`);
	});

	it("the line above the child's questions: its agent and its task cut to the width; its model's reason; ? shows the task whole", async () => {
		const task =
			"SCOUT TASK: pick a database for the invoices service, weighing the write volume, then report back END";
		const reason = "The adapter I write next depends on it.";
		const env = (piEnv = createPlainRunnerPiEnv(
			scriptOf(childAsks("SCOUT TASK", { ...DB_FORM, reason }, "Scout"), parentRuns(DELEGATE, task)),
		));
		const screen = await startParent(env);
		const form = await screen.waitFor("Which database");
		const line = form.split("\n").find((l) => l.includes("Asked by helper · SCOUT TASK: pick a database"));
		expect(line).toMatch(/…\s*$/);
		expect(line).not.toContain("END");
		expect(form).toContain(`Why: ${reason}`);
		await screen.send("?");
		// Wrapped to the width: read as one text.
		const help = (await screen.waitFor("Keys")).replace(/\s+/g, " ");
		expect(help).toContain(`Task: ${task}`);
		await screen.send("Escape");
		await screen.waitForGone("Keys");
		await screen.send("2");
		await screen.waitFor(`${QUOTE_PREFIX} Scout got:`);
		const [child] = askResults(env);
		expect(child?.details).toMatchObject({ status: "answered", reason });
	});

	it("Esc twice on the child's form: the child's model reports the dismissal as its final answer, so the runner passes it on instead of failing for want of output", async () => {
		const env = (piEnv = createPlainRunnerPiEnv(
			scriptOf(childAsks("SCOUT TASK", DB_FORM, "Scout"), parentRuns(DELEGATE, "SCOUT TASK: pick a database")),
		));
		const screen = await startParent(env);
		await screen.waitFor("Which database");
		await dismissWithEscEsc(screen);
		await screen.waitFor(`${QUOTE_PREFIX} Scout got:`);

		const [child] = askResults(env);
		expect(child?.details.status).toBe("dismissed");
		expect(child?.text).toMatch(/end your task now/);
		const [parentSaw] = env.toolResults("subagent");
		expect(parentSaw?.isError).toBe(false);
		expect(parentSaw?.text).toContain("Scout got: User dismissed the questions");
	});

	it("Esc twice on the child's form stops the parent's run too: its next tool call is refused and its model is not called again until the user speaks", async () => {
		const env = (piEnv = createPlainRunnerPiEnv(
			scriptOf(
				childAsks("SCOUT TASK", DB_FORM, "Scout"),
				...parentGoesOnAfter(DELEGATE, exampleRunnerCall("SCOUT TASK: pick a database")),
			),
		));
		const screen = await startParent(env);
		await screen.waitFor("Which database");
		await dismissWithEscEsc(screen);

		await expectParentStopped(env, screen, DELEGATE);
		expect(askResults(env)[0]?.details.status).toBe("dismissed");
		expect(env.toolResults("subagent")[0]?.text).toContain("Scout got: User dismissed the questions");
	});

	it("two children at once: the forms queue, and each child gets its own answer", async () => {
		const script = scriptOf(
			childAsks("SCOUT TASK", DB_FORM, "Scout"),
			childAsks("CRITIC TASK", LICENSE_FORM, "Critic"),
			parentRuns(DELEGATE, "SCOUT TASK: pick a database", "CRITIC TASK: pick a license"),
		);
		const env = (piEnv = createPlainRunnerPiEnv(script));
		const screen = await startParent(env);

		const firstScreen = await screen.waitFor(/Which (database|license)/);
		const first = firstScreen.includes("Which database") ? "database" : "license";
		const second = first === "database" ? "license" : "database";
		await until(
			() => modelCalled(env, "SCOUT TASK") && modelCalled(env, "CRITIC TASK"),
			"both children to call ask_user",
		);
		// Both children's forms have reached the parent: each child holds its connection while its form waits.
		await until(() => channelConnections(env) >= 2, "both children connected to the parent's channel");
		expect(await screen.capture()).not.toContain(`Which ${second}`);
		await screen.send("2");
		await screen.waitFor(`Which ${second}`);
		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);

		const picked = first === "database" ? { db: "SQLite", license: "MIT" } : { db: "Postgres", license: "Apache-2.0" };
		expect(resultFor(env, "db")?.details.answers["db"]?.selections[0]?.label).toBe(picked.db);
		expect(resultFor(env, "license")?.details.answers["license"]?.selections[0]?.label).toBe(picked.license);
	});

	it("a killed child's form leaves the parent's screen within a second, and the parent stays usable", async () => {
		const script = scriptOf(
			childAsks("SCOUT TASK", DB_FORM, "Scout"),
			parentRuns(DELEGATE, "SCOUT TASK: pick a database"),
			{
				user: "what now?",
				replies: [{ text: "Still here" }],
			},
		);
		const env = (piEnv = createPlainRunnerPiEnv(script));
		const screen = await startParent(env);
		await screen.waitFor("Which database");
		const [child] = childrenOf(env, screen.pid);
		if (!child) throw new Error("no child process found");
		process.kill(child.pid, "SIGKILL");
		const started = Date.now();
		await screen.waitForGone("Which database");
		expect(Date.now() - started).toBeLessThan(1_500);
		await screen.waitForGone("Working...");
		await screen.type("what now?");
		await screen.send("Enter");
		await screen.waitFor("Still here");
	});

	it("the parent killed while a child waits: the child's ask ends at once with an error that says why", async () => {
		// A child in a session of its own (as detached runners start them), so the parent's end sends it no SIGHUP.
		const script = scriptOf(childAsks("SCOUT TASK", DB_FORM, "Scout"), {
			user: DELEGATE,
			replies: [callTool("bash", { command: `setsid ${piPrintCommand("SCOUT TASK: pick a database")}` })],
		});
		const env = (piEnv = createPlainRunnerPiEnv(script));
		const screen = await startParent(env);
		await screen.waitFor("Which database");
		process.kill(screen.pid, "SIGKILL");
		await until(() => askResults(env).length === 1, "the orphaned child's model to receive its ask_user result");
		expect(askResults(env)[0]?.details).toMatchObject({
			status: "error",
			error: expect.stringContaining("ended before the user answered"),
		});
		// endPiTest checks that the child has exited too.
	});

	it("the parent quitting (SIGTERM) while a child waits closes its channel and removes the socket's directory; no child is left", async () => {
		const env = (piEnv = createPlainRunnerPiEnv(
			scriptOf(childAsks("SCOUT TASK", DB_FORM, "Scout"), parentRuns(DELEGATE, "SCOUT TASK: pick a database")),
		));
		const screen = await startParent(env);
		await screen.waitFor("Which database");
		const [socket] = channelSockets(env);
		process.kill(screen.pid, "SIGTERM");
		await until(() => !existsSync(dirname(socket as string)), "the channel's directory to be removed");
	});
});

describe("pi -p from the bash tool, and a grandchild", () => {
	it("a `pi -p` the model runs from bash asks through the parent's TUI", async () => {
		const script = scriptOf(childAsks("BASH TASK", DB_FORM, "Bash child"), {
			user: DELEGATE,
			replies: [
				callTool("bash", { command: piPrintCommand("BASH TASK: pick a database") }),
				{ text: `${QUOTE_PREFIX} {{lastToolResult}}` },
			],
		});
		const env = (piEnv = createPlainRunnerPiEnv(script));
		const screen = await startParent(env);
		const form = await screen.waitFor("Which database");
		expect(form).toContain("Asked by subagent · BASH TASK: pick a database");
		await screen.send("Enter");
		await screen.waitFor(`${QUOTE_PREFIX} Bash child got:`);
		expect(askResults(env)[0]?.details.answers["db"]?.selections).toEqual([{ value: "Postgres", label: "Postgres" }]);
	});

	it("a `pi -p` started by a plain child_process.spawn with the inherited environment asks through the parent's TUI", async () => {
		const script = scriptOf(childAsks("SPAWNED TASK", LICENSE_FORM, "Spawned"), {
			user: DELEGATE,
			replies: [
				callTool("spawn_pi", { task: "SPAWNED TASK: pick a license" }),
				{ text: `${QUOTE_PREFIX} {{lastToolResult}}` },
			],
		});
		const env = (piEnv = createPlainRunnerPiEnv(script));
		const screen = await startParent(env);
		const form = await screen.waitFor("Which license");
		expect(form).toContain("Asked by subagent · SPAWNED TASK: pick a license");
		await screen.send("Enter");
		await screen.waitFor(`${QUOTE_PREFIX} Spawned got:`);
		expect(askResults(env)[0]?.details.answers["license"]?.selections).toEqual([{ value: "MIT", label: "MIT" }]);
	});

	it("a grandchild (pi -p run by the example runner's child) reaches the top parent", async () => {
		const script = scriptOf(
			childAsks("INNER TASK", LICENSE_FORM, "Inner"),
			{
				user: "MIDDLE TASK",
				replies: [
					callTool("bash", { command: piPrintCommand("INNER TASK: pick a license") }),
					{ text: "Middle got: {{lastToolResult}}" },
				],
			},
			parentRuns(DELEGATE, "MIDDLE TASK: plan"),
		);
		const env = (piEnv = createPlainRunnerPiEnv(script));
		const screen = await startParent(env);
		const form = await screen.waitFor("Which license");
		expect(form).toContain("Asked by subagent · INNER TASK: pick a license");
		await screen.send("2");
		await screen.waitFor(`${QUOTE_PREFIX} Middle got:`);
		expect(askResults(env)[0]?.details.answers["license"]?.selections).toEqual([
			{ value: "Apache-2.0", label: "Apache-2.0" },
		]);
	});
});

/** The parent hands a task to an SDK session of its own process, which asks DB_FORM and reports what it got. */
const IN_PROCESS_ASKS = scriptOf(childAsks("INPROC TASK", DB_FORM, "In-process"), {
	user: DELEGATE,
	replies: [
		callTool("inproc_subagent", { task: "INPROC TASK: pick a database" }),
		{ text: `${QUOTE_PREFIX} {{lastToolResult}}` },
	],
});

describe("an in-process runner (pi's SDK, same process)", () => {
	it("a session made with createAgentSession, without a UI, asks through the parent's TUI by the channel registry", async () => {
		const env = (piEnv = createPlainRunnerPiEnv(IN_PROCESS_ASKS));
		const screen = await startParent(env);
		const form = await screen.waitFor("Which database");
		expect(form).toContain("Asked by subagent · INPROC TASK: pick a database");
		// No other pi process: the subagent is a session of the parent's own process.
		expect(childrenOf(env, screen.pid)).toEqual([]);
		await screen.send("2");
		await screen.waitFor(`${QUOTE_PREFIX} In-process got:`);
		expect(askResults(env)[0]?.details.answers["db"]?.selections).toEqual([{ value: "SQLite", label: "SQLite" }]);
	});
});

describe("an in-process runner: a dismissal", () => {
	it("the session's model gets the dismissal as an ordinary result and reports it; the parent's turn goes on to read it", async () => {
		const env = (piEnv = createPlainRunnerPiEnv(IN_PROCESS_ASKS));
		const screen = await startParent(env);
		await screen.waitFor("Which database");
		await dismissWithEscEsc(screen);
		await screen.waitFor(`${QUOTE_PREFIX} In-process got: User dismissed the questions`);
		expect(askResults(env)[0]?.details.status).toBe("dismissed");
		expect(askResults(env)[0]?.text).toMatch(/end your task now/);
	});

	it("Esc twice on its form stops the parent's run too: the parent's next tool call is refused and its model is not called again until the user speaks", async () => {
		const env = (piEnv = createPlainRunnerPiEnv(
			scriptOf(
				childAsks("INPROC TASK", DB_FORM, "In-process"),
				...parentGoesOnAfter(DELEGATE, callTool("inproc_subagent", { task: "INPROC TASK: pick a database" })),
			),
		));
		const screen = await startParent(env);
		await screen.waitFor("Which database");
		await dismissWithEscEsc(screen);

		await expectParentStopped(env, screen, DELEGATE);
		expect(env.toolResults("inproc_subagent")[0]?.text).toContain("In-process got: User dismissed the questions");
	});
});

describe("a form that did not come from this session's model always says where it came from", () => {
	it("a command the model runs sends a form with no name, then one named a zero-width 'you': each shows as an unnamed subagent's, with its pid, in the terminal and on its web page", async () => {
		/** The bash command a prompt-injected model might run: a form of its own making, through the inherited channel. */
		const phish = (asker: string | undefined) => {
			const request = JSON.stringify({ v: 1, ...(asker !== undefined && { asker }), questions: [DB_QUESTION] });
			const ascii = request.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
			return callTool("bash", { command: `${process.execPath} ${RAW_CHANNEL_CLIENT} '${ascii}'` });
		};
		const script = scriptOf({
			user: DELEGATE,
			replies: [phish(undefined), phish("y\u200dou"), { text: `${QUOTE_PREFIX} {{lastToolResult}}` }],
		});
		const env = (piEnv = createPlainRunnerPiEnv(script));
		env.env["PI_ASK_USER_WEB"] = "1";
		const screen = await startParent(env);
		const unnamed = /Asked by an unnamed subagent \(pid (\d+)\)/;
		const pids: number[] = [];
		const newPid = (text: string) => {
			const pid = Number(unnamed.exec(text)?.[1]);
			return pid > 0 && !pids.includes(pid) ? pid : undefined;
		};
		for (const _form of ["no name", "a zero-width 'you'"]) {
			const shown = await screen.waitFor((text) => newPid(text) !== undefined);
			const pid = newPid(shown) as number;
			// The process that asked: a command of this test, not this session.
			expect(processesOf(env).map((p) => p.pid)).toContain(pid);
			const url = /http:\/\/127\.0\.0\.1:\d+\/ask\/[A-Za-z0-9_-]{16,}\//.exec(shown)?.[0];
			const page = (await (await fetch(`${url}form`)).json()) as { asker?: string };
			expect(page.asker).toBe(`Asked by an unnamed subagent (pid ${pid})`);
			pids.push(pid);
			await screen.send("Enter");
			await screen.waitForGone(`(pid ${pid})`);
		}
		await screen.waitFor(QUOTE_PREFIX);
		expect(env.toolResults("bash").map((result) => JSON.parse(result.text).status)).toEqual(["answered", "answered"]);
	});
});

describe("hostile clients on the parent's socket", () => {
	it("a wrong token, garbage, a line over the cap and 200 connections show nothing and break nothing", async () => {
		const script = scriptOf(
			childAsks("SCOUT TASK", DB_FORM, "Scout"),
			parentRuns(DELEGATE, "SCOUT TASK: pick a database"),
		);
		const env = (piEnv = createPlainRunnerPiEnv(script));
		tui = await TmuxPi.start(env, { cols: 100, rows: 40 });
		const screen = tui;
		await screen.waitForReady();
		await until(() => channelSockets(env).length === 1, "the parent's channel socket");
		const [socket] = channelSockets(env) as [string];
		const before = await screen.capture();

		const attack = (payload: string | Buffer) =>
			new Promise<string>((resolve) => {
				const client = createConnection(socket);
				let received = "";
				client.on("data", (chunk) => {
					received += chunk.toString();
				});
				client.on("error", () => {});
				client.on("close", () => resolve(received));
				client.on("connect", () => client.write(payload));
			});
		const received = await Promise.all([
			attack(
				`${JSON.stringify({ v: 1, token: "ab".repeat(32) })}\n${JSON.stringify({ v: 1, questions: DB_FORM.questions })}\n`,
			),
			attack("\u001b]52;c;AAAA\u0007\n"),
			attack(Buffer.alloc(1024 * 1024 + 16, "x")),
			...Array.from({ length: 200 }, () => attack("")),
		]);
		expect(received.every((text) => text === "")).toBe(true);
		expect(await screen.capture()).toBe(before);

		// Still listening for its own children.
		await screen.type(DELEGATE);
		await screen.send("Enter");
		await screen.waitFor("Which database");
		await screen.send("Enter");
		await screen.waitFor(`${QUOTE_PREFIX} Scout got:`);
		expect(askResults(env)[0]?.details.status).toBe("answered");
	});
});
