/**
 * Forms while they wait (src/route/waiting.ts), over a stand-in surface that shows
 * nothing: the events other extensions hear, answers from elsewhere, and the
 * attention a terminal gets.
 */

import { afterEach, describe, expect, it, vi } from "vitest";
import type { Ask } from "../src/core/types.ts";
import { type AskForm, type AskOptions, type Collected, emptyCollected } from "../src/core/types.ts";
import {
	type AttentionHost,
	CLOSED_EVENT,
	type ClosedEvent,
	PROGRESS_EVENT,
	type ProgressEvent,
	WAITING_EVENT,
	type WaitingEvent,
	watchForms,
} from "../src/route/waiting.ts";
import { NOTIFICATION_MAX } from "../src/route/attention.ts";
import { ENGLISH } from "../src/i18n/texts.ts";
import { DB_QUESTION } from "./support/ask-fixtures.ts";
import { until } from "./support/harness.ts";
import { PNG_1X1 } from "./support/images.ts";

const form: AskForm = { questions: [{ ...DB_QUESTION, question: "Which \u001b]52;c;AAAA\u0007database?" }] };
const pg = { db: { kind: "single" as const, selections: [{ value: "pg", label: "Postgres" }] } };

/** A surface that opens at once and stays open until its signal aborts (then: aborted, nothing answered), or `finish` is called. */
function openSurface() {
	let finish: ((collected: Collected) => void) | undefined;
	let seen: AskOptions | undefined;
	const surface: Ask = (_form, options) =>
		new Promise((resolve) => {
			seen = options;
			finish = resolve;
			options.onProgress?.({ phase: "opened", answered: 0, total: 1 }, emptyCollected("answered"));
			options.signal?.addEventListener("abort", () => resolve(emptyCollected("aborted")), { once: true });
		});
	return { surface, finish: (collected: Collected) => finish?.(collected), options: () => seen };
}

function recorder() {
	const events: Array<{ event: string; payload: unknown }> = [];
	return {
		events,
		emit: (event: string, payload: unknown) => events.push({ event, payload }),
		waiting: () => events.find((e) => e.event === WAITING_EVENT)?.payload as WaitingEvent,
		closed: () => events.find((e) => e.event === CLOSED_EVENT)?.payload as ClosedEvent | undefined,
	};
}

/** Until `open`'s form is on screen (its surface was called), for at most 10 s. */
async function shown(open: { options(): AskOptions | undefined }): Promise<void> {
	const deadline = Date.now() + 10_000;
	while (open.options() === undefined) {
		if (Date.now() > deadline) throw new Error("timed out waiting for the form to show");
		await new Promise((resolve) => setImmediate(resolve));
	}
}

/** One turn of the timers: what an earlier 0 ms timer does has happened. */
async function tick(): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, 0));
}

describe("events for other extensions", () => {
	it("waiting → progress → closed, with one id, the asker, and questions made safe to show", async () => {
		const open = openSurface();
		const heard = recorder();
		const asking = watchForms(open.surface, { emit: heard.emit })(form, { asker: "scout" });
		await shown(open);
		open.finish({ ...emptyCollected("answered"), answers: pg });
		const collected = await asking;

		expect(collected.answers).toEqual(pg);
		expect(heard.events.map((e) => e.event)).toEqual([WAITING_EVENT, PROGRESS_EVENT, CLOSED_EVENT]);
		const [waiting, progress, closed] = heard.events.map((e) => e.payload) as [
			WaitingEvent,
			ProgressEvent,
			ClosedEvent,
		];
		expect(new Set([waiting.id, progress.id, closed.id]).size).toBe(1);
		expect(waiting.asker).toBe("scout");
		expect(waiting.questions[0]?.question).toBe("Which database?");
		expect(progress.progress.phase).toBe("opened");
		expect(closed.details).toMatchObject({ status: "answered", answers: { db: { selections: [{ value: "pg" }] } } });
	});

	it("closed carries the whole form's note and drafts as the tool's details do: scoped notes and drafts", async () => {
		const open = openSurface();
		const heard = recorder();
		const asking = watchForms(open.surface, { emit: heard.emit })(form, {});
		await shown(open);
		const notes = [{ questionId: "db", text: "on db" }, { text: "on the whole form" }];
		const drafts = [
			{ kind: "note" as const, text: "half a note" },
			{ kind: "chat" as const, text: "half a message" },
		];
		open.finish({ ...emptyCollected("dismissed"), notes, drafts });
		await asking;
		expect(heard.closed()?.details).toMatchObject({ status: "dismissed", notes, drafts });
		expect(heard.closed()?.details).not.toHaveProperty("formNote");
	});

	it("a listener that throws breaks nothing", async () => {
		const open = openSurface();
		const asking = watchForms(open.surface, {
			emit: () => {
				throw new Error("a buggy extension");
			},
		})(form, {});
		await shown(open);
		open.finish({ ...emptyCollected("answered"), answers: pg });
		expect((await asking).status).toBe("answered");
	});
});

describe("answering from elsewhere", () => {
	it("a valid answer closes the open form; the result keeps it and says who answered", async () => {
		const open = openSurface();
		const heard = recorder();
		const asking = watchForms(open.surface, { emit: heard.emit })(form, {});
		await shown(open);
		expect(heard.waiting().answer({ answers: pg }, "phone bridge")).toEqual({ ok: true });
		const collected = await asking;
		expect(open.options()?.signal?.aborted).toBe(true);
		expect(collected).toMatchObject({ status: "answered", answers: pg, answeredBy: "phone bridge" });
		expect(heard.closed()?.details).toMatchObject({ status: "answered", answeredBy: "phone bridge" });
	});

	it("an answer may leave a question to the model where the form offers it (delegated), never where it does not", async () => {
		for (const [options, ok] of [
			[{}, true],
			[{ youDecide: false }, false],
			[{ replyVersion: 1 }, false],
		] as const) {
			const open = openSurface();
			const heard = recorder();
			const asking = watchForms(open.surface, { emit: heard.emit })(form, options);
			await shown(open);
			const outcome = heard.waiting().answer({ answers: {}, delegated: ["db"] }, "bot");
			expect(outcome.ok, JSON.stringify(options)).toBe(ok);
			if (!outcome.ok) expect(outcome.error).toBe('delegated: this form offers no "You decide" on "db"');
			else expect(await asking).toMatchObject({ status: "answered", delegated: ["db"], answeredBy: "bot" });
			open.finish(emptyCollected("dismissed"));
			await asking;
		}
	});

	it("an answer from a UI that shows no previews says which questions it answered without them", async () => {
		const open = openSurface();
		const heard = recorder();
		const asking = watchForms(open.surface, { emit: heard.emit })(form, {});
		await shown(open);
		expect(heard.waiting().answer({ answers: pg, previewsUnseen: ["db"] }, "phone bridge")).toEqual({ ok: true });
		expect(await asking).toMatchObject({ status: "answered", answers: pg, previewsUnseen: ["db"] });
	});

	it("an invalid answer is refused with the reason, and the form stays open", async () => {
		const open = openSurface();
		const heard = recorder();
		const asking = watchForms(open.surface, { emit: heard.emit })(form, {});
		await shown(open);
		const wrongLabel = heard
			.waiting()
			.answer({ answers: { db: { kind: "single", selections: [{ value: "x", label: "Oracle" }] } } }, "bot");
		expect(wrongLabel.ok).toBe(false);
		if (!wrongLabel.ok) expect(wrongLabel.error).toContain("answers.db");
		const nothing = heard.waiting().answer({ answers: {} }, "bot");
		expect(nothing.ok).toBe(false);
		expect(heard.waiting().answer({ answers: pg, status: "aborted" as never }, "bot").ok).toBe(false);
		expect(heard.waiting().answer({ answers: pg }, "  ").ok).toBe(false);
		expect(open.options()?.signal?.aborted).toBe(false);
		open.finish({ ...emptyCollected("answered"), answers: pg });
		expect((await asking).answeredBy).toBeUndefined();
	});

	it("an answer from elsewhere carries no files: one with attachments is refused, and nothing of it is saved or sent", async () => {
		const open = openSurface();
		const heard = recorder();
		const asking = watchForms(open.surface, { emit: heard.emit })(form, {});
		await shown(open);
		const data = PNG_1X1.toString("base64");
		const file = { name: "x.png", mime: "image/png", size: PNG_1X1.length, kind: "note", questionId: "db", data };
		const outcome = heard.waiting().answer({ answers: pg, attachments: [file] } as never, "bot");
		expect(outcome).toEqual({
			ok: false,
			error:
				"attachments: an answer from elsewhere carries no files; the user attaches them in the form or on its browser page",
		});
		expect(open.options()?.signal?.aborted).toBe(false);
		expect(heard.waiting().answer({ answers: pg }, "bot")).toEqual({ ok: true });
		expect(await asking).not.toHaveProperty("attachments");
	});

	it("the first answer wins; a later one, or one after the user answered, is refused", async () => {
		const open = openSurface();
		const heard = recorder();
		const asking = watchForms(open.surface, { emit: heard.emit })(form, {});
		await shown(open);
		expect(heard.waiting().answer({ answers: pg }, "first")).toEqual({ ok: true });
		expect(heard.waiting().answer({ answers: pg }, "second").ok).toBe(false);
		expect((await asking).answeredBy).toBe("first");

		const again = openSurface();
		const heardAgain = recorder();
		const answeredByUser = watchForms(again.surface, { emit: heardAgain.emit })(form, {});
		await shown(again);
		again.finish({ ...emptyCollected("answered"), answers: pg });
		await answeredByUser;
		expect(heardAgain.waiting().answer({ answers: pg }, "late").ok).toBe(false);
	});

	it("a form still waiting its turn is answered before it ever shows", async () => {
		// A surface whose form waits behind another (the queue): its turn comes on the next tick and it
		// shows ("opened"), unless its signal ended the wait first.
		let opened = false;
		const queued: Ask = (_form, options) =>
			new Promise((resolve) => {
				const turn = setTimeout(
					() => options.onProgress?.({ phase: "opened", answered: 0, total: 1 }, emptyCollected("answered")),
					0,
				);
				options.signal?.addEventListener(
					"abort",
					() => {
						clearTimeout(turn);
						resolve(emptyCollected("aborted"));
					},
					{ once: true },
				);
			});
		const heard = recorder();
		const asking = watchForms(queued, { emit: heard.emit })(form, { onProgress: () => (opened = true) });
		expect(heard.waiting().answer({ answers: pg }, "policy")).toEqual({ ok: true });
		expect(await asking).toMatchObject({ status: "answered", answers: pg, answeredBy: "policy" });
		await tick();
		expect(opened).toBe(false);
	});

	it("a dismissal from elsewhere is a dismissal, with who dismissed", async () => {
		const open = openSurface();
		const heard = recorder();
		const asking = watchForms(open.surface, { emit: heard.emit })(form, {});
		await shown(open);
		expect(heard.waiting().answer({ status: "dismissed", answers: {} }, "policy")).toEqual({ ok: true });
		expect(await asking).toMatchObject({ status: "dismissed", answeredBy: "policy" });
	});
});

describe("attention in a terminal", () => {
	afterEach(() => {
		vi.useRealTimers();
	});

	function terminal(
		setting: ReturnType<AttentionHost["setting"]>,
		env: Record<string, string> = {},
		isTerminal = true,
	) {
		const written: string[] = [];
		const titles: string[] = [];
		let input: (() => void) | undefined;
		const host: AttentionHost = {
			setting: () => setting,
			isTerminal: () => isTerminal,
			write: (bytes) => written.push(bytes),
			env,
			setTitle: (title) => titles.push(title),
			piTitle: () => "π - work",
			onInput: (listener) => {
				input = listener;
				return () => {
					input = undefined;
				};
			},
		};
		return { host, written, titles, press: () => input?.(), listening: () => input !== undefined };
	}

	it("the bell once when the form opens; the title says a question waits, and is put back when it closes", async () => {
		const open = openSurface();
		const term = terminal({ mode: "bell" });
		const asking = watchForms(open.surface, { emit: () => {}, attention: term.host })(form, {});
		await shown(open);
		expect(term.written).toEqual(["\x07"]);
		expect(term.titles).toEqual(["❓ 1 question · π - work"]);
		open.finish(emptyCollected("dismissed"));
		await asking;
		expect(term.titles).toEqual(["❓ 1 question · π - work", "π - work"]);
		expect(term.listening()).toBe(false);
	});

	it("desktop: the terminal's notification with the count and the asker", async () => {
		const open = openSurface();
		const term = terminal({ mode: "desktop" }, { TERM_PROGRAM: "WezTerm" });
		const asking = watchForms(open.surface, { emit: () => {}, attention: term.host })(form, { asker: "scout" });
		await shown(open);
		expect(term.written).toEqual(["\x1b]777;notify;pi;1 question waiting — asked by scout\x07\x07"]);
		open.finish(emptyCollected("dismissed"));
		await asking;
	});

	it("the notification and the title say how many questions wait, and who asks", async () => {
		const two: AskForm = { questions: [DB_QUESTION, { ...DB_QUESTION, id: "db2" }] };
		for (const [asked, asker, body, title] of [
			[two, "scout", "2 questions waiting — asked by scout", "❓ 2 questions · π - work"],
			[form, undefined, "1 question waiting", "❓ 1 question · π - work"],
		] as const) {
			const open = openSurface();
			const term = terminal({ mode: "desktop" }, { TERM_PROGRAM: "WezTerm" });
			const asking = watchForms(open.surface, { emit: () => {}, attention: term.host })(asked, asker ? { asker } : {});
			await shown(open);
			expect(term.written).toEqual([`\x1b]777;notify;pi;${body}\x07\x07`]);
			expect(term.titles[0]).toBe(title);
			open.finish(emptyCollected("dismissed"));
			await asking;
		}
	});

	it("the notification says the asker's task and the model's reason too, cut so that the page's URL stays whole", async () => {
		const why: AskForm = { ...form, reason: "The schema; depends on it" };
		const task = "pick a database for the invoices service";
		const web = () => ({ address: "127.0.0.1", port: 0, texts: ENGLISH, warn: () => {} });
		for (const page of [false, true]) {
			const open = openSurface();
			const heard = recorder();
			const term = terminal({ mode: "desktop" }, { TERM_PROGRAM: "WezTerm" });
			const host = { emit: heard.emit, attention: term.host, ...(page && { web }) };
			const asking = watchForms(open.surface, host)(why, { asker: "scout", task });
			await until(() => term.written.length > 0, "the notification");
			const body = /^\x1b\]777;notify;pi;(.*)\x07\x07$/.exec(term.written[0] ?? "")?.[1] ?? "";
			const said = `1 question waiting — asked by scout · ${task} · The schema, depends on it`;
			if (!page) expect(body).toBe(said);
			else {
				const { url } = heard.waiting();
				expect(body).toMatch(/^1 question waiting — asked by scout · pick a .*… http:/);
				expect(body.endsWith(` ${url}`)).toBe(true);
				expect(body).toHaveLength(NOTIFICATION_MAX);
			}
			expect(heard.waiting()).toMatchObject({ asker: "scout", task, reason: "The schema; depends on it" });
			open.finish(emptyCollected("dismissed"));
			await asking;
		}
	});

	it("not a terminal (RPC), or off: nothing written, no title", async () => {
		for (const term of [terminal({ mode: "bell" }, {}, false), terminal({ mode: "off" })]) {
			const open = openSurface();
			const asking = watchForms(open.surface, { emit: () => {}, attention: term.host })(form, {});
			await shown(open);
			open.finish(emptyCollected("dismissed"));
			await asking;
			expect(term.written.join("")).toBe("");
			expect(term.titles).toEqual([]);
		}
	});

	it("the reminder rings again after a while with no key pressed, and a key puts it off", async () => {
		vi.useFakeTimers();
		const open = openSurface();
		const term = terminal({ mode: "bell", reminderMs: 60_000 });
		const asking = watchForms(open.surface, { emit: () => {}, attention: term.host })(form, {});
		await vi.advanceTimersByTimeAsync(0);
		expect(term.written).toHaveLength(1);
		await vi.advanceTimersByTimeAsync(59_000);
		term.press();
		await vi.advanceTimersByTimeAsync(59_000);
		expect(term.written).toHaveLength(1);
		await vi.advanceTimersByTimeAsync(1_000);
		expect(term.written).toHaveLength(2);
		await vi.advanceTimersByTimeAsync(60_000);
		expect(term.written).toHaveLength(3);
		open.finish(emptyCollected("dismissed"));
		await asking;
		await vi.advanceTimersByTimeAsync(120_000);
		expect(term.written).toHaveLength(3);
	});
});
