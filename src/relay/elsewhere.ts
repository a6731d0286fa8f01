/**
 * Forms another session shows: a relay-aware parent, an ancestor's local
 * channel, this process's session with a UI. This side can report only that
 * the form went up and how it came back, marked `shownElsewhere`: a dismissal
 * there ends this session's task, since the user spoke to the other session.
 */

import { decodeChannelAddress } from "./channel/wire.ts";
import { decodeRelayReply, encodeRelayReply, replyToCollected } from "./envelope.ts";
import { emptyCollected } from "../result.ts";
import type { AskHandler, Session } from "../router.ts";
import { type AskOptions, type AskForm, type Collected, RELAY_VERSION, type RelayRequest } from "../types.ts";
import { DEFAULT_ASKER, firstUserText, selfAsker } from "./asker.ts";
import { collectViaChannel } from "./channel/client.ts";
import { collectViaRelay, type RelayUI } from "./child.ts";

export { joinAskers } from "./asker.ts";

/** How this session is labelled where another one shows its forms. */
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

export function throughRelay(ui: RelayUI, form: AskForm, options: AskOptions): Promise<Collected> {
	return shownElsewhere(form, options, () => collectViaRelay(ui, form, options));
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
		const request: RelayRequest = { v: RELAY_VERSION, asker: options.asker ?? DEFAULT_ASKER, questions: form.questions, metadata: form.metadata };
		const reply = await handler(request, { ...(options.signal && { signal: options.signal }) });
		const decoded = decodeRelayReply(encodeRelayReply(reply), { questions: form.questions });
		return decoded.ok ? replyToCollected(decoded.reply) : emptyCollected("error", decoded.error);
	});
}

/** Reports `opened`, and how the form came back when the user ended it. */
async function shownElsewhere(form: AskForm, { onProgress }: AskOptions, ask: () => Promise<Collected>): Promise<Collected> {
	const total = form.questions.length;
	onProgress?.({ phase: "opened", answered: 0, total }, emptyCollected("answered"));
	const collected = { ...(await ask()), shownElsewhere: true };
	if (collected.status === "answered" || collected.status === "dismissed") {
		const phase = collected.status === "answered" ? "submitted" : "dismissed";
		onProgress?.({ phase, answered: Object.keys(collected.answers).length, total }, collected);
	}
	return collected;
}
