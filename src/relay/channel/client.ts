/**
 * The child's side of the local channel (wire.ts): a session that cannot show a form sends it to the session that
 * published PI_ASK_USER_CHANNEL; a parent gone or silent for CONNECT_MS is "no_ui", with the reason. And the wait for
 * the parent's reply, here and in RPC.
 */

import { randomUUID } from "node:crypto";
import { createConnection } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { raceAbort } from "../../core/abort.ts";
import {
	type AskForm,
	type AskOptions,
	type Collected,
	errorText,
	RELAY_VERSION,
	emptyCollected,
} from "../../core/types.ts";
import { decodeRelayReply, encodeRelayRequest, replyToCollected, replyVersionFor } from "../envelope.ts";
import {
	CHANNEL_CANCEL,
	CHANNEL_REPLY_MAX,
	type ChannelAddress,
	createLineSplitter,
	encodeChannelHello,
	notReady,
} from "./wire.ts";

/** How long a child waits for a live parent to say it is listening. */
export const CONNECT_MS = 1_500;
/** How long a child waits before it connects again, when the parent closed its connection before the hello was read. */
const RETRY_MS = 20;
/** How long an aborted ask waits for the reply to its cancel notice (one round trip per level). */
export const CANCEL_GRACE_MS = 1_000;

export async function collectViaChannel(
	address: ChannelAddress,
	form: AskForm,
	options: AskOptions = {},
): Promise<Collected> {
	if (options.signal?.aborted) return emptyCollected("aborted");
	const opened = await connect(address, options.signal);
	if (!opened.ok) return opened.collected;
	const { socket, next } = opened.connection;
	try {
		return await askParent(form, options, {
			send: (request) => {
				socket.write(`${request}\n`);
				return next();
			},
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

/**
 * How a form reaches the parent that shows it, a transport: `send` the request envelope, resolving with the reply's
 * text (undefined when it comes back empty, then `noReply` is the error); `cancel`: tell the parent the ask is aborted
 * (it replies with the answers so far).
 */
export type Parent = { send(request: string): Promise<string | undefined>; cancel(rid: string): void; noReply: string };

/**
 * The form as a relay request and the parent's reply, by either transport; aborted, the answers so far if they come
 * within CANCEL_GRACE_MS.
 */
export async function askParent(form: AskForm, options: AskOptions, parent: Parent): Promise<Collected> {
	const { signal, asker, task } = options;
	if (signal?.aborted) return emptyCollected("aborted");
	const rid = randomUUID();
	const replyVersion = replyVersionFor(options);
	const reply = parent.send(encodeRelayRequest({ v: RELAY_VERSION, rid, asker, task, ...form, replyVersion }));
	const decode = (text: string | undefined) =>
		text === undefined ? undefined : decodeRelayReply(text, { questions: form.questions, rid });
	const raced = await raceAbort(reply, signal);
	if (!raced.aborted) {
		const decoded = decode(raced.value);
		if (!decoded) return emptyCollected("error", parent.noReply);
		return decoded.ok ? replyToCollected(decoded.reply) : emptyCollected("error", decoded.error);
	}
	parent.cancel(rid);
	const late = await raceAbort(reply, AbortSignal.timeout(CANCEL_GRACE_MS)).catch(() => undefined);
	const decoded = late?.aborted === false ? decode(late.value) : undefined;
	return decoded?.ok ? { ...replyToCollected(decoded.reply), status: "aborted" } : emptyCollected("aborted");
}

/** Connected, the token proved and the parent ready; or why it can't be used. */
async function connect(
	address: ChannelAddress,
	signal: AbortSignal | undefined,
): Promise<{ ok: true; connection: ReturnType<typeof openConnection> } | { ok: false; collected: Collected }> {
	const waited = AbortSignal.timeout(CONNECT_MS);
	const until = signal ? AbortSignal.any([signal, waited]) : waited;
	const hello = () => {
		const opened = openConnection(address.path);
		opened.socket.write(`${encodeChannelHello(address.token, process.pid)}\n`);
		return opened;
	};
	let connection = hello();
	let first = await raceAbort(connection.next(), until);
	// Accepted, then closed without a word: the parent made room with it for a newer connection (a flood of them holds
	// the socket: server.ts). Said again while the time lasts, so a flood never shuts a child out; a parent gone refuses
	// the connection itself (ENOENT, ECONNREFUSED), and that is the answer.
	while (!first.aborted && first.value === undefined && connection.connected()) {
		connection.socket.destroy();
		const waited = await raceAbort(sleep(RETRY_MS), until);
		if (!waited.aborted) connection = hello();
		first = waited.aborted ? waited : await raceAbort(connection.next(), until);
	}
	const line = first.aborted ? undefined : first.value;
	const problem = line === undefined ? undefined : notReady(line);
	let why = problem && `answered in a way this version does not understand: ${problem}`;
	if (line === undefined)
		why = `is unreachable (${connection.failure() ?? "closed at once"}): the parent pi has probably ended`;
	if (first.aborted) why = `did not answer within ${CONNECT_MS / 1000} s (is the parent pi still running?)`;
	if (why === undefined && !signal?.aborted) return { ok: true, connection };
	connection.socket.destroy();
	if (signal?.aborted) return { ok: false, collected: emptyCollected("aborted") };
	return {
		ok: false,
		collected: emptyCollected("no_ui", `the parent session's ask_user channel ${JSON.stringify(address.path)} ${why}`),
	};
}

function openConnection(path: string) {
	const socket = createConnection(path);
	// The parent's lines: ready, then the reply, which may carry the files' bytes.
	const splitter = createLineSplitter(CHANNEL_REPLY_MAX);
	const lines: string[] = [];
	let closed = false;
	let connected = false;
	let failure: string | undefined;
	let wake = () => {};
	socket.once("connect", () => void (connected = true));
	socket.on("data", (chunk: Buffer) => {
		const got = splitter.push(chunk);
		if (got === "overflow") socket.destroy();
		else lines.push(...got);
		wake();
	});
	socket.on("error", (error: NodeJS.ErrnoException) => void (failure = error.code ?? errorText(error)));
	socket.on("close", () => {
		closed = true;
		wake();
	});
	return {
		socket,
		/** The next line the parent sent; undefined once the connection has closed. */
		async next(): Promise<string | undefined> {
			while (lines.length === 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
			return lines.shift();
		},
		failure: (): string | undefined => failure,
		/** The parent accepted the connection, whatever became of it after. */
		connected: (): boolean => connected,
	};
}
