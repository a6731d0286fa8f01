/**
 * Revise after submit (src/kept/restore.ts, src/kept/revision.ts) in the real pi
 * TUI with a saved session: a form answered, then `/ask-user` lists it as
 * answered, reopens it as submitted, an answer changed and submitted again —
 * the scripted model receives the revised answer, when pi is idle (a turn of its
 * own) and while a run streams (steering: before the run's next tool call).
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FORM, keptStatuses, REVISED, revisions, TEXT } from "../support/kept-forms.ts";
import { callTool, type ModelCallLogEntry, QUOTE_PREFIX, scriptOf } from "../support/model-script.ts";
import { createPiEnv, type PiEnv } from "../support/pi-env.ts";
import { startedPerTest, until } from "../support/harness.ts";
import { TmuxPi } from "../support/tmux.ts";

const started = startedPerTest();

/** On "ask", FORM; on "work", a tool that waits for the file `go`, then another; a revision is quoted back. */
const script = () =>
	scriptOf(
		{ user: REVISED, replies: [{ text: `${QUOTE_PREFIX} revision received` }] },
		{ user: "ask", replies: [callTool("ask_user", FORM), { text: `${QUOTE_PREFIX} first answer` }] },
		{
			user: "work",
			replies: [
				callTool("bash", { command: "until [ -f go ]; do sleep 0.1; done; echo waited" }),
				callTool("bash", { command: "echo second-step" }),
				{ text: "work done" },
			],
		},
	);

/** pi asks FORM; SQLite and TEXT are submitted; the form is kept as answered. */
async function answerForm(env: PiEnv): Promise<TmuxPi> {
	const tui = (started.tui = await TmuxPi.start(env));
	await tui.waitFor("scripted");
	await tui.type("ask");
	await tui.send("Enter");
	await tui.waitFor("Which database");
	await tui.send("2");
	await tui.waitFor("Anything else");
	await tui.type(TEXT);
	await tui.waitFor(TEXT);
	await tui.send("Enter");
	await tui.waitFor("Review your answers");
	await tui.send("Enter");
	await tui.waitFor("first answer");
	await until(() => keptStatuses(env).join() === "answered", "the form kept as answered");
	return tui;
}

/** `/ask-user`, the answered form picked, Postgres chosen instead, submitted again. */
async function revise(tui: TmuxPi): Promise<void> {
	await tui.type("/ask-user");
	await tui.send("Enter");
	const list = await tui.waitFor("Enter reopens");
	expect(list).toMatch(/Database · Context — answered \d\d:\d\d/);
	await tui.send("Enter");
	const form = await tui.waitFor("Revising");
	expect(form).toContain("Which database");
	// Every question answered already: the next step is the review, the text as it was submitted.
	await tui.send("1");
	const review = await tui.waitFor("Review your answers");
	expect(review).toContain("Postgres");
	expect(review).toContain(TEXT);
	await tui.send("Enter");
}

const calls = (env: PiEnv) => env.log().filter((e): e is ModelCallLogEntry => e.kind === "call");

function expectTheRevision(revised: string, id: string): void {
	expect(revised.startsWith(`${REVISED} "${id}"`)).toBe(true);
	expect(revised).toContain('db: "SQLite" → "Postgres"');
	expect(revised).toContain('db: "Postgres"');
	expect(revised).toContain(`why: wrote "${TEXT}"`);
}

describe("revise after submit", () => {
	it("idle: /ask-user lists the answered form with when, reopens it as submitted; a changed answer reaches the model as one message that starts a turn", async () => {
		const env = (started.piEnv = createPiEnv({ script: script(), sessions: true }));
		const tui = await answerForm(env);
		const [first] = env.toolResults("ask_user");
		await revise(tui);
		await until(() => revisions(env).length === 1, "the revised answer reaching the model");
		expectTheRevision(revisions(env)[0] ?? "", first?.toolCallId ?? "");
		await tui.waitFor("revision received");
		await until(() => keptStatuses(env).join() === "answered", "the revised form kept as answered");
	});

	it("while a run streams: the revised answer is steered in, and the model receives it before its next tool call", async () => {
		const env = (started.piEnv = createPiEnv({ script: script(), sessions: true }));
		const tui = await answerForm(env);
		const [first] = env.toolResults("ask_user");
		await tui.type("work");
		await tui.send("Enter");
		// The run's tool waits for the file "go": the run streams while the form is revised.
		await until(() => calls(env).some((call) => call.user === "work"), "the run's first model call");
		await revise(tui);
		await tui.waitForGone("Review your answers");
		expect(revisions(env)).toEqual([]);
		writeFileSync(join(env.cwd, "go"), "");
		await until(() => revisions(env).length === 1, "the revised answer reaching the model");
		expectTheRevision(revisions(env)[0] ?? "", first?.toolCallId ?? "");
		// The call after the waiting tool's result read the revision; the run's second tool call was never made.
		const after = calls(env).slice(calls(env).findIndex((call) => call.user === "work"));
		expect(after.map((call) => [call.user.slice(0, REVISED.length), call.replyIndex])).toEqual([
			["work", 0],
			[REVISED, 0],
		]);
		expect(env.toolResults("bash").map((result) => result.text.trim())).toEqual(["waited"]);
		await tui.waitFor("revision received");
	});
});
