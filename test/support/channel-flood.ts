/**
 * A flood on a local channel's socket (src/relay/channel/server.ts), for the tests and a soak script: connections that
 * never say hello, lines of garbage, and a line that never ends, each held open until `stop()`. With `sustain`, every
 * connection the server closes is opened again at once, so the flood keeps its size.
 */

import { createConnection, type Socket } from "node:net";

export interface FloodOptions {
	/** Connections that send nothing. */
	silent?: number;
	/** Connections that send a line that is no hello (and are dropped for it). */
	garbage?: number;
	/** Connections that send `overLongBytes` with no newline, and wait. */
	overLong?: number;
	overLongBytes?: number;
	sustain?: boolean;
}

export interface Flood {
	/** How many connections the server has closed so far. */
	readonly closedByServer: number;
	/** Ends every connection of the flood; none is opened again. */
	stop(): void;
}

const GARBAGE = "\u0000\u001b]52;c;AAAA\u0007 not a hello\n";

/** Resolves once every connection of the flood has connected (or failed to). */
export async function floodChannel(path: string, options: FloodOptions = {}): Promise<Flood> {
	const { silent = 300, garbage = 0, overLong = 0, overLongBytes = 64 * 1024, sustain = false } = options;
	const sockets = new Set<Socket>();
	let stopped = false;
	let closedByServer = 0;
	const open = (payload: string | Buffer | undefined): Promise<void> =>
		new Promise((connected) => {
			const socket = createConnection(path);
			sockets.add(socket);
			socket.on("error", () => connected());
			socket.on("connect", () => {
				if (payload !== undefined) socket.write(payload);
				connected();
			});
			socket.on("close", () => {
				sockets.delete(socket);
				if (stopped) return;
				closedByServer++;
				if (sustain) void open(payload);
			});
		});
	await Promise.all([
		...Array.from({ length: silent }, () => open(undefined)),
		...Array.from({ length: garbage }, () => open(GARBAGE)),
		...Array.from({ length: overLong }, () => open(Buffer.alloc(overLongBytes, "x"))),
	]);
	return {
		get closedByServer() {
			return closedByServer;
		},
		stop() {
			stopped = true;
			for (const socket of sockets) socket.destroy();
			sockets.clear();
		},
	};
}
