/**
 * The browser page under attack: the real pi (`--mode rpc`, the web setting on), whose model asks one form after
 * another; each form's page (its address from the probe's `ask_user:waiting` line) is held by slow connections that
 * trickle their headers (slowloris) and hit by fuzzed requests (random methods, paths, headers, bodies:
 * test/support/attack.ts) while the user opens it and, half way through its share of the fuzz, submits. The user
 * does what the page's script does (page.js): loads the page, reads its submit token, loads the form, posts the
 * answers; a request that fails is sent again, as a person presses Submit again. Every form must be answered through
 * the page, with what the user sent; the terminal's dialogs are never answered.
 */

import { join } from "node:path";
import type { AskDetails } from "../../src/core/types.ts";
import { fuzz, slowloris } from "../../test/support/attack.ts";
import { callTool, scriptOf } from "../../test/support/model-script.ts";
import { ASK_USER_EXTENSION, createPiEnv } from "../../test/support/pi-env.ts";
import { RpcPi } from "../../test/support/rpc-client.ts";
import { ProbeLog, SOAK_PROBE, type Sample } from "./probe.ts";
import { leftRunning } from "./sequential.ts";
import { type Random, soon } from "./soon.ts";

export interface WebFigures {
	forms: number;
	/** Slow connections held on each form's page, and how many were opened in all (the server drops one past its deadline: it comes back). */
	slowloris: number;
	slowOpened: number;
	/** Fuzzed requests sent in all, by the status they got ("dropped": none). */
	fuzzed: number;
	statuses: Record<string, number>;
	/** Forms answered through the page with what the user sent, of all. */
	answered: number;
	of: number;
	/** The user's requests (page, form, submit) and those that had to be sent again. */
	userRequests: number;
	userRetries: number;
	/** The slowest of the user's requests, ms. */
	userMaxMs: number;
	/** pi's open file descriptors before the first form and after the last. */
	fds: number[];
	leftRunning: number;
}

const PROMPT = "web: ask on the page";
const SLOW = 70;

export async function soakWeb(
	forms: number,
	fuzzed: number,
	random: Random,
	log: (line: string) => void,
): Promise<WebFigures> {
	const form = (i: number) => ({
		questions: [
			{
				id: "db",
				header: "Database",
				question: `Form ${i + 1}: which database?`,
				options: [{ label: "Postgres" }, { label: "SQLite" }],
			},
			{ id: "why", header: "Why", question: "Anything to add?" },
		],
	});
	const env = createPiEnv({
		script: scriptOf({
			user: PROMPT,
			replies: [...Array.from({ length: forms }, (_, i) => callTool("ask_user", form(i))), { text: "done" }],
		}),
		extensions: [ASK_USER_EXTENSION, SOAK_PROBE],
		env: { PI_ASK_USER_WEB: "1" },
	});
	const probe = new ProbeLog(join(env.root, "probe.jsonl"));
	Object.assign(env.env, probe.env(0));
	// The terminal's side never answers: every form is the page's.
	const rpc = RpcPi.start(env, () => new Promise(() => {}));
	const user = { requests: 0, retries: 0, maxMs: 0 };
	const statuses: Record<string, number> = {};
	let sent = 0;
	let slowOpened = 0;
	const given: Array<{ db: string; why: string }> = [];
	try {
		await soon(() => probe.samples().some((s) => s.idle), "pi to start", undefined, 50);
		const [before] = probe.samples() as [Sample];
		const running = rpc.prompt(PROMPT, 10 * 60_000);
		for (let i = 0; i < forms; i++) {
			await soon(() => urls(probe).length > i, `form ${i + 1}'s page`);
			const url = urls(probe)[i] as string;
			const share = Math.round(fuzzed / forms) + (i === forms - 1 ? fuzzed - Math.round(fuzzed / forms) * forms : 0);
			const slow = slowloris(url, SLOW);
			const fuzzer = fuzz(url, 8);
			try {
				await soon(() => done(fuzzer.statuses) >= share / 2, `half of form ${i + 1}'s fuzz`, 120_000, 20);
				const page = await userRequest(user, () => fetch(url).then(expectOk));
				const token = /<meta name="ask-user" content="([^"]+)">/.exec(await page.text())?.[1] ?? "";
				const shown = (await (await userRequest(user, () => fetch(`${url}form`).then(expectOk))).json()) as {
					questions: Array<{ question: string }>;
				};
				if (shown.questions[0]?.question !== `Form ${i + 1}: which database?`)
					throw new Error(`form ${i + 1}: the page shows another form`);
				await soon(() => done(fuzzer.statuses) >= share, `form ${i + 1}'s fuzz`, 120_000, 20);
				fuzzer.stop();
				// The last form waits until the server has dropped slow connections (past its headers' deadline) and they came back.
				if (i === forms - 1)
					await soon(
						() => slow.connections >= 2 * SLOW,
						"the slow connections to be dropped and come back",
						60_000,
						50,
					);
				const choice = random() < 0.5 ? 0 : 1;
				const why = `typed on the page ${i + 1}`;
				given.push({ db: choice === 0 ? "Postgres" : "SQLite", why });
				await userRequest(user, () =>
					fetch(`${url}answer`, {
						method: "POST",
						headers: { "content-type": "application/json", "x-ask-user": token },
						body: JSON.stringify({ questions: [{ chosen: [choice] }, { other: why }] }),
					}).then(expectOk),
				);
			} finally {
				slow.stop();
				fuzzer.stop();
				slowOpened += slow.connections;
				for (const [status, n] of Object.entries(fuzzer.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
				sent += done(fuzzer.statuses);
			}
			log(
				`web: form ${i + 1} of ${forms} answered on its page, under ${SLOW} slow connections and ${share} fuzzed requests`,
			);
		}
		await running;
		await soon(() => probe.samples().filter((s) => s.idle).length >= 2, "pi's sample after the run", undefined, 50);
		const after = probe.samples().at(-1) as Sample;
		const received = env.toolResults("ask_user").map((entry) => entry.details as AskDetails);
		const answered = received.filter(
			(details, i) =>
				details.status === "answered" &&
				details.answeredBy === "the browser" &&
				details.answers["db"]?.selections[0]?.label === given[i]?.db &&
				details.answers["why"]?.selections[0]?.label === given[i]?.why,
		).length;
		return {
			forms,
			slowloris: SLOW,
			slowOpened,
			fuzzed: sent,
			statuses,
			answered,
			of: forms,
			userRequests: user.requests,
			userRetries: user.retries,
			userMaxMs: user.maxMs,
			fds: [before.fds, after.fds],
			leftRunning: (await rpc.close(), await leftRunning(env)),
		};
	} finally {
		await rpc.close();
		env.cleanup();
	}
}

const urls = (probe: ProbeLog) =>
	probe.read().flatMap((line) => (line.kind === "waiting" && line.url !== undefined ? [line.url] : []));

/** Fuzzed requests done so far, answered or not. */
const done = (statuses: Record<string, number>) => Object.values(statuses).reduce((a, b) => a + b, 0);

function expectOk(response: Response): Response {
	if (!response.ok) throw new Error(`${response.url}: ${response.status}`);
	return response;
}

/** One of the user's requests, sent again (up to 5 times) when it fails, as a person reloads or presses Submit again. */
async function userRequest(
	user: { requests: number; retries: number; maxMs: number },
	request: () => Promise<Response>,
): Promise<Response> {
	for (let attempt = 1; ; attempt++) {
		const started = Date.now();
		user.requests++;
		try {
			const response = await request();
			user.maxMs = Math.max(user.maxMs, Date.now() - started);
			return response;
		} catch (error) {
			user.maxMs = Math.max(user.maxMs, Date.now() - started);
			if (attempt === 5) throw error;
			user.retries++;
		}
	}
}
