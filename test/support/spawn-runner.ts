/**
 * The plainest runner there is: its `spawn_pi` tool starts `pi -p` on a task
 * with `child_process.spawn` and the default (inherited) environment, and
 * returns what the child printed. The pi to run comes from PI_SPAWN_RUNNER_PI
 * (a JSON array: the command line up to pi's own arguments). Loaded into the
 * parent with `-e`; used by test/e2e/channel.test.ts.
 */

import { spawn } from "node:child_process";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { Type } from "@sinclair/typebox";

export default function spawnRunner(pi: ExtensionAPI): void {
	pi.registerTool({
		name: "spawn_pi",
		label: "Spawn pi",
		description: "Runs a task in a child `pi -p`.",
		parameters: Type.Object({ task: Type.String() }),
		async execute(_id, params, signal, _onUpdate, ctx) {
			const [command = "pi", ...args] = JSON.parse(process.env["PI_SPAWN_RUNNER_PI"] ?? '["pi"]') as string[];
			const child = spawn(
				command,
				[...args, "--offline", "--no-session", "-p", "--model", "scripted/scripted", params.task ?? ""],
				{
					cwd: ctx.cwd,
					stdio: ["ignore", "pipe", "pipe"],
					...(signal ? { signal } : {}),
				},
			);
			let out = "";
			child.stdout.on("data", (chunk: Buffer) => {
				out += chunk.toString("utf8");
			});
			await new Promise<void>((resolve) => {
				child.on("close", () => resolve());
				child.on("error", () => resolve());
			});
			return { content: [{ type: "text", text: out.trim() || "(no output)" }], details: undefined };
		},
	});
}
