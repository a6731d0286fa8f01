/**
 * A session file across modes (pi 1.x records the active tools in the
 * session): used with a UI, continued in print mode, where nobody can answer
 * and ask_user is withheld, then resumed with a UI again, where it must be
 * offered again. Asserted on the tools the scripted model was offered.
 */

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHeadless } from "../support/headless.ts";
import { type ModelCallLogEntry, scriptOf } from "../support/model-script.ts";
import { createPiEnv, type PiEnv } from "../support/pi-env.ts";
import { RpcPi } from "../support/rpc-client.ts";
import { startedPerTest } from "../support/harness.ts";

const started = startedPerTest();

const sayTools = (user: string) => ({ user, replies: [{ text: "Tools now: {{tools}}" }] });

function toolsOffered(env: PiEnv, user: string): string[] | undefined {
	return env.log().find((e): e is ModelCallLogEntry => e.kind === "call" && e.user === user)?.tools;
}

describe("a session resumed across modes", () => {
	it("used over RPC, continued with pi -p (ask_user withheld), resumed over RPC: ask_user is offered again", async () => {
		const env = (started.piEnv = createPiEnv({
			script: scriptOf(sayTools("first"), sayTools("second"), sayTools("third")),
			sessions: true,
		}));
		const continued: PiEnv = { ...env, command: [...env.command, "--continue"] };

		const first = (started.rpc = RpcPi.start(env));
		await first.prompt("first");
		await first.close();
		const print = await runHeadless(continued, "print", ["second"]);
		expect(print.exitCode, print.stderr).toBe(0);
		const third = (started.rpc = RpcPi.start(continued));
		await third.prompt("third");

		expect(toolsOffered(env, "first")).toContain("ask_user");
		expect(toolsOffered(env, "second")).not.toContain("ask_user");
		expect(toolsOffered(env, "third")).toContain("ask_user");
		// The same session all along: one session file.
		const files = readdirSync(join(env.root, "agent", "sessions"), { recursive: true }).filter((name) =>
			String(name).endsWith(".jsonl"),
		);
		expect(files).toHaveLength(1);
	});
});
