/**
 * The subagent relay with real processes: a parent pi runs the example runner
 * (examples/subagent-runner), whose `subagent` tool spawns child pis in RPC
 * mode; a child's ask_user form travels up to the parent's UI, and the answers
 * travel back down. Every test asserts on what the scripted models received
 * (the children's ask_user results, the parent's subagent results), plus a few
 * short screen fragments, and ends with no process of the test left running.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROW } from "../support/walker-rows.ts";
import {
	askResults,
	type AskResultSeen,
	DB_FORM,
	dismissWithEscEsc,
	LICENSE_FORM,
	TWO_QUESTIONS,
} from "../support/ask-fixtures.ts";
import { runHeadless } from "../support/headless.ts";
import {
	callTool,
	type ModelScript,
	QUOTE_PREFIX,
	quoteLastToolResult,
	type ScriptedConversation,
	scriptOf,
} from "../support/model-script.ts";
import type { PiEnv } from "../support/pi-env.ts";
import { answerInOrder, choose, RpcPi } from "../support/rpc-client.ts";
import { endPiTest, processesOf, until } from "../support/harness.ts";
import {
	childAsks,
	createRelayPiEnv,
	expectParentStopped,
	killSubagent,
	modelCalled,
	parentDelegates,
	parentGoesOnAfter,
	startTuiWith,
	subagentsOf,
	waitForSubagents,
} from "../support/subagents.ts";
import { TmuxPi } from "../support/tmux.ts";

let piEnv: PiEnv | undefined;
let tui: TmuxPi | undefined;
let rpc: RpcPi | undefined;

afterEach(async () => {
	const started = { tui, rpc, piEnv };
	tui = undefined;
	rpc = undefined;
	piEnv = undefined;
	await endPiTest(started);
});

/** The parent's prompt: its model hands the task(s) to `subagent`. */
const DELEGATE = "delegate this";
/** A later prompt, to show the parent still works, and to read a result the turn ended on. */
const WHAT_NOW = "what now?";

const whatNow = { user: WHAT_NOW, replies: [quoteLastToolResult] };

/** planner (the parent's subagent) runs scout, which asks; each reports what it got. */
const NESTED = scriptOf(
	childAsks("INNER TASK", DB_FORM, "Inner"),
	{
		user: "MIDDLE TASK",
		replies: [
			callTool("subagent", { agent: "scout", task: "INNER TASK: pick a database" }),
			{ text: "Middle got: {{lastToolResult}}" },
		],
	},
	parentDelegates(DELEGATE, { agent: "planner", task: "MIDDLE TASK: plan the service" }),
);

/** The parent runs one subagent, "scout", which asks `form` and reports what it got. */
function scoutAsks(form: unknown, ...more: ScriptedConversation[]): ModelScript {
	return scriptOf(
		childAsks("SCOUT TASK", form, "Scout"),
		parentDelegates(DELEGATE, { agent: "scout", task: "SCOUT TASK: ask the user" }),
		...more,
	);
}

/**
 * The parent runs "scout" and "critic" in one turn; scout asks DB_FORM, critic
 * LICENSE_FORM. With `writePids`, each first writes its pid to <name>.pid in the work dir.
 */
function twoChildrenAsk({ writePids = false } = {}): ModelScript {
	return scriptOf(
		childAsks("SCOUT TASK", DB_FORM, "Scout", writePids ? "scout.pid" : undefined),
		childAsks("CRITIC TASK", LICENSE_FORM, "Critic", writePids ? "critic.pid" : undefined),
		parentDelegates(
			DELEGATE,
			{ agent: "scout", task: "SCOUT TASK: pick a database" },
			{ agent: "critic", task: "CRITIC TASK: pick a license" },
		),
	);
}

/** Starts the parent's TUI and sends DELEGATE. */
function startParent(env: PiEnv): Promise<TmuxPi> {
	return startTuiWith(env, DELEGATE, (started) => {
		tui = started;
	});
}

/**
 * Once the parent is idle (its run over: a prompt typed while it still runs
 * would be queued, not sent), says WHAT_NOW and waits for the model's quote.
 */
async function sayWhatNow(screen: TmuxPi): Promise<void> {
	await screen.waitForGone("Working...");
	const quotesBefore = (await screen.capture()).split(QUOTE_PREFIX).length;
	await screen.type(WHAT_NOW);
	await screen.send("Enter");
	await screen.waitFor(function oneMoreQuote(now) {
		return now.split(QUOTE_PREFIX).length > quotesBefore;
	});
}

/** The ask_user results the children's models received (only children call ask_user here). */
function childResults(env: PiEnv): AskResultSeen[] {
	return askResults(env);
}

function resultFor(env: PiEnv, questionId: string): AskResultSeen | undefined {
	return childResults(env).find((r) => r.details.questions.some((q) => q.id === questionId));
}

describe("a subagent's ask_user in the parent's TUI", () => {
	it("shows the child's two questions labelled with the agent; the keyboard answers reach the child, its report the parent", async () => {
		const env = (piEnv = createRelayPiEnv(scoutAsks(TWO_QUESTIONS)));
		const screen = await startParent(env);

		const form = await screen.waitFor("Which database");
		expect(form).toContain("Asked by scout · SCOUT TASK: ask the user");
		// The process finder behind the no-leftovers check sees both: the parent, and its child.
		expect(processesOf(env)).toEqual(
			expect.arrayContaining([
				{ pid: screen.pid, ppid: expect.any(Number), subagent: false },
				{ pid: expect.any(Number), ppid: screen.pid, subagent: true },
			]),
		);
		await screen.send("Enter");
		await screen.waitFor("What should the command");
		await screen.send("3");
		await screen.waitFor("Your answer");
		await screen.type("deploy 🚀");
		await screen.send("Enter");
		await screen.waitFor("Review your answers");
		await screen.send("Enter");
		await screen.waitFor(`${QUOTE_PREFIX} Scout got:`);

		const [child] = childResults(env);
		expect(childResults(env)).toHaveLength(1);
		expect(child?.details.status).toBe("answered");
		expect(child?.details.answers["db"]?.selections).toEqual([{ value: "Postgres", label: "Postgres" }]);
		expect(child?.details.answers["cli"]?.selections).toEqual([
			{ value: "deploy 🚀", label: "deploy 🚀", custom: true },
		]);

		const parentSaw = env.toolResults("subagent");
		expect(parentSaw).toHaveLength(1);
		expect(parentSaw[0]?.isError).toBe(false);
		expect(parentSaw[0]?.text).toBe(`Scout got: ${child?.text}`);
	});

	it("two children asking at once: the second form waits off screen, opens after the first is answered, and each child gets its own answer", async () => {
		const env = (piEnv = createRelayPiEnv(twoChildrenAsk()));
		const screen = await startParent(env);

		const questions = { scout: "Which database", critic: "Which license" } as const;
		const firstScreen = await screen.waitFor(/Asked by (scout|critic)/);
		const first = firstScreen.includes("Asked by scout") ? "scout" : "critic";
		const second = first === "scout" ? "critic" : "scout";
		// Both children have asked (their models called ask_user): whenever the second request arrives, it waits its turn.
		await until(
			() => modelCalled(env, "SCOUT TASK") && modelCalled(env, "CRITIC TASK"),
			"both children to call ask_user",
		);
		const whileFirstOpen = await screen.capture();
		expect(whileFirstOpen).toContain(questions[first]);
		expect(whileFirstOpen).not.toContain(questions[second]);
		expect(whileFirstOpen).not.toContain(`Asked by ${second}`);

		await screen.send("2");
		const secondScreen = await screen.waitFor(`Asked by ${second}`);
		expect(secondScreen).toContain(questions[second]);
		expect(secondScreen).not.toContain(questions[first]);
		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);

		const picked = { [first]: 1, [second]: 0 } as Record<"scout" | "critic", number>;
		expect(resultFor(env, "db")?.details.answers["db"]?.selections[0]?.label).toBe(
			["Postgres", "SQLite"][picked.scout],
		);
		expect(resultFor(env, "license")?.details.answers["license"]?.selections[0]?.label).toBe(
			["MIT", "Apache-2.0"][picked.critic],
		);
		expect(childResults(env).map((r) => r.details.status)).toEqual(["answered", "answered"]);

		const parentSaw = env.toolResults("subagent").map((r) => r.text);
		expect(parentSaw).toHaveLength(2);
		expect(parentSaw).toContainEqual(`Scout got: ${resultFor(env, "db")?.text}`);
		expect(parentSaw).toContainEqual(`Critic got: ${resultFor(env, "license")?.text}`);
	});

	it("Esc twice dismisses a relayed form: the child's model gets an ordinary result, ends its task saying so, and the parent's model reads that report", async () => {
		const env = (piEnv = createRelayPiEnv(scoutAsks(TWO_QUESTIONS, whatNow)));
		const screen = await startParent(env);
		await screen.waitFor("Asked by scout");
		await screen.send("2");
		await screen.waitFor("What should the command");
		await dismissWithEscEsc(screen);
		await screen.waitForGone("What should the command");
		await screen.waitFor(`${QUOTE_PREFIX} Scout got:`);
		await waitForSubagents(env, 0);

		// Not a stop for the child: its model is called again, and reports (a runner that waits for a final
		// reply would otherwise see none). The parent's model reads the report.
		expect(env.log().filter((e) => e.kind === "call" && e.user.includes("SCOUT TASK"))).toHaveLength(2);
		const [childSaw] = childResults(env);
		expect(childSaw?.details.status).toBe("dismissed");
		expect(childSaw?.text).toMatch(/end your task now/);
		const [parentSaw] = env.toolResults("subagent");
		expect(parentSaw?.isError).toBe(false);
		expect(parentSaw?.text).toMatch(/^Scout got: User dismissed the questions/);
		expect(parentSaw?.text).toContain('db: "SQLite"');
		expect(env.log().filter((e) => e.kind === "call" && e.user === DELEGATE)).toHaveLength(2);
	});

	it("the note on the whole form and an unsent message for the chat reach the child (reply v4: every note and draft in its list)", async () => {
		const env = (piEnv = createRelayPiEnv(scoutAsks(TWO_QUESTIONS)));
		const screen = await startParent(env);
		await screen.waitFor("Asked by scout");
		await screen.send("Enter");
		await screen.waitFor("What should the command");
		await screen.send("Enter");
		await screen.waitFor("Review your answers");
		await screen.send("n");
		await screen.waitFor("Your note on the whole form");
		await screen.type("keep it boring");
		await screen.send("Enter");
		await screen.waitFor("✎ Note on the whole form: keep it boring");
		await screen.send("c");
		await screen.waitFor("Your message, sent to the chat");
		await screen.type("one more thing first");
		await screen.send("Escape");
		await screen.waitFor("💬 unsent message for the chat: one more thing first");
		await dismissWithEscEsc(screen);
		await screen.waitFor(`${QUOTE_PREFIX} Scout got:`);

		const [child] = childResults(env);
		expect(child?.details.status).toBe("dismissed");
		expect(child?.details.notes).toEqual([{ text: "keep it boring" }]);
		expect(child?.details.drafts).toEqual([{ kind: "chat", text: "one more thing first" }]);
		expect(child?.text).toContain('Note on the whole form: "keep it boring"');
		expect(child?.text).toContain('Unsent message for the chat left in the editor: "one more thing first"');
	});

	it("Esc twice on a relayed form stops the parent's run too: its next tool call is refused and its model is not called again until the user speaks", async () => {
		const env = (piEnv = createRelayPiEnv(
			scriptOf(
				childAsks("SCOUT TASK", DB_FORM, "Scout"),
				...parentGoesOnAfter(DELEGATE, callTool("subagent", { agent: "scout", task: "SCOUT TASK: ask the user" })),
			),
		));
		const screen = await startParent(env);
		await screen.waitFor("Asked by scout");
		await dismissWithEscEsc(screen);

		await expectParentStopped(env, screen, DELEGATE);
		expect(childResults(env)[0]?.details.status).toBe("dismissed");
		expect(env.toolResults("subagent")[0]?.text).toMatch(/^Scout got: User dismissed the questions/);
	});

	it("a child killed while its form is open: the form closes at once, the parent's model gets an error result, the parent goes on", async () => {
		const env = (piEnv = createRelayPiEnv(scoutAsks(DB_FORM, whatNow)));
		const screen = await startParent(env);
		await screen.waitFor("Asked by scout");
		const [child] = await waitForSubagents(env, 1);

		killSubagent(env, child?.pid);
		await screen.waitForGone("Which database");
		await screen.waitFor(QUOTE_PREFIX);

		const [parentSaw] = env.toolResults("subagent");
		expect(parentSaw?.isError).toBe(true);
		expect(parentSaw?.text).toMatch(/subagent exited/);
		expect(childResults(env)).toEqual([]);

		await sayWhatNow(screen);
		expect(modelCalled(env, WHAT_NOW)).toBe(true);
		expect(await screen.isRunning()).toBe(true);
	});

	it("a queued child killed before its turn: its form never opens, the open one is unaffected", async () => {
		// Each child first writes its pid, so the test can tell them apart.
		const env = (piEnv = createRelayPiEnv(twoChildrenAsk({ writePids: true })));
		const screen = await startParent(env);
		const firstScreen = await screen.waitFor(/Asked by (scout|critic)/);
		const first = firstScreen.includes("Asked by scout") ? "scout" : "critic";
		const second = first === "scout" ? "critic" : "scout";
		await until(
			() => modelCalled(env, "SCOUT TASK", 1) && modelCalled(env, "CRITIC TASK", 1),
			"both children to call ask_user",
		);

		killSubagent(env, Number(readFileSync(join(env.cwd, `${second}.pid`), "utf8")));
		await until(() => subagentsOf(env).length === 1, "the queued child to be gone");
		// A queued form left on the queue would open now, hold the run, and the parent would never reply.
		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);
		expect(await screen.capture()).not.toContain(`Asked by ${second}`);

		expect(childResults(env)).toHaveLength(1);
		expect(childResults(env)[0]?.details.questions[0]?.id).toBe(first === "scout" ? "db" : "license");
		expect(childResults(env)[0]?.details.status).toBe("answered");
		const parentSaw = env.toolResults("subagent");
		expect(parentSaw.filter((r) => r.isError).map((r) => r.text)).toEqual([expect.stringMatching(/subagent exited/)]);
		expect(parentSaw.filter((r) => !r.isError).map((r) => r.text)).toEqual([
			expect.stringMatching(/got: User submitted the form/),
		]);
	});

	it("Ctrl+C in a relayed form aborts the parent's run: the form closes and the child is stopped", async () => {
		const env = (piEnv = createRelayPiEnv(scoutAsks(DB_FORM, whatNow)));
		const screen = await startParent(env);
		await screen.waitFor("Asked by scout");
		await waitForSubagents(env, 1);

		await screen.send("C-c");
		await screen.waitForGone("Which database");
		await waitForSubagents(env, 0);

		await sayWhatNow(screen);
		// The relay answers the child "aborted" and the runner stops it at the same moment: whether the
		// child's model still logs that answer before SIGTERM lands is a race, and either way is right.
		// What must never happen is any other status reaching the child.
		expect(childResults(env).map((r) => r.details.status)).toEqual(childResults(env).length === 0 ? [] : ["aborted"]);
		const [parentSaw] = env.toolResults("subagent");
		expect(parentSaw?.isError).toBe(true);
		expect(parentSaw?.text).toMatch(/aborted: the subagent was stopped/);
		expect(await screen.isRunning()).toBe(true);
	});

	it("the child's ask_user times out: the parent's form closes at once, and the child gets timed_out with the answers given so far", async () => {
		// Every process gets the timeout; only the child runs ask_user (the parent's form is the channel's, without one).
		const env = (piEnv = createRelayPiEnv(scoutAsks(TWO_QUESTIONS), { PI_ASK_USER_TIMEOUT: "3" }));
		const screen = await startParent(env);
		await screen.waitFor("Asked by scout");
		await screen.send("2");
		await screen.waitFor("What should the command");

		await screen.waitForGone("What should the command");
		await screen.waitFor(`${QUOTE_PREFIX} Scout got:`);
		const [child] = childResults(env);
		expect(child?.details.status).toBe("timed_out");
		expect(child?.details.answers["db"]?.selections).toEqual([{ value: "SQLite", label: "SQLite" }]);
		expect(child?.details.answers["cli"]).toBeUndefined();
	});

	it("nested: a grandchild's question reaches the top TUI labelled “outer › inner”, and its answer reaches the grandchild", async () => {
		const env = (piEnv = createRelayPiEnv(NESTED));
		const screen = await startParent(env);

		const form = await screen.waitFor("Which database");
		// The task of who asks: the grandchild's, passed on by the middle child with its form.
		expect(form).toContain("Asked by planner › scout · INNER TASK: pick a database");
		await screen.send("2");
		await screen.waitFor(`${QUOTE_PREFIX} Middle got: Inner got:`);

		const [grandchild] = childResults(env);
		expect(childResults(env)).toHaveLength(1);
		expect(grandchild?.details.status).toBe("answered");
		expect(grandchild?.details.answers["db"]?.selections).toEqual([{ value: "SQLite", label: "SQLite" }]);
		// Two subagent results: the middle child's (the grandchild's report) and the parent's (the middle's).
		const reports = env.toolResults("subagent").map((r) => r.text);
		expect(reports).toEqual([`Inner got: ${grandchild?.text}`, `Middle got: Inner got: ${grandchild?.text}`]);
	});

	it("You decide in the top TUI reaches a grandchild through two relays (reply v2): its model is told the question is left to it", async () => {
		const env = (piEnv = createRelayPiEnv(NESTED));
		const screen = await startParent(env);

		const form = await screen.waitFor("Which database");
		expect(form).toContain("4. You decide");
		await screen.send("4");
		await screen.waitFor(`${QUOTE_PREFIX} Middle got: Inner got:`);

		const [grandchild] = childResults(env);
		expect(grandchild?.details).toMatchObject({ status: "answered", answers: {}, skipped: [], delegated: ["db"] });
		expect(grandchild?.text).toContain("db: left to you — choose and say which");
	});

	it("nested: the grandchild killed while its form is open — the middle child withdraws the form, the top closes it, and the reports go on up", async () => {
		const env = (piEnv = createRelayPiEnv(NESTED));
		const screen = await startParent(env);
		await screen.waitFor("Asked by planner › scout");
		const children = await waitForSubagents(env, 2);
		const grandchild = children.find((p) => children.some((parent) => parent.pid === p.ppid));
		expect(grandchild).toBeDefined();

		killSubagent(env, grandchild?.pid);
		// The top's form belongs to the middle child's relay request: only its cancel notice can close it.
		await screen.waitForGone("Which database");
		await screen.waitFor(`${QUOTE_PREFIX} Middle got:`);

		expect(childResults(env)).toEqual([]);
		const [middleSaw, parentSaw] = env.toolResults("subagent");
		expect(middleSaw?.isError).toBe(true);
		expect(middleSaw?.text).toMatch(/subagent exited/);
		expect(parentSaw?.isError).toBe(false);
		expect(parentSaw?.text).toBe(`Middle got: ${middleSaw?.text}`);
	});
});

describe("a subagent's ask_user under a parent without a TUI", () => {
	it("an RPC parent (not itself relayed) walks the child's form with its own dialogs, labelled with the agent", async () => {
		// The CLI names come with previews, which dialogs do not show: the child's model is told.
		const [db, cli] = TWO_QUESTIONS.questions;
		const previewed = cli && { ...cli, options: cli.options.map((o) => ({ ...o, preview: `$ ${o.label} --help` })) };
		const env = (piEnv = createRelayPiEnv(scoutAsks({ questions: [db, previewed] })));
		const handler = answerInOrder(choose("SQLite"), choose("ship"), choose(ROW.submit));
		rpc = RpcPi.start(env, handler);
		await rpc.prompt(DELEGATE);

		expect(handler.unexpected).toEqual([]);
		expect(rpc.dialogs.map((d) => d.method)).toEqual(["select", "select", "select"]);
		expect(rpc.dialogs[0]?.title).toContain("asked by scout");
		expect(rpc.dialogs[0]?.title.split("\n")).toContain("Task: SCOUT TASK: ask the user");
		expect(rpc.dialogs[0]?.title).toContain("Which database should the service use?");
		// The parent's client never sees the relay's wire format.
		expect(rpc.dialogs.every((d) => !d.title.startsWith("\0"))).toBe(true);

		const [child] = childResults(env);
		expect(child?.details.status).toBe("answered");
		expect(child?.details.answers["db"]?.selections).toEqual([{ value: "SQLite", label: "SQLite" }]);
		expect(child?.details.answers["cli"]?.selections).toEqual([{ value: "ship", label: "ship" }]);
		expect(JSON.stringify(rpc.dialogs)).not.toContain("--help");
		expect(child?.text).toContain("Previews not shown: the user answered cli without seeing");
		expect(env.toolResults("subagent")[0]?.text).toBe(`Scout got: ${child?.text}`);
	});

	it("a headless parent (pi -p) answers the child no_ui", async () => {
		const env = (piEnv = createRelayPiEnv(scoutAsks(TWO_QUESTIONS)));
		const run = await runHeadless(env, "print", [DELEGATE]);
		expect(run.exitCode, run.stderr).toBe(0);

		const [child] = childResults(env);
		expect(childResults(env)).toHaveLength(1);
		expect(child?.isError).toBe(false);
		expect(child?.details.status).toBe("no_ui");
		expect(run.stdout).toContain(`${QUOTE_PREFIX} Scout got:`);
		expect(env.toolResults("subagent")[0]?.text).toBe(`Scout got: ${child?.text}`);
	});
});
