/**
 * The answer codec: a leaf that turns what a UI collected into the
 * tool result (text for the model, details for the transcript), and carries
 * forms and answers between a subagent and its parent as versioned envelopes.
 * Pure: no I/O, no theme, no clock.
 */

export { answerFor, buildDetails, emptyCollected, formatProgressText, formatResultText, progressDetails, questionOutcome } from "./codec/result.ts";
export type { ResultExtra } from "./codec/result.ts";
export {
	RELAY_ASKER_MAX,
	RELAY_CANCEL_PREFIX,
	RELAY_TITLE,
	collectedToReply,
	decodeRelayCancel,
	decodeRelayReply,
	decodeRelayRequest,
	encodeRelayCancel,
	encodeRelayReply,
	encodeRelayRequest,
	replyToCollected,
} from "./codec/relay.ts";
export type { RelayReplyDecoding, RelayReplyExpectation, RelayRequestDecoding } from "./codec/relay.ts";
export { quoteExact } from "./codec/quote.ts";
