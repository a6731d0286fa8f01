/**
 * The scripted model's vocabulary: the script a test writes, and the log the
 * model writes back. Shared by the model (running inside pi) and the tests, so
 * both sides read the same shapes. Pure: no I/O.
 *
 * How the model picks its reply: it takes the latest user message in the
 * context, finds the first conversation whose `user` text that message
 * contains, and answers with that conversation's reply number N, where N is
 * the number of assistant messages already after that user message. So "when
 * the user says X, call ask_user with Y; after the tool result, quote it" is
 * one conversation with two replies.
 */

/** The environment variable naming the JSON script file. */
export const SCRIPT_ENV = "PI_SCRIPTED_MODEL_SCRIPT";
/** The environment variable naming the JSON-lines log file. */
export const LOG_ENV = "PI_SCRIPTED_MODEL_LOG";
/**
 * A file the scripted model appends "<pid> <ppid>" to once pi's session is bound (session_start): from then on Enter
 * in pi's editor sends a prompt (pi 1.6 keeps a prompt typed during start-up in the editor, unsent).
 */
export const READY_ENV = "PI_SCRIPTED_MODEL_READY";
/** "1": the scripted model reads images (its `input` lists "image"), else text only. */
export const IMAGES_ENV = "PI_SCRIPTED_MODEL_IMAGES";

/** The provider and model id to pass as `--model scripted/scripted`. */
export const SCRIPTED_MODEL = "scripted/scripted";
/** The same script, as a model that reads images: a tool result's image content reaches it (and its log). */
export const SCRIPTED_VISION_MODEL = "scripted/vision";

export interface ScriptedToolCall {
	name: string;
	/** The call's id; omitted: `scripted_call_<n>`, n counting this process's calls. */
	id?: string;
	/** Any JSON: a malformed call is sent exactly as written. */
	arguments: unknown;
}

/**
 * One reply of the model. `text` may hold placeholders, filled from the context:
 * - `{{lastToolResult}}`: the text of the last tool result the model received;
 * - `{{lastToolResultIsError}}`: "true" or "false";
 * - `{{tools}}`: the names of the tools offered to the model, comma-separated;
 * - `{{user}}`: the latest user message (a late answer to ask_user comes as one).
 */
export interface ScriptedReply {
	text?: string;
	toolCalls?: ScriptedToolCall[];
}

export interface ScriptedConversation {
	/** Matches when the latest user message contains this text; omitted: any message. */
	user?: string;
	/** The replies in order, one per model call after that user message. */
	replies: ScriptedReply[];
}

export interface ModelScript {
	conversations: ScriptedConversation[];
}

/** An image part the model was given: its type, its decoded size and digest. */
export type ImageSeen = { mimeType: string; bytes: number; sha256: string };

/** Every model call: what the model was given and which reply it picked. */
export interface ModelCallLogEntry {
	kind: "call";
	/** The latest user message's text. */
	user: string;
	/** The latest user message's images, when it has some. */
	userImages?: ImageSeen[];
	/** Which reply of the conversation was used (0-based). */
	replyIndex: number;
	/** Names of the tools offered to the model on this call. */
	tools: string[];
	/** The description of ask_user the model was given (pi 0.73.1; absent where tools come in system messages). */
	askUserDescription?: string | undefined;
	systemPrompt?: string | undefined;
	/** False when no conversation or no reply was scripted for this call. */
	scripted: boolean;
}

/** A tool result the model received, logged once, the first time it is seen. */
export interface ToolResultLogEntry {
	kind: "toolResult";
	toolCallId: string;
	toolName: string;
	isError: boolean;
	/** The text content, parts joined with "\n". */
	text: string;
	details: unknown;
	/** The image content, each by its type, size in bytes and SHA-256; absent when there is none. */
	images?: ImageSeen[];
}

export type ModelLogEntry = ModelCallLogEntry | ToolResultLogEntry;

/** The one-conversation script most tests need: on `user`, reply with `replies` in order. */
export function scriptOf(...conversations: ScriptedConversation[]): ModelScript {
	return { conversations };
}

/** A reply that calls one tool. */
export function callTool(name: string, args: unknown, text?: string): ScriptedReply {
	return text === undefined
		? { toolCalls: [{ name, arguments: args }] }
		: { text, toolCalls: [{ name, arguments: args }] };
}

/** The marker a quoting reply starts with, so a test can find it on screen. */
export const QUOTE_PREFIX = "Received:";

/** A reply quoting the last tool result, e.g. to show it on screen. */
export const quoteLastToolResult: ScriptedReply = { text: `${QUOTE_PREFIX} {{lastToolResult}}` };
