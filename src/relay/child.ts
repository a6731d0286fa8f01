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
import { decodeRelayReply, encodeRelayCancel, encodeRelayRequest, RELAY_TITLE, replyToCollected } from "../codec.ts";
import { type AskForm, type Collected, RELAY_VERSION } from "../types.ts";

export const RELAY_ENV = "PI_ASK_USER_RELAY";

export interface RelayEnvironment {
	/** The parent is relay-aware: send whole forms up instead of walking dialogs. */
	relay: boolean;
}

export function readRelayEnvironment(env: NodeJS.ProcessEnv = process.env): RelayEnvironment {
	return { relay: env[RELAY_ENV] === "1" };
}

export type RelayUI = Pick<ExtensionUIContext, "editor" | "notify">;

export interface RelayAskOptions {
	signal?: AbortSignal;
	asker?: string;
}

/**
 * Asks the parent. An abort resolves at once (RPC's editor dialog cannot be
 * withdrawn, so the parent is told with a cancel notice and closes the form);
 * anything but a well-formed reply to this very request is an "error".
 */
export async function collectViaRelay(ui: RelayUI, form: AskForm, options: RelayAskOptions = {}): Promise<Collected> {
	const { signal } = options;
	const nothing = (status: Collected["status"], error?: string): Collected => ({
		status,
		answers: {},
		skipped: [],
		notes: [],
		...(error ? { error } : {}),
	});
	if (signal?.aborted) return nothing("aborted");

	const rid = randomUUID();
	const request = encodeRelayRequest({ v: RELAY_VERSION, rid, asker: options.asker, questions: form.questions, metadata: form.metadata });
	const reply = await new Promise<string | undefined | typeof ABORTED>((resolve, reject) => {
		const onAbort = () => resolve(ABORTED);
		signal?.addEventListener("abort", onAbort, { once: true });
		ui.editor(RELAY_TITLE, request).then(
			(value) => {
				signal?.removeEventListener("abort", onAbort);
				resolve(value);
			},
			(error: unknown) => {
				signal?.removeEventListener("abort", onAbort);
				reject(error);
			},
		);
	});
	if (reply === ABORTED) {
		ui.notify(encodeRelayCancel(rid), "info");
		return nothing("aborted");
	}
	if (reply === undefined) {
		return nothing("error", "the parent cancelled the relayed form without a reply (is its runner relay-aware?)");
	}
	const decoded = decodeRelayReply(reply, { questions: form.questions, rid });
	return decoded.ok ? replyToCollected(decoded.reply) : nothing("error", decoded.error);
}

const ABORTED = Symbol("aborted");
