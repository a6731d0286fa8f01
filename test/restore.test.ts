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
import { restoredState, savedAnswers } from "../src/machine/saved.ts";
import { initialState, update } from "../src/machine/update.ts";
import { keepForms, keptDir, LATE_ANSWER } from "../src/kept/restore.ts";
import { prepareForm } from "../src/tool/call.ts";
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

function setUp(kept: Array<Partial<KeptForm> & { id: string }>, answer: Collected["status"] = "answered") {
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
		ui: { notify: (text: string) => warnings.push(text) },
	};
	const restore = keepForms(
		pi,
		async (_session, _form, options) => {
			asked.push({ options });
			return { ...collect(CHOSE_SQLITE, answer) };
		},
		async () => ENGLISH,
	);
	const start = async () => {
		await restore.sessionStarted(ctx as unknown as ExtensionContext);
		await new Promise((resolve) => setTimeout(resolve, 400));
	};
	return { dir, sent, warnings, asked, start, entries };
}

describe("a session start", () => {
	it("shows the session's last ask, left open, with its answers, and sends its answer to the model as a message that starts a turn", async () => {
		const { dir, sent, asked, start } = setUp([
			{ id: "call_1", savedAt: 10 },
			{ id: "call_2", savedAt: 20, status: "timed_out" },
			{ id: "call_3", savedAt: 5, status: "aborted" },
		]);
		await start();
		expect(asked).toHaveLength(1);
		expect(asked[0]?.options.keep?.restored?.notice.key).toBe("form.restored");
		expect(asked[0]?.options.timeoutMs).toBe(0);
		expect(sent).toHaveLength(1);
		expect(sent[0]?.message.customType).toBe(LATE_ANSWER);
		expect(sent[0]?.message.content).toMatch(/^Late answer to ask_user call "call_3": the call had ended \(aborted\)/);
		expect(sent[0]?.message.content).toContain('db: "SQLite"');
		expect(sent[0]?.options).toEqual({ triggerTurn: true, deliverAs: "followUp" });
		// Answered: its file is gone; the others stay for /ask-user.
		expect(readdirSync(dir).sort()).toEqual(["call_1.json", "call_2.json"]);
	});

	it("does not show a form the conversation has moved on from", async () => {
		const { asked, start, entries } = setUp([{ id: "call_3" }]);
		entries.push({ type: "message", message: { role: "user", content: [] } });
		await start();
		expect(asked).toHaveLength(0);
	});

	it("keeps a form whose call is on another branch of the session (/tree), without showing it", async () => {
		const { dir, asked, warnings, start, entries } = setUp([{ id: "call_9" }]);
		entries.push({
			type: "message",
			message: { role: "assistant", content: [{ type: "toolCall", id: "call_9", name: "ask_user", arguments: ARGS }] },
		});
		branch.push(1);
		await start();
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
		await start();
		expect(asked).toHaveLength(0);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain("call_1: its questions are not in this session as they were");
		expect(warnings[0]).toContain("call_9: its questions are not in this session as they were");
		expect(warnings[0]).toContain("call_2: its answers do not fit its questions");
		expect(readdirSync(dir)).toEqual([]);
	});

	it("leaves a form that a running pi process holds to it; a form dismissed again is kept with that ending", async () => {
		const held = setUp([{ id: "call_3", pid: process.ppid }]);
		await held.start();
		expect(held.asked).toHaveLength(0);
		rmSync(root, { recursive: true, force: true });

		const again = setUp([{ id: "call_3" }], "dismissed");
		await again.start();
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
		expect(readdirSync(keptDir(join(root, "s.jsonl")))).toEqual([]);
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
