/**
 * The browser page's server (src/web/server.ts) on a real loopback socket:
 * the page's answers through the form's rules, and what a request without
 * the right token, header or size gets. The page itself runs in a real
 * browser in test/e2e/web.test.ts.
 */

import { describe, expect, it } from "vitest";
import { ENGLISH } from "../src/i18n/texts.ts";
import { prepareForm } from "../src/tool/call.ts";
import { emptyCollected } from "../src/core/types.ts";
import { watchForms } from "../src/route/waiting.ts";
import type { OutsideAnswer } from "../src/core/types.ts";
import { answerFrom, BROWSER_SOURCE, MAX_BODY_BYTES, MAX_REQUESTS_PER_SECOND, openWebPage } from "../src/web/server.ts";

const { form } = prepareForm({
	questions: [
		{
			id: "db",
			header: "Database",
			question: "Which database? <b>bold</b>",
			options: [{ label: "Postgres" }, { label: "SQLite" }],
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
			error: "questions: each answer is an object",
		});
		expect(refused("null").ok).toBe(false);
		expect(refused(JSON.stringify({ questions: [{ chosen: [0], note: "x".repeat(4001) }, {}] })).ok).toBe(false);
		expect(given).toEqual([]);
	});
});

describe("the server", () => {
	const open = async (asker?: string) => {
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
	};

	it("serves the page with a strict policy and no model text in its HTML; the form's text only as JSON", async () => {
		const { page } = await open();
		try {
			expect(page.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ask\/[A-Za-z0-9_-]{32}\/$/);
			const html = await fetch(page.url);
			expect(html.status).toBe(200);
			expect(html.headers.get("content-security-policy")).toContain("default-src 'none'");
			expect(html.headers.get("content-security-policy")).toContain("script-src 'self'");
			expect(await html.text()).not.toContain("Which database");
			const data = (await (await fetch(`${page.url}form`)).json()) as { questions: Array<{ question: string }> };
			expect(data.questions[0]?.question).toBe("Which database? <b>bold</b>");
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
		await new Promise((resolve) => setTimeout(resolve, 1100));
		const statuses = await Promise.all(
			Array.from({ length: MAX_REQUESTS_PER_SECOND + 10 }, () => fetch(wrong).then((r) => r.status)),
		);
		expect(statuses).toContain(429);
		// The flood does not shut out the page itself, nor does a malformed submit break anything.
		expect((await fetch(`${page.url}form`)).status).toBe(200);
		expect((await post({ "x-ask-user": token }, JSON.stringify({ questions: [null, {}] }))).status).toBe(400);
		await new Promise((resolve) => setTimeout(resolve, 1100));
		expect((await post({ "x-ask-user": token }, JSON.stringify({ questions: [{ chosen: [0] }, {}] }))).status).toBe(
			200,
		);
		expect(given).toHaveLength(1);
		await page.close();
		await expect(fetch(page.url)).rejects.toThrow();
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
