/**
 * Legitimate children for the channel's soak, in a process of their own (`node scripts/soak.mjs --channel-children N`,
 * with PI_ASK_USER_CHANNEL set as a child inherits it): each does what a child pi does, with the real client —
 * checks that the parent is there, as at its start, then sends its form — `AT_ONCE` at a time. Prints one JSON line:
 * each child's wait in ms and whether it was served (the parent found, the form answered).
 */

import { channelReachable, collectViaChannel } from "../../src/relay/channel/client.ts";
import { decodeChannelAddress } from "../../src/relay/channel/wire.ts";
import { CHANNEL_ENV } from "../../src/core/types.ts";
import { DB_QUESTION } from "../../test/support/ask-fixtures.ts";

const AT_ONCE = 5;

export type ChildOutcome = { waitMs: number; served: boolean; why?: string };

export async function runChannelChildren(count: number): Promise<ChildOutcome[]> {
	const decoded = decodeChannelAddress(process.env[CHANNEL_ENV]);
	if (!decoded.ok) throw new Error(decoded.error);
	const { address } = decoded;
	const outcomes: ChildOutcome[] = [];
	const child = async () => {
		const started = Date.now();
		const found = await channelReachable(address);
		const collected = found ? await collectViaChannel(address, { questions: [DB_QUESTION] }) : undefined;
		const served = collected?.status === "answered";
		outcomes.push({
			waitMs: Date.now() - started,
			served,
			...(!served && { why: found ? `${collected?.status}: ${collected?.error}` : "the parent was not found" }),
		});
	};
	for (let i = 0; i < count; i += AT_ONCE)
		await Promise.all(Array.from({ length: Math.min(AT_ONCE, count - i) }, child));
	return outcomes;
}
