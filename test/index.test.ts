/**
 * The extension's wiring in index.ts, against a stand-in for pi's extension
 * API that records the handlers and the tool, so pi's events can be fired in
 * any order.
 */

import type { ExtensionAPI, ExtensionContext, ToolDefinition } from "@mariozechner/pi-coding-agent";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import askUserExtension from "../index.ts";
import { CHANNEL_ENV, decodeChannelAddress } from "../src/codec/channel.ts";
import { collectViaChannel } from "../src/relay/channel-client.ts";
import { prepareForm } from "../src/tool.ts";

type Handler = (event: unknown, ctx?: unknown) => unknown;

function loadExtension() {
	const handlers = new Map<string, Handler[]>();
	let tool: ToolDefinition | undefined;
	const pi = {
		on: (name: string, handler: Handler) => handlers.set(name, [...(handlers.get(name) ?? []), handler]),
		registerTool: (definition: ToolDefinition) => {
			tool = definition;
		},
		registerFlag: () => {},
		getFlag: () => undefined,
		getActiveTools: () => ["read", "bash", "ask_user"],
		setActiveTools: () => {},
	} as unknown as ExtensionAPI;
	askUserExtension(pi);
	const fire = async (name: string, event: unknown = {}, ctx: unknown = {}) => {
		let result: unknown;
		for (const handler of handlers.get(name) ?? []) result = (await handler(event, ctx)) ?? result;
		return result;
	};
	if (!tool) throw new Error("the extension registered no tool");
	return { tool, fire };
}

/** An RPC-like session whose user cancels the first dialog: the form is dismissed. */
const dismissingUser = {
	hasUI: true,
	ui: { custom: async () => undefined, select: async () => undefined, editor: async () => undefined },
	abort: () => {},
} as unknown as ExtensionContext;

const oneQuestion = { questions: [{ question: "Which?", options: [{ label: "A" }, { label: "B" }] }] };

describe("after a dismissal", () => {
	it("every tool call is refused until a user message enters the conversation, not when pi starts a run or a turn on its own", async () => {
		const { tool, fire } = loadExtension();
		const bash = { type: "tool_call", toolName: "bash", toolCallId: "b1", input: { command: "ls" } };
		expect(await fire("tool_call", bash)).toBeUndefined();

		const params = tool.prepareArguments ? tool.prepareArguments(oneQuestion) : oneQuestion;
		const result = await tool.execute("a1", params as never, undefined, undefined, dismissingUser);
		expect((result.details as { status: string }).status).toBe("dismissed");

		const refused = await fire("tool_call", bash);
		expect(refused).toMatchObject({ block: true, reason: expect.stringContaining("the user dismissed ask_user") });
		// pi's own retries (after an error, a compaction) start a run and a turn, and stream the model's reply.
		await fire("agent_start");
		await fire("turn_start");
		await fire("message_start", { type: "message_start", message: { role: "assistant", content: [] } });
		expect(await fire("tool_call", bash)).toMatchObject({ block: true });

		await fire("message_start", { type: "message_start", message: { role: "user", content: "go on" } });
		expect(await fire("tool_call", bash)).toBeUndefined();
	});
});

describe("the local channel", () => {
	it("a session with a UI publishes its channel for the processes it starts, answers through it, and takes it back at shutdown", async () => {
		const { fire } = loadExtension();
		expect(process.env[CHANNEL_ENV]).toBeUndefined();
		await fire("session_start", { type: "session_start" }, { ...dismissingUser, ui: { ...dismissingUser.ui, notify: () => {} } });
		for (let i = 0; i < 200 && process.env[CHANNEL_ENV] === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 5));
		const decoded = decodeChannelAddress(process.env[CHANNEL_ENV]);
		if (!decoded.ok) throw new Error(decoded.error);
		const { address } = decoded;
		expect(existsSync(address.path)).toBe(true);

		const { form } = prepareForm(oneQuestion);
		expect((await collectViaChannel(address, form, { asker: "child" })).status).toBe("dismissed");

		await fire("session_shutdown", { type: "session_shutdown" });
		expect(process.env[CHANNEL_ENV]).toBeUndefined();
		expect(existsSync(dirname(address.path))).toBe(false);
	});
});
