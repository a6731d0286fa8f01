/**
 * A model for tests and the demo: a pi extension that registers the provider
 * `scripted` whose replies come from a JSON script (model-script.ts says how a
 * reply is picked). Nothing goes over the network.
 *
 * Every call appends to the log what the model received: each tool result it
 * has not logged yet, then the call itself with the tools it was offered. Tests
 * assert on this log — on what the model saw — rather than on the screen.
 *
 * Run pi with `-e test/support/scripted-model.ts --model scripted/scripted` and
 * the environment variables SCRIPT_ENV and LOG_ENV.
 */

import { createHash } from "node:crypto";
import { appendFileSync, readFileSync } from "node:fs";
import {
	type AssistantMessage,
	type AssistantMessageEventStream,
	type Context,
	type Message,
	type Model,
	type SimpleStreamOptions,
	type Tool,
	type ToolCall,
	createAssistantMessageEventStream,
} from "@mariozechner/pi-ai";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import {
	IMAGES_ENV,
	type ImageSeen,
	LOG_ENV,
	type ModelLogEntry,
	type ModelScript,
	READY_ENV,
	SCRIPT_ENV,
	type ScriptedReply,
} from "./model-script.ts";

export default function scriptedModel(pi: ExtensionAPI): void {
	const loggedToolCallIds = new Set<string>();
	// Each call its own id, in this process and across processes: a continued session keeps the calls of earlier runs.
	const runId = Date.now().toString(36);
	let toolCallCounter = 0;

	function streamScripted(
		model: Model<string>,
		context: Context,
		options?: SimpleStreamOptions,
	): AssistantMessageEventStream {
		const stream = createAssistantMessageEventStream();
		const output: AssistantMessage = {
			role: "assistant",
			content: [],
			api: model.api,
			provider: model.provider,
			model: model.id,
			usage: {
				input: 0,
				output: 0,
				cacheRead: 0,
				cacheWrite: 0,
				totalTokens: 0,
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
			},
			stopReason: "stop",
			timestamp: Date.now(),
		};
		// Emitting from a microtask, like a real provider: the caller subscribes first.
		queueMicrotask(() => {
			try {
				if (options?.signal?.aborted) throw new Error("Request was aborted");
				const reply = replyFor(context);
				stream.push({ type: "start", partial: output });
				if (reply.text !== undefined && reply.text !== "") {
					const text = fillPlaceholders(reply.text, context);
					output.content.push({ type: "text", text: "" });
					const index = output.content.length - 1;
					stream.push({ type: "text_start", contentIndex: index, partial: output });
					output.content[index] = { type: "text", text };
					stream.push({ type: "text_delta", contentIndex: index, delta: text, partial: output });
					stream.push({ type: "text_end", contentIndex: index, content: text, partial: output });
				}
				for (const call of reply.toolCalls ?? []) {
					toolCallCounter += 1;
					const toolCall: ToolCall = {
						type: "toolCall",
						id: call.id ?? `scripted_call_${runId}_${toolCallCounter}`,
						name: call.name,
						// Deliberately unchecked: malformed calls are part of what tests send.
						arguments: call.arguments as ToolCall["arguments"],
					};
					output.content.push({ ...toolCall, arguments: {} });
					const index = output.content.length - 1;
					stream.push({ type: "toolcall_start", contentIndex: index, partial: output });
					output.content[index] = toolCall;
					stream.push({
						type: "toolcall_delta",
						contentIndex: index,
						delta: JSON.stringify(call.arguments),
						partial: output,
					});
					stream.push({ type: "toolcall_end", contentIndex: index, toolCall, partial: output });
				}
				output.stopReason = (reply.toolCalls?.length ?? 0) > 0 ? "toolUse" : "stop";
				stream.push({ type: "done", reason: output.stopReason === "toolUse" ? "toolUse" : "stop", message: output });
			} catch (error) {
				output.stopReason = options?.signal?.aborted ? "aborted" : "error";
				output.errorMessage = error instanceof Error ? error.message : String(error);
				stream.push({ type: "error", reason: output.stopReason, error: output });
			}
			stream.end();
		});
		return stream;
	}

	function replyFor(context: Context): ScriptedReply {
		const script = readScript();
		const { user, replyIndex, userImages } = positionOf(context.messages);
		const conversation = script.conversations.find((c) => c.user === undefined || user.includes(c.user));
		const reply = conversation?.replies[replyIndex];
		logNewToolResults(context.messages);
		appendLog({
			kind: "call",
			user,
			...(userImages.length > 0 && { userImages }),
			replyIndex,
			tools: offeredTools(context),
			askUserDescription: declaredTools(context).get("ask_user")?.description,
			systemPrompt: systemPromptOf(context),
			scripted: reply !== undefined,
		});
		if (reply !== undefined) return reply;
		return {
			text:
				conversation === undefined
					? `(scripted model: nothing scripted for ${JSON.stringify(user)})`
					: `(scripted model: no reply #${replyIndex + 1} scripted for ${JSON.stringify(user)})`,
		};
	}

	function logNewToolResults(messages: Message[]): void {
		for (const message of messages) {
			if (message.role !== "toolResult" || loggedToolCallIds.has(message.toolCallId)) continue;
			loggedToolCallIds.add(message.toolCallId);
			const images = imagesOf(message.content);
			appendLog({
				kind: "toolResult",
				toolCallId: message.toolCallId,
				toolName: message.toolName,
				isError: message.isError,
				text: textOf(message.content),
				details: message.details ?? null,
				...(images.length > 0 && { images }),
			});
		}
	}

	pi.on("session_start", () => {
		const ready = process.env[READY_ENV];
		if (ready) appendFileSync(ready, `${process.pid} ${process.ppid}\n`);
	});

	pi.registerProvider("scripted", {
		name: "Scripted (tests)",
		api: "scripted",
		baseUrl: "http://scripted.invalid",
		apiKey: "scripted",
		streamSimple: streamScripted,
		models: [
			{
				id: "scripted",
				name: "Scripted model",
				reasoning: false,
				// A model that reads images, for the tests of files in an answer (IMAGES_ENV=1).
				input: process.env[IMAGES_ENV] === "1" ? ["text", "image"] : ["text"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 200_000,
				maxTokens: 16_384,
			},
			{
				id: "vision",
				name: "Scripted model that reads images",
				reasoning: false,
				input: ["text", "image"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 200_000,
				maxTokens: 16_384,
			},
		],
	});
}

/**
 * The tools the model is offered, by name. pi 0.73.1 lists them in
 * `context.tools`; pi 1.x declares them in system messages instead
 * (`toolsAdded`/`toolsRemoved`, applied in order).
 */
function declaredTools(context: Context): Map<string, Tool> {
	const tools = new Map((context.tools ?? []).map((tool) => [tool.name, tool]));
	for (const message of context.messages) {
		if (message.role !== "system") continue;
		for (const tool of message.toolsAdded ?? []) tools.set(tool.name, tool);
		for (const tool of message.toolsRemoved ?? []) tools.delete(tool.name);
	}
	return tools;
}

function offeredTools(context: Context): string[] {
	return [...declaredTools(context).keys()];
}

/** The system prompt: `context.systemPrompt` in pi 0.73.1; in pi 1.x, the system messages' text and their named sections, replayed. */
function systemPromptOf(context: Context): string | undefined {
	if (context.systemPrompt !== undefined) return context.systemPrompt;
	const texts: string[] = [];
	const sections = new Map<string, string>();
	for (const message of context.messages) {
		if (message.role !== "system") continue;
		texts.push(textOf(message.content));
		for (const [name, text] of Object.entries(message.sections ?? {})) {
			if (text === null) sections.delete(name);
			else sections.set(name, text);
		}
	}
	return texts.length ? [...texts, ...sections.values()].join("\n") : undefined;
}

/** The latest user message, and how many assistant messages followed it. */
function positionOf(messages: Message[]): { user: string; replyIndex: number; userImages: ImageSeen[] } {
	let replyIndex = 0;
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i];
		if (message === undefined) continue;
		if (message.role === "user")
			return { user: textOf(message.content), replyIndex, userImages: imagesOf(message.content) };
		if (message.role === "assistant") replyIndex += 1;
	}
	return { user: "", replyIndex, userImages: [] };
}

function fillPlaceholders(text: string, context: Context): string {
	const lastResult = [...context.messages].reverse().find((m) => m.role === "toolResult");
	return text
		.replaceAll("{{user}}", positionOf(context.messages).user)
		.replaceAll("{{lastToolResult}}", lastResult === undefined ? "(no tool result)" : textOf(lastResult.content))
		.replaceAll("{{lastToolResultIsError}}", String(lastResult?.isError ?? false))
		.replaceAll("{{tools}}", offeredTools(context).join(", "));
}

function textOf(content: Message["content"]): string {
	if (typeof content === "string") return content;
	return content
		.map((part) => (part.type === "text" ? part.text : ""))
		.filter((text) => text !== "")
		.join("\n");
}

/** Each image part's type and bytes (decoded), so a test can check what the model was shown. */
function imagesOf(content: Message["content"]): ImageSeen[] {
	if (typeof content === "string") return [];
	return content.flatMap((part) => {
		if (part.type !== "image") return [];
		const bytes = Buffer.from(part.data, "base64");
		return [{ mimeType: part.mimeType, bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") }];
	});
}

function readScript(): ModelScript {
	const path = process.env[SCRIPT_ENV];
	if (path === undefined || path === "") {
		throw new Error(`scripted model: set ${SCRIPT_ENV} to the path of a JSON script file`);
	}
	return JSON.parse(readFileSync(path, "utf8")) as ModelScript;
}

function appendLog(entry: ModelLogEntry): void {
	const path = process.env[LOG_ENV];
	if (path === undefined || path === "") return;
	appendFileSync(path, `${JSON.stringify(entry)}\n`);
}
