/**
 * An RPC client that behaves like an ACP adapter (pi-acp in Zed): it shows a
 * `select` as a permission prompt and answers with a row's text, cancels every
 * `editor` and `input` at once (it shows no text dialogs), and ignores
 * `notify`. The walker must learn that, stop offering text rows, and still
 * reach Submit — never ask the same question in a loop.
 */

import { describe, expect, it } from "vitest";
import { ROW } from "../support/walker-rows.ts";
import { ASK, askScript, onlyAskResult } from "../support/ask-fixtures.ts";
import { createPiEnv } from "../support/pi-env.ts";
import { type DialogAnswer, type DialogRequest, RpcPi } from "../support/rpc-client.ts";
import { startedPerTest } from "../support/harness.ts";

const started = startedPerTest();

const THREE_QUESTIONS = {
	questions: [
		{
			id: "db",
			header: "Database",
			question: "Which database should the service use?",
			options: [{ label: "Postgres" }, { label: "SQLite" }],
		},
		{
			id: "features",
			header: "Features",
			question: "Which features ship first?",
			options: [{ label: "Auth" }, { label: "Billing" }, { label: "Search" }],
			multiSelect: true,
		},
		{
			id: "name",
			header: "Name",
			question: "What should the command be called?",
			options: [{ label: "ship" }, { label: "launch" }],
		},
	],
};

/**
 * The adapter, with a person behind it who picks, per question (by the
 * title's first line), these rows in turn; any text dialog is cancelled at once.
 */
function acpLikeClient(picks: Record<string, string[]>): (request: DialogRequest) => DialogAnswer {
	const asked = new Map<string, number>();
	return (request) => {
		if (request.method !== "select") return { cancelled: true };
		const question = request.title.split("\n")[0] ?? "";
		const turn = asked.get(question) ?? 0;
		asked.set(question, turn + 1);
		const wanted = (picks[question] ?? [ROW.submit])[turn];
		const row = request.options.find(
			(option) => option === wanted || (wanted !== undefined && option.startsWith(wanted)),
		);
		return row === undefined ? { cancelled: true } : { value: row };
	};
}

const hasTextRows = (options: string[]) =>
	options.some((o) => o.startsWith(ROW.freeText) || o === ROW.note || o === ROW.editNote);

type Select = Extract<DialogRequest, { method: "select" }>;

/** pi over RPC with `env`, asked THREE_QUESTIONS through the ACP-like client: the model's result and the dialogs. */
async function askThroughAcp(env: Record<string, string>, picks: Record<string, string[]>) {
	const pi = (started.piEnv = createPiEnv({ script: askScript(THREE_QUESTIONS), env }));
	const client = (started.rpc = RpcPi.start(pi, acpLikeClient(picks)));
	await client.prompt(ASK);
	const selects = client.dialogs.filter((d): d is Select => d.method === "select");
	return { seen: onlyAskResult(pi), dialogs: client.dialogs, selects };
}

describe("an ACP-like host", () => {
	it("cancelled text dialogs teach the walker to offer choices only; it reaches Submit, and no question is asked more than twice", async () => {
		const env = (started.piEnv = createPiEnv({ script: askScript(THREE_QUESTIONS) }));
		const client = (started.rpc = RpcPi.start(
			env,
			acpLikeClient({
				"Which database should the service use?": [ROW.freeText, "SQLite"],
				"Which features ship first?": ["Auth", ROW.done],
				"What should the command be called?": [ROW.freeText, "launch"],
				"Review your answers": [ROW.submit],
			}),
		));
		await client.prompt(ASK);

		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.answers["db"]?.selections[0]?.label).toBe("SQLite");
		expect(seen.details.answers["features"]?.selections.map((s) => s.label)).toEqual(["Auth"]);
		expect(seen.details.answers["name"]?.selections[0]?.label).toBe("launch");

		const selects = client.dialogs.filter(
			(d): d is Extract<DialogRequest, { method: "select" }> => d.method === "select",
		);
		const perQuestion = new Map<string, number>();
		for (const select of selects)
			perQuestion.set(select.title.split("\n")[0] ?? "", (perQuestion.get(select.title.split("\n")[0] ?? "") ?? 0) + 1);
		expect(Math.max(...perQuestion.values())).toBeLessThanOrEqual(2);
		// After the second cancelled editor: no text rows, and the title says why, once.
		const afterLearning = selects.slice(selects.findIndex((s) => s.title.includes("shows no text boxes")));
		expect(afterLearning.length).toBeGreaterThan(0);
		expect(afterLearning.some((s) => hasTextRows(s.options))).toBe(false);
		expect(client.dialogs.filter((d) => d.method === "editor")).toHaveLength(2);
	});

	it("choice-only from the start (PI_ASK_USER_CHOICE_ONLY=1): no text row is ever offered, and no editor opened", async () => {
		const { seen, dialogs, selects } = await askThroughAcp(
			{ PI_ASK_USER_CHOICE_ONLY: "1" },
			{
				"Which database should the service use?": ["Postgres"],
				"Which features ship first?": ["Search", ROW.done],
				"What should the command be called?": ["ship"],
				"Review your answers": [ROW.submit],
			},
		);
		expect(seen.details.status).toBe("answered");
		expect(selects.length).toBe(5);
		expect(selects.some((s) => hasTextRows(s.options))).toBe(false);
		expect(dialogs.some((d) => d.method === "editor" || d.method === "input")).toBe(false);
	});

	it("told it is no such host (PI_ASK_USER_CHOICE_ONLY=0), the walker learns nothing from cancelled editors", async () => {
		const { seen, dialogs, selects } = await askThroughAcp(
			{ PI_ASK_USER_CHOICE_ONLY: "0" },
			{
				"Which database should the service use?": [ROW.freeText, ROW.freeText, "SQLite"],
				"Which features ship first?": ["Auth", ROW.done],
				"What should the command be called?": ["ship"],
				"Review your answers": [ROW.submit],
			},
		);
		expect(seen.details.status).toBe("answered");
		expect(dialogs.filter((d) => d.method === "editor")).toHaveLength(2);
		const questions = selects.filter((s) => !s.title.startsWith("Review your answers"));
		expect(questions.length).toBeGreaterThanOrEqual(5);
		expect(questions.every((s) => hasTextRows(s.options))).toBe(true);
		expect(selects.some((s) => s.title.includes("shows no text boxes"))).toBe(false);
	});
});
