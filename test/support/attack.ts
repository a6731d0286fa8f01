/**
 * Attacks on a browser page's server (src/web/server.ts), for its tests and a soak run: slow connections that
 * trickle a request's headers (slowloris), and fast fuzzed requests. Each runs until stopped, or for ATTACK_MS at most,
 * and counts the connections it opened. Only ever aimed at a server of ours on this machine.
 */

import { connect, type Socket } from "node:net";

export type Attack = { connections: number; stop(): void };

/** How long an attack lasts unless stopped sooner: it ends by itself. */
export const ATTACK_MS = 120_000;

/** `count` connections to `url`'s host, each given to `speak` with a way to open the next; all dropped with the attack. */
function attacker(url: string, count: number, speak: (socket: Socket, again: () => void) => void): Attack {
	const { hostname, port } = new URL(url);
	const sockets = new Set<Socket>();
	let stopped = false;
	const attack = {
		connections: 0,
		stop() {
			stopped = true;
			for (const socket of sockets) socket.destroy();
		},
	};
	const again = () => {
		if (stopped) return;
		attack.connections++;
		const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ""));
		sockets.add(socket);
		socket.on("error", () => {});
		socket.once("close", () => sockets.delete(socket));
		speak(socket, again);
	};
	for (let i = 0; i < count; i++) again();
	setTimeout(() => attack.stop(), ATTACK_MS).unref();
	return attack;
}

/** `count` connections, each sending a request's headers one byte every `intervalMs`, connecting again when dropped. */
export function slowloris(url: string, count = 70, intervalMs = 1000): Attack {
	const { host, pathname } = new URL(url);
	const bytes = `GET ${pathname} HTTP/1.1\r\nHost: ${host}\r\n${"X-Slow: yes\r\n".repeat(500)}\r\n`;
	return attacker(url, count, (socket, again) => {
		let sent = 0;
		const trickle = () => socket.write(bytes[sent++ % bytes.length] ?? "");
		trickle();
		const timer = setInterval(trickle, intervalMs);
		socket.once("close", () => (clearInterval(timer), again()));
	});
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const junk = (length: number) => String.fromCharCode(...Array.from({ length }, () => Math.floor(Math.random() * 256)));

/** A request as random as a fuzzer makes it: method, path (near `url`'s or not), headers and body. */
export function fuzzedRequest(url: string): string {
	const { host, pathname } = new URL(url);
	const method = pick(["GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD", "PATCH", "BREW", "", junk(4)]);
	const path = pick([pathname, `${pathname}answer`, `${pathname}${junk(8)}`, `/ask/${junk(32)}/`, "*", junk(20)]);
	const body = pick(["", "{}", '{"questions":[{"chosen":[0]}]}', junk(Math.floor(Math.random() * 4096))]);
	const headers = [
		pick([`Host: ${host}`, "Host: evil.example", "", `Host: ${junk(10)}`]),
		pick(["Content-Type: application/json", "Content-Type: application/jsonp", "", `Content-Type: ${junk(12)}`]),
		pick([`Content-Length: ${body.length}`, `Content-Length: ${body.length + 9}`, "Transfer-Encoding: chunked"]),
		pick(["X-Ask-User: wrong", "Origin: http://evil.example", "Expect: 100-continue", `${junk(6)}: ${junk(30)}`]),
	];
	return `${method} ${path} HTTP/1.1\r\n${headers.filter(Boolean).join("\r\n")}\r\n\r\n${body}`;
}

/**
 * `concurrency` connections at a time, each sending one fuzzed request and connecting again once it is answered or
 * dropped; `statuses` counts the answers by status code ("dropped": none came), until the attack stops.
 */
export function fuzz(url: string, concurrency = 8): Attack & { statuses: Record<string, number> } {
	const statuses: Record<string, number> = {};
	let stopped = false;
	const attack = attacker(url, concurrency, (socket, again) => {
		let head = "";
		socket.end(Buffer.from(fuzzedRequest(url), "latin1"));
		socket.on("data", (chunk: Buffer) => {
			if (head.length < 512) head += chunk.toString("latin1");
		});
		socket.setTimeout(2000, () => socket.destroy());
		socket.once("close", () => {
			// The final answer's status: past a "100 Continue", if one came first.
			const codes = [...head.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1] as string);
			const status = codes.find((code) => !code.startsWith("1")) ?? codes[0] ?? "dropped";
			if (!stopped) statuses[status] = (statuses[status] ?? 0) + 1;
			again();
		});
	});
	const stop = attack.stop;
	return Object.assign(attack, { statuses, stop: () => ((stopped = true), stop()) });
}
