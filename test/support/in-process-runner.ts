/**
 * An in-process subagent runner, as the runners built on pi's SDK do: its
 * `inproc_subagent` tool makes a second session in the same process with
 * `createAgentSession` — no UI, pi's standard resource discovery (so it loads
 * ask_user and the scripted model from the settings' `extensions` list) — runs
 * the task, and returns the session's last reply. Loaded into the parent pi
 * with `-e`; used by test/e2e/channel.test.ts.
 */

import {
	createAgentSession,
	DefaultResourceLoader,
	type ExtensionAPI,
	getAgentDir,
	SessionManager,
} from "@mariozechner/pi-coding-agent";
import { Type } from "@sinclair/typebox";

export default function inProcessRunner(pi: ExtensionAPI): void {
	pi.registerTool({
		name: "inproc_subagent",
		label: "In-process subagent",
		description: "Runs a task in a subagent session in this process.",
		parameters: Type.Object({ task: Type.String() }),
		async execute(_id, params, _signal, _onUpdate, ctx) {
			const loader = new DefaultResourceLoader({ cwd: ctx.cwd, agentDir: getAgentDir() });
			await loader.reload();
			const { session } = await createAgentSession({
				cwd: ctx.cwd,
				agentDir: getAgentDir(),
				resourceLoader: loader,
				sessionManager: SessionManager.inMemory(),
				model: ctx.modelRegistry.find("scripted", "scripted"),
			});
			try {
				await session.prompt(params.task ?? "");
				const last = [...session.messages].reverse().find((message) => message.role === "assistant");
				const text =
					last?.role === "assistant"
						? last.content.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("")
						: "";
				return { content: [{ type: "text", text: text || "(no reply)" }], details: undefined };
			} finally {
				session.dispose();
			}
		},
	});
}
