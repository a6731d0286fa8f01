/** The extension loaded into a pi that records what it registers and fires its handlers one by one, and the users its tests ask. */

import type {
	ExtensionAPI,
	ExtensionToolContext as ExtensionContext,
	ToolDefinition,
} from "@mariozechner/pi-coding-agent";
import askUserExtension from "../../src/extension/register.ts";
import { rememberOpenExtension } from "./open-extensions.ts";

export type Handler = (event: unknown, ctx?: unknown) => unknown;

/** A session's entries, as pi keeps them: the custom entries an extension appends among them. */
export type Entries = { type: string; customType?: string; data?: unknown }[];

export function loadExtension(
	tools = ["read", "bash", "ask_user"],
	flags: Record<string, string> = {},
	entries: Entries = [],
) {
	const handlers = new Map<string, Handler[]>();
	let tool: ToolDefinition | undefined;
	let active = [...tools];
	const pi = {
		appendEntry: (customType: string, data?: unknown) => entries.push({ type: "custom", customType, data }),
		on: (name: string, handler: Handler) => handlers.set(name, [...(handlers.get(name) ?? []), handler]),
		registerTool: (definition: ToolDefinition) => {
			tool = definition;
		},
		registerFlag: () => {},
		registerCommand: () => {},
		getFlag: (name: string) => flags[name],
		getActiveTools: () => [...active],
		setActiveTools: (names: string[]) => {
			active = names;
		},
		events: { emit: () => {}, on: () => () => {} },
	} as unknown as ExtensionAPI;
	askUserExtension(pi);
	const quit = () => fire("session_shutdown", { type: "session_shutdown", reason: "quit" });
	const fire = async (name: string, event: unknown = {}, ctx: unknown = {}) => {
		// A session started: ended as pi quits when the file ends, if the test does not end it.
		if (name === "session_start") rememberOpenExtension(quit);
		let result: unknown;
		for (const handler of handlers.get(name) ?? []) result = (await handler(event, ctx)) ?? result;
		return result;
	};
	if (!tool) throw new Error("the extension registered no tool");
	return { tool, fire, active: () => active };
}

/** An RPC-like session whose user cancels the first dialog: the form is dismissed. */
export const dismissingUser = {
	hasUI: true,
	ui: { custom: async () => undefined, select: async () => undefined, editor: async () => undefined },
	abort: () => {},
} as unknown as ExtensionContext;

/** The dismissing user, with the warnings it is shown and the walker's titles and rows kept. */
export function recordingUser() {
	const notes: string[] = [];
	const titles: string[] = [];
	const ui = {
		...dismissingUser.ui,
		notify: (message: string) => notes.push(message),
		select: async (title: string, rows: string[]) => (titles.push(title, ...rows), undefined),
	};
	return { ctx: { ...dismissingUser, ui } as unknown as ExtensionContext, notes, titles };
}

export const oneQuestion = { questions: [{ question: "Which?", options: [{ label: "A" }, { label: "B" }] }] };
