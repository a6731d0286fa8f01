/**
 * The child's side of the local channel (wire: wire.ts; the other end:
 * server.ts): a session that cannot show a form and inherited
 * PI_ASK_USER_CHANNEL sends its whole form to the session that published it.
 * A parent that is gone (ENOENT, ECONNREFUSED) or silent for CONNECT_MS (a
 * connect that hangs, a frozen process) is "no_ui", with the reason, so the
 * model goes on as it would with no UI at all.
 */

import { randomUUID } from "node:crypto";
import { createConnection, type Socket } from "node:net";
import { raceAbort } from "../../abort.ts";
import { emptyCollected } from "../../result.ts";
import { type AskForm, type AskOptions, type Collected, errorText, RELAY_VERSION } from "../../types.ts";
import { awaitRelayReply } from "../child.ts";
import { encodeRelayRequest } from "../envelope.ts";
import { CHANNEL_CANCEL, type ChannelAddress, channelVersionProblem, createLineSplitter, encodeChannelHello, isChannelReady } from "./wire.ts";

/** How long a child waits for a live parent to say it is listening. */
export const CONNECT_MS = 1_500;

export async function collectViaChannel(address: ChannelAddress, form: AskForm, options: AskOptions = {}): Promise<Collected> {
	const { signal } = options;
	if (signal?.aborted) return emptyCollected("aborted");
	const opened = await connect(address, signal);
	if (!opened.ok) return opened.collected;
	const { socket, next } = opened.connection;
	try {
		const rid = randomUUID();
		socket.write(`${encodeRelayRequest({ v: RELAY_VERSION, rid, asker: options.asker, questions: form.questions, metadata: form.metadata })}\n`);
		return await awaitRelayReply(next(), {
			form,
			rid,
			signal,
			cancel: () => socket.write(`${CHANNEL_CANCEL}\n`),
			noReply: "the parent pi session that showed the form ended before the user answered",
		});
	} finally {
		socket.destroy();
	}
}

/** Whether a live parent answers (a connection that proves the token, then closes). */
export async function channelReachable(address: ChannelAddress): Promise<boolean> {
	const opened = await connect(address, undefined);
	if (opened.ok) opened.connection.socket.destroy();
	return opened.ok;
}

interface Connection {
	socket: Socket;
	/** The next line the parent sent; undefined once the connection has closed. */
	next(): Promise<string | undefined>;
	/** Why the connection failed, if it did. */
	failure(): string | undefined;
}

/** Connected, the token proved and the parent ready; or why it can't be used. */
async function connect(address: ChannelAddress, signal: AbortSignal | undefined): Promise<{ ok: true; connection: Connection } | { ok: false; collected: Collected }> {
	const connection = openConnection(address.path);
	connection.socket.write(`${encodeChannelHello(address.token)}\n`);
	const waited = AbortSignal.timeout(CONNECT_MS);
	const first = await raceAbort(connection.next(), signal ? AbortSignal.any([signal, waited]) : waited);
	const line = first.aborted ? undefined : first.value;
	if (!signal?.aborted && line !== undefined && isChannelReady(line)) return { ok: true, connection };
	connection.socket.destroy();
	if (signal?.aborted) return { ok: false, collected: emptyCollected("aborted") };
	const why = first.aborted
		? `did not answer within ${CONNECT_MS / 1000} s (is the parent pi still running?)`
		: line === undefined
			? `is unreachable (${connection.failure() ?? "closed at once"}): the parent pi has probably ended`
			: `answered in a way this version does not understand: ${channelVersionProblem(line) ?? "not ready"}`;
	return { ok: false, collected: emptyCollected("no_ui", `the parent session's ask_user channel ${JSON.stringify(address.path)} ${why}`) };
}

function openConnection(path: string): Connection {
	const socket = createConnection(path);
	const splitter = createLineSplitter();
	const lines: string[] = [];
	let closed = false;
	let failure: string | undefined;
	let wake = () => {};
	socket.on("data", (chunk: Buffer) => {
		const got = splitter.push(chunk);
		if (got === "overflow") socket.destroy();
		else lines.push(...got);
		wake();
	});
	socket.on("error", (error: NodeJS.ErrnoException) => {
		failure = error.code ?? errorText(error);
	});
	socket.on("close", () => {
		closed = true;
		wake();
	});
	return {
		socket,
		async next() {
			while (lines.length === 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
			return lines.shift();
		},
		failure: () => failure,
	};
}
