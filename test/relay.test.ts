import fc from "fast-check";
import { initTheme } from "@mariozechner/pi-coding-agent";
import type { Component } from "@mariozechner/pi-tui";
import { afterEach, describe, expect, it } from "vitest";
import {
	decodeRelayCancel,
	decodeRelayReply,
	encodeRelayCancel,
	encodeRelayReply,
	encodeRelayRequest,
	RELAY_TITLE,
} from "../src/relay/envelope.ts";
import { askerLabel, joinAskers } from "../src/relay/asker.ts";
import { createChildRelay, type ParentUI, relayEnvironment } from "../src/relay/api.ts";
import { CANCEL_GRACE_MS } from "../src/relay/channel/client.ts";
import { throughRelay } from "../src/relay/elsewhere.ts";
import { createFormQueue, currentHandler, processRecord, registerHandler, upstream } from "../src/route/record.ts";
import type { AskHandler } from "../src/core/types.ts";
import {
	type AskForm,
	type AskQuestion,
	RELAY_VERSION,
	type RelayReply,
	type RelayRequest,
} from "../src/core/types.ts";
import { quietTui } from "./form/fake-terminal.ts";
import { DB_QUESTION } from "./support/ask-fixtures.ts";
import { textsFor } from "./support/locales.ts";
import { ENGLISH } from "../src/i18n/texts.ts";
import { piKeybindings } from "./form/support.ts";

/** The factory pi's custom() calls: (tui, theme, keybindings, done) → component. */
type CustomFactory = (tui: unknown, theme: unknown, keybindings: unknown, done: (value: unknown) => void) => unknown;

/** Waits until `condition` holds, for at most 10 s. */
async function until(condition: () => boolean): Promise<void> {
	const deadline = Date.now() + 10_000;
	while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
	expect(condition()).toBe(true);
}

const question: AskQuestion = DB_QUESTION;
const form: AskForm = { questions: [question] };

function reply(status: RelayReply["status"], extra: Partial<RelayReply> = {}): RelayReply {
	return { v: RELAY_VERSION, status, answers: {}, skipped: [], notes: [], ...extra };
}
const pgAnswer = { db: { kind: "single" as const, selections: [{ value: "pg", label: "Postgres" }] } };

function markerRequest(id: string, request: Partial<RelayRequest> = {}) {
	const payload = encodeRelayRequest({ v: RELAY_VERSION, questions: [question], ...request });
	return { type: "extension_ui_request", id, method: "editor", title: RELAY_TITLE, prefill: payload };
}

function deferred<T>() {
	let resolve!: (value: T) => void;
	const promise = new Promise<T>((r) => {
		resolve = r;
	});
	return { promise, resolve };
}

const RECORD_KEY = Symbol.for("pi-ask-user/channel-registry");

afterEach(() => {
	processRecord().channels.clear();
	processRecord().covered?.clear();
});

describe("the process's record", () => {
	it("lives on globalThis under Symbol.for, versioned, with version 1's channels and queue", () => {
		const record = processRecord();
		expect((globalThis as Record<symbol, unknown>)[RECORD_KEY]).toBe(record);
		expect(record.version).toBe(1);
		expect(record.channels).toBeInstanceOf(Map);
		expect(typeof record.queue.run).toBe("function");
	});

	it("is shared by two copies of the module, whichever loaded first", async () => {
		// A query string makes the module loader evaluate the file again: a second copy of the package.
		const load = (copy: string): Promise<typeof import("../src/route/record.ts")> =>
			import(/* @vite-ignore */ `../src/route/record.ts?copy=${copy}`);
		const copyA = await load("a");
		const copyB = await load("b");
		expect(copyA.registerHandler).not.toBe(copyB.registerHandler);
		const handler: AskHandler = async () => reply("answered");
		copyB.registerHandler(handler);
		expect(copyA.currentHandler()).toBe(handler);
		expect(currentHandler()).toBe(handler);
		expect(copyA.processRecord().queue).toBe(processRecord().queue);
	});

	it("replaces a channel on re-registration; the old unregister leaves the new one alone", () => {
		const first: AskHandler = async () => reply("answered");
		const second: AskHandler = async () => reply("dismissed");
		const unregisterFirst = registerHandler(first);
		const unregisterSecond = registerHandler(second);
		unregisterFirst();
		expect(currentHandler()).toBe(second);
		unregisterSecond();
		expect(currentHandler()).toBeUndefined();
	});

	it("stacks handlers: removing the current one brings back the newest one still registered, in any order", () => {
		// Sessions with a UI come and go in any order (an SDK session inside a parent session, a new session, …).
		const ops = fc.array(
			fc.oneof(
				fc.constant({ op: "register" as const }),
				fc.record({ op: fc.constant("remove" as const), pick: fc.nat() }),
			),
			{
				maxLength: 40,
			},
		);
		fc.assert(
			fc.property(ops, (sequence) => {
				processRecord().channels.clear();
				processRecord().covered?.clear();
				const live: { handler: AskHandler; remove: () => void }[] = [];
				for (const step of sequence) {
					if (step.op === "register") {
						const handler: AskHandler = async () => reply("answered");
						live.push({ handler, remove: registerHandler(handler) });
					} else if (live.length > 0) {
						const [gone] = live.splice(step.pick % live.length, 1);
						gone?.remove();
						gone?.remove(); // twice: harmless
					}
					expect(currentHandler()).toBe(live.at(-1)?.handler);
				}
			}),
		);
	});

	it("replaces something that is not a registry under its key instead of crashing", () => {
		const holder = globalThis as Record<symbol, unknown>;
		const saved = holder[RECORD_KEY];
		holder[RECORD_KEY] = { version: "x" };
		try {
			expect(processRecord().channels).toBeInstanceOf(Map);
		} finally {
			holder[RECORD_KEY] = saved;
		}
	});
});

describe("the form queue", () => {
	it("runs one task at a time, first in first out", async () => {
		const queue = createFormQueue();
		const order: string[] = [];
		const first = deferred<string>();
		const a = queue.run(
			() => (order.push("a"), first.promise),
			undefined,
			() => "aborted",
		);
		const b = queue.run(
			async () => (order.push("b"), "b"),
			undefined,
			() => "aborted",
		);
		const c = queue.run(
			async () => (order.push("c"), "c"),
			undefined,
			() => "aborted",
		);
		await Promise.resolve();
		expect(order).toEqual(["a"]);
		expect(queue.waiting).toBe(2);
		first.resolve("a");
		expect(await Promise.all([a, b, c])).toEqual(["a", "b", "c"]);
		expect(order).toEqual(["a", "b", "c"]);
	});

	it("a waiting task whose signal aborts leaves at once and never runs", async () => {
		const queue = createFormQueue();
		const first = deferred<string>();
		const controller = new AbortController();
		let ran = false;
		void queue.run(
			() => first.promise,
			undefined,
			() => "aborted",
		);
		const waiting = queue.run(
			async () => ((ran = true), "ran"),
			controller.signal,
			() => "aborted",
		);
		controller.abort();
		expect(await waiting).toBe("aborted");
		expect(queue.waiting).toBe(0);
		first.resolve("done");
		await new Promise((r) => setTimeout(r, 0));
		expect(ran).toBe(false);
	});

	it("a task that throws lets the next one run", async () => {
		const queue = createFormQueue();
		const failing = queue.run(
			() => {
				throw new Error("boom");
			},
			undefined,
			() => "aborted",
		);
		const next = queue.run(
			async () => "next",
			undefined,
			() => "aborted",
		);
		await expect(failing).rejects.toThrow("boom");
		expect(await next).toBe("next");
	});

	it("property: any interleaving of finishes and aborts runs each task at most once, in order, and settles every task", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.record({ abort: fc.boolean(), throws: fc.boolean() }), { minLength: 1, maxLength: 8 }),
				async (plan) => {
					const queue = createFormQueue();
					const started: number[] = [];
					const gates = plan.map(() => deferred<void>());
					const controllers = plan.map(() => new AbortController());
					const results = plan.map((step, i) =>
						queue
							.run(
								async () => {
									started.push(i);
									await gates[i]?.promise;
									if (step.throws) throw new Error(String(i));
									return `ran ${i}`;
								},
								controllers[i]?.signal,
								() => `aborted ${i}`,
							)
							.catch((e: Error) => `threw ${e.message}`),
					);
					plan.forEach((step, i) => step.abort && i > 0 && controllers[i]?.abort());
					for (const gate of gates) {
						gate.resolve();
						await new Promise((r) => setTimeout(r, 0));
					}
					const settled = await Promise.all(results);
					expect(started).toEqual([...started].sort((a, b) => a - b));
					expect(new Set(started).size).toBe(started.length);
					settled.forEach((result, i) => {
						const abortedWhileWaiting = i > 0 && plan[i]?.abort;
						const ranOrThrew = plan[i]?.throws ? `threw ${i}` : `ran ${i}`;
						expect(result).toBe(abortedWhileWaiting ? `aborted ${i}` : ranOrThrew);
					});
				},
			),
			{ numRuns: 200 },
		);
	});
});

describe("the child side", () => {
	it("reads relayEnvironment()'s variable once, and takes it out of the environment, so the processes it starts don't inherit it", () => {
		const record = processRecord();
		for (const [given, relay] of [
			[undefined, false],
			["0", false],
			[relayEnvironment().PI_ASK_USER_RELAY, true],
		] as const) {
			delete record.upstream;
			if (given === undefined) delete process.env.PI_ASK_USER_RELAY;
			else process.env.PI_ASK_USER_RELAY = given;
			const first = upstream();
			expect(first.relay).toBe(relay);
			expect(process.env.PI_ASK_USER_RELAY).toBeUndefined();
			// Read once per process: a reload (or a second copy) sees the same answer, whatever the environment says now.
			process.env.PI_ASK_USER_RELAY = relay ? "0" : "1";
			expect(upstream()).toBe(first);
		}
		delete record.upstream;
		delete process.env.PI_ASK_USER_RELAY;
	});

	it("sends the whole form as one editor request with the marker title, and decodes the reply", async () => {
		const seen: { title: string; prefill?: string }[] = [];
		const ui = {
			editor: async (title: string, prefill?: string) => {
				seen.push({ title, prefill });
				const rid = JSON.parse(prefill ?? "{}").rid as string;
				return encodeRelayReply(reply("answered", { rid, answers: pgAnswer }));
			},
			notify: () => {},
		};
		const collected = await throughRelay(ui, form, { asker: "scout" });
		expect(collected).toEqual({ status: "answered", answers: pgAnswer, skipped: [], notes: [], shownElsewhere: true });
		expect(seen).toHaveLength(1);
		expect(seen[0]?.title).toBe(RELAY_TITLE);
		expect(JSON.parse(seen[0]?.prefill ?? "")).toMatchObject({ v: 1, asker: "scout", questions: [question] });
	});

	it("a malformed reply, a reply to another request, or a cancelled dialog is an error, never a guess", async () => {
		const answers = [
			"not json",
			encodeRelayReply(reply("answered", { rid: "someone-else", answers: pgAnswer })),
			undefined,
		];
		for (const answer of answers) {
			const collected = await throughRelay({ editor: async () => answer, notify: () => {} }, form, {});
			expect(collected.status).toBe("error");
			expect(collected.error).toBeTruthy();
		}
	});

	it("an aborted ask keeps the answers the parent sends back in reply to its cancel notice", async () => {
		const controller = new AbortController();
		let answer: (reply: string) => void = () => {};
		let rid = "";
		const ui = {
			editor: (_title: string, prefill?: string) => {
				rid = JSON.parse(prefill ?? "{}").rid;
				return new Promise<string | undefined>((resolve) => (answer = resolve));
			},
			notify: (message: string) => {
				if (decodeRelayCancel(message) === rid) answer(encodeRelayReply(reply("aborted", { rid, answers: pgAnswer })));
			},
		};
		const pending = throughRelay(ui, form, { signal: controller.signal });
		controller.abort();
		expect(await pending).toEqual({
			status: "aborted",
			answers: pgAnswer,
			skipped: [],
			notes: [],
			shownElsewhere: true,
		});
	});

	it("an abort resolves as aborted, telling the parent with a cancel notice, within the grace period", async () => {
		const controller = new AbortController();
		const notices: string[] = [];
		let rid = "";
		const ui = {
			editor: (_title: string, prefill?: string) => {
				rid = JSON.parse(prefill ?? "{}").rid;
				return new Promise<string | undefined>(() => {});
			},
			notify: (message: string) => notices.push(message),
		};
		const pending = throughRelay(ui, form, { signal: controller.signal });
		const started = Date.now();
		controller.abort();
		expect((await pending).status).toBe("aborted");
		expect(Date.now() - started).toBeLessThan(CANCEL_GRACE_MS + 2_000);
		expect(notices.map(decodeRelayCancel)).toEqual([rid]);
	});
});

describe("the relay API", () => {
	function parentUI(answers: { select?: string; confirm?: boolean; input?: string; editor?: string } = {}) {
		const titles: string[] = [];
		const notified: string[] = [];
		const ui: ParentUI = {
			select: async (title) => (titles.push(title), answers.select),
			confirm: async (title) => (titles.push(title), answers.confirm ?? false),
			input: async (title) => (titles.push(title), answers.input),
			editor: async (title) => (titles.push(title), answers.editor),
			notify: (message) => void notified.push(message),
		};
		return { ui, titles, notified };
	}

	it("answers a child's relay request through the ask_user channel, labelled with the asker", async () => {
		const requests: RelayRequest[] = [];
		registerHandler(
			async (request) => (requests.push(request), reply("answered", { rid: request.rid, answers: pgAnswer })),
		);
		const relay = createChildRelay({ asker: "scout" });
		const response = await relay.handle(markerRequest("r1", { rid: "rid-1", asker: "worker" }));
		expect(response).toMatchObject({ type: "extension_ui_response", id: "r1" });
		const decoded = decodeRelayReply((response as { value: string }).value, { questions: [question], rid: "rid-1" });
		expect(decoded.ok && decoded.reply.answers).toEqual(pgAnswer);
		expect(requests[0]?.asker).toBe("scout › worker");
	});

	it("a headless parent (no channel registered) answers no_ui, not dismissed; handle and dispose work unbound", async () => {
		const { handle, dispose } = createChildRelay({ asker: "scout" });
		const response = await handle(markerRequest("r1"));
		dispose();
		expect(await handle(markerRequest("r2"))).toBeUndefined();
		const decoded = decodeRelayReply((response as { value: string }).value);
		expect(decoded.ok && decoded.reply.status).toBe("no_ui");
	});

	it("a malformed relay request is answered with an error reply naming the problem", async () => {
		registerHandler(async () => reply("answered"));
		const broken = { type: "extension_ui_request", id: "r9", method: "editor", title: RELAY_TITLE, prefill: '{"v":2}' };
		const response = await createChildRelay({ asker: "scout" }).handle(broken);
		const decoded = decodeRelayReply((response as { value: string }).value);
		expect(decoded.ok && decoded.reply.status).toBe("error");
		expect(decoded.ok && decoded.reply.error).toMatch(/version/);
	});

	it("a relay request of another protocol version is answered with an error naming both, never shown as an editor", async () => {
		const { ui, titles } = parentUI({ editor: "typed" });
		const v2 = {
			type: "extension_ui_request",
			id: "r2",
			method: "editor",
			title: "\u0000ask_user/relay/v2",
			prefill: "{}",
		};
		const response = await createChildRelay({ asker: "scout", ui }).handle(v2);
		const decoded = decodeRelayReply((response as { value: string }).value);
		expect(decoded.ok && decoded.reply.status).toBe("error");
		expect(decoded.ok && decoded.reply.error).toContain('"ask_user/relay/v2"');
		expect(decoded.ok && decoded.reply.error).toContain("ask_user/relay/v1");
		expect(titles).toEqual([]);
	});

	it("never rejects: broken requests and failing parent dialogs are answered cancelled, broken notices ignored", async () => {
		const failing: ParentUI = {
			select: async () => Promise.reject(new Error("terminal gone")),
			confirm: async () => Promise.reject(new Error("terminal gone")),
			input: async () => Promise.reject(new Error("terminal gone")),
			editor: async () => Promise.reject(new Error("terminal gone")),
			notify: () => {
				throw new Error("terminal gone");
			},
		};
		const { ui, titles } = parentUI({ select: "a" });
		const request = (fields: Record<string, unknown>) => ({
			type: "extension_ui_request",
			id: "d1",
			method: "select",
			title: "Pick",
			...fields,
		});
		const cancelled = { type: "extension_ui_response", id: "d1", cancelled: true };

		// Fields of the wrong type: not shown, but answered; the runner's message is left as it was.
		for (const fields of [{ options: [1, 2] }, { options: "ab" }, { title: 7 }, { timeout: "soon" }]) {
			const message = request(fields);
			expect(await createChildRelay({ asker: "scout", ui }).handle(message)).toEqual(cancelled);
			expect(message).toEqual(request(fields));
		}
		expect(titles).toEqual([]);
		// A parent dialog that throws.
		for (const method of ["select", "confirm", "input", "editor"]) {
			expect(
				await createChildRelay({ asker: "scout", ui: failing }).handle(request({ method, options: ["a"] })),
			).toEqual(cancelled);
		}
		// Notices: nothing to answer, nothing thrown.
		const relay = createChildRelay({ asker: "scout", ui: failing });
		expect(
			await relay.handle({ type: "extension_ui_request", id: "n1", method: "notify", message: 7 }),
		).toBeUndefined();
		expect(
			await relay.handle({ type: "extension_ui_request", id: "n2", method: "notify", message: "hi" }),
		).toBeUndefined();
		// Without an id there is nothing to answer.
		expect(await relay.handle({ type: "extension_ui_request", method: "select" })).toBeUndefined();
	});

	it("a forwarded editor dialog is pi's editor shown through custom(), and it closes when the child goes", async () => {
		initTheme("dark"); // pi's editor component draws with pi's global theme
		const { tui } = quietTui();
		let shown: (Component & { handleInput?(data: string): void }) | undefined;
		let closedWith: unknown = "still open";
		const { ui } = parentUI({ editor: "from editor()" });
		const withCustom: ParentUI = {
			...ui,
			custom: ((factory: CustomFactory) =>
				new Promise<unknown>((resolve) => {
					shown = factory(tui, {} as never, piKeybindings() as never, (value: unknown) => {
						closedWith = value;
						resolve(value);
					}) as Component;
				})) as ParentUI["custom"],
		};
		const relay = createChildRelay({ asker: "scout", ui: withCustom });
		const request = { type: "extension_ui_request", id: "e1", method: "editor", title: "Notes", prefill: "draft" };

		// Typed into and submitted: the child gets the text.
		const answered = relay.handle(request);
		await until(() => shown !== undefined);
		expect(shown?.render(60).join("\n")).toContain("scout: Notes");
		shown?.handleInput?.("!");
		shown?.handleInput?.("\r");
		expect(await answered).toEqual({ type: "extension_ui_response", id: "e1", value: "draft!" });

		// Still open when the child goes: closed at once, the queue moves on.
		shown = undefined;
		const pending = relay.handle({ ...request, id: "e2" });
		await until(() => shown !== undefined);
		closedWith = "still open";
		relay.dispose();
		expect(closedWith).toBeUndefined();
		expect(await pending).toBeUndefined();
		expect(processRecord().queue.waiting).toBe(0);
		let next = false;
		await processRecord().queue.run(
			async () => (next = true),
			undefined,
			() => undefined,
		);
		expect(next).toBe(true);
	});

	it("where custom() shows nothing (an RPC parent), a forwarded editor dialog is pi's editor()", async () => {
		const { ui, titles } = parentUI({ editor: "typed" });
		const rpcLike: ParentUI = { ...ui, custom: (async () => undefined) as ParentUI["custom"] };
		const response = await createChildRelay({ asker: "scout", ui: rpcLike }).handle({
			type: "extension_ui_request",
			id: "e1",
			method: "editor",
			title: "Notes",
		});
		expect(response).toEqual({ type: "extension_ui_response", id: "e1", value: "typed" });
		expect(titles).toEqual(["scout: Notes"]);
	});

	it("the child's cancel notice closes its open form; dispose closes the rest and nothing more is written", async () => {
		const signals: AbortSignal[] = [];
		registerHandler((request, { signal }) => {
			if (signal) signals.push(signal);
			return new Promise((resolve) =>
				signal?.addEventListener("abort", () => resolve(reply("aborted", { rid: request.rid }))),
			);
		});
		const relay = createChildRelay({ asker: "scout" });
		const first = relay.handle(markerRequest("r1", { rid: "rid-1" }));
		const second = relay.handle(markerRequest("r2", { rid: "rid-2" }));
		await Promise.resolve();
		expect(
			await relay.handle({
				type: "extension_ui_request",
				id: "n1",
				method: "notify",
				message: encodeRelayCancel("rid-1"),
			}),
		).toBeUndefined();
		expect(signals[0]?.aborted).toBe(true);
		expect(signals[1]?.aborted).toBe(false);
		const firstResponse = await first;
		expect(decodeRelayReply((firstResponse as { value: string }).value).ok).toBe(true);
		relay.dispose();
		expect(signals[1]?.aborted).toBe(true);
		expect(await second).toBeUndefined();
		expect(await relay.handle(markerRequest("r3"))).toBeUndefined();
	});

	it("the runner's abort closes the child's forms, and a child still alive gets aborted replies", async () => {
		let formSignal: AbortSignal | undefined;
		registerHandler((request, { signal }) => {
			formSignal = signal;
			return new Promise((resolve) =>
				signal?.addEventListener("abort", () => resolve(reply("aborted", { rid: request.rid }))),
			);
		});
		const runner = new AbortController();
		const relay = createChildRelay({ asker: "scout", signal: runner.signal });
		const open = relay.handle(markerRequest("r1", { rid: "rid-1" }));
		await Promise.resolve();
		runner.abort();
		expect(formSignal?.aborted).toBe(true);
		const statusOf = (response: unknown) => {
			const decoded = decodeRelayReply((response as { value: string }).value);
			return decoded.ok ? decoded.reply.status : decoded.error;
		};
		expect(statusOf(await open)).toBe("aborted");
		expect(statusOf(await relay.handle(markerRequest("r2", { rid: "rid-2" })))).toBe("aborted");
		expect(
			await relay.handle({ type: "extension_ui_request", id: "d", method: "confirm", title: "t", message: "m" }),
		).toEqual({
			type: "extension_ui_response",
			id: "d",
			cancelled: true,
		});
	});

	it("the child's text reaches the parent's dialogs sanitised; a select is answered with the child's own string", async () => {
		const { ui, titles, notified } = parentUI({ select: "B" });
		let offered: string[] = [];
		const picky: ParentUI = {
			...ui,
			select: async (title, options) => (titles.push(title), (offered = options), options[1]),
		};
		const relay = createChildRelay({ asker: "scout\x1b[2J", ui: picky });
		const response = await relay.handle({
			type: "extension_ui_request",
			id: "1",
			method: "select",
			title: "Pick\x1b]52;c;aGk=\x07",
			options: ["A\x1b[31m", "B\x1b[31m"],
		});
		expect(response).toEqual({ type: "extension_ui_response", id: "1", value: "B\x1b[31m" });
		expect(offered).toEqual(["A", "B"]);
		await relay.handle({ type: "extension_ui_request", id: "2", method: "notify", message: "hi\x1b]0;pwned\x07" });
		await relay.handle({ type: "extension_ui_request", id: "3", method: "notify", message: "\u0000ask_user/unknown" });
		expect([...titles, ...notified].join("")).not.toMatch(/[\x00-\x08\x1b\x7f-\x9f]/);
		expect(notified).toEqual(["scout: hi"]);
	});

	it("choices that read the same once sanitised stay distinct rows, each answered with its own string", async () => {
		const choices = ["A\x1b[31m", "A", "A\u200b", "B"];
		for (const [at, child] of choices.entries()) {
			let offered: string[] = [];
			const ui: ParentUI = { ...parentUI().ui, select: async (_title, options) => ((offered = options), options[at]) };
			const relay = createChildRelay({ asker: "scout", ui });
			const response = await relay.handle({
				type: "extension_ui_request",
				id: "1",
				method: "select",
				title: "Pick",
				options: choices,
			});
			expect(new Set(offered).size).toBe(choices.length);
			expect(offered.join("")).not.toMatch(/\x1b/);
			expect(response).toEqual({ type: "extension_ui_response", id: "1", value: child });
		}
	});

	it("a forwarded dialog waits its turn behind an open form, never on top of it", async () => {
		const opened: string[] = [];
		let finishForm: () => void = () => {};
		registerHandler((request) =>
			processRecord().queue.run(
				() => {
					opened.push("form");
					return new Promise<RelayReply>(
						(resolve) => (finishForm = () => resolve(reply("answered", { rid: request.rid, answers: pgAnswer }))),
					);
				},
				undefined,
				() => reply("aborted"),
			),
		);
		const { ui } = parentUI({ confirm: true });
		const relay = createChildRelay({
			asker: "scout",
			ui: { ...ui, confirm: async () => (opened.push("confirm"), true) },
		});
		const form = relay.handle(markerRequest("r1", { rid: "rid-1" }));
		await Promise.resolve();
		const dialog = relay.handle({
			type: "extension_ui_request",
			id: "c",
			method: "confirm",
			title: "Sure?",
			message: "",
		});
		// The dialog waits its turn behind the open form.
		await until(() => processRecord().queue.waiting === 1);
		expect(opened).toEqual(["form"]);
		finishForm();
		await form;
		expect(await dialog).toMatchObject({ confirmed: true });
		expect(opened).toEqual(["form", "confirm"]);
	});

	it("forwards the child's ordinary dialogs to the parent's, labelled with the asker", async () => {
		const { ui, titles, notified } = parentUI({ select: "B", confirm: true, input: "typed" });
		const relay = createChildRelay({ asker: "scout", ui });
		expect(
			await relay.handle({
				type: "extension_ui_request",
				id: "1",
				method: "select",
				title: "Pick",
				options: ["A", "B"],
			}),
		).toEqual({
			type: "extension_ui_response",
			id: "1",
			value: "B",
		});
		expect(
			await relay.handle({ type: "extension_ui_request", id: "2", method: "confirm", title: "Sure?", message: "m" }),
		).toEqual({
			type: "extension_ui_response",
			id: "2",
			confirmed: true,
		});
		expect(await relay.handle({ type: "extension_ui_request", id: "3", method: "input", title: "Name" })).toMatchObject(
			{ value: "typed" },
		);
		expect(await relay.handle({ type: "extension_ui_request", id: "4", method: "editor", title: "Text" })).toEqual({
			type: "extension_ui_response",
			id: "4",
			cancelled: true,
		});
		await relay.handle({ type: "extension_ui_request", id: "5", method: "notify", message: "hello" });
		expect(titles).toEqual(["scout: Pick", "scout: Sure?", "scout: Name", "scout: Text"]);
		expect(notified).toEqual(["scout: hello"]);
	});

	it("ignores what is not a dialog request, and cancels dialogs when it has no parent UI", async () => {
		const relay = createChildRelay({ asker: "scout" });
		for (const message of [
			null,
			"text",
			{ type: "agent_end" },
			{ type: "extension_ui_request", id: "s", method: "setStatus" },
		]) {
			expect(await relay.handle(message)).toBeUndefined();
		}
		expect(
			await relay.handle({ type: "extension_ui_request", id: "1", method: "select", title: "t", options: [] }),
		).toEqual({
			type: "extension_ui_response",
			id: "1",
			cancelled: true,
		});
	});
});

describe("asker labels", () => {
	it("a form from elsewhere always says who asks: its name cleaned, else an unnamed subagent with the pid known, never a name that reads as this session", () => {
		expect(askerLabel("scout\u200b", 7, ENGLISH)).toBe("scout");
		expect(askerLabel("planner › 𝐬𝐜𝐨𝐮𝐭", 7, ENGLISH)).toBe("planner › scout");
		for (const asker of [undefined, "", "  ", "\u200b\u2060\u3164", "\u202e\u0301", "y\u200dou", "Ｙｏｕ", "π"])
			expect(askerLabel(asker, 4242, ENGLISH), JSON.stringify(asker)).toBe("an unnamed subagent (pid 4242)");
		expect(askerLabel("you", undefined, ENGLISH)).toBe("an unnamed subagent");
		expect(askerLabel(undefined, 7, textsFor("de"))).toBe("Subagent ohne Namen (PID 7)");
	});

	it("join outermost first, on one line, within 200 characters", () => {
		expect(joinAskers("planner", "scout")).toBe("planner › scout");
		expect(joinAskers(undefined, "scout")).toBe("scout");
		expect(joinAskers(" ", undefined)).toBeUndefined();
		expect(joinAskers("a\nb", "c")).toBe("a b › c");
		expect(joinAskers("\u200b", "scout\u2060")).toBe("scout");
		const long = joinAskers("x".repeat(300), "scout") ?? "";
		expect(long.length).toBeLessThanOrEqual(200);
		expect(long.endsWith("› scout")).toBe(true);
	});
});
