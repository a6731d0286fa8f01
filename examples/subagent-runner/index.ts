/**
 * An example subagent runner that relays its children's questions to the user.
 *
 * It registers the tool `subagent` ({ agent, task }): the task runs in a child
 * `pi --mode rpc` that has ask_user loaded; when the child's model calls
 * ask_user, its form appears in THIS session's UI, labelled with the agent's
 * name, and the answers flow back to the child. The whole integration is the
 * three marked lines: the environment, `relay.handle`, `relay.dispose`.
 *
 *   pi -e ./index.ts -e ./examples/subagent-runner/index.ts
 *
 * PI_SUBAGENT_ARGS (a JSON array) adds arguments to every child, e.g. a model:
 *   PI_SUBAGENT_ARGS='["--model","anthropic/claude-sonnet-4-5"]'
 */

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { Type } from "@sinclair/typebox";
import { createChildRelay, relayEnvironment } from "../../src/relay/index.ts";

const ASK_USER_EXTENSION = fileURLToPath(new URL("../../index.ts", import.meta.url));

export default function subagentRunner(pi: ExtensionAPI): void {
	pi.registerTool({
		name: "subagent",
		label: "Subagent",
		description: "Run a task in a separate pi process (a subagent) and return its final answer.",
		parameters: Type.Object({
			agent: Type.String({ description: "A short name for the subagent, shown to the user" }),
			task: Type.String({ description: "The task, self-contained" }),
		}),
		async execute(_toolCallId, params, signal, _onUpdate, ctx) {
			const agent = String(params.agent);
			const args = [...piArgs(), "--mode", "rpc", "--no-session", "-e", ASK_USER_EXTENSION, ...extraArgs()];
			const relay = createChildRelay({ asker: agent, ui: ctx.hasUI ? ctx.ui : undefined, signal }); // the relay for this child
			const child = spawn(piCommand(), args, {
				env: { ...process.env, ...relayEnvironment() }, // ← 1
				stdio: ["pipe", "pipe", "pipe"],
			});
			// Decoded as a stream: a character split between two reads must not become U+FFFD.
			child.stdout.setEncoding("utf8");
			child.stderr.setEncoding("utf8");
			const stopChild = () => child.kill("SIGTERM");
			// An abort ends this tool at once and stops the child: whatever the child says after that is
			// not this run's answer. (The relay's own abort closes the child's open form in the parent.)
			let endRun = (_error: Error) => {};
			const onAbort = () => {
				stopChild();
				endRun(new Error("the run was aborted: the subagent was stopped before it finished"));
			};
			signal?.addEventListener("abort", onAbort, { once: true });

			let stderr = "";
			child.stderr.on("data", (chunk: string) => {
				stderr = (stderr + chunk).slice(-4000);
			});
			// A child that has gone away must not take this pi down with it (EPIPE on a late write).
			child.stdin.on("error", () => {});
			const send = (message: unknown) => {
				if (child.stdin.writable) child.stdin.write(`${JSON.stringify(message)}\n`);
			};

			try {
				const answer = await new Promise<ChildOutcome>((resolve, reject) => {
					endRun = reject;
					if (signal?.aborted) onAbort();
					let buffer = "";
					child.stdout.on("data", (chunk: string) => {
						buffer += chunk;
						// RPC framing: records end at \n only (JSON strings may hold U+2028).
						for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
							const line = buffer.slice(0, end).replace(/\r$/, "");
							buffer = buffer.slice(end + 1);
							let parsed: unknown;
							try {
								parsed = JSON.parse(line);
							} catch {
								continue;
							}
							if (typeof parsed !== "object" || parsed === null) continue;
							const message = parsed as { type?: string; messages?: unknown[] };
							if (message.type === "extension_ui_request") {
								// handle() never rejects: a broken request or a failing dialog is answered "cancelled".
								void relay.handle(message).then((response) => response && send(response)); // ← 2
							} else if (message.type === "agent_end") {
								resolve(outcomeOf(message.messages ?? []));
							}
						}
					});
					child.on("exit", (code, signal) =>
						reject(
							new Error(
								`the subagent exited (${signal ?? `code ${code}`}) before it finished${stderr ? `: ${stderr.trim()}` : ""}`,
							),
						),
					);
					child.on("error", reject);
					send({ type: "prompt", message: params.task });
				});
				return {
					content: [{ type: "text", text: answer.text || "(the subagent gave no answer)" }],
					details: { agent },
					...(answer.endedByTool ? { terminate: true } : {}),
				};
			} finally {
				relay.dispose(); // ← 3: closes any form the child still had open
				signal?.removeEventListener("abort", onAbort);
				child.stdin.end();
				stopChild();
			}
		},
	});
}

interface ChildOutcome {
	text: string;
	/** The child's run ended on a tool's result, not on a reply (e.g. the user dismissed its ask_user). */
	endedByTool: boolean;
}

/**
 * The child's final answer: its last assistant text. A run that ends on tool
 * results was stopped by a tool (ask_user dismissed: the user wants to speak),
 * so those results go up and end this turn too — as a local dismissal would.
 */
function outcomeOf(messages: unknown[]): ChildOutcome {
	const roleOf = (message: unknown) => (message as { role?: string }).role;
	const contentOf = (message: unknown) => textOf((message as { content?: unknown }).content);
	let end = messages.length;
	while (end > 0 && roleOf(messages[end - 1]) === "toolResult") end -= 1;
	if (end < messages.length) return { text: messages.slice(end).map(contentOf).join("\n"), endedByTool: true };
	const lastReply = [...messages].reverse().find((message) => roleOf(message) === "assistant" && contentOf(message));
	return { text: lastReply ? contentOf(lastReply) : "", endedByTool: false };
}

function textOf(content: unknown): string {
	if (!Array.isArray(content)) return "";
	return content
		.filter((part): part is { type: "text"; text: string } => (part as { type?: string }).type === "text")
		.map((part) => part.text)
		.join("\n")
		.trim();
}

/** The same pi that runs this session: its node binary and its CLI script. */
function piCommand(): string {
	return process.execPath;
}

function piArgs(): string[] {
	const script = process.argv[1];
	return script && existsSync(script) ? [script] : [];
}

function extraArgs(): string[] {
	const raw = process.env.PI_SUBAGENT_ARGS;
	if (!raw) return [];
	const parsed: unknown = JSON.parse(raw);
	if (!Array.isArray(parsed) || !parsed.every((arg) => typeof arg === "string")) {
		throw new Error("PI_SUBAGENT_ARGS must be a JSON array of strings");
	}
	return parsed;
}
