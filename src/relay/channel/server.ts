/**
 * The parent's side of the local channel (wire.ts): a Unix socket (a named pipe on Windows) in a directory only this
 * user can enter, its address and a random token published in PI_ASK_USER_CHANNEL. A connection must prove the token in
 * a first line of at most HELLO_LINE_MAX within HELLO_MS, at most MAX_UNPROVEN at a time (at the cap the oldest makes
 * room), no line past CHANNEL_LINE_MAX; one that closes aborts its form at once.
 */

import { randomBytes, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type AskHandler, errorText, emptyCollected } from "../../core/types.ts";
import {
	CHANNEL_LINE_MAX,
	CHANNEL_READY,
	type ChannelAddress,
	createLineSplitter,
	decodeChannelHello,
	isChannelCancel,
} from "./wire.ts";

export const HELLO_MS = 2_000;
/** A child that proved the token holds its connection while its form waits and is shown: only the others count. */
export const MAX_UNPROVEN = 32;
/** The longest first line, in bytes: a hello is under a hundred, so a long line is cut off before it costs anything. */
export const HELLO_LINE_MAX = 1024;
/** How long closing waits for the aborted forms' last replies to reach their children. */
const CLOSE_GRACE_MS = 300;
/** Unix socket paths are limited to about 104–108 bytes. */
const SOCKET_PATH_MAX = 100;

/**
 * `handler()` undefined answers the child `no_ui`; `parentDir`: where the socket's private directory is made (default:
 * the OS temp dir).
 */
type LocalChannelOptions = { handler(): AskHandler | undefined; parentDir?: string };

/** `close` aborts every open ask (each child gets its reply), stops listening, removes the socket's directory. */
export type LocalChannel = { readonly address: ChannelAddress; close(): Promise<void> };

/** Each open connection, and how to end it when the channel closes; those yet to prove the token, oldest first. */
type Connections = { ends: Map<Socket, () => void>; unproven: Set<Socket> };

export async function openLocalChannel({ handler, parentDir }: LocalChannelOptions): Promise<LocalChannel> {
	const token = Buffer.from(randomBytes(32).toString("hex"));
	const place = socketPlace(parentDir);
	const connections: Connections = { ends: new Map(), unproven: new Set() };
	const server = createServer((socket) => {
		// At the cap, the one that has waited longest without proving the token makes room: a flood never shuts a child
		// out.
		const [oldest] = connections.unproven;
		if (oldest && connections.unproven.size >= MAX_UNPROVEN) {
			connections.unproven.delete(oldest);
			oldest.destroy();
		}
		serve(socket, token, handler, connections);
	});
	try {
		server.listen(place.path);
		await once(server, "listening");
		if (process.platform !== "win32") chmodSync(place.path, 0o600);
	} catch (error) {
		place.remove();
		throw error;
	}
	// A failing accept (EMFILE) must not become an uncaught error in pi.
	server.on("error", () => {});
	// Neither the server nor a child waiting on it keeps pi running.
	server.unref();
	const stopWatching = removeOnExit(place.remove);
	let closing: Promise<void> | undefined;
	const close = async () => {
		stopWatching();
		server.close();
		const sockets = [...connections.ends.keys()];
		for (const end of connections.ends.values()) end();
		await Promise.race([
			Promise.all(sockets.map((socket) => new Promise((closed) => socket.once("close", closed)))),
			sleep(CLOSE_GRACE_MS, undefined, { ref: false }),
		]);
		for (const socket of sockets) socket.destroy();
		place.remove();
	};
	return { address: { path: place.path, token: token.toString() }, close: () => (closing ??= close()) };
}

/** On "exit", SIGTERM, SIGHUP, and SIGINT when nobody else handles it (then raised again); returns the undo. */
function removeOnExit(remove: () => void): () => void {
	const signals: NodeJS.Signals[] =
		process.platform === "win32" ? ["SIGINT", "SIGTERM"] : ["SIGINT", "SIGTERM", "SIGHUP"];
	const onSignal = (signal: NodeJS.Signals) => {
		const alone = process.listenerCount(signal) === 1;
		if (!alone && signal === "SIGINT") return;
		remove();
		if (!alone) return;
		stop();
		process.kill(process.pid, signal);
	};
	process.on("exit", remove);
	for (const signal of signals) process.on(signal, onSignal);
	const stop = () => {
		process.off("exit", remove);
		for (const signal of signals) process.off(signal, onSignal);
	};
	return stop;
}

/** A fresh private directory each time: a stale socket of a crashed run is never in the way. */
function socketPlace(parentDir = tmpdir()): { path: string; remove(): void } {
	const name = `${randomBytes(8).toString("hex")}.sock`;
	if (process.platform === "win32") return { path: `\\\\.\\pipe\\pi-ask-user-${name}`, remove: () => {} };
	const base = join(parentDir, "pi-ask-user-XXXXXX", name).length <= SOCKET_PATH_MAX ? parentDir : "/tmp";
	// mkdtemp makes the directory 0700; the chmod says so where a umask or platform might not.
	const dir = mkdtempSync(join(base, "pi-ask-user-"));
	chmodSync(dir, 0o700);
	// force: a second call (exit after close) finds nothing and says nothing.
	return { path: join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function serve(socket: Socket, token: Buffer, handler: () => AskHandler | undefined, connections: Connections): void {
	socket.unref();
	connections.unproven.add(socket);
	const splitter = createLineSplitter(CHANNEL_LINE_MAX, HELLO_LINE_MAX);
	const asking = new AbortController();
	let stage: "hello" | "request" | "asking" = "hello";
	// The child's process id, as its hello says.
	let pid: number | undefined;
	const drop = () => socket.destroy();
	// Closing the channel: an open form closes and its child gets the answers so far; anyone else is dropped.
	connections.ends.set(socket, () => (stage === "asking" ? asking.abort() : drop()));
	const helloTimer = setTimeout(drop, HELLO_MS).unref();
	socket.on("error", () => {}); // a reset is a close: handled there
	socket.on("close", () => {
		connections.unproven.delete(socket);
		clearTimeout(helloTimer);
		connections.ends.delete(socket);
		asking.abort();
	});
	socket.on("data", (chunk: Buffer) => {
		const lines = splitter.push(chunk);
		if (lines === "overflow") return drop();
		for (const line of lines) {
			if (stage === "hello") {
				const hello = decodeChannelHello(line);
				if (hello === undefined || !timingSafeEqual(Buffer.from(hello.token), token)) return drop();
				pid = hello.pid;
				clearTimeout(helloTimer);
				connections.unproven.delete(socket);
				stage = "request";
				socket.write(`${CHANNEL_READY}\n`);
			} else if (stage === "request") {
				stage = "asking";
				// The child's reader takes a reply with every file's bytes (CHANNEL_REPLY_MAX).
				const options = { signal: asking.signal, carriesFiles: true, ...(pid && { pid }) };
				void answer(line, handler, options).then((reply) => {
					if (!socket.destroyed) socket.end(`${reply}\n`);
				});
			} else if (isChannelCancel(line)) {
				asking.abort();
			} else {
				return drop();
			}
		}
	});
}

/**
 * A child's request, decoded and validated like a model's call, asked through the process's handler. Never rejects: the
 * child gets a reply it can decode.
 */
async function answer(
	line: string,
	handler: () => AskHandler | undefined,
	options: Parameters<AskHandler>[1],
): Promise<string> {
	let codec: typeof import("../envelope.ts");
	try {
		// The relay codec loads with the first request, not with the listener at start-up.
		codec = await import("../envelope.ts");
	} catch (error) {
		return JSON.stringify({ v: 1, status: "error", answers: {}, skipped: [], notes: [], error: errorText(error) });
	}
	const decoded = codec.decodeRelayRequest(line);
	const failed = (status: "error" | "no_ui", error: string) =>
		codec.collectedToReply(emptyCollected(status, error), decoded.ok ? decoded.request.rid : undefined);
	if (!decoded.ok) return codec.encodeRelayReply(failed("error", decoded.error));
	const current = handler();
	try {
		return codec.encodeRelayReply(
			current
				? await current(decoded.request, options)
				: failed("no_ui", "the parent session has no UI to show the form"),
		);
	} catch (error) {
		return codec.encodeRelayReply(failed("error", errorText(error)));
	}
}
