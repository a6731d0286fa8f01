/**
 * The local channel over real Unix sockets, in this process: the parent's
 * server (relay/channel/server.ts) and the child's client (relay/channel/client.ts), and
 * what a hostile client on the socket gets — nothing shown, nothing crashed.
 */

import fc from "fast-check";
import { mkdtempSync, rmSync, statSync, existsSync, writeFileSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	CHANNEL_LINE_MAX,
	CHANNEL_READY,
	type ChannelAddress,
	createLineSplitter,
	decodeChannelAddress,
	decodeChannelHello,
	encodeChannelAddress,
	encodeChannelHello,
} from "../src/relay/channel/wire.ts";
import { collectedToReply } from "../src/relay/envelope.ts";
import { TASK_MAX } from "../src/relay/asker.ts";
import { firstUserText, selfAsker } from "../src/relay/elsewhere.ts";
import { CONNECT_MS, channelReachable, collectViaChannel } from "../src/relay/channel/client.ts";
import {
	HELLO_LINE_MAX,
	HELLO_MS,
	type LocalChannel,
	MAX_UNPROVEN,
	openLocalChannel,
} from "../src/relay/channel/server.ts";
import { currentHandler } from "../src/route/record.ts";
import { createRouter } from "../src/route/router.ts";
import { type AskHandler, CHANNEL_ENV } from "../src/core/types.ts";
import { ATTACHMENT_LIMITS, type AskAttached, base64Length } from "../src/core/attachment.ts";
import { withBytes } from "../src/relay/files.ts";
import { DB_QUESTION } from "./support/ask-fixtures.ts";
import { PNG_1X1 } from "./support/images.ts";
import { floodChannel } from "./support/channel-flood.ts";
import { expectEveryScriptUsedUp, pick, scriptedDialogs } from "./support/fake-dialogs.ts";
import { type AskForm, RELAY_VERSION, type RelayRequest, emptyCollected } from "../src/core/types.ts";

const form: AskForm = { questions: [DB_QUESTION] };
const pgAnswer = { db: { kind: "single" as const, selections: [{ value: "pg", label: "Postgres" }] } };

/** A parent UI that records every request it was asked to show, and answers as told. */
function recordingHandler(
	answer: (request: RelayRequest, signal: AbortSignal | undefined) => Promise<Parameters<typeof collectedToReply>[0]>,
) {
	const shown: RelayRequest[] = [];
	const handler: AskHandler = async (request, { signal }) => {
		shown.push(request);
		return collectedToReply(await answer(request, signal), request.rid);
	};
	return { shown, handler };
}

const answersPg = async () => ({ ...emptyCollected("answered"), answers: pgAnswer });

let root: string;
let channel: LocalChannel | undefined;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "pi-ask-user-channel-test-"));
});
afterEach(async () => {
	await channel?.close();
	channel = undefined;
	rmSync(root, { recursive: true, force: true });
});

async function open(handler: AskHandler | undefined): Promise<LocalChannel> {
	channel = await openLocalChannel({ handler: () => handler, parentDir: root });
	return channel;
}

/** Connects, writes `lines` raw, and resolves with everything the server sent before it closed. */
function rawClient(path: string, write: (socket: Socket) => void): Promise<{ received: string; closedWithin: number }> {
	const started = Date.now();
	return new Promise((resolve) => {
		const socket = createConnection(path);
		let received = "";
		socket.on("data", (chunk) => {
			received += chunk.toString("utf8");
		});
		socket.on("error", () => {});
		socket.on("close", () => resolve({ received, closedWithin: Date.now() - started }));
		socket.on("connect", () => write(socket));
	});
}

describe("the channel's wire", () => {
	it("an address round-trips, and anything else is refused with the variable's name", () => {
		const address: ChannelAddress = { token: "ab".repeat(32), path: "/tmp/x y:z/1.sock" };
		expect(decodeChannelAddress(encodeChannelAddress(address))).toEqual({ ok: true, address });
		for (const bad of [undefined, "", "2:" + "ab".repeat(32) + ":/p", "1:short:/p", `1:${"ab".repeat(32)}:`]) {
			const decoded = decodeChannelAddress(bad);
			expect(decoded.ok).toBe(false);
			if (!decoded.ok) expect(decoded.error).toContain("PI_ASK_USER_CHANNEL");
		}
	});

	it("a hello carries exactly a 64-hex-digit token, and the child's pid if it gives a whole number", () => {
		const token = "0f".repeat(32);
		expect(decodeChannelHello(encodeChannelHello(token))).toEqual({ token });
		expect(decodeChannelHello(encodeChannelHello(token, 4242))).toEqual({ token, pid: 4242 });
		for (const pid of [0, -1, 1.5, "12", null])
			expect(decodeChannelHello(JSON.stringify({ v: 1, token, pid }))).toEqual({ token });
		expect(decodeChannelHello(encodeChannelHello("0F".repeat(32)))).toBeUndefined();
		expect(decodeChannelHello('{"token":{"toString":1}}')).toBeUndefined();
		expect(decodeChannelHello("not json")).toBeUndefined();
	});

	it("the line splitter gives the same lines however the bytes are chunked", () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.string({ unit: "grapheme" }).map((s) => s.replace(/\n/g, " ")),
					{ maxLength: 8 },
				),
				fc.array(fc.nat(), { maxLength: 10 }),
				(lines, cuts) => {
					const bytes = new TextEncoder().encode(lines.map((line) => `${line}\n`).join(""));
					const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
					const splitter = createLineSplitter();
					const got: string[] = [];
					let from = 0;
					for (const to of [...points, bytes.length]) {
						const out = splitter.push(bytes.subarray(from, to));
						if (out === "overflow") throw new Error("overflow");
						got.push(...out);
						from = to;
					}
					expect(got).toEqual(lines);
				},
			),
		);
	});

	it("the line splitter refuses a line past its cap, with or without its newline", () => {
		expect(createLineSplitter(4).push(new TextEncoder().encode("12345"))).toBe("overflow");
		expect(createLineSplitter(4).push(new TextEncoder().encode("12345\n"))).toBe("overflow");
		const splitter = createLineSplitter(4);
		expect(splitter.push(new TextEncoder().encode("12"))).toEqual([]);
		expect(splitter.push(new TextEncoder().encode("34\n56"))).toEqual(["1234"]);
		expect(splitter.push(new TextEncoder().encode("789"))).toBe("overflow");
	});
});

describe("a child asks its parent through the channel", () => {
	it("the form is shown in the parent, labelled, and the child gets the answers", async () => {
		const { shown, handler } = recordingHandler(answersPg);
		const { address } = await open(handler);
		const collected = await collectViaChannel(address, form, { asker: "Task: pick a database" });
		expect(collected).toMatchObject({ status: "answered", answers: pgAnswer });
		expect(shown).toHaveLength(1);
		expect(shown[0]).toMatchObject({ asker: "Task: pick a database", questions: form.questions });
	});

	it("a form answered from elsewhere in the parent says so in the child too", async () => {
		const { handler } = recordingHandler(async () => ({
			...emptyCollected("answered"),
			answers: pgAnswer,
			answeredBy: "phone bridge",
		}));
		const { address } = await open(handler);
		expect(await collectViaChannel(address, form)).toMatchObject({ status: "answered", answeredBy: "phone bridge" });
	});

	it("files cross with their bytes, up to the limits' total (far past a line of a form), to a child that reads v3", async () => {
		const image = join(root, "whiteboard.png");
		const log = join(root, "crash.log");
		const png = Buffer.concat([PNG_1X1, Buffer.alloc(ATTACHMENT_LIMITS.imageBytes - PNG_1X1.length, 7)]);
		writeFileSync(image, png);
		writeFileSync(log, Buffer.alloc(ATTACHMENT_LIMITS.totalBytes - png.length, "a"));
		const files: AskAttached[] = [
			{ name: "whiteboard.png", path: image, size: png.length, mime: "image/png", kind: "note", questionId: "db" },
			{ name: "crash.log", path: log, size: 1, mime: "text/plain", kind: "note" },
		];
		const handler: AskHandler = async (request, { carriesFiles }) => {
			expect(carriesFiles).toBe(true);
			const answered = { ...emptyCollected("answered"), answers: pgAnswer, attachments: withBytes(files) };
			return collectedToReply(answered, request.rid, request);
		};
		const { address } = await open(handler);
		const collected = await collectViaChannel(address, form);
		expect(collected.status).toBe("answered");
		const [first, second] = collected.attachments ?? [];
		expect(first).toMatchObject({ name: "whiteboard.png", size: png.length, mime: "image/png", path: "" });
		expect(Buffer.from(first?.data ?? "", "base64").equals(png)).toBe(true);
		expect(second?.size).toBe(ATTACHMENT_LIMITS.totalBytes - png.length);
		expect(base64Length(ATTACHMENT_LIMITS.totalBytes)).toBeGreaterThan(CHANNEL_LINE_MAX);
	});

	it("the socket is the user's alone: its directory is 0700 and the socket 0600", async () => {
		const { address } = await open(undefined);
		expect(statSync(dirname(address.path)).mode & 0o777).toBe(0o700);
		expect(statSync(address.path).mode & 0o777).toBe(0o600);
	});

	it("a parent without a handler answers no_ui", async () => {
		const { address } = await open(undefined);
		const collected = await collectViaChannel(address, form);
		expect(collected.status).toBe("no_ui");
	});

	it("two children at once each get their own answers", async () => {
		const { handler } = recordingHandler(async (request) => ({
			...emptyCollected("answered"),
			answers: {
				db: {
					kind: "single",
					selections: [
						{ value: request.asker === "a" ? "pg" : "SQLite", label: request.asker === "a" ? "Postgres" : "SQLite" },
					],
				},
			},
		}));
		const { address } = await open(handler);
		const [a, b] = await Promise.all([
			collectViaChannel(address, form, { asker: "a" }),
			collectViaChannel(address, form, { asker: "b" }),
		]);
		expect(a.answers["db"]?.selections[0]?.value).toBe("pg");
		expect(b.answers["db"]?.selections[0]?.value).toBe("SQLite");
	});

	it("a child that aborts closes its form in the parent and keeps the answers given so far", async () => {
		let parentSignal: AbortSignal | undefined;
		const { handler } = recordingHandler(
			(_request, signal) =>
				new Promise((resolve) => {
					parentSignal = signal;
					signal?.addEventListener("abort", () => resolve({ ...emptyCollected("aborted"), answers: pgAnswer }));
				}),
		);
		const { address } = await open(handler);
		const controller = new AbortController();
		const asking = collectViaChannel(address, form, { signal: controller.signal });
		await until(() => parentSignal !== undefined);
		controller.abort();
		const collected = await asking;
		expect(parentSignal?.aborted).toBe(true);
		expect(collected).toMatchObject({ status: "aborted", answers: pgAnswer });
	});

	it("a child that goes away (its socket closed) closes its form in the parent at once", async () => {
		let parentSignal: AbortSignal | undefined;
		const { handler } = recordingHandler((_request, signal) => {
			parentSignal = signal;
			return new Promise(() => {});
		});
		const { address } = await open(handler);
		const socket = createConnection(address.path);
		socket.write(`${encodeChannelHello(address.token)}\n`);
		socket.write(`${JSON.stringify({ v: RELAY_VERSION, rid: "r1", questions: form.questions })}\n`);
		await until(() => parentSignal !== undefined);
		socket.destroy();
		await until(() => parentSignal?.aborted === true);
	});

	it("the parent closing while a child waits answers it aborted, never leaves it hanging", async () => {
		const { handler, shown } = recordingHandler(
			(_request, signal) =>
				new Promise((resolve) => signal?.addEventListener("abort", () => resolve(emptyCollected("aborted")))),
		);
		const opened = await open(handler);
		const asking = collectViaChannel(opened.address, form);
		// The child waits: its form is on the parent's screen.
		await until(() => shown.length === 1);
		await opened.close();
		expect((await asking).status).toBe("aborted");
		expect(existsSync(dirname(opened.address.path))).toBe(false);
	});

	it("a parent that vanishes mid-form (its socket destroyed) is an error that says so", async () => {
		// A server of our own that accepts, says ready, then dies: what a killed parent looks like.
		const path = join(root, "dying.sock");
		const server = createServer((socket) => {
			socket.write('{"v":1,"ready":true}\n');
			socket.once("data", () => socket.destroy());
		});
		await new Promise<void>((resolve) => server.listen(path, resolve));
		try {
			const collected = await collectViaChannel({ path, token: "ab".repeat(32) }, form);
			expect(collected.status).toBe("error");
			expect(collected.error).toContain("ended before the user answered");
		} finally {
			server.close();
		}
	});
});

describe("the local channel across pi's session switches", () => {
	/** The address this process publishes for its children, once it does. */
	async function published(): Promise<ChannelAddress> {
		for (let waited = 0; waited < 10_000; waited += 10) {
			const address = decodeChannelAddress(process.env[CHANNEL_ENV]);
			if (address.ok) return address.address;
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
		throw new Error(`${CHANNEL_ENV} was never set`);
	}

	it("/new keeps it open, at the same address, for the next session's router (pi 1.x: a fresh copy of the extension); quitting then closes it", async () => {
		delete process.env[CHANNEL_ENV];
		const session = { mode: "tui", hasUI: true, ui: {}, abort: () => {} } as never;
		const router = () => createRouter({ preferences: () => ({}), upstream: { relay: false, channel: undefined } });
		const first = router();
		first.sessionStarted(session, () => {});
		const address = await published();
		await first.sessionEnded("new");
		expect(await channelReachable(address)).toBe(true);
		const second = router();
		second.sessionStarted(session, () => {});
		expect(await published()).toEqual(address);
		await second.sessionEnded("quit");
		expect(process.env[CHANNEL_ENV]).toBeUndefined();
		expect(await channelReachable(address)).toBe(false);
	});
});

describe("an unreachable parent is no_ui, fast, with the reason", () => {
	it("no socket file (ENOENT)", async () => {
		const started = Date.now();
		const collected = await collectViaChannel({ path: join(root, "gone.sock"), token: "ab".repeat(32) }, form);
		expect(collected.status).toBe("no_ui");
		expect(collected.error).toContain("ENOENT");
		expect(Date.now() - started).toBeLessThan(CONNECT_MS);
	});

	it("a stale socket file nobody listens on (ECONNREFUSED)", async () => {
		const path = join(root, "stale.sock");
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(path, resolve));
		// Closing a listening socket's server removes its file; a crash would leave it: recreate the look.
		const { execFileSync } = await import("node:child_process");
		server.close();
		execFileSync("python3", ["-c", `import socket; s=socket.socket(socket.AF_UNIX); s.bind(${JSON.stringify(path)})`]);
		const collected = await collectViaChannel({ path, token: "ab".repeat(32) }, form);
		expect(collected.status).toBe("no_ui");
		expect(collected.error).toContain("ECONNREFUSED");
	});

	it("a socket that accepts and never answers", async () => {
		const path = join(root, "silent.sock");
		const server = createServer(() => {});
		await new Promise<void>((resolve) => server.listen(path, resolve));
		try {
			const started = Date.now();
			const collected = await collectViaChannel({ path, token: "ab".repeat(32) }, form);
			expect(collected.status).toBe("no_ui");
			expect(collected.error).toContain("did not answer");
			// Its own deadline ends the wait (generous: a busy machine is slow), not the socket, which never answers.
			expect(Date.now() - started).toBeLessThan(CONNECT_MS + 10_000);
		} finally {
			server.close();
		}
	});
});

describe("a connection the parent closes before it read the hello (a flood's cap made room with it)", () => {
	/** A parent that closes the first `dropped` connections without a word, and says it is ready on the next ones. */
	async function dropping(dropped: number): Promise<{ address: ChannelAddress; connections: () => number }> {
		const path = join(root, "dropping.sock");
		let connections = 0;
		const server = createServer((socket) => {
			socket.on("error", () => {});
			if (++connections <= dropped) socket.destroy();
			else socket.once("data", () => socket.write(`${CHANNEL_READY}\n`));
		});
		await new Promise<void>((resolve) => server.listen(path, resolve));
		opened.push(server);
		return { address: { path, token: "ab".repeat(32) }, connections: () => connections };
	}
	const opened: ReturnType<typeof createServer>[] = [];
	afterEach(() => {
		for (const server of opened.splice(0)) server.close();
	});

	it("the child says hello again, and finds the parent", async () => {
		const parent = await dropping(3);
		expect(await channelReachable(parent.address)).toBe(true);
		expect(parent.connections()).toBe(4);
	});

	it("closed every time: no_ui once the time to connect is over, never a hang", async () => {
		const parent = await dropping(Number.POSITIVE_INFINITY);
		const started = Date.now();
		const collected = await collectViaChannel(parent.address, form);
		expect(collected.status).toBe("no_ui");
		expect(collected.error).toContain("did not answer");
		expect(Date.now() - started).toBeLessThan(CONNECT_MS + 1_000);
	});
});

describe("a parent that answers outside the protocol is no_ui, with what it said", () => {
	it("another protocol version, a line that is no JSON object, an object that is not ready", async () => {
		const answers = [
			['{"v":2}', "protocol version number 2, expected 1: parent and child run incompatible pi-ask-user versions"],
			["hello", "not a JSON object of the ask_user channel"],
			['{"v":1}', "not ready"],
		];
		for (const [i, [line, reason]] of answers.entries()) {
			const path = join(root, `other-${i}.sock`);
			const server = createServer((socket) => socket.write(`${line}\n`));
			await new Promise<void>((resolve) => server.listen(path, resolve));
			try {
				const collected = await collectViaChannel({ path, token: "ab".repeat(32) }, form);
				expect(collected.status).toBe("no_ui");
				expect(collected.error).toContain(`answered in a way this version does not understand: ${reason}`);
			} finally {
				server.close();
			}
		}
	});
});

describe("hostile clients on the socket: nothing shown, nothing crashed", () => {
	async function expectStillServes(address: ChannelAddress, shown: RelayRequest[]): Promise<void> {
		const before = shown.length;
		expect((await collectViaChannel(address, form)).status).toBe("answered");
		expect(shown.length).toBe(before + 1);
	}

	it("a wrong token is closed at once, before any request is read", async () => {
		const { shown, handler } = recordingHandler(answersPg);
		const { address } = await open(handler);
		const wrong = { ...address, token: "cd".repeat(32) };
		const result = await rawClient(address.path, (socket) => {
			socket.write(`${encodeChannelHello(wrong.token)}\n`);
			socket.write(`${JSON.stringify({ v: RELAY_VERSION, questions: form.questions })}\n`);
		});
		expect(result.received).toBe("");
		expect(result.closedWithin).toBeLessThan(HELLO_MS / 2);
		expect(shown).toHaveLength(0);
		expect((await collectViaChannel(wrong, form)).status).toBe("no_ui");
		await expectStillServes(address, shown);
	});

	it("garbage, a missing token and a silent client are closed with nothing shown", async () => {
		const { shown, handler } = recordingHandler(answersPg);
		const { address } = await open(handler);
		const garbage = await rawClient(address.path, (socket) => socket.write("\u0000\u001b]52;c;AAAA\u0007 garbage\n"));
		const noToken = await rawClient(address.path, (socket) => socket.write(`${JSON.stringify({ v: 1 })}\n`));
		const silent = await rawClient(address.path, () => {});
		expect([garbage.received, noToken.received, silent.received]).toEqual(["", "", ""]);
		expect(silent.closedWithin).toBeGreaterThanOrEqual(HELLO_MS - 100);
		expect(shown).toHaveLength(0);
		await expectStillServes(address, shown);
	});

	it("a line over the cap is cut off, token or not", async () => {
		const { shown, handler } = recordingHandler(answersPg);
		const { address } = await open(handler);
		const huge = await rawClient(address.path, (socket) => {
			socket.write(`${encodeChannelHello(address.token)}\n`);
			socket.write(Buffer.alloc(CHANNEL_LINE_MAX + 10, "a"));
		});
		expect(huge.received).toBe('{"v":1,"ready":true}\n');
		expect(shown).toHaveLength(0);
		await expectStillServes(address, shown);
	});

	it("a request that fails validation is answered error, and shows nothing", async () => {
		const { shown, handler } = recordingHandler(answersPg);
		const { address } = await open(handler);
		const result = await rawClient(address.path, (socket) => {
			socket.write(`${encodeChannelHello(address.token)}\n`);
			socket.write(`${JSON.stringify({ v: RELAY_VERSION, questions: [{ question: "\u001b[2Jbad", options: [] }] })}\n`);
		});
		const reply = JSON.parse(result.received.split("\n")[1] ?? "{}") as { status?: string; error?: string };
		expect(reply.status).toBe("error");
		expect(reply.error).toContain("questions[0]");
		expect(shown).toHaveLength(0);
	});

	it("a first line longer than a hello is cut off at once", async () => {
		const { address } = await open(undefined);
		const long = await rawClient(address.path, (socket) => socket.write(Buffer.alloc(HELLO_LINE_MAX + 1, "a")));
		expect(long.closedWithin).toBeLessThan(HELLO_MS / 2);
	});

	it("a child that connects during a flood (300 connections that never say hello, garbage, lines that never end) is served at once", async () => {
		const { shown, handler } = recordingHandler(answersPg);
		const { address } = await open(handler);
		const flood = await floodChannel(address.path, { silent: 300, garbage: 50, overLong: 20 });
		try {
			const started = Date.now();
			expect((await collectViaChannel(address, form)).status).toBe("answered");
			expect(Date.now() - started).toBeLessThan(1_000);
			expect(shown).toHaveLength(1);
		} finally {
			flood.stop();
		}
	});

	it("200 connections at once that prove nothing: all but the last few are closed at once, and the parent answers its children after", async () => {
		const { shown, handler } = recordingHandler(answersPg);
		const { address } = await open(handler);
		const results = await Promise.all(Array.from({ length: 200 }, () => rawClient(address.path, () => {})));
		expect(results.every((result) => result.received === "")).toBe(true);
		const refusedAtOnce = results.filter((result) => result.closedWithin < HELLO_MS / 2).length;
		expect(refusedAtOnce).toBeGreaterThanOrEqual(200 - MAX_UNPROVEN);
		expect(shown).toHaveLength(0);
		await expectStillServes(address, shown);
	}, 15_000);

	it("children that proved the token are never turned away for waiting: 50 forms can wait their turn at once", async () => {
		let release: (() => void) | undefined;
		const held = new Promise<void>((resolve) => {
			release = resolve;
		});
		const { shown, handler } = recordingHandler(async () => {
			await held;
			return { ...emptyCollected("answered"), answers: pgAnswer };
		});
		const { address } = await open(handler);
		const asking = Array.from({ length: 50 }, () => collectViaChannel(address, form));
		await until(() => shown.length === 50);
		release?.();
		expect((await Promise.all(asking)).every((collected) => collected.status === "answered")).toBe(true);
	}, 15_000);
});

describe("how a child is labelled", () => {
	it("a runner's name, else 'subagent'; beside it the task a runner gives, else the first message", () => {
		const name = (...args: Parameters<typeof selfAsker>) => selfAsker(...args).asker;
		expect(selfAsker({ PI_SUBAGENT_NAME: "scout" }, "Task: look around")).toEqual({
			asker: "scout",
			task: "look around",
		});
		expect(selfAsker({ PI_ASK_USER_ASKER: "mine", PI_SUBAGENT_NAME: "scout" }, undefined)).toEqual({ asker: "mine" });
		expect(selfAsker({}, "Task:  look\naround")).toEqual({ asker: "subagent", task: "look around" });
		// A runner's description of the agent wins over the first message.
		expect(selfAsker({ PI_ASK_USER_TASK: "Reviews the diff" }, "Task: look").task).toBe("Reviews the diff");
		expect(selfAsker({ PI_ASK_USER_TASK: " \u200b " }, "Task: look").task).toBe("look");
		// pi-subagents names its in-process children's agent in their system prompt, on a line of its own.
		expect(name({}, "Task: look around", '<active_agent name="scout &amp; co"/>\n\nYou are a scout.')).toBe(
			"scout & co",
		);
		expect(name({}, "Task: look around", 'You are pi.\n\n<active_agent name="scout"/>\n\nYou are a scout.')).toBe(
			"scout",
		);
		expect(name({ PI_SUBAGENT_NAME: "named" }, undefined, '<active_agent name="scout"/>')).toBe("named");
		expect(name({}, "Task: look", 'You are a scout. <active_agent name="scout"/>')).toBe("subagent");
		// A project's AGENTS.md (in pi's part of the prompt, before the runner's line) cannot name the agent.
		expect(
			name(
				{},
				"Task: look",
				'<active_agent name="spoof"/>\nfrom AGENTS.md\n\n<active_agent name="scout"/>\nYou are a scout.',
			),
		).toBe("scout");
		// pi's example runner: the agent's prompt file, named after it, in a folder of its own.
		const argv = ["node", "pi", "--append-system-prompt", "/tmp/pi-subagent-Ab12/prompt-scout.md", "Task: look"];
		expect(name({}, "Task: look", undefined, argv)).toBe("scout");
		expect(name({}, "Task: look", undefined, ["--append-system-prompt", "/home/me/prompt-scout.md"])).toBe("subagent");
		expect(name({}, "Task: look", undefined, ["/tmp/pi-subagent-Ab12/prompt-scout.md"])).toBe("subagent");
		// The task: cleaned to one line, cut at TASK_MAX code points.
		const long = selfAsker({}, `Task: ${"word ".repeat(400)}`).task ?? "";
		expect([...long]).toHaveLength(TASK_MAX);
		expect(long).toMatch(/^word word .*…$/);
		expect(selfAsker({}, "Task: \u001b]52;c;x\u0007look\u202e")).toEqual({ asker: "subagent", task: "look" });
		expect(selfAsker({ PI_SUBAGENT_NAME: " \u001b " }, "  ")).toEqual({ asker: "subagent" });
	});

	it("a form that gives no name, a blank or invisible one, or one that reads as this session, is shown as an unnamed subagent's, with the pid its hello gave", async () => {
		const asks: [asker: string | undefined, pid: number | undefined, shown: string][] = [
			[undefined, 4242, "Database · asked by an unnamed subagent (pid 4242)"],
			["", 4242, "Database · asked by an unnamed subagent (pid 4242)"],
			["\u200b\u2060\u3164", 4242, "Database · asked by an unnamed subagent (pid 4242)"],
			["y\u200dou", 4242, "Database · asked by an unnamed subagent (pid 4242)"],
			["ＹＯＵ", 4242, "Database · asked by an unnamed subagent (pid 4242)"],
			[undefined, undefined, "Database · asked by an unnamed subagent"],
			["sc\u200bout", 4242, "Database · asked by scout"],
		];
		const dialogs = scriptedDialogs(asks.map(() => pick("1.")));
		const ui = { custom: async () => undefined, select: dialogs.select, editor: dialogs.editor };
		const router = createRouter({ preferences: () => ({}), upstream: { relay: false, channel: undefined } });
		router.sessionStarted({ mode: "rpc", hasUI: true, ui, abort: () => {} } as never, () => {});
		try {
			const { address } = await open(currentHandler());
			// What a command run by the model can send: the channel's hello (a pid or none), then a form.
			for (const [asker, pid] of asks)
				await rawClient(address.path, (socket) => {
					socket.write(`${JSON.stringify({ v: 1, token: address.token, pid })}\n`);
					socket.write(`${JSON.stringify({ v: RELAY_VERSION, asker, questions: form.questions })}\n`);
				});
			expect(dialogs.calls.map((call) => call.title.split("\n")[1])).toEqual(asks.map(([, , shown]) => shown));
			expectEveryScriptUsedUp();
		} finally {
			await router.sessionEnded("quit");
		}
	});

	it("a child's task and its model's reason reach the parent's form, the task cleaned to one line", async () => {
		const dialogs = scriptedDialogs([pick("1.")]);
		const ui = { custom: async () => undefined, select: dialogs.select, editor: dialogs.editor };
		const router = createRouter({ preferences: () => ({}), upstream: { relay: false, channel: undefined } });
		router.sessionStarted({ mode: "rpc", hasUI: true, ui, abort: () => {} } as never, () => {});
		try {
			const { address } = await open(currentHandler());
			const asked = { ...form, reason: "The cache needs a store." };
			const task = "look  ａｒｏｕｎｄ\u200b the\u202e cache";
			expect((await collectViaChannel(address, asked, { asker: "scout", task })).status).toBe("answered");
			const lines = dialogs.calls[0]?.title.split("\n") ?? [];
			expect(lines).toContain("Why: The cache needs a store.");
			expect(lines).toContain("Task: look around the cache");
			expect(lines).toContain("Database · asked by scout");
			expectEveryScriptUsedUp();
		} finally {
			await router.sessionEnded("quit");
		}
	});

	it("the task is the first user message of the session, text parts joined", () => {
		const entries = [
			{ type: "model_change" },
			{
				type: "message",
				message: {
					role: "user",
					content: [{ type: "text", text: "Task:" }, { type: "image" }, { type: "text", text: "scan" }],
				},
			},
			{ type: "message", message: { role: "user", content: "later" } },
		];
		expect(firstUserText(entries)).toBe("Task: scan");
		expect(firstUserText([{ type: "message", message: { role: "assistant", content: "x" } }])).toBeUndefined();
	});
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error("timed out waiting");
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
}
