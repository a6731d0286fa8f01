/**
 * pi-subagents (npm, 0.67.0), a third-party runner, in the real pi TUI. Its
 * foreground children (`async: false`) are SDK sessions inside the parent pi
 * (no UI, the parent's environment) that load no ambient extension: only the
 * ones the agent file's `extensions:` line names. Installed at test time from
 * test/hosts/pi-subagents/ into node_modules/.cache/pi-subagents
 * (scripts/cached-install.mjs) and loaded into the parent with `-e`; pi serves
 * it its own `@earendil-works/*` packages. The agents are user agents in the
 * isolated agent dir; the parent's TMPDIR (where pi-subagents keeps its
 * artifacts and child sessions) is inside the test's temp dir.
 *
 * An agent that can ask: no `tools:` line (`excludeTools:` narrows its tools
 * and keeps ask_user), and `extensions:` naming ask_user's index.ts (and here
 * the scripted model, whose provider the child registers from it). A `tools:`
 * line drops ask_user even when it lists it: pi-subagents keeps only the
 * host's built-in tools from it.
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cachedInstall } from "../../scripts/cached-install.mjs";
import { askResults, DB_FORM, dismissWithEscEsc } from "../support/ask-fixtures.ts";
import {
	type ModelCallLogEntry,
	QUOTE_PREFIX,
	quoteLastToolResult,
	SCRIPTED_MODEL,
	scriptOf,
	type ScriptedConversation,
	type ScriptedReply,
} from "../support/model-script.ts";
import { ASK_USER_EXTENSION, createPiEnv, type PiEnv, SCRIPTED_MODEL_EXTENSION, WAIT_MS } from "../support/pi-env.ts";
import { childrenOf } from "../support/plain-runners.ts";
import { startedPerTest, until } from "../support/harness.ts";
import { childAsks, expectParentStopped, parentGoesOnAfter } from "../support/subagents.ts";
import { TmuxPi } from "../support/tmux.ts";

/** pi transpiles pi-subagents' sources on every start (~13 s here, unloaded): each test gets room for that. */
const TEST_TIMEOUT_MS = 240_000;

let piSubagentsExtension = "";
const started = startedPerTest();

beforeAll(async () => {
	piSubagentsExtension = join(await cachedInstall("pi-subagents"), "node_modules", "pi-subagents", "index.ts");
}, 300_000);

const DELEGATE = "delegate this";

/** What every agent file here has below its name and description: the model, and the child's only extensions. */
const CHILD_MODEL_AND_EXTENSIONS = `model: ${SCRIPTED_MODEL}\nextensions: ${SCRIPTED_MODEL_EXTENSION}, ${ASK_USER_EXTENSION}\n`;

/** A parent pi with ask_user and pi-subagents, and these user agents (name → frontmatter lines after name and description). */
function createPiSubagentsEnv(conversations: ScriptedConversation[], agents: Record<string, string>): PiEnv {
	const env = createPiEnv({
		script: scriptOf(...conversations),
		extensions: [ASK_USER_EXTENSION, piSubagentsExtension],
	});
	const tmpDir = join(env.root, "tmp");
	mkdirSync(tmpDir);
	env.env["TMPDIR"] = tmpDir;
	const agentsDir = join(env.env["PI_CODING_AGENT_DIR"] as string, "agents");
	mkdirSync(agentsDir);
	for (const [name, frontmatter] of Object.entries(agents)) {
		writeFileSync(
			join(agentsDir, `${name}.md`),
			`---\nname: ${name}\ndescription: Does a task, asking the user when it must\n${frontmatter}---\nDo the task.\n`,
		);
	}
	return env;
}

/** The parent's conversation: on DELEGATE, run `agent` on `task` in the foreground, then quote the result. */
function parentRunsAgent(agent: string, task: string): ScriptedConversation {
	return { user: DELEGATE, replies: [runAgent(agent, task), quoteLastToolResult] };
}

/** The model's call of pi-subagents: `agent` on `task`, in the foreground. */
function runAgent(agent: string, task: string): ScriptedReply {
	return { toolCalls: [{ name: "subagent", arguments: { agent, task, async: false } }] };
}

/** A child's conversation: on its task, report the tools it was offered. */
function childListsTools(task: string, reportAs: string): ScriptedConversation {
	return { user: task, replies: [{ text: `${reportAs} was offered: {{tools}}` }] };
}

/**
 * Starts pi's TUI (100×40) and says DELEGATE, like startTuiWith but with a
 * longer wait for the first screen (see TEST_TIMEOUT_MS). With `outputFile`,
 * everything written to the terminal from the start is recorded there.
 */
async function startParent(env: PiEnv, outputFile?: string): Promise<TmuxPi> {
	const screen = (started.tui = await TmuxPi.start(env, { cols: 100, rows: 40 }));
	if (outputFile !== undefined) await screen.recordOutput(outputFile);
	await screen.waitFor("scripted", 2 * WAIT_MS);
	await screen.type(DELEGATE);
	await screen.send("Enter");
	return screen;
}

/** The calls of the model that runs `task` (pi-subagents sends the child "Task: <task>"). */
function callsOn(env: PiEnv, task: string): ModelCallLogEntry[] {
	return env.log().filter((e): e is ModelCallLogEntry => e.kind === "call" && e.user.includes(task));
}

describe("pi-subagents 0.67: a foreground child asks through the parent's TUI", () => {
	it(
		"an agent with no tools: line and ask_user in its extensions: line asks; the form is labelled with the agent's name, answered there, and the child reports the answer",
		async () => {
			const env = (started.piEnv = createPiSubagentsEnv(
				[childAsks("PLANNER TASK", DB_FORM, "Planner"), parentRunsAgent("planner", "PLANNER TASK: pick a database")],
				{
					planner: CHILD_MODEL_AND_EXTENSIONS,
				},
			));
			const screen = await startParent(env);

			const form = await screen.waitFor("Which database");
			// The name from pi-subagents' <active_agent name="planner"/> line; beside it the child's first message ("Task: PLANNER TASK: …").
			expect(form).toMatch(/^Asked by planner · PLANNER TASK: pick a database\s*$/m);
			const [firstCall] = callsOn(env, "PLANNER TASK");
			expect(firstCall?.user).toBe("Task: PLANNER TASK: pick a database");
			expect(firstCall?.systemPrompt).toContain('<active_agent name="planner"/>');
			expect(firstCall?.tools).toContain("ask_user");
			// No other process: the child is a session of the parent's own.
			expect(childrenOf(env, screen.pid)).toEqual([]);

			await screen.send("2");
			await screen.waitFor(`${QUOTE_PREFIX} Run fan-out`);

			const [child, ...more] = askResults(env);
			expect(more).toEqual([]);
			expect(child?.details.status).toBe("answered");
			expect(child?.details.answers["db"]?.selections).toEqual([{ value: "SQLite", label: "SQLite" }]);
			const [parentSaw] = env.toolResults("subagent");
			expect(parentSaw?.isError).toBe(false);
			expect(parentSaw?.text).toContain(`Planner got: ${child?.text}`);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"Esc twice on the child's form: the child's model reports the dismissal as its final answer, so pi-subagents passes it on instead of failing for want of output",
		async () => {
			const env = (started.piEnv = createPiSubagentsEnv(
				[childAsks("PLANNER TASK", DB_FORM, "Planner"), parentRunsAgent("planner", "PLANNER TASK: pick a database")],
				{
					planner: CHILD_MODEL_AND_EXTENSIONS,
				},
			));
			const screen = await startParent(env);
			await screen.waitFor("Which database");
			await dismissWithEscEsc(screen);
			await screen.waitFor(`${QUOTE_PREFIX} Run fan-out`);

			expect(askResults(env)[0]?.details.status).toBe("dismissed");
			expect(callsOn(env, "PLANNER TASK")).toHaveLength(2);
			const [parentSaw] = env.toolResults("subagent");
			expect(parentSaw?.isError).toBe(false);
			expect(parentSaw?.text).toContain("Planner got: User dismissed the questions");
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"Esc twice on the child's form stops the parent's run too: its next tool call is refused and its model is not called again until the user speaks",
		async () => {
			const env = (started.piEnv = createPiSubagentsEnv(
				[
					childAsks("PLANNER TASK", DB_FORM, "Planner"),
					...parentGoesOnAfter(DELEGATE, runAgent("planner", "PLANNER TASK: pick a database")),
				],
				{ planner: CHILD_MODEL_AND_EXTENSIONS },
			));
			const screen = await startParent(env);
			await screen.waitFor("Which database", 2 * WAIT_MS);
			await dismissWithEscEsc(screen);

			await expectParentStopped(env, screen, DELEGATE);
			expect(askResults(env)[0]?.details.status).toBe("dismissed");
			expect(env.toolResults("subagent")[0]?.text).toContain("Planner got: User dismissed the questions");
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"an agent with excludeTools: instead of a tools: line keeps ask_user",
		async () => {
			const env = (started.piEnv = createPiSubagentsEnv(
				[childListsTools("NARROW TASK", "Narrow"), parentRunsAgent("narrow", "NARROW TASK: pick a database")],
				{
					narrow: `excludeTools: edit, write\n${CHILD_MODEL_AND_EXTENSIONS}`,
				},
			));
			const screen = await startParent(env);
			await screen.waitFor(`${QUOTE_PREFIX} Run fan-out`);

			const offered = callsOn(env, "NARROW TASK")[0]?.tools;
			expect(offered).toContain("ask_user");
			expect(offered).toContain("read");
			expect(offered).not.toContain("edit");
			expect(offered).not.toContain("write");
		},
		TEST_TIMEOUT_MS,
	);
});

describe("pi-subagents 0.67: the tools: pitfall", () => {
	it(
		"an agent whose tools: line lists ask_user (its extension loaded) is not offered ask_user: pi-subagents keeps only the host's built-ins, says so on stderr only, and neither model hears of it",
		async () => {
			const env = (started.piEnv = createPiSubagentsEnv(
				[childListsTools("LISTER TASK", "Lister"), parentRunsAgent("lister", "LISTER TASK: pick a database")],
				{
					lister: `tools: read, bash, ask_user\n${CHILD_MODEL_AND_EXTENSIONS}`,
				},
			));
			const output = join(env.root, "terminal-output.txt");
			const screen = await startParent(env, output);
			await screen.waitFor(`${QUOTE_PREFIX} Run fan-out`);

			const [call, ...moreCalls] = callsOn(env, "LISTER TASK");
			expect(moreCalls).toEqual([]);
			expect(call?.tools).toEqual(["read", "bash", "contact_supervisor"]);
			const [parentSaw] = env.toolResults("subagent");
			expect(parentSaw?.isError).toBe(false);
			expect(parentSaw?.text).toContain("Lister was offered: read, bash, contact_supervisor");
			expect(parentSaw?.text).not.toContain("ask_user");
			// The one trace: pi-subagents' console.warn, written over the TUI.
			await until(
				() => readFileSync(output, "utf8").includes("host runtime tool availability omitted [ask_user]"),
				"pi-subagents' warning in the terminal output",
			);
		},
		TEST_TIMEOUT_MS,
	);
});
