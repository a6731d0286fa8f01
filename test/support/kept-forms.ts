/**
 * The e2e steps of a form that outlives pi (test/e2e/restore.test.ts, and the
 * main flow in pi 0.73.1): a two-question form, option 2 chosen and a text
 * typed but not saved, and what the model must receive as the late answer.
 */

import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { expect } from "vitest";
import { callTool, type ModelCallLogEntry, QUOTE_PREFIX, scriptOf } from "./model-script.ts";
import type { PiEnv } from "./pi-env.ts";
import { until } from "./harness.ts";
import { TmuxPi } from "./tmux.ts";

export { FORM, keptFiles, script, TEXT } from "./kept-fixtures.ts";
import { FORM, keptFiles, LATE, TEXT } from "./kept-fixtures.ts";

/** How each kept form ended ("answered": kept for a revision), one per file, sorted. */
export function keptStatuses(env: PiEnv): string[] {
	return keptFiles(env)
		.map((file) => (JSON.parse(readFileSync(file, "utf8")) as { status: string }).status)
		.sort();
}

/** How a revised answer starts (src/kept/revision.ts `REVISED`). */
export const REVISED = "Revised answer to ask_user call";

/** The model's calls that started from a revised answer: what it read. */
export function revisions(env: PiEnv): string[] {
	return env
		.log()
		.filter((e): e is ModelCallLogEntry => e.kind === "call" && e.user.startsWith(REVISED))
		.map((e) => e.user);
}

/** The model's calls that started from a late answer: what it read. */
export function lateAnswers(env: PiEnv): string[] {
	return env
		.log()
		.filter((e): e is ModelCallLogEntry => e.kind === "call" && e.user.startsWith(LATE))
		.map((e) => e.user);
}

/** pi asks FORM; option 2 is chosen on the first question and TEXT typed (not saved) on the second; waits until it is on disk. */
export async function openAndType(env: PiEnv, started: { tui?: TmuxPi | undefined }): Promise<TmuxPi> {
	const tui = (started.tui = await TmuxPi.start(env));
	await tui.waitForReady();
	await tui.type("ask");
	await tui.send("Enter");
	await tui.waitFor("Which database");
	await tui.send("2");
	await tui.waitFor("Anything else");
	await tui.type(TEXT);
	await tui.waitFor(TEXT);
	await until(
		() => keptFiles(env).some((file) => readFileSync(file, "utf8").includes(TEXT)),
		"the typed text saved beside the session",
	);
	// Named by the call and the session entry (the assistant message) holding it.
	expect(keptFiles(env).map((file) => basename(file))).toEqual([
		expect.stringMatching(/^scripted_call_[0-9a-z]+_1@[0-9a-f]{8}\.json$/),
	]);
	return tui;
}

/** The form is back with SQLite chosen and TEXT in the editor (`shown` on screen): save the text, submit, wait for the model. */
export async function submitRestored(tui: TmuxPi, env: PiEnv, shown = "Restored"): Promise<string> {
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

export function expectTheAnswer(late: string): void {
	expect(late).toContain('db: "SQLite"');
	expect(late).not.toContain("Postgres");
	expect(late).toContain(`"${TEXT}"`);
}

/** pi (with `env`'s pi) asks FORM and is killed with SIGKILL once the typed text is on disk. */
export async function killWithFormOpen(env: PiEnv, started: { tui?: TmuxPi | undefined }): Promise<void> {
	const first = await openAndType(env, started);
	process.kill(first.pid, "SIGKILL");
	await first.waitForExit();
	await first.kill();
}

// ── Revise after submit (test/e2e/revise.test.ts, and the main flow in pi 0.73.1) ──

/** On "ask", FORM; on "work", a tool that waits for the file `go`, then another; a revision is quoted back. */
export const reviseScript = () =>
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
export async function answerAndKeep(env: PiEnv, started: { tui?: TmuxPi | undefined }): Promise<TmuxPi> {
	const tui = (started.tui = await TmuxPi.start(env));
	await tui.waitForReady();
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
export async function reviseAnswered(tui: TmuxPi): Promise<void> {
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

/** Every model call, in order. */
export const modelCalls = (env: PiEnv) => env.log().filter((e): e is ModelCallLogEntry => e.kind === "call");

/** The revision of SQLite to Postgres, TEXT kept, for call `id`. */
export function expectTheRevision(revised: string, id: string): void {
	expect(revised.startsWith(`${REVISED} "${id}"`)).toBe(true);
	expect(revised).toContain('db: "SQLite" → "Postgres"');
	expect(revised).toContain('db: "Postgres"');
	expect(revised).toContain(`why: wrote "${TEXT}"`);
}
