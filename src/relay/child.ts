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
	const editing = ui.editor(RELAY_TITLE, request);
	const decode = (reply: string) => decodeRelayReply(reply, { questions: form.questions, rid });

	const raced = await raceAbort(editing, signal);
	if (raced.aborted) {
		ui.notify(encodeRelayCancel(rid), "info");
		const late = await raceAbort(editing, AbortSignal.timeout(CANCEL_GRACE_MS)).catch(() => undefined);
		const decoded = late && !late.aborted && late.value !== undefined ? decode(late.value) : undefined;
		if (!decoded?.ok) return emptyCollected("aborted");
		// The abort wins over whatever the parent says, but nothing the user gave is lost.
		return { ...replyToCollected(decoded.reply), status: "aborted" };
	}
	if (raced.value === undefined) {
		return emptyCollected("error", "the parent cancelled the relayed form without a reply (is its runner relay-aware?)");
	}
	const decoded = decode(raced.value);
	return decoded.ok ? replyToCollected(decoded.reply) : emptyCollected("error", decoded.error);
}
