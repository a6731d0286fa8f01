/**
 * A question outlives pi (src/restore.ts, src/kept.ts), in the real pi TUI
 * with a saved session: the form open with an option chosen and text typed
 * but not saved, pi killed with SIGKILL, then the session continued — the
 * form is back as it was, and its answer reaches the model as a message.
 */

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, type ModelCallLogEntry, QUOTE_PREFIX, scriptOf } from "../support/model-script.ts";
import { createPiEnv, type PiEnv } from "../support/pi-env.ts";
import { startedPerTest, until } from "../support/harness.ts";
import { TmuxPi } from "../support/tmux.ts";

const started = startedPerTest();

const TEXT = "zebra-lantern-42";
const FORM = {
	questions: [
		{ id: "db", header: "Database", question: "Which database should the service use?", options: [{ label: "Postgres" }, { label: "SQLite" }] },
		{ id: "why", header: "Context", question: "Anything else I should know?" },
	],
};
const LATE = "Late answer to ask_user";

/** On "ask", the model asks FORM; a late answer is quoted back. */
const script = (timeoutReply = false) =>
	scriptOf(
		{ user: LATE, replies: [{ text: `${QUOTE_PREFIX} late answer received` }] },
		{ user: "ask", replies: [callTool("ask_user", FORM), { text: timeoutReply ? `${QUOTE_PREFIX} {{lastToolResult}}` : "(unused)" }] },
	);

function keptFiles(env: PiEnv): string[] {
	const sessions = join(env.root, "agent", "sessions");
	if (!existsSync(sessions)) return [];
	return (readdirSync(sessions, { recursive: true }) as string[]).filter((name) => /\.ask-user\/.+\.json$/.test(name)).map((name) => join(sessions, name));
}

/** The model's calls that started from a late answer: what it read. */
function lateAnswers(env: PiEnv): string[] {
	return env
		.log()
		.filter((e): e is ModelCallLogEntry => e.kind === "call" && e.user.startsWith(LATE))
		.map((e) => e.user);
}

/** pi asks FORM; option 2 is chosen on the first question and TEXT typed (not saved) on the second; waits until it is on disk. */
async function openAndType(env: PiEnv, extraArgs: string[] = []): Promise<TmuxPi> {
	const tui = (started.tui = await TmuxPi.start(env, { extraArgs }));
	await tui.waitFor("scripted");
	await tui.type("ask");
	await tui.send("Enter");
	await tui.waitFor("Which database");
	await tui.send("2");
	await tui.waitFor("Anything else");
	await tui.type(TEXT);
	await tui.waitFor(TEXT);
	await until(() => keptFiles(env).some((file) => readFileSync(file, "utf8").includes(TEXT)), "the typed text saved beside the session");
	return tui;
}

/** The form is back with SQLite chosen and TEXT in the editor (`shown` on screen): save the text, submit, wait for the model. */
async function submitRestored(tui: TmuxPi, env: PiEnv, shown = "Restored"): Promise<string> {
	const screen = await tui.waitFor(shown);
	expect(screen).toContain(TEXT);
	await tui.send("Enter");
	const review = await tui.waitFor("Review your answers");
	expect(review).toContain("SQLite");
	expect(review).toContain(TEXT);
	await tui.send("Enter");
	await until(() => lateAnswers(env).length > 0, "the late answer reaching the model");
	const [late = ""] = lateAnswers(env);
	return late;
}

function expectTheAnswer(late: string): void {
	expect(late).toContain('db: "SQLite"');
	expect(late).not.toContain("Postgres");
	expect(late).toContain(`"${TEXT}"`);
}

describe("a form that outlives pi", () => {
	it("kill -9 with the form open, then pi --continue: the form is back with the choice and the text; the answer reaches the model", async () => {
		const env = (started.piEnv = createPiEnv({ script: script(), sessions: true }));
		const first = await openAndType(env);
		process.kill(first.pid, "SIGKILL");
		await first.waitForExit();
		await first.kill();

		const again = (started.tui = await TmuxPi.start(env, { extraArgs: ["--continue"] }));
		// The first question answered (its tab marked), the second's editor holding the text.
		expect(await again.waitFor("Restored")).toContain("■ Database");
		expectTheAnswer(await submitRestored(again, env));
		await until(() => keptFiles(env).length === 0, "the answered form's file removed");
	});

	it("a corrupt saved form: one warning, pi starts, the session goes on", async () => {
		const env = (started.piEnv = createPiEnv({ script: script(), sessions: true }));
		const first = await openAndType(env);
		process.kill(first.pid, "SIGKILL");
		await first.waitForExit();
		await first.kill();
		const [file = ""] = keptFiles(env);
		writeFileSync(file, "{ not json");

		const again = (started.tui = await TmuxPi.start(env, { extraArgs: ["--continue"] }));
		await again.waitFor("saved form was dropped");
		expect(await again.capture()).not.toContain("Restored");
		expect(keptFiles(env)).toEqual([]);
		await again.type("ask");
		await again.send("Enter");
		await again.waitFor("Which database");
	});

	it("a form that timed out: timed_out reaches the model; /ask-user reopens it and the late answer reaches the model", async () => {
		const env = (started.piEnv = createPiEnv({ script: script(true), sessions: true, env: { PI_ASK_USER_TIMEOUT: "3" } }));
		const tui = await openAndType(env);
		await tui.waitFor(QUOTE_PREFIX);
		await until(() => env.toolResults("ask_user").length === 1, "the timed-out result");
		const [result] = env.toolResults("ask_user");
		expect(result?.text).toMatch(/^Time ran out/);

		await tui.type("/ask-user");
		await tui.send("Enter");
		const list = await tui.waitFor("Enter reopens");
		expect(list).toContain("Database · Context — timed out");
		await tui.send("Enter");
		// As the form ended: the text is the row's unsaved draft; Enter opens it in the editor.
		expect(await tui.waitFor("Reopened")).toContain("Type something… (draft)");
		await tui.send("Enter");
		await tui.waitFor("Your answer:");
		const late = await submitRestored(tui, env, "Your answer:");
		expectTheAnswer(late);
		expect(late).toContain("the call had ended (timed_out)");
	});

	it("/resume into the interrupted session from another one: the form is back, and its answer reaches the model", async () => {
		const env = (started.piEnv = createPiEnv({ script: script(), sessions: true }));
		const first = await openAndType(env);
		process.kill(first.pid, "SIGKILL");
		await first.waitForExit();
		await first.kill();

		// A new session in the same folder, then /resume back into the interrupted one.
		const other = (started.tui = await TmuxPi.start(env));
		await other.waitFor("scripted");
		await other.type("/resume");
		await other.send("Enter");
		await other.waitFor(/› ask +\d/);
		await other.send("Enter");
		expect(await other.waitFor("Restored")).toContain("■ Database");
		expectTheAnswer(await submitRestored(other, env));
	});
});
