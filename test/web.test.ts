/**
 * The browser page's server (src/web/server.ts) on a real loopback socket:
 * the page's answers through the form's rules, and what a request without
 * the right token, header, Host or size gets; submits that lose a race;
 * slow connections and fuzzed requests (test/support/attack.ts) that must not
 * keep the user's page out. The page itself runs in a real browser in
 * test/e2e/web.test.ts.
 */

import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { ENGLISH } from "../src/i18n/texts.ts";
import { prepareForm } from "../src/tool/call.ts";
import { type Collected, emptyCollected } from "../src/core/types.ts";
import { watchForms } from "../src/route/waiting.ts";
import type { OutsideAnswer } from "../src/core/types.ts";
import {
	ALREADY_ANSWERED,
	HEADERS_DEADLINE_MS,
	MAX_BODY_BYTES,
	MAX_REQUESTS_PER_SECOND,
	MAX_WAITING,
	openWebPage,
} from "../src/web/server.ts";
import { answerFrom, BROWSER_SOURCE } from "../src/web/submit.ts";
import { fuzz, slowloris } from "./support/attack.ts";
import { until } from "./support/harness.ts";

const { form } = prepareForm({
	questions: [
		{
			id: "db",
			header: "Database",
			question: "Which database? <b>bold</b>",
			options: [{ label: "Postgres", value: "pg-16-cluster" }, { label: "SQLite" }],
		},
		{ id: "more", header: "More", question: "Anything else?", required: false },
	],
});

function recorder() {
	const given: Array<{ reply: OutsideAnswer; source: string }> = [];
	return {
		given,
		answer: (reply: OutsideAnswer, source: string) => (given.push({ reply, source }), { ok: true as const }),
	};
}

/** A page on 127.0.0.1, any port, recording the answers it is given. */
async function open(asker?: string) {
	const { given, answer } = recorder();
	const page = await openWebPage({
		form,
		questions: form.questions,
		asker,
		texts: ENGLISH,
		address: "127.0.0.1",
		port: 0,
		answer,
	});
	return { page, given };
}

type Reply = { status: number; body: string };
const replyOf = (text: string): Reply => ({
	status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0),
	body: text.slice(text.indexOf("\r\n\r\n") + 4),
});

/** A request as bytes, sent in parts on a connection of its own (from `from`, a loopback address); the final reply once the server closes it (status 0: none). */
function rawRequest(url: string, from = "127.0.0.1") {
	const { hostname, port } = new URL(url);
	const socket = connect({ port: Number(port), host: hostname, localAddress: from });
	let text = "";
	socket.on("data", (chunk) => (text += chunk)).on("error", () => {});
	const closed = new Promise<Reply>((resolve) =>
		socket.on("close", () => resolve(replyOf(text.replace(/^HTTP\/1\.1 100 .*\r\n\r\n/, "")))),
	);
	return {
		closed,
		write: (bytes: string) => socket.write(bytes),
		/** Sends the rest and half-closes: the reply. */
		end: (bytes = "") => (socket.end(bytes), closed),
		/** Resolves once the server has read the headers of a request sent with `Expect: 100-continue`. */
		continued: () => new Promise<void>((resolve) => socket.on("data", () => text.includes(" 100 ") && resolve())),
	};
}
const raw = (url: string, request: string) => rawRequest(url).end(request);
const head = (lines: Record<string, string | number>) =>
	Object.entries(lines)
		.map(([name, value]) => `${name}: ${value}\r\n`)
		.join("");
const tokenOf = (html: string) => /name="ask-user" content="([^"]+)"/.exec(html)?.[1] ?? "";
const VALID = JSON.stringify({ questions: [{ chosen: [0] }, {}] });

/** A submit of `body` whose headers the server has read, its body still to come. */
async function submitStarted(url: string, token: string, body = VALID, headers: Record<string, string> = {}) {
	const { host, pathname } = new URL(url);
	const length = Buffer.byteLength(body);
	const submit = rawRequest(url);
	const lines = { Host: host, "Content-Type": "application/json", "X-Ask-User": token, "Content-Length": length };
	const continued = submit.continued();
	submit.write(`POST ${pathname}answer HTTP/1.1\r\n${head({ ...lines, Expect: "100-continue", ...headers })}\r\n`);
	await continued;
	return () => submit.end(body);
}

describe("the page's answers", () => {
	it("go through the form's rules and are collected as the form would", () => {
		const { given, answer } = recorder();
		const outcome = answerFrom(
			{ form, answer },
			JSON.stringify({ questions: [{ chosen: [1], note: "why not" }, { other: "  spaced  " }] }),
		);
		expect(outcome).toEqual({ ok: true });
		expect(given[0]?.source).toBe(BROWSER_SOURCE);
		expect(given[0]?.reply.answers).toEqual({
			db: { kind: "single", selections: [{ value: "SQLite", label: "SQLite" }] },
			more: { kind: "single", selections: [{ value: "  spaced  ", label: "  spaced  ", custom: true }] },
		});
		expect(given[0]?.reply.notes).toEqual([{ questionId: "db", text: "why not" }]);
	});

	it("carry the note on the whole form as a reply does (`formNote`); a blank one is none", () => {
		const { given, answer } = recorder();
		const body = (note: unknown) => JSON.stringify({ note, questions: [{ chosen: [0] }, {}] });
		expect(answerFrom({ form, answer }, body("all of it by Friday"))).toEqual({ ok: true });
		expect(given[0]?.reply).toMatchObject({ notes: [], formNote: "all of it by Friday" });
		expect(answerFrom({ form, answer }, body("  "))).toEqual({ ok: true });
		expect(given[1]?.reply).not.toHaveProperty("formNote");
		expect(answerFrom({ form, answer }, body("x".repeat(4001))).ok).toBe(false);
		expect(answerFrom({ form, answer }, body(7)).ok).toBe(false);
		expect(given).toHaveLength(2);
	});

	it("are refused, saying why, when they do not fit", () => {
		const { given, answer } = recorder();
		const refused = (body: string) => answerFrom({ form, answer }, body);
		expect(refused("{")).toEqual({ ok: false, error: "not JSON" });
		expect(refused(JSON.stringify({ questions: [{ chosen: [0] }] }))).toEqual({
			ok: false,
			error: "questions: expected 2 answers",
		});
		expect(refused(JSON.stringify({ questions: [{ chosen: [0, 1] }, {}] }))).toEqual({
			ok: false,
			error: "the answers do not fit the questions",
		});
		expect(refused(JSON.stringify({ questions: [{ chosen: [7] }, {}] }))).toEqual({
			ok: false,
			error: "the answers do not fit the questions",
		});
		expect(refused(JSON.stringify({ questions: [{}, {}] }))).toEqual({ ok: false, error: "unanswered: Database" });
		expect(refused(JSON.stringify({ questions: [null, {}] }))).toEqual({
			ok: false,
			error: "questions[0]: must be an object (found null)",
		});
		expect(refused("null").ok).toBe(false);
		expect(refused(JSON.stringify({ questions: [{ chosen: [0], note: "x".repeat(4001) }, {}] })).ok).toBe(false);
		expect(given).toEqual([]);
	});
});

describe("You decide on the page", () => {
	it("a question left to the model is an answer of its own: in delegated, also for a required question", () => {
		const { given, answer } = recorder();
		const body = JSON.stringify({ questions: [{ chosen: [], delegated: true, note: "cheap" }, {}] });
		expect(answerFrom({ form, answer }, body)).toEqual({ ok: true });
		expect(given[0]?.reply).toEqual({
			answers: {},
			skipped: ["more"],
			notes: [{ questionId: "db", text: "cheap" }],
			delegated: ["db"],
		});
	});

	it("only where the form offers it (the setting off, a child of relay v1), and never beside a choice", () => {
		const { given, answer } = recorder();
		const left = JSON.stringify({ questions: [{ delegated: true }, {}] });
		const misfit = { ok: false, error: "the answers do not fit the questions" };
		expect(answerFrom({ form, answer, options: { youDecide: false } }, left)).toEqual(misfit);
		expect(answerFrom({ form, answer, options: { replyVersion: 1 } }, left)).toEqual(misfit);
		expect(answerFrom({ form, answer }, JSON.stringify({ questions: [{ chosen: [0], delegated: true }, {}] }))).toEqual(
			misfit,
		);
		expect(given).toEqual([]);
	});

	it("the page is told which questions have the button, and its words", async () => {
		const page = await openWebPage({
			form,
			questions: form.questions,
			options: { replyVersion: 1 },
			texts: ENGLISH,
			address: "127.0.0.1",
			port: 0,
			answer: recorder().answer,
		});
		try {
			const data = (await (await fetch(`${page.url}form`)).json()) as {
				questions: Array<{ youDecide: boolean }>;
				words: Record<string, string>;
			};
			expect(data.questions.map((q) => q.youDecide)).toEqual([false, true]);
			expect(data.words).toMatchObject({ youDecide: "You decide", delegated: "left to the model" });
		} finally {
			await page.close();
		}
	});
});

describe("the server", () => {
	it("serves the page with a strict policy and no model text in its HTML; the form's text only as JSON", async () => {
		const { page } = await open();
		try {
			expect(page.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ask\/[A-Za-z0-9_-]{32}\/$/);
			const html = await fetch(page.url);
			expect(html.status).toBe(200);
			expect(html.headers.get("content-security-policy")).toContain("default-src 'none'");
			expect(html.headers.get("content-security-policy")).toContain("script-src 'self'");
			// Images: its own, and the thumbnails the page makes of the files chosen; nothing else.
			expect(html.headers.get("content-security-policy")).toContain("img-src 'self' blob:;");
			expect(await html.text()).not.toContain("Which database");
			const json = await (await fetch(`${page.url}form`)).text();
			const data = JSON.parse(json) as { questions: Array<{ question: string; options: object[] }> };
			expect(data.questions[0]?.question).toBe("Which database? <b>bold</b>");
			// What the page shows of an option, not the value the model gets back.
			expect(data.questions[0]?.options[0]).toEqual({ label: "Postgres", recommended: false });
			expect(json).not.toContain("pg-16-cluster");
			expect((await fetch(`${page.url}page.js`)).headers.get("content-type")).toContain("text/javascript");
		} finally {
			await page.close();
		}
	});

	it("a form from elsewhere says who asks, as the terminal does; this session's own says nothing of it", async () => {
		for (const [asker, shown] of [
			["an unnamed subagent (pid 4242)", "Asked by an unnamed subagent (pid 4242)"],
			[undefined, undefined],
		] as const) {
			const { page } = await open(asker);
			try {
				expect(((await (await fetch(`${page.url}form`)).json()) as { asker?: string }).asker).toBe(shown);
			} finally {
				await page.close();
			}
		}
	});

	it("says the asker's task beside it, whole, and the model's reason, as the terminal does", async () => {
		const { answer } = recorder();
		const task = `pick a database for the invoices, ${"then more ".repeat(30)}`.trim();
		const setup = { form, questions: form.questions, texts: ENGLISH, address: "127.0.0.1", port: 0, answer };
		const page = await openWebPage({ ...setup, asker: "scout", task, reason: "The migration depends on it." });
		try {
			const data = (await (await fetch(`${page.url}form`)).json()) as { asker?: string; reason?: string };
			expect(data).toMatchObject({ asker: `Asked by scout · ${task}`, reason: "Why: The migration depends on it." });
		} finally {
			await page.close();
		}
	});

	it("a wrong token is a bare 404; a submit without the page's header 403; an oversized body 413; a flood 429; closed, nothing listens", async () => {
		const { page, given } = await open();
		const wrong = page.url.replace(/\/ask\/[^/]+\//, `/ask/${"A".repeat(32)}/`);
		const notFound = await fetch(wrong);
		expect([notFound.status, await notFound.text()]).toEqual([404, ""]);
		const post = (headers: Record<string, string>, body: string) =>
			fetch(`${page.url}answer`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
		expect((await post({}, JSON.stringify({ questions: [{ chosen: [0] }, {}] }))).status).toBe(403);
		const html = await (await fetch(page.url)).text();
		const token = /name="ask-user" content="([^"]+)"/.exec(html)?.[1] ?? "";
		expect((await post({ "x-ask-user": token }, "x".repeat(MAX_BODY_BYTES + 1))).status).toBe(413);
		expect(given).toEqual([]);
		// A flood: more requests than a second takes (a burst that straddles two seconds may not be, so again until one is).
		const flood = () =>
			Promise.all(Array.from({ length: MAX_REQUESTS_PER_SECOND + 10 }, () => fetch(wrong).then((r) => r.status)));
		await expect.poll(flood, { timeout: 30_000, interval: 0 }).toContain(429);
		// The flood does not shut out the page itself, nor does a malformed submit break anything.
		expect((await fetch(`${page.url}form`)).status).toBe(200);
		expect((await post({ "x-ask-user": token }, JSON.stringify({ questions: [null, {}] }))).status).toBe(400);
		// The limit lasts its second only: a request without the token is a bare 404 again.
		await expect.poll(() => fetch(wrong).then((r) => r.status), { timeout: 30_000, interval: 200 }).toBe(404);
		expect((await post({ "x-ask-user": token }, JSON.stringify({ questions: [{ chosen: [0] }, {}] }))).status).toBe(
			200,
		);
		expect(given).toHaveLength(1);
		await page.close();
		await expect(fetch(page.url)).rejects.toThrow();
	});
});

describe("the server's own address", () => {
	it("is the only Host it answers (and localhost, on loopback): a foreign one, a DNS name rebound to this machine, gets a bare 421", async () => {
		const { page } = await open();
		try {
			const { host, port, pathname } = new URL(page.url);
			const get = (name: string) => raw(page.url, `GET ${pathname}form HTTP/1.1\r\nHost: ${name}\r\n\r\n`);
			for (const name of [host, `localhost:${port}`, `LocalHost:${port}`]) expect((await get(name)).status).toBe(200);
			for (const name of [
				"evil.example",
				`evil.example:${port}`,
				"127.0.0.1",
				"127.0.0.1:1",
				`localhost.evil.example:${port}`,
			])
				expect(await get(name), name).toEqual({ status: 421, body: "" });
		} finally {
			await page.close();
		}
	});

	it("and no other is the Origin a submit may come from, as application/json exactly (or with charset=utf-8)", async () => {
		const { page, given } = await open();
		try {
			const { host, port } = new URL(page.url);
			const token = tokenOf(await (await fetch(page.url)).text());
			const submit = async (headers: Record<string, string>, body = VALID) =>
				(await submitStarted(page.url, token, body, headers))();
			const refused: Array<Record<string, string>> = [
				{ Origin: "http://evil.example" },
				{ Origin: `http://${host}.evil.example` },
				{ Origin: `https://${host}` },
				{ Origin: "null" },
				{ "Content-Type": "application/jsonp" },
				{ "Content-Type": "application/json-seq" },
				{ "Content-Type": "application/json; charset=latin1" },
			];
			for (const headers of refused) expect((await submit(headers)).status, JSON.stringify(headers)).toBe(403);
			expect(given).toEqual([]);
			// Past the headers, a body that does not fit is refused as such.
			const utf8 = { "Content-Type": "application/json; charset=UTF-8", Origin: `http://localhost:${port}` };
			expect((await submit(utf8, "{}")).status).toBe(400);
			expect((await submit({ Origin: `http://${host}` })).status).toBe(200);
			expect(given).toHaveLength(1);
		} finally {
			await page.close();
		}
	});
});

describe("racing submits", () => {
	/** A form waiting in the terminal with its page, as watchForms opens it; `dismiss` ends it there. */
	async function waitingForm() {
		let dismiss = () => {};
		let linked: (url: string) => void = () => {};
		const url = new Promise<string>((resolve) => (linked = resolve));
		const web = () => ({ address: "127.0.0.1", port: 0, texts: ENGLISH, warn: () => {} });
		const surface = (_form: unknown, options: { link?: { url: string }; signal?: AbortSignal }) =>
			new Promise<Collected>((resolve) => {
				dismiss = () => resolve(emptyCollected("dismissed"));
				options.signal?.addEventListener("abort", () => resolve(emptyCollected("aborted")));
				linked(options.link?.url ?? "");
			});
		const done = watchForms(surface, { emit: () => {}, web })(form, {});
		const page = await url;
		return { url: page, token: tokenOf(await (await fetch(page)).text()), done, dismiss: () => dismiss() };
	}
	const LOST = { status: 409, body: JSON.stringify({ error: ALREADY_ANSWERED }) };

	it("of eight submits at once, one wins; the others hear 409 already answered, not a reset", async () => {
		const { url, token, done } = await waitingForm();
		const sends = await Promise.all(Array.from({ length: 8 }, () => submitStarted(url, token)));
		const replies = await Promise.all(sends.map((send) => send()));
		expect(replies.filter(({ status }) => status === 200)).toHaveLength(1);
		expect(replies.filter(({ status }) => status !== 200)).toEqual(Array(7).fill(LOST));
		expect((await done).answeredBy).toBe(BROWSER_SOURCE);
	});

	it("a submit on its way when the form ends in the terminal hears 409 too", async () => {
		const { url, token, done, dismiss } = await waitingForm();
		const send = await submitStarted(url, token);
		dismiss();
		await expect(fetch(url)).rejects.toThrow();
		expect(await send()).toEqual(LOST);
		expect((await done).status).toBe("dismissed");
	});
});

describe("under attack", () => {
	/** The page as a browser loads it: its HTML, script, style and form, each status (0: no reply within 10 s). */
	const load = (url: string) =>
		Promise.all(
			["", "page.js", "page.css", "form"].map((path) =>
				fetch(`${url}${path}`, { signal: AbortSignal.timeout(10_000) }).then(
					(response) => response.status,
					() => 0,
				),
			),
		);

	it("80 connections trickling their headers and a flood of fuzzed requests do not keep the user's page out", async () => {
		const { page } = await open();
		const slow = slowloris(page.url, 80);
		const fuzzed = fuzz(page.url, 8);
		try {
			await until(() => slow.connections >= 160, "the slow connections dropped and back");
			for (let i = 0; i < 10; i++) expect(await load(page.url)).toEqual([200, 200, 200, 200]);
		} finally {
			slow.stop();
			fuzzed.stop();
			await page.close();
		}
	});

	it("a connection that has not sent its headers by HEADERS_DEADLINE_MS is dropped then", async () => {
		const { page } = await open();
		try {
			const started = Date.now();
			const slow = rawRequest(page.url);
			slow.write("GET / HTTP/1.1\r\nX-Slow: ");
			const trickle = setInterval(() => slow.write("x"), 200);
			expect(await slow.closed).toEqual({ status: 0, body: "" });
			clearInterval(trickle);
			expect(Date.now() - started).toBeGreaterThanOrEqual(HEADERS_DEADLINE_MS - 50);
			expect(Date.now() - started).toBeLessThan(HEADERS_DEADLINE_MS + 1000);
		} finally {
			await page.close();
		}
	});

	it("past a peer's share of waiting connections its oldest slow one goes: not another peer's, nor one that sent nothing yet (a browser's spare)", async () => {
		const { page } = await open();
		const count = MAX_WAITING + 40;
		const slow = slowloris(page.url, count);
		try {
			await until(() => slow.connections >= 2 * count, "the slow connections dropped and back");
			const { host, pathname } = new URL(page.url);
			const other = rawRequest(page.url, "127.0.0.2");
			other.write(`GET ${pathname}form HTTP/1.1\r\n`);
			const spare = rawRequest(page.url);
			// While more than MAX_WAITING connections come after them.
			const after = slow.connections + 2 * MAX_WAITING;
			await until(() => slow.connections > after, "more slow connections");
			expect((await other.end(`Host: ${host}\r\n\r\n`)).status).toBe(200);
			expect((await spare.end(`GET ${pathname}form HTTP/1.1\r\nHost: ${host}\r\n\r\n`)).status).toBe(200);
			for (let i = 0; i < 5; i++) expect(await load(page.url)).toEqual([200, 200, 200, 200]);
		} finally {
			slow.stop();
			await page.close();
		}
	});
});

describe("a page that cannot listen", () => {
	it("leaves the form to the terminal and says why", async () => {
		const warnings: string[] = [];
		let link: unknown = "not asked";
		const web = () => ({ address: "192.0.2.1", port: 0, texts: ENGLISH, warn: (text: string) => warnings.push(text) });
		const collected = await watchForms(async (_form, options) => ((link = options.link), emptyCollected("dismissed")), {
			emit: () => {},
			web,
		})(form, {});
		expect(collected.status).toBe("dismissed");
		expect(link).toBeUndefined();
		expect(warnings).toEqual([
			expect.stringMatching(
				/^ask_user: the browser page could not listen on 192\.0\.2\.1:0 \(.+\); answer in the terminal\.$/,
			),
		]);
	});
});
