/** Forms another session shows (a relay-aware parent, a local channel, this process's UI), marked `shownElsewhere`. */

import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import {
	type AskForm,
	type AskHandler,
	type AskOptions,
	type Collected,
	RELAY_VERSION,
	type RelayRequest,
	emptyCollected,
	type Session,
} from "../core/types.ts";
import { askParent, collectViaChannel } from "./channel/client.ts";
import { decodeChannelAddress } from "./channel/wire.ts";
import {
	decodeRelayReply,
	encodeRelayCancel,
	encodeRelayReply,
	RELAY_TITLE,
	replyToCollected,
	replyVersionFor,
} from "./envelope.ts";
import { cleanTask, joinAskers } from "./asker.ts";

export { joinAskers };

/** Under a relay-aware runner (PI_ASK_USER_RELAY=1): the whole form as one editor dialog titled RELAY_TITLE. */
export function throughRelay(
	ui: Pick<ExtensionUIContext, "editor" | "notify">,
	form: AskForm,
	options: AskOptions,
): Promise<Collected> {
	return shownElsewhere(form, options, () =>
		askParent(form, options, {
			send: (request) => ui.editor(RELAY_TITLE, request),
			// RPC's editor dialog cannot be withdrawn: the parent is told instead.
			cancel: (rid) => ui.notify(encodeRelayCancel(rid), "info"),
			noReply: "the parent cancelled the relayed form without a reply (is its runner relay-aware?)",
		}),
	);
}

/** A parent that is gone is "no_ui", with the reason. */
export function throughChannel(address: string, form: AskForm, options: AskOptions): Promise<Collected> {
	return shownElsewhere(form, options, async () => {
		const decoded = decodeChannelAddress(address);
		return decoded.ok ? collectViaChannel(decoded.address, form, options) : emptyCollected("no_ui", decoded.error);
	});
}

/**
 * The handler may belong to another copy or version of this package: its reply is checked as one that crossed a process
 * boundary.
 */
export function throughHandler(handler: AskHandler, form: AskForm, options: AskOptions): Promise<Collected> {
	return shownElsewhere(form, options, async () => {
		const { signal, asker = DEFAULT_ASKER, task } = options;
		const request: RelayRequest = { v: RELAY_VERSION, asker, task, ...form, replyVersion: replyVersionFor(options) };
		// In this process: the files' bytes cross in memory.
		const reply = await handler(request, { carriesFiles: true, ...(signal && { signal }) });
		const decoded = decodeRelayReply(encodeRelayReply(reply), { questions: form.questions });
		return decoded.ok ? replyToCollected(decoded.reply) : emptyCollected("error", decoded.error);
	});
}

/** Reports `opened`, and how the form came back when the user ended it. */
async function shownElsewhere(
	form: AskForm,
	{ onProgress }: AskOptions,
	ask: () => Promise<Collected>,
): Promise<Collected> {
	const total = form.questions.length;
	onProgress?.({ phase: "opened", answered: 0, total }, emptyCollected("answered"));
	const collected = { ...(await ask()), shownElsewhere: true };
	if (collected.status === "answered" || collected.status === "dismissed") {
		const phase = collected.status === "answered" ? "submitted" : "dismissed";
		onProgress?.({ phase, answered: Object.keys(collected.answers).length, total }, collected);
	}
	return collected;
}

// ── How this session is labelled where another one shows its forms ──────────

const DEFAULT_ASKER = "subagent";

/** This session as another one shows its forms: who asks (a runner's name for it, else "subagent") and its task. */
export function whoAsks(session: Pick<Session, "sessionManager" | "getSystemPrompt">): Asker {
	let entries: readonly unknown[] = [];
	let systemPrompt: string | undefined;
	try {
		entries = session.sessionManager?.getEntries() ?? [];
		systemPrompt = session.getSystemPrompt?.();
	} catch {
		// No session to read: a runner's name for it, else "subagent".
	}
	return selfAsker(process.env, firstUserText(entries), systemPrompt, process.argv);
}

type Asker = { asker: string; task?: string };

/**
 * A runner's name for this session (our variable, runners', the system prompt's agent, pi's example runner's agent
 * file), else "subagent"; the task a runner gives (PI_ASK_USER_TASK), else the first message (without a "Task:").
 */
export function selfAsker(
	env: Readonly<Record<string, string | undefined>>,
	firstMessage: string | undefined,
	systemPrompt?: string,
	argv: readonly string[] = [],
): Asker {
	const names = [env["PI_ASK_USER_ASKER"], env["PI_SUBAGENT_NAME"], env["PI_AGENT_NAME"], activeAgentOf(systemPrompt)];
	const asker = [...names, exampleRunnerAgent(argv)].map((name) => joinAskers(undefined, name)).find(Boolean);
	const task = cleanTask(env["PI_ASK_USER_TASK"]) ?? cleanTask(firstMessage?.replace(/^\s*task:\s*/i, ""));
	return { asker: asker ?? DEFAULT_ASKER, ...(task && { task }) };
}

/** pi's example runner passes its agent's prompt: `--append-system-prompt <tmp>/pi-subagent-…/prompt-<name>.md`. */
function exampleRunnerAgent(argv: readonly string[]): string | undefined {
	const file = /[\\/]pi-subagent-[^\\/]+[\\/]prompt-([^\\/]+)\.md$/;
	return file.exec(argv.find((arg, i) => argv[i - 1] === "--append-system-prompt" && file.test(arg)) ?? "")?.[1];
}

/**
 * pi-subagents' `<active_agent name="scout"/>` line: how its in-process children, sharing the environment, learn their
 * name.
 */
function activeAgentOf(systemPrompt: string | undefined): string | undefined {
	// The last such line: pi's part of the prompt comes first and holds the project's context files, which anyone can
	// write.
	const name = [...(systemPrompt ?? "").matchAll(/(?:^|\n)\s*<active_agent name="([^"\n]{1,200})"\s*\/>/g)].at(-1)?.[1];
	return name?.replace(/&(quot|apos|lt|gt|amp);/g, (_, entity: keyof typeof ENTITIES) => ENTITIES[entity]);
}

const ENTITIES = { quot: '"', apos: "'", lt: "<", gt: ">", amp: "&" };

type Loose = { [key: string]: unknown } | null | undefined;

/** The text of the first user message among pi's session entries, read loosely. */
export function firstUserText(entries: readonly unknown[]): string | undefined {
	const user = (entries as readonly Loose[]).find(
		(entry) => entry?.["type"] === "message" && (entry["message"] as Loose)?.["role"] === "user",
	);
	const content = (user?.["message"] as Loose)?.["content"];
	if (!Array.isArray(content)) return typeof content === "string" ? content : undefined;
	return (content as Loose[])
		.flatMap((part) => (part?.["type"] === "text" && typeof part["text"] === "string" ? [part["text"]] : []))
		.join(" ");
}
