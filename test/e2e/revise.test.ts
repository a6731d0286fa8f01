/**
 * Revise after submit (src/kept/restore.ts, src/kept/revision.ts) in the real pi
 * TUI with a saved session: a form answered, then `/ask-user` lists it as
 * answered, reopens it as submitted, an answer changed and submitted again —
 * the scripted model receives the revised answer, when pi is idle (a turn of its
 * own) and while a run streams (steering: before the run's next tool call).
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	answerAndKeep,
	expectTheRevision,
	keptStatuses,
	modelCalls,
	REVISED,
	reviseAnswered,
	reviseScript,
	revisions,
	TEXT,
} from "../support/kept-forms.ts";
import { createPiEnv } from "../support/pi-env.ts";
import { startedPerTest, until } from "../support/harness.ts";
import { type DialogRequest, RpcPi } from "../support/rpc-client.ts";
import { ROW } from "../support/walker-rows.ts";

const started = startedPerTest();

describe("revise after submit", () => {
	it("idle: /ask-user lists the answered form with when, reopens it as submitted; a changed answer reaches the model as one message that starts a turn", async () => {
		const env = (started.piEnv = createPiEnv({ script: reviseScript(), sessions: true }));
		const tui = await answerAndKeep(env, started);
		const [first] = env.toolResults("ask_user");
		await reviseAnswered(tui);
		await until(() => revisions(env).length === 1, "the revised answer reaching the model");
		expectTheRevision(revisions(env)[0] ?? "", first?.toolCallId ?? "");
		await tui.waitFor("revision received");
		await until(() => keptStatuses(env).join() === "answered", "the revised form kept as answered");
	});

	it("while a run streams: the revised answer is steered in, and the model receives it before its next tool call", async () => {
		const env = (started.piEnv = createPiEnv({ script: reviseScript(), sessions: true }));
		const tui = await answerAndKeep(env, started);
		const [first] = env.toolResults("ask_user");
		await tui.type("work");
		await tui.send("Enter");
		// The run's tool waits for the file "go": the run streams while the form is revised.
		await until(() => modelCalls(env).some((call) => call.user === "work"), "the run's first model call");
		await reviseAnswered(tui);
		await tui.waitForGone("Review your answers");
		expect(revisions(env)).toEqual([]);
		writeFileSync(join(env.cwd, "go"), "");
		await until(() => revisions(env).length === 1, "the revised answer reaching the model");
		expectTheRevision(revisions(env)[0] ?? "", first?.toolCallId ?? "");
		// The call after the waiting tool's result read the revision; the run's second tool call was never made.
		const after = modelCalls(env).slice(modelCalls(env).findIndex((call) => call.user === "work"));
		expect(after.map((call) => [call.user.slice(0, REVISED.length), call.replyIndex])).toEqual([
			["work", 0],
			[REVISED, 0],
		]);
		expect(env.toolResults("bash").map((result) => result.text.trim())).toEqual(["waited"]);
		await tui.waitFor("revision received");
	});

	it("RPC: the form answered through the walker is kept; /ask-user lists it in a select and reopens it in the walker as submitted; the revision reaches the model", async () => {
		const env = (started.piEnv = createPiEnv({ script: reviseScript(), sessions: true }));
		const seen: DialogRequest[] = [];
		let revising = false;
		const rpc = (started.rpc = RpcPi.start(env, (request) => {
			seen.push(request);
			if (request.method === "editor") return { value: TEXT };
			if (request.method !== "select") return { cancelled: true };
			const pick = (text: string) => ({ value: request.options.find((o) => o.includes(text)) ?? "" });
			if (request.title.includes("Enter reopens")) return ((revising = true), pick("answered"));
			if (request.title.includes("Which database")) return pick(revising ? "Postgres" : "SQLite");
			return pick(ROW.submit);
		}));
		await rpc.prompt("ask");
		const [first] = env.toolResults("ask_user");
		expect(first?.text).toContain('db: "SQLite"');
		await until(() => keptStatuses(env).join() === "answered", "the walker's answer kept as answered");

		const from = seen.length;
		await rpc.request({ type: "prompt", message: "/ask-user" });
		await until(() => revisions(env).length === 1, "the revised answer reaching the model");
		expectTheRevision(revisions(env)[0] ?? "", first?.toolCallId ?? "");
		const dialogs = seen.slice(from);
		const list = dialogs[0];
		expect(list?.method === "select" && list.options).toEqual([
			expect.stringMatching(/^1\. Database · Context — answered \d\d:\d\d$/),
		]);
		// Reopened as submitted: the walker's first title says so, its text question holds the text.
		expect(dialogs[1]?.title).toContain("Revising");
		const editor = dialogs.find((dialog) => dialog.method === "editor");
		expect(editor === undefined || (editor.method === "editor" && editor.prefill === TEXT)).toBe(true);
	});
});
