/**
 * The child side of the relay: a pi process whose parent declared that it
 * understands the rich form (`PI_ASK_USER_RELAY=1` in the environment) sends
 * the whole form as ONE dialog request — title RELAY_TITLE, the versioned
 * request envelope as the editor's prefill — and reads the reply envelope back
 * from the dialog's value.
 *
 * Without the variable, an RPC child keeps the dialog walker, so a plain RPC
 * client (an IDE, a web UI) still works.
 */

import { randomUUID } from "node:crypto";
import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import { raceAbort } from "../abort.ts";
import { decodeRelayReply, emptyCollected, encodeRelayCancel, encodeRelayRequest, RELAY_TITLE, replyToCollected } from "../codec.ts";
import { type AskForm, type Collected, RELAY_VERSION } from "../types.ts";

export type RelayUI = Pick<ExtensionUIContext, "editor" | "notify">;

export interface RelayAskOptions {
	signal?: AbortSignal;
	asker?: string;
}

/**
 * How long an aborted ask waits for the parent's reply to its cancel notice: a
 * relay-aware parent answers in one round trip per level; a parent that never
 * answers costs this much, once.
 */
export const CANCEL_GRACE_MS = 1_000;

/**
 * Asks the parent. On an abort the parent is told with a cancel notice (RPC's
 * editor dialog cannot be withdrawn); it closes the form at once and replies
 * with the answers given so far, which are kept if the reply comes within
 * CANCEL_GRACE_MS — otherwise "aborted" with nothing. Anything but a
 * well-formed reply to this very request is an "error".
 */
export async function collectViaRelay(ui: RelayUI, form: AskForm, options: RelayAskOptions = {}): Promise<Collected> {
	const { signal } = options;
	if (signal?.aborted) return emptyCollected("aborted");

	const rid = randomUUID();
	const request = encodeRelayRequest({ v: RELAY_VERSION, rid, asker: options.asker, questions: form.questions, metadata: form.metadata });
	return awaitRelayReply(ui.editor(RELAY_TITLE, request), {
		form,
		rid,
		signal,
		cancel: () => ui.notify(encodeRelayCancel(rid), "info"),
		noReply: "the parent cancelled the relayed form without a reply (is its runner relay-aware?)",
	});
}

export interface ReplyWait {
	form: AskForm;
	/** The request's id: a reply to anything else is an error. */
	rid: string;
	signal: AbortSignal | undefined;
	/** Tells the parent the ask is aborted (it then replies with the answers so far). */
	cancel(): void;
	/** The error when the reply comes back empty. */
	noReply: string;
}

/**
 * Waits for the parent's reply text to a relay request, by any transport. On
 * an abort the parent is told (`cancel`) and gets CANCEL_GRACE_MS to reply
 * with the answers given so far, which are kept under status "aborted".
 * Anything but a well-formed reply to this very request is an "error".
 */
export async function awaitRelayReply(reply: Promise<string | undefined>, wait: ReplyWait): Promise<Collected> {
	const decode = (text: string) => decodeRelayReply(text, { questions: wait.form.questions, rid: wait.rid });
	const raced = await raceAbort(reply, wait.signal);
	if (raced.aborted) {
		wait.cancel();
		const late = await raceAbort(reply, AbortSignal.timeout(CANCEL_GRACE_MS)).catch(() => undefined);
		const decoded = late && !late.aborted && late.value !== undefined ? decode(late.value) : undefined;
		if (!decoded?.ok) return emptyCollected("aborted");
		// The abort wins over whatever the parent says, but nothing the user gave is lost.
		return { ...replyToCollected(decoded.reply), status: "aborted" };
	}
	if (raced.value === undefined) return emptyCollected("error", wait.noReply);
	const decoded = decode(raced.value);
	return decoded.ok ? replyToCollected(decoded.reply) : emptyCollected("error", decoded.error);
}
