/**
 * The settings file in the real pi: a project's `.pi/ask-user.json` replaces
 * the steering text the model reads, and bad settings are a warning on screen
 * while everything else — the form included — still works.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ASK, askScript, onlyAskResult, submitFirstOptions, TWO_QUESTIONS } from "../support/ask-fixtures.ts";
import type { ModelCallLogEntry } from "../support/model-script.ts";
import { createPiEnv } from "../support/pi-env.ts";
import { startedPerTest } from "../support/subagents.ts";
import { TmuxPi } from "../support/tmux.ts";

const started = startedPerTest();

async function askAndSubmit(screen: TmuxPi): Promise<void> {
	await screen.type(ASK);
	await screen.send("Enter");
	await screen.waitFor("Which database", 15_000);
	await submitFirstOptions(screen);
}

describe("ask-user.json", () => {
	it("a project's file replaces the steering text the model reads; a bad value there is one warning, and the rest applies", async () => {
		const piEnv = (started.piEnv = createPiEnv({ script: askScript(TWO_QUESTIONS) }));
		mkdirSync(join(piEnv.cwd, ".pi"));
		writeFileSync(
			join(piEnv.cwd, ".pi", "ask-user.json"),
			JSON.stringify({ attention: "loud", description: "CUSTOM DESCRIPTION of ask_user.", promptGuidelines: ["Use ask_user for CUSTOM GUIDELINE reasons."] }),
		);
		const tui = (started.tui = await TmuxPi.start(piEnv, { cols: 120, rows: 40 }));
		const start = await tui.waitFor("attention must be one of", 15_000);
		expect(start.split("ask_user settings").length - 1).toBe(1);
		await askAndSubmit(tui);

		const call = piEnv.log().find((e): e is ModelCallLogEntry => e.kind === "call");
		expect(call?.askUserDescription).toBe("CUSTOM DESCRIPTION of ask_user.");
		expect(call?.systemPrompt).toContain("Use ask_user for CUSTOM GUIDELINE reasons.");
		expect(call?.systemPrompt).not.toContain("Batch related decisions into one ask_user call");
		expect(onlyAskResult(piEnv).details.status).toBe("answered");
	});

	it("a broken global file: one warning naming it, and the form works as ever", async () => {
		const piEnv = (started.piEnv = createPiEnv({ script: askScript(TWO_QUESTIONS) }));
		writeFileSync(join(piEnv.env["PI_CODING_AGENT_DIR"] as string, "ask-user.json"), '{ "attention": "desktop",');
		const tui = (started.tui = await TmuxPi.start(piEnv, { cols: 120, rows: 40 }));
		const start = await tui.waitFor("is not valid JSON", 15_000);
		expect(start).toContain("ask-user.json");
		expect(start.split("ask_user settings").length - 1).toBe(1);
		await askAndSubmit(tui);
		expect(onlyAskResult(piEnv).details.status).toBe("answered");
	});
});
