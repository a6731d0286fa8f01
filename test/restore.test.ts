/**
 * What brings a kept form back (src/kept/restore.ts), over a small stand-in for
 * pi's extension API: which form a session start shows, what it drops with a
 * warning, and what reaches the model. The real pi runs it in
 * test/e2e/restore.test.ts.
 */

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ENGLISH } from "../src/i18n/texts.ts";
import { fingerprint, KEPT_VERSION, type KeptForm } from "../src/kept/store.ts";
import { collect } from "../src/machine/collect.ts";
import { answeredState, restoredState, savedAnswers } from "../src/machine/saved.ts";
import { initialState, update } from "../src/machine/update.ts";
import { keepForms, keptDir, LATE_ANSWER } from "../src/kept/restore.ts";
import { prepareForm } from "../src/tool/call.ts";
import { formatResultText } from "../src/tool/result.ts";
import type { AskOptions, Collected } from "../src/core/types.ts";

const ARGS = {
	questions: [
		{
			id: "db",
			header: "Database",
			question: "Which database?",
			options: [{ label: "Postgres" }, { label: "SQLite" }],
		},
	],
};
const FORM = prepareForm(ARGS).form;
const CHOSE_SQLITE = update(initialState(FORM, { numberKeys: "choose" }), { type: "number", row: 1 });

let root = "";
/** When set, the current branch is the session's first `branch[0]` entries. */
const branch: number[] = [];
afterEach(() => {
	rmSync(root, { recursive: true, force: true });
	branch.length = 0;
});

function setUp(
	kept: Array<Partial<KeptForm> & { id: string }>,
	answer: Collected["status"] = "answered",
	reply: (options: AskOptions) => Collected = () => collect(CHOSE_SQLITE, answer),
	pick: (labels: string[]) => string | undefined = (labels) => labels[0],
) {
	root = mkdtempSync(join(tmpdir(), "restore-"));
	const sessionFile = join(root, "s.jsonl");
	const dir = keptDir(sessionFile);
	const base = {
		version: KEPT_VERSION,
		pid: 999_999_999,
		status: "open",
		savedAt: 1,
		fingerprint: fingerprint(FORM),
		answers: savedAnswers(CHOSE_SQLITE, undefined),
	};
	// Named by the call id alone, without an entry, as files were before entries were kept: still read.
	for (const form of kept) {
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, `${form.id}.json`), JSON.stringify({ ...base, ...form }));
	}
	const sent: Array<{ message: { content: string; customType: string }; options: unknown }> = [];
	const warnings: string[] = [];
	const lists: Array<{ title: string; labels: string[] }> = [];
	const asked: Array<{ options: AskOptions }> = [];
	const pi = {
		sendMessage: (message: { content: string; customType: string }, options: unknown) =>
			sent.push({ message, options }),
	} as unknown as ExtensionAPI;
	const entries: unknown[] = [
		{
			type: "message",
			id: "e1",
			message: {
				role: "assistant",
				content: ["call_1", "call_2", "call_3"].map((id) => ({
					type: "toolCall",
					id,
					name: "ask_user",
					arguments: ARGS,
				})),
			},
		},
	];
	const ctx = {
		hasUI: true,
		sessionManager: {
			getSessionFile: () => sessionFile,
			getEntries: () => entries,
			getBranch: () => (branch.length ? entries.slice(0, branch[0]) : entries),
		},
		ui: {
			notify: (text: string) => warnings.push(text),
			select: async (title: string, labels: string[]) => (lists.push({ title, labels }), pick(labels)),
		},
	};
	const restore = keepForms(
		pi,
		async (_session, _form, options) => {
			asked.push({ options });
			return reply(options);
		},
		async () => ENGLISH,
	);
	/**
	 * A session start; true when it brings a form back: the form is shown on a timer (pi draws its screen first), the
	 * only one a start sets, run here at once. What the form then does is waited for by each test.
	 */
	const start = async (): Promise<boolean> => {
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
		try {
			await restore.sessionStarted(ctx as unknown as ExtensionContext);
			const restoring = vi.getTimerCount() > 0;
			await vi.runOnlyPendingTimersAsync();
			return restoring;
		} finally {
			vi.useRealTimers();
		}
	};
	const command = () => restore.command("", ctx as unknown as ExtensionContext);
	return { dir, sent, warnings, asked, lists, start, command, entries };
}

/** How long a test waits for what a restored form does, at most: generous, the machine may be busy. */
const WAIT = { timeout: 10_000 };
/** The status a kept form's file holds now. */
const statusOf = (dir: string, id: string) =>
	(JSON.parse(readFileSync(join(dir, `${id}.json`), "utf8")) as KeptForm).status;

describe("a session start", () => {
	it("shows the session's last ask, left open, with its answers, and sends its answer to the model as a message that starts a turn", async () => {
		const { dir, sent, asked, start } = setUp([
			{ id: "call_1", savedAt: 10 },
			{ id: "call_2", savedAt: 20, status: "timed_out" },
			{ id: "call_3", savedAt: 5, status: "aborted" },
		]);
		expect(await start()).toBe(true);
		// The last step: the answer, sent, is kept as answered.
		await vi.waitFor(() => expect(statusOf(dir, "call_3")).toBe("answered"), WAIT);
		expect(asked).toHaveLength(1);
		expect(asked[0]?.options.keep?.restored?.notice.key).toBe("form.restored");
		expect(asked[0]?.options.timeoutMs).toBe(0);
		expect(sent).toHaveLength(1);
		expect(sent[0]?.message.customType).toBe(LATE_ANSWER);
		expect(sent[0]?.message.content).toMatch(/^Late answer to ask_user call "call_3": the call had ended \(aborted\)/);
		expect(sent[0]?.message.content).toContain('db: "SQLite"');
		expect(sent[0]?.options).toEqual({ triggerTurn: true, deliverAs: "followUp" });
		// Answered: kept as answered, for a revision; the others stay for /ask-user.
		expect(readdirSync(dir).sort()).toEqual(["call_1.json", "call_2.json", "call_3.json"]);
		expect(JSON.parse(readFileSync(join(dir, "call_3.json"), "utf8")).status).toBe("answered");
	});

	it("does not show a form the conversation has moved on from", async () => {
		const { asked, start, entries } = setUp([{ id: "call_3" }]);
		entries.push({ type: "message", message: { role: "user", content: [] } });
		expect(await start()).toBe(false);
		expect(asked).toHaveLength(0);
	});

	it("keeps a form whose call is on another branch of the session (/tree), without showing it", async () => {
		const { dir, asked, warnings, start, entries } = setUp([{ id: "call_9" }]);
		entries.push({
			type: "message",
			message: { role: "assistant", content: [{ type: "toolCall", id: "call_9", name: "ask_user", arguments: ARGS }] },
		});
		branch.push(1);
		expect(await start()).toBe(false);
		expect(asked).toHaveLength(0);
		expect(warnings).toEqual([]);
		expect(readdirSync(dir)).toEqual(["call_9.json"]);
	});

	it("drops, with one warning, a form whose questions are not in the session as they were, or whose answers do not fit them", async () => {
		const { dir, asked, warnings, start } = setUp([
			{ id: "call_1", fingerprint: "another form" },
			{ id: "call_9" },
			{ id: "call_2", answers: { tab: 9 } },
		]);
		expect(await start()).toBe(false);
		expect(asked).toHaveLength(0);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain("call_1: its questions are not in this session as they were");
		expect(warnings[0]).toContain("call_9: its questions are not in this session as they were");
		expect(warnings[0]).toContain("call_2: its answers do not fit its questions (questions is missing)");
		expect(readdirSync(dir)).toEqual([]);
	});

	it("leaves a form that a running pi process holds to it; a form dismissed again is kept with that ending", async () => {
		const held = setUp([{ id: "call_3", pid: process.ppid }]);
		expect(await held.start()).toBe(false);
		expect(held.asked).toHaveLength(0);
		rmSync(root, { recursive: true, force: true });

		const again = setUp([{ id: "call_3" }], "dismissed");
		expect(await again.start()).toBe(true);
		await vi.waitFor(() => expect(statusOf(again.dir, "call_3")).toBe("dismissed"), WAIT);
		expect(again.asked).toHaveLength(1);
		expect(again.sent).toHaveLength(0);
		expect(readdirSync(again.dir)).toEqual(["call_3.json"]);
		expect(JSON.parse(readFileSync(join(again.dir, "call_3.json"), "utf8")).status).toBe("dismissed");
	});
});

describe("one call id in two turns (a provider that reuses ids)", () => {
	it("each form is kept under its own session entry and comes back with its own answers: the last at a session start, the other by /ask-user", async () => {
		root = mkdtempSync(join(tmpdir(), "restore-"));
		const other = {
			questions: [
				{
					id: "cache",
					header: "Cache",
					question: "Which cache?",
					options: [{ label: "Redis" }, { label: "Memcached" }],
				},
			],
		};
		const entries: unknown[] = [];
		const turn = (id: string, args: unknown) =>
			entries.push(
				{ type: "message", id: `u${id}`, message: { role: "user", content: [] } },
				{
					type: "message",
					id,
					message: {
						role: "assistant",
						content: [{ type: "toolCall", id: "same", name: "ask_user", arguments: args }],
					},
				},
			);
		const asked: AskOptions[] = [];
		const sent: string[] = [];
		const ctx = {
			hasUI: true,
			sessionManager: {
				getSessionFile: () => join(root, "s.jsonl"),
				getEntries: () => entries,
				getBranch: () => entries,
			},
			ui: {
				notify: () => {},
				select: async (_title: string, labels: string[]) => labels.find((label) => label.includes("Database")),
			},
		} as unknown as ExtensionContext;
		const restore = keepForms(
			{ sendMessage: (message: { content: string }) => sent.push(message.content) } as unknown as ExtensionAPI,
			async (_session, form, options) => {
				asked.push(options);
				return collect(restoredState(form, options.keep?.restored?.answers) ?? initialState(form), "answered");
			},
			async () => ENGLISH,
		);
		const left = async (id: string, args: typeof ARGS, status: "dismissed" | "aborted") => {
			const form = prepareForm(args).form;
			// Asked before its message is in the session (pi 0.73 may append it after the call started): the entry is found at the first write.
			const keeper = await restore.keeper(ctx, "same", form);
			turn(id, args);
			keeper?.changed(() =>
				savedAnswers(update(initialState(form, { numberKeys: "choose" }), { type: "number", row: 1 }), undefined),
			);
			keeper?.end(status);
		};
		await left("a1", ARGS, "dismissed");
		await left("a2", other, "aborted");
		expect(readdirSync(keptDir(join(root, "s.jsonl"))).sort()).toEqual(["same@a1.json", "same@a2.json"]);

		await restore.sessionStarted(ctx);
		await vi.waitFor(() => expect(sent).toHaveLength(1));
		expect(asked).toHaveLength(1);
		expect(sent[0]).toContain('cache: "Memcached"');
		await restore.command("", ctx);
		expect(asked).toHaveLength(2);
		expect(asked[1]?.keep?.restored?.notice.key).toBe("form.reopened");
		expect(sent[1]).toContain('db: "SQLite"');
		const files = readdirSync(keptDir(join(root, "s.jsonl"))).sort();
		expect(files).toEqual(["same@a1.json", "same@a2.json"]);
		for (const file of files)
			expect(JSON.parse(readFileSync(join(keptDir(join(root, "s.jsonl")), file), "utf8")).status).toBe("answered");
	});
});

describe("a form whose state cannot be saved (a read-only folder, a full disk)", () => {
	it("says so once, naming the file and why, however many saves fail; the form goes on", async () => {
		const { dir, warnings, entries } = setUp([]);
		// Something that is no folder where the folder goes: every save fails, as on a read-only or full disk.
		writeFileSync(dir, "not a folder");
		const ctx = {
			hasUI: true,
			sessionManager: { getSessionFile: () => dir.replace(/\.ask-user$/, ""), getEntries: () => entries },
			ui: { notify: (text: string) => warnings.push(text) },
		} as unknown as ExtensionContext;
		const keeper = await keepForms(
			{} as ExtensionAPI,
			async () => collect(CHOSE_SQLITE, "answered"),
			async () => ENGLISH,
		).keeper(ctx, "call_1", FORM);
		for (let i = 0; i < 3; i++) {
			keeper?.changed(() => savedAnswers(CHOSE_SQLITE, undefined));
			keeper?.flush();
		}
		await vi.waitFor(() => expect(warnings).toHaveLength(1));
		expect(warnings[0]).toContain(join(dir, "call_1@e1.json"));
		expect(warnings[0]).toMatch(/\((EEXIST|ENOTDIR)\)/);
		expect(warnings[0]).toContain("it goes on");
		keeper?.end("answered");
		expect(readFileSync(dir, "utf8")).toBe("not a folder");
	});
});

const CHOSE_POSTGRES = collect(
	update(initialState(FORM, { numberKeys: "choose" }), { type: "number", row: 0 }),
	"answered",
);
const answered = (id: string, savedAt: number) => ({
	id,
	savedAt,
	status: "answered" as const,
	answers: answeredState(FORM, collect(CHOSE_SQLITE, "answered")),
});

describe("/ask-user and answered forms (a revision)", () => {
	it("lists the forms without an answer first, newest first, then the answered ones, newest first, each with when it was answered", async () => {
		const at = new Date(2026, 11, 3, 9, 5).getTime();
		const { command, lists } = setUp(
			[answered("call_1", at), { id: "call_2", savedAt: 10, status: "dismissed" }, answered("call_3", at + 60_000)],
			"answered",
			undefined,
			() => undefined,
		);
		await command();
		expect(lists[0]?.title).toBe("Forms of this session — Enter reopens");
		expect(lists[0]?.labels).toEqual([
			"1. Database — dismissed",
			"2. Database — answered 2026-12-03 09:06",
			"3. Database — answered 2026-12-03 09:05",
		]);
	});

	it("Enter reopens one as submitted; submitted with a change, the model gets one message: the call, what changed, the answers; steered into a run", async () => {
		const { command, asked, sent, dir } = setUp([answered("call_3", 5)], "answered", (options) => {
			const state = restoredState(FORM, options.keep?.restored?.answers);
			expect(state && collect(state, "answered")).toEqual(collect(CHOSE_SQLITE, "answered"));
			return CHOSE_POSTGRES;
		});
		await command();
		expect(asked[0]?.options.keep?.restored?.notice.key).toBe("form.revising");
		expect(sent).toHaveLength(1);
		expect(sent[0]?.options).toEqual({ triggerTurn: true, deliverAs: "steer" });
		const lines = sent[0]?.message.content.split("\n") ?? [];
		expect(lines[0]).toMatch(/^Revised answer to ask_user call "call_3": the user changed their answers/);
		expect(lines.slice(1, 3)).toEqual(["What changed (before → now):", 'db: "SQLite" → "Postgres"']);
		expect(lines.slice(3)).toEqual([
			"The answers as they now stand:",
			...formatResultText(FORM, CHOSE_POSTGRES).split("\n"),
		]);
		// Kept as revised: a new submit time, the new answers.
		const kept = JSON.parse(readFileSync(join(dir, "call_3.json"), "utf8")) as KeptForm;
		expect(kept.status).toBe("answered");
		expect(kept.savedAt).toBeGreaterThan(5);
		expect(collect(restoredState(FORM, kept.answers) ?? CHOSE_SQLITE, "answered")).toEqual(CHOSE_POSTGRES);
	});

	it("dismissed, or submitted with nothing changed: nothing is sent and the kept form stays as it was", async () => {
		for (const [status, reply] of [
			["dismissed", () => collect(CHOSE_SQLITE, "dismissed")],
			["answered", () => collect(CHOSE_SQLITE, "answered")],
		] as const) {
			const { command, sent, dir, warnings } = setUp([answered("call_3", 5)], status, reply);
			const before = readFileSync(join(dir, "call_3.json"), "utf8");
			await command();
			expect(sent).toHaveLength(0);
			expect(readFileSync(join(dir, "call_3.json"), "utf8")).toBe(before);
			expect(warnings).toEqual(status === "answered" ? ["Nothing changed, so the model was not told again"] : []);
			rmSync(root, { recursive: true, force: true });
		}
	});

	it("one whose call is on another branch (/tree) is not listed; one whose questions no longer match its call is refused with one line why", async () => {
		const { command, lists, entries, warnings, asked } = setUp([
			answered("call_9", 5),
			{ ...answered("call_2", 6), fingerprint: "another form" },
		]);
		entries.push({
			type: "message",
			message: { role: "assistant", content: [{ type: "toolCall", id: "call_9", name: "ask_user", arguments: ARGS }] },
		});
		branch.push(1);
		await command();
		expect(lists).toEqual([]);
		expect(asked).toEqual([]);
		expect(warnings).toEqual([
			"ask_user: a saved form was dropped (call_2: it cannot be revised: its questions no longer match its call)",
			"No form of this session is waiting for an answer",
		]);
	});
});
