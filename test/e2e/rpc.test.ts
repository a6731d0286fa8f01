/**
 * ask_user under `pi --mode rpc`: pi's `custom()` shows nothing there, so the
 * tool walks the questions with standard dialogs (`select` per question,
 * `editor` for free text and notes) that any RPC client can answer. Each test
 * answers the dialogs like a client would and asserts on what the model got.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { ROW } from "../support/walker-rows.ts";
import {
	ASK,
	askScript,
	MULTI_SELECT,
	onlyAskResult,
	REQUIRED_THEN_OPTIONAL,
	TWO_QUESTIONS,
	WHAT_NOW,
} from "../support/ask-fixtures.ts";
import { callTool, quoteLastToolResult, scriptOf } from "../support/model-script.ts";
import { ASK_USER_EXTENSION, createPiEnv, type PiEnv, REPO_ROOT } from "../support/pi-env.ts";
import { answerInOrder, choose, type DialogAnswer, type DialogRequest, RpcPi } from "../support/rpc-client.ts";
import { endPiTest } from "../support/harness.ts";

let piEnv: PiEnv | undefined;
let rpc: RpcPi | undefined;

afterEach(async () => {
	const started = { rpc, piEnv };
	rpc = undefined;
	piEnv = undefined;
	await endPiTest(started);
});

function start(
	args: unknown,
	...answers: Parameters<typeof answerInOrder>
): { env: PiEnv; client: RpcPi; unexpected: DialogRequest[] } {
	piEnv = createPiEnv({ script: askScript(args) });
	const handler = answerInOrder(...answers);
	rpc = RpcPi.start(piEnv, handler);
	return { env: piEnv, client: rpc, unexpected: handler.unexpected };
}

/** Types `text` into an editor dialog, failing the test if the dialog is another kind. */
function typeInEditor(text: string): (request: DialogRequest) => DialogAnswer {
	return (request) => {
		if (request.method !== "editor")
			throw new Error(`Expected an editor dialog, got ${request.method}: ${request.title}`);
		return { value: text };
	};
}

describe("ask_user over RPC dialogs", () => {
	it("shows one select per question, then a review; Submit sends both answers", async () => {
		const { env, client, unexpected } = start(TWO_QUESTIONS, choose("Postgres"), choose("launch"), choose(ROW.submit));
		await client.prompt(ASK);

		expect(unexpected).toEqual([]);
		const [first, second] = client.dialogs;
		expect(first?.title).toContain("Which database should the service use?");
		// The recommended option is the first row, and the title says it is recommended.
		expect(first?.method === "select" && first.options[0]).toBe("Postgres");
		expect(first?.title).toContain("• Postgres (recommended) — Already runs in production");
		expect(second?.title).toContain("What should the command be called?");

		const seen = onlyAskResult(env);
		expect(seen.isError).toBe(false);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "Postgres", label: "Postgres" }]);
		expect(seen.details.answers["cli"]?.selections).toEqual([{ value: "launch-cli", label: "launch" }]);
		expect(seen.text).toContain("launch-cli");
	});

	it("offers You decide as a row: chosen, the model is told the question is left to it, with its recommendation", async () => {
		const { env, client, unexpected } = start(TWO_QUESTIONS, choose(ROW.youDecide), choose("ship"), choose(ROW.submit));
		await client.prompt(ASK);

		expect(unexpected).toEqual([]);
		const [first, , review] = client.dialogs;
		expect(first?.method === "select" && first.options).toContain(ROW.youDecide);
		expect(review?.title).toContain("Database: left to the model");
		const seen = onlyAskResult(env);
		expect(seen.details).toMatchObject({ status: "answered", delegated: ["db"] });
		expect(seen.text).toContain('db: left to you — you recommended "Postgres"');
	});

	it("takes a multi-line free answer through the editor dialog, kept exactly as typed", async () => {
		// U+2028 is valid inside a JSON string: a client splitting lines on it (readline) would break here.
		const typed = 'Postgres 16,\n  but "SQLite" in tests 🎉\ttabbed\u2028and separated';
		const { env, client, unexpected } = start(
			TWO_QUESTIONS,
			choose(ROW.freeText),
			typeInEditor(typed),
			choose("ship"),
			choose(ROW.submit),
		);
		await client.prompt(ASK);

		expect(unexpected).toEqual([]);
		expect(client.dialogs.map((d) => d.method)).toEqual(["select", "editor", "select", "select"]);
		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: typed, label: typed, custom: true }]);
		// The model reads the text JSON-quoted on one line: it can get back every character.
		expect(seen.text).toContain(JSON.stringify(typed).replace("\u2028", "\\u2028"));
		const [end] = client.toolEnds("ask_user");
		expect(end?.["result"]).toMatchObject({ details: { answers: { db: { selections: [{ value: typed }] } } } });
	});

	it("goes Back to change an answer and Skips an optional question", async () => {
		const { env, client, unexpected } = start(
			REQUIRED_THEN_OPTIONAL,
			choose("Tabs"),
			choose(ROW.back),
			choose("Spaces"),
			choose(ROW.skip),
			choose(ROW.submit),
		);
		await client.prompt(ASK);

		expect(unexpected).toEqual([]);
		expect(client.dialogs[2]?.title).toContain("Tabs or spaces?");
		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.answers["style"]?.selections).toEqual([{ value: "Spaces", label: "Spaces" }]);
		expect(seen.details.answers["license"]).toBeUndefined();
		expect(seen.details.skipped).toEqual(["license"]);
		expect(seen.text).toMatch(/license: skipped/);
	});

	it("toggles options of a multi-select question and ends with Done", async () => {
		const { env, client, unexpected } = start(MULTI_SELECT, choose("Linux"), choose("Windows"), choose(ROW.done));
		await client.prompt(ASK);

		expect(unexpected).toEqual([]);
		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.answers["targets"]).toMatchObject({
			kind: "multi",
			selections: [
				{ value: "Linux", label: "Linux" },
				{ value: "Windows", label: "Windows" },
			],
		});
	});

	it("records a note on the question written in the editor dialog", async () => {
		const { env, client, unexpected } = start(
			TWO_QUESTIONS,
			choose(ROW.note),
			typeInEditor("Ask ops about backups first"),
			choose("SQLite"),
			choose("ship"),
			choose(ROW.submit),
		);
		await client.prompt(ASK);

		expect(unexpected).toEqual([]);
		const seen = onlyAskResult(env);
		expect(seen.details.notes).toEqual([{ questionId: "db", text: "Ask ops about backups first" }]);
		expect(seen.details.answers["db"]?.note).toBe("Ask ops about backups first");
		expect(seen.text).toContain('note: "Ask ops about backups first"');
	});

	it("a cancelled dialog dismisses the form, keeps the answers given, and ends the turn", async () => {
		const { env, client } = start(TWO_QUESTIONS, choose("SQLite"), { cancelled: true });
		await client.prompt(ASK);

		// terminate: the model is not called again until the user speaks.
		expect(env.log().filter((e) => e.kind === "call")).toHaveLength(1);
		await client.prompt(WHAT_NOW);
		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("dismissed");
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "SQLite", label: "SQLite" }]);
		expect(seen.details.answers["cli"]).toBeUndefined();
		expect(seen.text).toMatch(/do not assume/i);
	});

	it("after a dismissal, the calls batched after ask_user are refused and the run stops there, with no other model call, until the user speaks", async () => {
		piEnv = createPiEnv({
			script: scriptOf(
				{
					user: ASK,
					replies: [
						{
							toolCalls: [
								{ name: "ask_user", arguments: TWO_QUESTIONS },
								{ name: "bash", arguments: { command: "touch batched" } },
							],
						},
						// Were pi to call the model again before the user spoke, this would run.
						callTool("bash", { command: "touch next-turn" }),
						quoteLastToolResult,
					],
				},
				{ user: "go on", replies: [callTool("bash", { command: "touch after-the-user-spoke" }), quoteLastToolResult] },
			),
		});
		const env = piEnv;
		rpc = RpcPi.start(env, answerInOrder({ cancelled: true }));
		await rpc.prompt(ASK);

		// pi 1.x: the refusal terminates too, so every result of the batch does and pi ends the run.
		expect(env.log().filter((e) => e.kind === "call")).toHaveLength(1);
		expect(existsSync(join(env.cwd, "batched"))).toBe(false);
		expect(existsSync(join(env.cwd, "next-turn"))).toBe(false);

		await rpc.prompt("go on");
		const bash = env.toolResults("bash");
		expect(bash.map((r) => r.isError)).toEqual([true, false]);
		expect(bash[0]?.text).toContain("the user dismissed ask_user");
		expect(onlyAskResult(env).details.status).toBe("dismissed");
		expect(existsSync(join(env.cwd, "after-the-user-spoke"))).toBe(true);
	});

	it("an abort while a dialog is open returns aborted with the answers so far", async () => {
		let answerLate: (answer: DialogAnswer) => void = () => {};
		const slowUser = () => new Promise<DialogAnswer>((resolve) => (answerLate = resolve));
		const { env, client } = start(TWO_QUESTIONS, choose("Postgres"), slowUser);
		await client.request({ type: "prompt", message: ASK });
		await client.waitFor(
			(m) => m.type === "extension_ui_request" && String(m["title"]).includes("What should the command"),
		);
		await client.request({ type: "abort" });
		await client.waitFor((m) => m.type === "agent_end");
		// No RPC dialog can be withdrawn: the client is told an answer to the open one will be ignored.
		await client.waitFor((m) => m["method"] === "notify" && String(m["message"]).includes("will be ignored"));
		answerLate({ cancelled: true });

		await client.prompt(WHAT_NOW);
		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("aborted");
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "Postgres", label: "Postgres" }]);
	});

	it("with a time limit, each select carries its timeout; at the limit the model gets timed_out and the client a notice", async () => {
		piEnv = createPiEnv({ script: askScript(TWO_QUESTIONS), env: { PI_ASK_USER_TIMEOUT: "3" } });
		const selects: DialogRequest[] = [];
		const neverAnswers = (request: DialogRequest) => {
			selects.push(request);
			return new Promise<DialogAnswer>(() => {});
		};
		rpc = RpcPi.start(piEnv, answerInOrder(choose("Postgres"), neverAnswers));
		await rpc.prompt(ASK);
		await rpc.waitFor((m) => m["method"] === "notify" && String(m["message"]).includes("will be ignored"));

		const timeout = selects[0]?.method === "select" ? selects[0].timeout : undefined;
		expect(timeout).toBeGreaterThan(1_000);
		expect(timeout).toBeLessThanOrEqual(4_000);
		const seen = onlyAskResult(piEnv);
		expect(seen.details.status).toBe("timed_out");
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "Postgres", label: "Postgres" }]);
	});

	it("an editor answered with a value that is not text is asked again, the text as it was, and the next answer counts", async () => {
		const notText = { value: null } as unknown as DialogAnswer;
		const { env, client, unexpected } = start(
			TWO_QUESTIONS,
			choose(ROW.freeText),
			notText,
			typeInEditor("MySQL"),
			choose("ship"),
			choose(ROW.submit),
		);
		await client.prompt(ASK);

		expect(unexpected).toEqual([]);
		const editors = client.dialogs.filter((request) => request.method === "editor");
		expect(editors.map((request) => request.title.includes("That answer was not text"))).toEqual([false, true]);
		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "MySQL", label: "MySQL", custom: true }]);
	});

	it("a malformed call is an error naming each problem's path and its fix, and shows no dialog", async () => {
		const { env, client } = start({
			questions: [
				{ question: "Which one?", allowOther: false, options: [{ label: "Only choice" }] },
				{ question: "And this?", options: [{ label: "Same" }, { label: "Same" }] },
			],
		});
		await client.prompt(ASK);

		expect(client.dialogs).toEqual([]);
		const seen = onlyAskResult(env);
		expect(seen.isError).toBe(true);
		expect(seen.text).toContain("questions[0].options");
		expect(seen.text).toContain("2-8");
		expect(seen.text).toContain("questions[1].options[1].label");
		expect(seen.text).toMatch(/distinct|unique/i);
	});

	it("a call another extension's tool_call handler changes in place is checked again: one it breaks is an error, and shows no dialog", async () => {
		piEnv = createPiEnv({
			script: askScript(TWO_QUESTIONS),
			extensions: [ASK_USER_EXTENSION, join(REPO_ROOT, "test", "support", "widening-extension.ts")],
		});
		const client = (rpc = RpcPi.start(piEnv, answerInOrder()));
		await client.prompt(ASK);

		expect(client.dialogs).toEqual([]);
		const seen = onlyAskResult(piEnv);
		expect(seen.isError).toBe(true);
		expect(seen.text).toContain("questions[0].options");
	});

	it("arguments that are not an object are an error that shows the expected shape", async () => {
		const { env, client } = start("please ask the user something");
		await client.prompt(ASK);

		expect(client.dialogs).toEqual([]);
		const seen = onlyAskResult(env);
		expect(seen.isError).toBe(true);
		expect(seen.text).toContain('"questions"');
	});
});

describe("the complete form over RPC dialogs", () => {
	it("a text-only question is one editor dialog, and its text is the answer", async () => {
		const { env, client, unexpected } = start(
			{ questions: [{ id: "name", question: "What should the new service be called?" }] },
			typeInEditor("billing-api"),
		);
		await client.prompt(ASK);

		expect(unexpected).toEqual([]);
		expect(client.dialogs.map((d) => d.method)).toEqual(["editor"]);
		expect(client.dialogs[0]?.title).toContain("What should the new service be called?");
		expect(onlyAskResult(env).details.answers["name"]?.selections).toEqual([
			{ value: "billing-api", label: "billing-api", custom: true },
		]);
	});

	it("the review's note on the whole form reaches the model", async () => {
		const { env, client, unexpected } = start(
			TWO_QUESTIONS,
			choose("Postgres"),
			choose("launch"),
			choose(ROW.formNote),
			typeInEditor("and don't touch the schema"),
			choose(ROW.submit),
		);
		await client.prompt(ASK);

		expect(unexpected).toEqual([]);
		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.notes).toEqual([{ text: "and don't touch the schema" }]);
		expect(seen.text).toContain(`Note on the whole form: "and don't touch the schema"`);
	});

	it("options' previews are not in the selects: answered without opening them, the model is told so", async () => {
		const preview = "CREATE TABLE users (id serial primary key);";
		const options = [
			{ label: "Postgres", preview },
			{ label: "SQLite", preview: "-- one file" },
		];
		const { env, client, unexpected } = start(
			{ questions: [{ id: "db", question: "Which database?", options }] },
			choose("Postgres"),
		);
		await client.prompt(ASK);

		expect(unexpected).toEqual([]);
		expect(JSON.stringify(client.dialogs)).not.toContain("CREATE TABLE");
		const seen = onlyAskResult(env);
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "Postgres", label: "Postgres" }]);
		expect(seen.details.previewsUnseen).toEqual(["db"]);
		expect(seen.text).toContain("Previews not shown: the user answered db without seeing the options' previews");
	});

	it("a row shows the previews in an editor dialog; read there, the model is not told they went unseen", async () => {
		const options = [
			{ label: "Postgres", preview: "CREATE TABLE users (id serial primary key);" },
			{ label: "SQLite" },
		];
		const { env, client, unexpected } = start(
			{ questions: [{ id: "db", question: "Which database?", options }] },
			choose(ROW.previews),
			// A person reads them for a while, then closes the editor (at once, it would be a host that shows none).
			async () => (await sleep(400), { cancelled: true }),
			choose("Postgres"),
		);
		await client.prompt(ASK);

		expect(unexpected).toEqual([]);
		expect(client.dialogs.map((d) => d.method)).toEqual(["select", "editor", "select"]);
		const shown = client.dialogs[1];
		expect(shown?.method === "editor" && shown.prefill).toBe(
			"── Postgres ──\nCREATE TABLE users (id serial primary key);",
		);
		const seen = onlyAskResult(env);
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "Postgres", label: "Postgres" }]);
		expect(seen.details).not.toHaveProperty("previewsUnseen");
		expect(seen.text).not.toContain("Previews not shown");
	});

	it("a reply in chat from a question's select ends the walk as chat, with the answers so far", async () => {
		const { env, client, unexpected } = start(
			TWO_QUESTIONS,
			choose("Postgres"),
			choose(ROW.chat),
			typeInEditor("Can we talk first?"),
		);
		await client.prompt(ASK);

		expect(unexpected).toEqual([]);
		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("chat");
		expect(seen.details.chatMessage).toBe("Can we talk first?");
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "Postgres", label: "Postgres" }]);
	});
});

describe("what pi 1.x knows of ask_user", () => {
	it("it is model-only (never callable from a codemode script) and annotated read-only, not destructive, closed world", async () => {
		const env = (piEnv = createPiEnv({
			script: scriptOf({
				user: "what is ask_user?",
				replies: [callTool("tool_info", { name: "ask_user" }), quoteLastToolResult],
			}),
			extensions: [ASK_USER_EXTENSION, join(REPO_ROOT, "test", "support", "tool-info-extension.ts")],
		}));
		rpc = RpcPi.start(env);
		await rpc.prompt("what is ask_user?");
		const [info] = env.toolResults("tool_info");
		expect(JSON.parse(info?.text ?? "null")).toEqual({
			exposure: "model-only",
			annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
		});
	});
});
