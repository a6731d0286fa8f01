/**
 * Files in an answer that crosses to another session: a child of pi's own example runner whose form the user answers
 * in the parent's TUI with a pasted file, and an RPC host that shows the whole form and answers it with a file as
 * data. In each, the asking session's scripted model (one that reads images) must receive the image itself.
 */

import { createHash } from "node:crypto";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ASK, askScript, DB_FORM } from "../support/ask-fixtures.ts";
import { startedPerTest, until } from "../support/harness.ts";
import { QUOTE_PREFIX, SCRIPTED_MODEL, SCRIPTED_VISION_MODEL, scriptOf } from "../support/model-script.ts";
import { createPiEnv, type PiEnv } from "../support/pi-env.ts";
import { createPlainRunnerPiEnv } from "../support/plain-runners.ts";
import { PNG_1X1 } from "../support/images.ts";
import { type DialogHandler, RpcPi } from "../support/rpc-client.ts";
import { CHILD_ARGS, childAsks, createRelayPiEnv, parentDelegates, startTuiWith } from "../support/subagents.ts";

const started = startedPerTest();

const PNG_SHA = createHash("sha256").update(PNG_1X1).digest("hex");
const SEEN_PNG = { mimeType: "image/png", bytes: PNG_1X1.length, sha256: PNG_SHA };

/** The agent whose model reads images. */
const VIEWER = "viewer";
const DELEGATE = "delegate this";
const TASK = "VIEWER TASK: pick a database";

/** pi's example runner with an agent on the scripted model that reads images, and a PNG in the working directory. */
function exampleRunnerEnv(): PiEnv {
	const env = createPlainRunnerPiEnv(
		scriptOf(childAsks(TASK, DB_FORM, "Viewer"), {
			user: DELEGATE,
			replies: [
				{ toolCalls: [{ name: "subagent", arguments: { agent: VIEWER, task: TASK } }] },
				{ text: "Received: {{lastToolResult}}" },
			],
		}),
	);
	const agents = join(env.env["PI_CODING_AGENT_DIR"] as string, "agents");
	writeFileSync(
		join(agents, `${VIEWER}.md`),
		`---\nname: ${VIEWER}\ndescription: Looks at what the user shows\nmodel: ${SCRIPTED_VISION_MODEL}\n---\nDo the task.\n`,
	);
	writeFileSync(join(env.cwd, "my layout.png"), PNG_1X1);
	return env;
}

describe("pi's example runner: a file in the answer the parent's user gives reaches the child", () => {
	it("a path pasted into the free answer in the parent's TUI: the child's model receives the image, with its type", async () => {
		const env = (started.piEnv = exampleRunnerEnv());
		const screen = await startTuiWith(env, DELEGATE, (tui) => {
			started.tui = tui;
		});
		await screen.waitFor("Which database");
		await screen.send("Down", "Down");
		await screen.waitFor(/❯.*Type something/);
		await screen.send("Enter");
		// A terminal pastes a dropped file as its path, quoted where it has a space.
		await screen.paste(`'${join(env.cwd, "my layout.png")}'`);
		await screen.waitFor("📎 my layout.png");
		await screen.type("like this one");
		await screen.send("Enter");
		await screen.waitFor(`${QUOTE_PREFIX} Viewer got:`);

		const [child] = env.toolResults("ask_user");
		expect(child?.images).toEqual([SEEN_PNG]);
		expect(child?.text).toContain('db: wrote "like this one" + 📎 "my layout.png" (image)');
		const saved = /saved at "([^"]+)"/.exec(child?.text ?? "")?.[1] ?? "";
		expect(saved).not.toBe(join(env.cwd, "my layout.png"));
		expect(statSync(saved).mode & 0o777).toBe(0o600);
		expect(child?.details).toMatchObject({
			attachments: [{ name: "my layout.png", sent: "image", mime: "image/png" }],
		});
	});
});

describe("a relay-aware runner (examples/subagent-runner): its RPC child gets the file's bytes too", () => {
	it("a path pasted in the parent's TUI: the child's model receives the image", async () => {
		const childArgs = CHILD_ARGS.map((arg) => (arg === SCRIPTED_MODEL ? SCRIPTED_VISION_MODEL : arg));
		const env = (started.piEnv = createRelayPiEnv(
			scriptOf(childAsks(TASK, DB_FORM, "Viewer"), parentDelegates(DELEGATE, { agent: VIEWER, task: TASK })),
			{ PI_SUBAGENT_ARGS: JSON.stringify(childArgs) },
		));
		writeFileSync(join(env.cwd, "layout.png"), PNG_1X1);
		const screen = await startTuiWith(env, DELEGATE, (tui) => {
			started.tui = tui;
		});
		await screen.waitFor("Which database");
		await screen.send("Down", "Down");
		await screen.waitFor(/❯.*Type something/);
		await screen.send("Enter");
		await screen.paste(join(env.cwd, "layout.png"));
		await screen.waitFor("📎 layout.png");
		await screen.type("this one");
		await screen.send("Enter");
		await screen.waitFor(`${QUOTE_PREFIX} Viewer got:`);
		const [child] = env.toolResults("ask_user");
		expect(child?.images).toEqual([SEEN_PNG]);
		expect(child?.text).toContain('db: wrote "this one" + 📎 layout.png (image)');
	});
});

// ── The whole form over RPC ─────────────────────────────────────────────────

const RELAY_TITLE = "\u0000ask_user/relay/v1";

/** `pi --mode rpc` whose model reads images, its dialogs answered by `answer`; `env`: more of pi's environment. */
function visionRpc(answer: DialogHandler, env: Record<string, string> = {}): { env: PiEnv; client: RpcPi } {
	const piEnv = createPiEnv({ script: askScript(DB_FORM), env });
	writeFileSync(join(piEnv.cwd, "my layout.png"), PNG_1X1);
	const vision = {
		...piEnv,
		command: piEnv.command.map((arg) => (arg === SCRIPTED_MODEL ? SCRIPTED_VISION_MODEL : arg)),
	};
	const client = RpcPi.start(vision, answer);
	started.piEnv = piEnv;
	started.rpc = client;
	return { env: piEnv, client };
}

/** `pi --mode rpc` for a host that shows the whole form (PI_ASK_USER_RELAY=1), answered with `reply`. */
function wholeFormRpc(reply: (request: { rid: string; replyVersion?: number }) => unknown) {
	return visionRpc(
		(request) =>
			request.method === "editor" && request.title === RELAY_TITLE
				? { value: JSON.stringify(reply(JSON.parse(request.prefill ?? "{}"))) }
				: { cancelled: true },
		{ PI_ASK_USER_RELAY: "1" },
	);
}

describe("RPC, pi's dialogs: an editor's answer that is one path attaches that file", () => {
	it("the free answer's editor answered with the file's path, then the words: the model receives the image", async () => {
		const answers = ["'./my layout.png'", "like this"];
		const { env, client } = visionRpc((request) => {
			if (request.method === "select")
				return { value: request.options.find((row) => row.includes("Type something")) ?? "" };
			if (request.method === "editor") return { value: answers.shift() ?? "" };
			return { cancelled: true };
		});
		await client.prompt(ASK);
		const [result] = env.toolResults("ask_user");
		expect(result?.images).toEqual([SEEN_PNG]);
		expect(result?.text).toContain('db: wrote "like this" + 📎 "my layout.png" (image)');
	});
});

const withFile = (rid: string, file: Record<string, unknown>) => ({
	v: 3,
	rid,
	status: "answered",
	answers: { db: { kind: "single", selections: [{ value: "like this", label: "like this", custom: true }] } },
	skipped: [],
	notes: [],
	attachments: [{ kind: "answer", questionId: "db", ...file }],
});

const PNG_FILE = { name: "shot.png", mime: "image/png", size: PNG_1X1.length, data: PNG_1X1.toString("base64") };

describe("RPC, a host that shows the whole form: its reply carries the files as data", () => {
	it("a v3 reply with a small PNG: the model receives the image block with its type, and the path of the saved copy", async () => {
		let asked: { replyVersion?: number } = {};
		const { env, client } = wholeFormRpc((request) => {
			asked = request;
			return withFile(request.rid, PNG_FILE);
		});
		await client.prompt(ASK);
		// The child reads up to v4; a host may answer any version up to it.
		expect(asked.replyVersion).toBe(4);
		const [result] = env.toolResults("ask_user");
		expect(result?.isError).toBe(false);
		expect(result?.images).toEqual([SEEN_PNG]);
		expect(result?.text).toContain('db: wrote "like this" + 📎 shot.png (image)');
		const saved = /saved at "([^"]+)"/.exec(result?.text ?? "")?.[1] ?? "";
		expect(statSync(saved).mode & 0o777).toBe(0o600);
	});

	it("a file whose size is not what its bytes hold is refused, by its path; the model is told, never given a guess", async () => {
		const { env, client } = wholeFormRpc((request) => withFile(request.rid, { ...PNG_FILE, size: 1 }));
		await client.prompt(ASK);
		await until(() => env.toolResults("ask_user").length === 1, "the ask_user result");
		const [result] = env.toolResults("ask_user");
		expect(result?.images).toBeUndefined();
		expect(result?.text).toContain(
			`attachments[0].size: must be the number of bytes data holds (${PNG_1X1.length}; found 1)`,
		);
	});
});
