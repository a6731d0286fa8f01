/** Who asked a relayed form: the chain of subagents, outermost first. */

import { RELAY_ASKER_MAX as ASKER_MAX } from "../codec.ts";

/**
 * "planner" + "scout" → "planner › scout", outermost first, on one line and
 * within the envelope's limit (the innermost end is the one kept).
 */
export function joinAskers(outer: string | undefined, inner: string | undefined): string | undefined {
	const joined = [outer, inner]
		.map((part) => part?.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]+/g, " ").trim())
		.filter((part): part is string => Boolean(part))
		.join(" › ");
	if (!joined) return undefined;
	if (joined.length <= ASKER_MAX) return joined;
	const tail = joined.slice(joined.length - ASKER_MAX + 1).replace(/^[\udc00-\udfff]/, "");
	return `…${tail}`;
}
