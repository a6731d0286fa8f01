/**
 * ask_user in pi without a UI (`-p` and `--mode json`). With nobody to ask
 * through, the model is never offered ask_user. A call that still gets
 * through — here: the ancestor session whose channel this pi inherited was
 * there when the run started and is gone when the model calls — gets `no_ui`
 * with words telling it not to retry, and the tool is gone from the tools
 * offered on the next prompt.
 */

import { afterEach, describe, expect, it } from "vitest";
import { askResults, onlyAskResult, TWO_QUESTIONS } from "../support/ask-fixtures.ts";
import { parentGoneAfterTheCheck, runHeadless } from "../support/headless.ts";
import { callTool, type ModelCallLogEntry, quoteLastToolResult, scriptOf } from "../support/model-script.ts";
import { createPiEnv, type PiEnv } from "../support/pi-env.ts";
import { endPiTest } from "../support/harness.ts";

const script = scriptOf(
	{ user: "first", replies: [callTool("ask_user", TWO_QUESTIONS), quoteLastToolResult] },
	{ user: "second", replies: [{ text: "Tools now: {{tools}}" }] },
);

let piEnv: PiEnv | undefined;
afterEach(async () => {
	const started = { piEnv };
	piEnv = undefined;
	await endPiTest(started);
});

function callsFor(env: PiEnv, user: string): ModelCallLogEntry[] {
	return env.log().filter((e): e is ModelCallLogEntry => e.kind === "call" && e.user.includes(user));
}

describe.each(["print", "json"] as const)("pi %s mode", (mode) => {
	it("with nobody to ask through, the model is never offered ask_user, not even on the first turn", async () => {
		piEnv = createPiEnv({ script });
		const run = await runHeadless(piEnv, mode, ["first: ask me", "second: go on"]);
		expect(run.exitCode, run.stderr).toBe(0);
		const calls = piEnv.log().filter((e): e is ModelCallLogEntry => e.kind === "call");
		expect(calls.length).toBeGreaterThanOrEqual(2);
		for (const call of calls) {
			expect(call.tools).not.toContain("ask_user");
			expect(call.tools).toContain("read");
		}
	});

	it("a call that still gets through answers no_ui with the reason, tells the model not to call again, and drops ask_user from the next prompt", async () => {
		piEnv = createPiEnv({ script, env: await parentGoneAfterTheCheck() });
		const run = await runHeadless(piEnv, mode, ["first: ask me", "second: go on"]);
		expect(run.exitCode, run.stderr).toBe(0);

		const seen = onlyAskResult(piEnv);
		expect(seen.isError).toBe(false);
		expect(seen.details.status).toBe("no_ui");
		expect(seen.details.answers).toEqual({});
		expect(seen.text).toMatch(/do not call it again/i);
		expect(seen.details.error).toMatch(/unreachable/);

		const [firstCall] = callsFor(piEnv, "first");
		expect(firstCall?.tools).toContain("ask_user");
		const secondCalls = callsFor(piEnv, "second");
		expect(secondCalls).toHaveLength(1);
		expect(secondCalls[0]?.tools).not.toContain("ask_user");
		// The rest of the tool set is untouched.
		expect(secondCalls[0]?.tools).toEqual(firstCall?.tools.filter((t) => t !== "ask_user"));
	});
});

describe("pi --mode json", () => {
	it("streams the no_ui result in tool_execution_end with the questions in details", async () => {
		piEnv = createPiEnv({ script, env: await parentGoneAfterTheCheck() });
		const run = await runHeadless(piEnv, "json", ["first: ask me"]);
		expect(run.exitCode, run.stderr).toBe(0);
		const end = run.events.find((e) => e["type"] === "tool_execution_end" && e["toolName"] === "ask_user");
		expect(end?.["isError"]).toBe(false);
		const result = end?.["result"] as { details?: { status?: string; questions?: { id: string }[] } } | undefined;
		expect(result?.details?.status).toBe("no_ui");
		expect(result?.details?.questions?.map((q) => q.id)).toEqual(["db", "cli"]);
		expect(askResults(piEnv).map((r) => r.details.status)).toEqual(["no_ui"]);
	});
});

describe("pi -p", () => {
	it("a model that calls ask_user again in the same run finds it gone, and the run ends normally", async () => {
		// pi 1.x applies setActiveTools inside the run: the next request no longer offers ask_user, and a
		// call to it anyway is refused by pi as an unknown tool (pi 0.73 ran it again, for no_ui again).
		piEnv = createPiEnv({
			script: scriptOf({
				user: "stubborn",
				replies: [callTool("ask_user", TWO_QUESTIONS), callTool("ask_user", TWO_QUESTIONS), { text: "giving up" }],
			}),
			env: await parentGoneAfterTheCheck(),
		});
		const run = await runHeadless(piEnv, "print", ["stubborn: ask me"]);
		expect(run.exitCode, run.stderr).toBe(0);
		const [first, second] = askResults(piEnv);
		expect([first?.details.status, first?.isError]).toEqual(["no_ui", false]);
		expect(second?.isError).toBe(true);
		const calls = piEnv.log().filter((e) => e.kind === "call");
		expect(calls[0]?.tools).toContain("ask_user");
		expect(calls[1]?.tools).not.toContain("ask_user");
		expect(run.stdout).toContain("giving up");
	});

	it("prints the model's final reply, which quotes the no_ui result", async () => {
		piEnv = createPiEnv({ script, env: await parentGoneAfterTheCheck() });
		const run = await runHeadless(piEnv, "print", ["first: ask me"]);
		expect(run.exitCode, run.stderr).toBe(0);
		expect(run.stdout).toContain("Received:");
		expect(run.stdout).toContain(onlyAskResult(piEnv).text.split("\n")[0]);
	});
});
