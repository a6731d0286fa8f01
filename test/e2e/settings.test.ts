/**
 * The settings file in the real pi: a project's `.pi/ask-user.json` replaces
 * the steering text the model reads where the user trusted the project (and
 * only there), and bad settings are a warning on screen while everything
 * else — the form included — still works.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ASK, askScript, onlyAskResult, submitFirstOptions, TWO_QUESTIONS } from "../support/ask-fixtures.ts";
import type { ModelCallLogEntry } from "../support/model-script.ts";
import { scriptOf } from "../support/model-script.ts";
import { createPiEnv } from "../support/pi-env.ts";
import { startedPerTest } from "../support/harness.ts";
import { RpcPi } from "../support/rpc-client.ts";
import { TmuxPi } from "../support/tmux.ts";

const started = startedPerTest();

async function askAndSubmit(screen: TmuxPi): Promise<void> {
	await screen.type(ASK);
	await screen.send("Enter");
	await screen.waitFor("Which database");
	await submitFirstOptions(screen);
}

describe("ask-user.json", () => {
	/**
	 * A project whose `.pi/ask-user.json` sets a bad attention and its own steering texts; `asks`: what else it has
	 * that pi asks trust for (pi settings, or skills in `.agents/skills`), if anything.
	 */
	function projectWithSteering(asks: "settings" | "skills" | undefined) {
		const piEnv = (started.piEnv = createPiEnv({ script: askScript(TWO_QUESTIONS) }));
		mkdirSync(join(piEnv.cwd, ".pi"));
		if (asks === "settings") writeFileSync(join(piEnv.cwd, ".pi", "settings.json"), "{}");
		if (asks === "skills") mkdirSync(join(piEnv.cwd, ".agents", "skills"), { recursive: true });
		writeFileSync(
			join(piEnv.cwd, ".pi", "ask-user.json"),
			JSON.stringify({
				attention: "loud",
				description: "CUSTOM DESCRIPTION of ask_user.",
				promptGuidelines: ["Use ask_user for CUSTOM GUIDELINE reasons."],
			}),
		);
		return piEnv;
	}

	it.each([
		["pi settings", "settings"],
		["skills in .agents/skills", "skills"],
	] as const)(
		"a project the user trusted (--approve) for its %s: its file replaces the steering text the model reads; a bad value there is one warning, and the rest applies",
		async (_what, asks) => {
			const piEnv = projectWithSteering(asks);
			const tui = (started.tui = await TmuxPi.start(piEnv, { cols: 120, rows: 40, extraArgs: ["--approve"] }));
			const start = await tui.waitFor("attention must be one of");
			expect(start.split("ask_user settings").length - 1).toBe(1);
			await askAndSubmit(tui);

			const call = piEnv.log().find((e): e is ModelCallLogEntry => e.kind === "call");
			expect(call?.askUserDescription).toBe("CUSTOM DESCRIPTION of ask_user.");
			expect(call?.systemPrompt).toContain("Use ask_user for CUSTOM GUIDELINE reasons.");
			expect(call?.systemPrompt).not.toContain("Batch related decisions into one ask_user call");
			expect(onlyAskResult(piEnv).details.status).toBe("answered");
		},
	);

	for (const [what, asks, extraArgs] of [
		["a project the user declined (--no-approve)", "settings", ["--no-approve"]],
		["a project with nothing of pi's to trust (pi reports it trusted; nobody decided)", undefined, []],
	] as const) {
		it(`${what}: its steering texts do not reach the model, and a warning says why; the rest of its file applies`, async () => {
			const piEnv = projectWithSteering(asks);
			const tui = (started.tui = await TmuxPi.start(piEnv, { cols: 120, rows: 40, extraArgs: [...extraArgs] }));
			await tui.waitFor("attention must be one of");
			const start = await tui.waitFor((screen) => screen.replace(/\s+/g, " ").includes("start pi again"));
			expect(start.split("ask_user settings").length - 1).toBe(2);
			await askAndSubmit(tui);

			const call = piEnv.log().find((e): e is ModelCallLogEntry => e.kind === "call");
			expect(call?.askUserDescription).not.toContain("CUSTOM");
			expect(call?.systemPrompt).not.toContain("CUSTOM GUIDELINE");
			expect(call?.systemPrompt).toContain("ask_user");
			expect(onlyAskResult(piEnv).details.status).toBe("answered");
		});
	}

	// Read at the first session start, not at load: the user's own texts reach the model's first call, in RPC too.
	it("the user's own file replaces the steering texts the model reads, over RPC too", async () => {
		const piEnv = (started.piEnv = createPiEnv({ script: scriptOf({ user: "hi", replies: [{ text: "Hello." }] }) }));
		const steering = { promptSnippet: "OWN SNIPPET for ask_user", promptGuidelines: ["Use ask_user for OWN reasons."] };
		writeFileSync(join(piEnv.env["PI_CODING_AGENT_DIR"] as string, "ask-user.json"), JSON.stringify(steering));
		const rpc = (started.rpc = RpcPi.start(piEnv));
		await rpc.prompt("hi");
		const call = piEnv.log().find((e): e is ModelCallLogEntry => e.kind === "call");
		expect(call?.systemPrompt).toContain("Use ask_user for OWN reasons.");
		expect(call?.systemPrompt).toContain("OWN SNIPPET for ask_user");
		expect(call?.systemPrompt).not.toContain("Batch related decisions into one ask_user call");
	});

	it("a broken global file: one warning naming it, and the form works as ever", async () => {
		const piEnv = (started.piEnv = createPiEnv({ script: askScript(TWO_QUESTIONS) }));
		writeFileSync(join(piEnv.env["PI_CODING_AGENT_DIR"] as string, "ask-user.json"), '{ "attention": "desktop",');
		const tui = (started.tui = await TmuxPi.start(piEnv, { cols: 120, rows: 40 }));
		const start = await tui.waitFor("is not valid JSON");
		expect(start).toContain("ask-user.json");
		expect(start.split("ask_user settings").length - 1).toBe(1);
		await askAndSubmit(tui);
		expect(onlyAskResult(piEnv).details.status).toBe("answered");
	});
});
