/**
 * Never missing a waiting question, in the real pi's TUI: what reaches the
 * terminal (tmux's raw output: the bell, a desktop notification, the title,
 * and nothing injected by the model), the events a second extension hears,
 * and a form answered from elsewhere by that extension.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	ASK,
	askScript,
	onlyAskResult,
	submitFirstOptions,
	TWO_QUESTIONS,
	submitTwoQuestions,
} from "../support/ask-fixtures.ts";
import { QUOTE_PREFIX } from "../support/model-script.ts";
import { ASK_USER_EXTENSION, createPiEnv, REPO_ROOT } from "../support/pi-env.ts";
import { startedPerTest, until } from "../support/harness.ts";
import { TmuxPi } from "../support/tmux.ts";

const EVENT_RECORDER = join(REPO_ROOT, "test", "support", "event-recorder.ts");

const started = startedPerTest();

const ESC = "\x1b";
const BEL = "\x07";

/** Starts pi with ask_user and the event recorder, its raw output recorded; says ASK; waits for the form. */
async function openRecorded(args: unknown, env: Record<string, string> = {}) {
	const events = "events.jsonl";
	const env_ = (started.piEnv = createPiEnv({
		script: askScript(args),
		extensions: [ASK_USER_EXTENSION, EVENT_RECORDER],
		env,
	}));
	env_.env["PI_ASK_EVENTS_LOG"] = join(env_.root, events);
	writeFileSync(env_.env["PI_ASK_EVENTS_LOG"], "");
	const output = join(env_.root, "output.raw");
	writeFileSync(output, "");
	const tui = (started.tui = await TmuxPi.start(env_, { cols: 100, rows: 40 }));
	await tui.recordOutput(output);
	await tui.waitForReady();
	const beforeAsk = readFileSync(output, "latin1").length;
	await tui.type(ASK);
	await tui.send("Enter");
	await tui.waitFor("Which database");
	return {
		screen: tui,
		env: env_,
		/** Everything pi wrote since ASK was sent, as bytes (latin1, so one char is one byte). */
		written: () => readFileSync(output, "latin1").slice(beforeAsk),
		events: () =>
			readFileSync(join(env_.root, events), "utf8")
				.split("\n")
				.filter((line) => line !== "")
				.map((line) => JSON.parse(line) as Record<string, unknown>),
	};
}

const count = (text: string, what: string) => text.split(what).length - 1;
/** `text` as the bytes the terminal gets (UTF-8), in the recording's latin1 reading. */
const bytes = (text: string) => Buffer.from(text, "utf8").toString("latin1");

describe("attention when a form starts waiting", () => {
	it("by default one bell; the title says a question waits, and pi's title comes back when the form closes", async () => {
		const { screen, written } = await openRecorded(TWO_QUESTIONS);
		await until(() => written().includes(bytes("❓")), "the waiting title");
		const open = written();
		// pi's own output has no bell: the one BEL outside OSC sequences is ours.
		expect(count(open.replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, ""), BEL)).toBe(1);
		expect(open).toContain(`${ESC}]0;${bytes("❓ 2 questions · π - work")}${BEL}`);

		await submitFirstOptions(screen);
		const closed = written();
		expect(closed.lastIndexOf(`${ESC}]0;${bytes("π - work")}${BEL}`)).toBeGreaterThan(closed.lastIndexOf(bytes("❓")));
	});

	it("desktop notifications in WezTerm: OSC 777 with the question count and the call's reason; a question full of escapes injects nothing", async () => {
		// One-line fields refuse control characters outright; the multi-line ones take them, to be sanitised.
		const injected = `${ESC}]0;pwned${BEL} and ${"\x9c"} and ${ESC}\\ and ${ESC}P1$r${ESC}\\`;
		const hostile = {
			questions: [
				{
					id: "db",
					header: "Database",
					question: "Which database should the service use?",
					context: `Context ${injected}`,
					options: [{ label: "Postgres", description: `Description ${injected}` }, { label: "SQLite" }],
				},
			],
			reason: "The schema; the migration",
		};
		const { written } = await openRecorded(hostile, { TERM_PROGRAM: "WezTerm", PI_ASK_USER_ATTENTION: "desktop" });
		await until(() => written().includes("]777;"), "the notification");
		const out = written();
		// The call's reason rides along, its ';' (OSC 777's separator) made a ','.
		expect(out).toContain(bytes(`${ESC}]777;notify;pi;1 question waiting · The schema, the migration${BEL}${BEL}`));
		expect(out).toContain("Context");
		expect(out).not.toContain("pwned");
		expect(out).not.toContain(bytes("\x9c"));
		expect(out).not.toContain(`${ESC}P`);
	});
});

describe("events for other extensions, and answers from elsewhere", () => {
	it("a listener hears waiting → progress → closed, in order, with one id and the answers", async () => {
		const { screen, events } = await openRecorded(TWO_QUESTIONS);
		await submitTwoQuestions(screen);

		const heard = events();
		const kinds = heard.map((e) => e["event"]);
		expect(kinds[0]).toBe("ask_user:waiting");
		expect(kinds.at(-1)).toBe("ask_user:closed");
		expect(kinds.slice(1, -1).every((k) => k === "ask_user:progress")).toBe(true);
		expect(heard.map((e) => (e["progress"] as { phase?: string } | undefined)?.phase).filter(Boolean)).toEqual([
			"opened",
			"answered",
			"answered",
			"review",
			"submitted",
		]);
		expect(new Set(heard.map((e) => e["id"])).size).toBe(1);
		expect(heard[0]?.["answerable"]).toBe(true);
		const closed = heard.at(-1)?.["details"] as {
			status: string;
			answers: Record<string, { selections: Array<{ value: string }> }>;
		};
		expect(closed.status).toBe("answered");
		expect(closed.answers["cli"]?.selections[0]?.value).toBe("launch-cli");
	});

	it("an extension answers the open form: an invalid answer is refused and the form stays; a valid one closes it, and the model is told who answered", async () => {
		const attempts = [
			{ answers: { db: { kind: "single", selections: [{ value: "Oracle", label: "Oracle" }] } } },
			{
				answers: {
					db: { kind: "single", selections: [{ value: "SQLite", label: "SQLite" }] },
					cli: { kind: "single", selections: [{ value: "ship", label: "ship" }] },
				},
			},
		];
		const { screen, events, env } = await openRecorded(TWO_QUESTIONS, {
			PI_ASK_EVENTS_ANSWER: JSON.stringify({ source: "phone bridge", attempts }),
		});
		await until(() => events().some((e) => e["event"] === "answer" && e["attempt"] === 0), "the first answer");
		const refused = events().find((e) => e["event"] === "answer" && e["attempt"] === 0)?.["outcome"] as {
			ok: boolean;
			error?: string;
		};
		expect(refused.ok).toBe(false);
		expect(refused.error).toContain("answers.db");

		await screen.waitFor("Answered elsewhere, through phone bridge");
		await screen.waitFor(QUOTE_PREFIX);
		// The refused answer left the form open: it closed only with the second (the log is in the order things happened).
		const order = events().map((e) => (e["event"] === "answer" ? `answer ${String(e["attempt"])}` : e["event"]));
		expect(order.indexOf("ask_user:closed")).toBeGreaterThan(order.indexOf("answer 0"));
		const seen = onlyAskResult(env);
		expect(seen.details).toMatchObject({ status: "answered", answeredBy: "phone bridge" });
		expect(seen.text).toMatch(/^Answered through "phone bridge", not at the terminal: user submitted the form/);
		expect(seen.details.answers["db"]?.selections[0]?.value).toBe("SQLite");
	});
});
