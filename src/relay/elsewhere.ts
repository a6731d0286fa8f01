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
	joinAskers,
	RELAY_TITLE,
	replyToCollected,
	replyVersionFor,
} from "./envelope.ts";

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

/** The handler may belong to another copy or version of this package: its reply is checked as one that crossed a process boundary. */
export function throughHandler(handler: AskHandler, form: AskForm, options: AskOptions): Promise<Collected> {
	return shownElsewhere(form, options, async () => {
		const { signal, asker = DEFAULT_ASKER } = options;
		const request: RelayRequest = { v: RELAY_VERSION, asker, ...form, replyVersion: replyVersionFor(options) };
		const reply = await handler(request, { ...(signal && { signal }) });
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
/** How much of a child's task labels its forms. */
const TASK_LABEL_MAX = 60;

export function askerOf(session: Pick<Session, "sessionManager" | "getSystemPrompt">): string {
	let entries: readonly unknown[] = [];
	let systemPrompt: string | undefined;
	try {
		entries = session.sessionManager?.getEntries() ?? [];
		systemPrompt = session.getSystemPrompt?.();
	} catch {
		// No session to read: a runner's name for it, else "subagent".
	}
	return selfAsker(process.env, firstUserText(entries), systemPrompt);
}

/** A runner's name for this session (our variable, runners', the system prompt's agent), else the start of its task. */
export function selfAsker(
	env: Readonly<Record<string, string | undefined>>,
	task: string | undefined,
	systemPrompt?: string,
): string {
	for (const name of [
		env["PI_ASK_USER_ASKER"],
		env["PI_SUBAGENT_NAME"],
		env["PI_AGENT_NAME"],
		activeAgentOf(systemPrompt),
	]) {
		const label = joinAskers(undefined, name);
		if (label) return label;
	}
	const words = task?.replace(/\s+/g, " ").trim();
	if (!words) return DEFAULT_ASKER;
	const label =
		words.length <= TASK_LABEL_MAX
			? words
			: `${words
					.slice(0, TASK_LABEL_MAX - 1)
					.replace(/[\ud800-\udbff]$/, "")
					.trimEnd()}…`;
	return joinAskers(undefined, label) ?? DEFAULT_ASKER;
}

/** pi-subagents' `<active_agent name="scout"/>` line: how its in-process children, sharing the environment, learn their name. */
function activeAgentOf(systemPrompt: string | undefined): string | undefined {
	// The last such line: pi's part of the prompt comes first and holds the project's context files, which anyone can write.
	const name = [...(systemPrompt ?? "").matchAll(/(?:^|\n)\s*<active_agent name="([^"\n]{1,200})"\s*\/>/g)].at(-1)?.[1];
	return name
		?.replace(/&quot;/g, '"')
		.replace(/&apos;/g, "'")
		.replace(/&lt;/g, "<")
		.replace(/&gt;/g, ">")
		.replace(/&amp;/g, "&");
}

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
