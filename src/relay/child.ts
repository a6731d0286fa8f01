/**
 * The child side of the relay: a pi process whose runner set
 * `PI_ASK_USER_RELAY=1` sends its whole form as ONE editor dialog (title
 * RELAY_TITLE, the request envelope as the prefill) and reads the reply
 * envelope from the dialog's value. Without the variable an RPC child keeps
 * the dialog walker, so a plain RPC client still works.
 */

import { randomUUID } from "node:crypto";
import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import { raceAbort } from "../abort.ts";
import { emptyCollected } from "../result.ts";
import { type AskForm, type AskOptions, type Collected, RELAY_VERSION } from "../types.ts";
import { decodeRelayReply, encodeRelayCancel, encodeRelayRequest, RELAY_TITLE, replyToCollected } from "./envelope.ts";

export type RelayUI = Pick<ExtensionUIContext, "editor" | "notify">;

/**
 * How long an aborted ask waits for the reply to its cancel notice: a
 * relay-aware parent answers in one round trip per level; one that never
 * answers costs this much, once.
 */
export const CANCEL_GRACE_MS = 1_000;

export async function collectViaRelay(ui: RelayUI, form: AskForm, options: AskOptions = {}): Promise<Collected> {
	const { signal } = options;
	if (signal?.aborted) return emptyCollected("aborted");
	const rid = randomUUID();
	const request = encodeRelayRequest({ v: RELAY_VERSION, rid, asker: options.asker, questions: form.questions, metadata: form.metadata });
	return awaitRelayReply(ui.editor(RELAY_TITLE, request), {
		form,
		rid,
		signal,
		// RPC's editor dialog cannot be withdrawn: the parent is told instead.
		cancel: () => ui.notify(encodeRelayCancel(rid), "info"),
		noReply: "the parent cancelled the relayed form without a reply (is its runner relay-aware?)",
	});
}

interface ReplyWait {
	form: AskForm;
	rid: string;
	signal: AbortSignal | undefined;
	/** Tells the parent the ask is aborted; it closes the form and replies with the answers so far. */
	cancel(): void;
	/** The error when the reply comes back empty. */
	noReply: string;
}

/**
 * The parent's reply to a relay request, by either transport. Aborted, the
 * answers given so far are kept if the reply to the cancel notice comes within
 * CANCEL_GRACE_MS, under status "aborted"; otherwise "aborted" with nothing.
 * Anything but a well-formed reply to this very request is an "error".
 */
export async function awaitRelayReply(reply: Promise<string | undefined>, { form, rid, signal, cancel, noReply }: ReplyWait): Promise<Collected> {
	const decode = (text: string | undefined) => (text === undefined ? undefined : decodeRelayReply(text, { questions: form.questions, rid }));
	const raced = await raceAbort(reply, signal);
	if (!raced.aborted) {
		const decoded = decode(raced.value);
		if (!decoded) return emptyCollected("error", noReply);
		return decoded.ok ? replyToCollected(decoded.reply) : emptyCollected("error", decoded.error);
	}
	cancel();
	const late = await raceAbort(reply, AbortSignal.timeout(CANCEL_GRACE_MS)).catch(() => undefined);
	const decoded = late?.aborted === false ? decode(late.value) : undefined;
	return decoded?.ok ? { ...replyToCollected(decoded.reply), status: "aborted" } : emptyCollected("aborted");
}
