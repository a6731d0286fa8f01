/**
 * What the local channel does with a child's request, loaded with the first
 * one so that the listener stays light: decoded and validated like a model's
 * call, asked through the process's handler, answered with a reply envelope.
 */

import type { AskHandler } from "../../router.ts";
import { emptyCollected } from "../../result.ts";
import { errorText, type RelayReply } from "../../types.ts";
import { collectedToReply, decodeRelayRequest, encodeRelayReply } from "../envelope.ts";

/** Never rejects: whatever happens, the child gets a reply it can decode. */
export async function answerRequest(line: string, handler: () => AskHandler | undefined, signal: AbortSignal): Promise<string> {
	const decoded = decodeRelayRequest(line);
	if (!decoded.ok) return encodeRelayReply(collectedToReply(emptyCollected("error", decoded.error)));
	const { rid } = decoded.request;
	const current = handler();
	let reply: RelayReply;
	try {
		reply = current ? await current(decoded.request, { signal }) : collectedToReply(emptyCollected("no_ui", "the parent session has no UI to show the form"), rid);
	} catch (error) {
		reply = collectedToReply(emptyCollected("error", errorText(error)), rid);
	}
	return encodeRelayReply(reply);
}
