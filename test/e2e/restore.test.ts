/**
 * A question outlives pi (src/kept/restore.ts, src/kept/store.ts), in the real pi TUI
 * with a saved session: the form open with an option chosen and text typed
 * but not saved, pi killed with SIGKILL, then the session continued — the
 * form is back as it was, and its answer reaches the model as a message.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	expectTheAnswer,
	keptFiles,
	keptStatuses,
	killWithFormOpen,
	lateAnswers,
	openAndType,
	script,
	submitRestored,
} from "../support/kept-forms.ts";
import { QUOTE_PREFIX, scriptOf } from "../support/model-script.ts";
import { createPiEnv } from "../support/pi-env.ts";
import { startedPerTest, until } from "../support/harness.ts";
import { TmuxPi } from "../support/tmux.ts";

const started = startedPerTest();

describe("a form that outlives pi", () => {
	it("kill -9 with the form open, then pi --continue: the form is back with the choice and the text; the answer reaches the model", async () => {
		const env = (started.piEnv = createPiEnv({ script: script(), sessions: true }));
		await killWithFormOpen(env, started);

		const again = (started.tui = await TmuxPi.start(env, { extraArgs: ["--continue"] }));
		// The first question answered (its tab marked), the second's editor holding the text.
		expect(await again.waitFor("Restored")).toContain("■ Database");
		expectTheAnswer(await submitRestored(again, env));
		await until(() => keptStatuses(env).join() === "answered", "the form kept as answered");
	});

	it("the terminal closed with the form open (SIGHUP), then pi --continue: the form is back as it was", async () => {
		const env = (started.piEnv = createPiEnv({ script: script(), sessions: true }));
		const first = await openAndType(env, started);
		await first.kill();
		const again = (started.tui = await TmuxPi.start(env, { extraArgs: ["--continue"] }));
		expect(await again.waitFor("Restored")).toContain("■ Database");
		expectTheAnswer(await submitRestored(again, env));
	});

	it("a corrupt and an oversized saved form: one warning, pi starts, the session goes on", async () => {
		const env = (started.piEnv = createPiEnv({ script: script(), sessions: true }));
		await killWithFormOpen(env, started);
		const [file = ""] = keptFiles(env);
		writeFileSync(file, "{ not json");
		writeFileSync(join(dirname(file), "big.json"), `{"version":1,"answers":"${"x".repeat(1_100_000)}"}`);

		const again = (started.tui = await TmuxPi.start(env, { extraArgs: ["--continue"] }));
		const warning = await again.waitFor("saved form was dropped");
		expect(warning).toContain("not valid JSON");
		expect(warning).toMatch(/larger than/);
		expect(await again.capture()).not.toContain("Restored");
		// The resumed transcript draws the call with its headers once what a call runs has loaded after start-up.
		await again.waitFor("ask_user Database · Context");
		expect(keptFiles(env)).toEqual([]);
		await again.type("ask");
		await again.send("Enter");
		await again.waitFor("Which database");
	});

	it("a form that timed out: timed_out reaches the model; /ask-user reopens it and the late answer reaches the model", async () => {
		const env = (started.piEnv = createPiEnv({
			script: script(true),
			sessions: true,
			env: { PI_ASK_USER_TIMEOUT: "3" },
		}));
		const tui = await openAndType(env, started);
		await tui.waitFor(QUOTE_PREFIX);
		await until(() => env.toolResults("ask_user").length === 1, "the timed-out result");
		const [result] = env.toolResults("ask_user");
		expect(result?.text).toMatch(/^Time ran out/);

		await tui.type("/ask-user");
		await tui.send("Enter");
		const list = await tui.waitFor("Enter reopens");
		expect(list).toContain("Database · Context — timed out");
		await tui.send("Enter");
		// As the form ended: the text in the editor it was typed in.
		const late = await submitRestored(tui, env, "Reopened");
		expectTheAnswer(late);
		expect(late).toContain("the call had ended (timed_out)");
	});

	it("/resume into the interrupted session from another one: the form is back, and its answer reaches the model", async () => {
		const env = (started.piEnv = createPiEnv({ script: script(), sessions: true }));
		await killWithFormOpen(env, started);

		// A new session in the same folder, then /resume back into the interrupted one.
		const other = (started.tui = await TmuxPi.start(env));
		await other.waitForReady();
		await other.type("/resume");
		await other.send("Enter");
		await other.waitFor(/› ask +\d/);
		await other.send("Enter");
		expect(await other.waitFor("Restored")).toContain("■ Database");
		expectTheAnswer(await submitRestored(other, env));
	});

	it("two pi processes on one session: a form open in one is not taken by the other, and still answers its call", async () => {
		const env = (started.piEnv = createPiEnv({ script: script(true), sessions: true }));
		const first = await openAndType(env, started);
		const second = await TmuxPi.start(env, { extraArgs: ["--continue"] });
		try {
			await second.waitForReady();
			await second.type("/ask-user");
			await second.send("Enter");
			await second.waitFor("No form of this session is waiting");
			expect(await second.capture()).not.toContain("Restored");
		} finally {
			await second.kill();
		}
		await first.send("Enter");
		await first.waitFor("Review your answers");
		await first.send("Enter");
		await first.waitFor(QUOTE_PREFIX);
		await until(() => env.toolResults("ask_user").length === 1, "the call's own result");
		expect(env.toolResults("ask_user")[0]?.text).toMatch(/^User submitted the form/);
		await until(() => keptStatuses(env).join() === "answered", "the form kept as answered");
	});

	it("two forms under one call id, in two turns: the first dismissed, pi killed with the second open; --continue restores the second, /ask-user the first, each with its own answers", async () => {
		const ask = (user: string, id: string, header: string, question: string) => ({
			user,
			replies: [
				{
					toolCalls: [
						{
							name: "ask_user",
							id: "reused_call",
							arguments: {
								questions: [
									{ id, header, question, options: [{ label: `${header} A` }, { label: `${header} B` }] },
									{ id: "why", header: "Context", question: `Anything else about the ${id}?` },
								],
							},
						},
					],
				},
			],
		});
		const env = (started.piEnv = createPiEnv({
			script: scriptOf(
				{ user: "Late answer to ask_user", replies: [{ text: `${QUOTE_PREFIX} late answer received` }] },
				ask("first", "db", "Database", "Which database?"),
				ask("second", "cache", "Cache", "Which cache?"),
			),
			sessions: true,
		}));
		const saved = (text: string) => keptFiles(env).some((file) => readFileSync(file, "utf8").includes(text));
		const first = (started.tui = await TmuxPi.start(env));
		const answer = async (prompt: string, question: string, text: string) => {
			await first.waitForReady();
			await first.type(prompt);
			await first.send("Enter");
			await first.waitFor(question);
			await first.send("2");
			await first.waitFor("Anything else");
			await first.type(text);
			await first.waitFor(text);
			await until(() => saved(text), `${text} saved beside the session`);
		};
		await answer("first", "Which database?", "first-form-text");
		await first.send("Enter");
		await first.waitFor("Review your answers");
		await first.send("Escape");
		await first.waitFor("esc again");
		await first.send("Escape");
		await until(() => saved('"status":"dismissed"'), "the first form kept as dismissed");
		await answer("second", "Which cache?", "second-form-text");
		process.kill(first.pid, "SIGKILL");
		await first.waitForExit();
		await first.kill();

		const again = (started.tui = await TmuxPi.start(env, { extraArgs: ["--continue"] }));
		const restored = await again.waitFor("Restored");
		expect(restored).toContain("second-form-text");
		await again.send("Enter");
		await again.waitFor("Review your answers");
		await again.send("Enter");
		await until(() => lateAnswers(env).length === 1, "the second form's late answer");
		expect(lateAnswers(env)[0]).toContain('cache: "Cache B"');
		expect(lateAnswers(env)[0]).toContain('"second-form-text"');
		await again.waitFor("late answer received");

		await again.type("/ask-user");
		await again.send("Enter");
		const list = await again.waitFor("Enter reopens");
		expect(list).toContain("Database · Context — dismissed");
		await again.send("Enter");
		expect(await again.waitFor("Reopened")).toContain("Review your answers");
		await again.send("Enter");
		await until(() => lateAnswers(env).length === 2, "the first form's late answer");
		expect(lateAnswers(env)[1]).toContain('db: "Database B"');
		expect(lateAnswers(env)[1]).toContain('"first-form-text"');
		await until(() => keptStatuses(env).join() === "answered,answered", "both forms kept as answered");
	});
});
