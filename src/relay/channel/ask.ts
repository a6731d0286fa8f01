/**
 * What the local channel does with a child's request, loaded with the first
 * one so that the listener stays light: decoded and validated like a model's
 * call, asked through the process's handler, answered with a reply envelope.
 */

import { collectedToReply, decodeRelayRequest, encodeRelayReply } from "../envelope.ts";
import { emptyCollected } from "../../result.ts";
import { type RelayReply, errorText } from "../../types.ts";
import type { AskHandler } from "../../router.ts";

/** Never rejects: whatever happens, the child gets a reply it can decode. */
export async function answerRequest(line: string, handler: () => AskHandler | undefined, signal: AbortSignal): Promise<string> {
	return encodeRelayReply(await ask(line, handler, signal));
}

async function ask(line: string, handler: () => AskHandler | undefined, signal: AbortSignal): Promise<RelayReply> {
	const decoded = decodeRelayRequest(line);
	if (!decoded.ok) return collectedToReply(emptyCollected("error", decoded.error));
	const { rid } = decoded.request;
	const current = handler();
	if (current === undefined) return collectedToReply(emptyCollected("no_ui", "the parent session has no UI to show the form"), rid);
	try {
		return await current(decoded.request, { signal });
	} catch (error) {
		return collectedToReply(emptyCollected("error", errorText(error)), rid);
	}
}
