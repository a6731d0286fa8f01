/**
 * The harness itself, against the real pi with a one-dialog probe tool: if
 * these fail, the ask_user e2e failures are about the harness, not the tool.
 */

import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callTool, quoteLastToolResult, scriptOf } from "../support/model-script.ts";
import { createPiEnv, type PiEnv, REPO_ROOT } from "../support/pi-env.ts";
import { answerInOrder, choose, RpcPi } from "../support/rpc-client.ts";
import { isRunningProcess, TmuxPi } from "../support/tmux.ts";
import { endPiTest } from "../support/harness.ts";

const PROBE = join(REPO_ROOT, "test", "support", "probe-extension.ts");
const probeScript = scriptOf({
	user: "probe",
	replies: [callTool("probe_select", { title: "Pick a colour", options: ["red", "green"] }), quoteLastToolResult],
});

let piEnv: PiEnv | undefined;
let rpc: RpcPi | undefined;
let tui: TmuxPi | undefined;

afterEach(async () => {
	const started = { tui, rpc, piEnv };
	tui = undefined;
	rpc = undefined;
	piEnv = undefined;
	await endPiTest(started);
});

describe("the harness", () => {
	it("RPC: a select dialog reaches the handler and its answer reaches the model", async () => {
		piEnv = createPiEnv({ script: probeScript, extensions: [PROBE] });
		const handler = answerInOrder(choose("green"));
		rpc = RpcPi.start(piEnv, handler);
		await rpc.prompt("probe please");
		expect(rpc.dialogs.map((d) => d.title)).toEqual(["Pick a colour"]);
		expect(handler.unexpected).toEqual([]);
		const [result] = piEnv.toolResults("probe_select");
		expect(result?.text).toBe("probe chose: green");
		expect(result?.isError).toBe(false);
	});

	it("TUI in tmux: the select dialog is on screen and Enter answers it", async () => {
		piEnv = createPiEnv({ script: probeScript, extensions: [PROBE] });
		tui = await TmuxPi.start(piEnv, { cols: 80, rows: 24 });
		await tui.waitForReady();
		await tui.type("probe now");
		await tui.send("Enter");
		await tui.waitFor("Pick a colour");
		await tui.send("Down", "Enter");
		await tui.waitFor("Received: probe chose: green");
		expect(piEnv.toolResults("probe_select").map((r) => r.text)).toEqual(["probe chose: green"]);

		const { pid } = tui;
		await tui.kill();
		expect(isRunningProcess(pid)).toBe(false);
	});

	it("an OSC 52 written to the terminal shows up in clipboard() (the control for the injection test)", async () => {
		piEnv = createPiEnv({ script: probeScript, extensions: [PROBE] });
		tui = await TmuxPi.run(["sh", "-c", "printf '\\033]52;c;UFdORUQ=\\007written'; sleep 30"], {
			cwd: piEnv.cwd,
			env: { PATH: "/usr/bin:/bin" },
			scratchDir: piEnv.root,
		});
		await tui.waitFor("written");
		expect(await tui.clipboard()).toBe("PWNED");
	});

	it("without tmux on PATH, starting the TUI fails and says how to install it", async () => {
		piEnv = createPiEnv({ script: probeScript, extensions: [PROBE] });
		const path = process.env["PATH"];
		process.env["PATH"] = "/nonexistent";
		try {
			await expect(TmuxPi.start(piEnv)).rejects.toThrow(/tmux is not installed.*apt-get install -y tmux/s);
		} finally {
			process.env["PATH"] = path;
		}
	});
});
