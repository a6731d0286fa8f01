/**
 * The extension's wiring in index.ts, against a stand-in for pi's extension
 * API that records the handlers and the tool, so pi's events can be fired in
 * any order.
 */

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { OFFER_ENTRY, userLeftOut } from "../src/route/offer.ts";
import { decodeChannelAddress } from "../src/relay/channel/wire.ts";
import { collectViaChannel } from "../src/relay/channel/client.ts";
import { registerHandler } from "../src/route/record.ts";
import { CHANNEL_ENV } from "../src/core/types.ts";
import { SETTINGS } from "../src/settings/table.ts";
import { prepareForm } from "../src/tool/call.ts";
import { callModule } from "../src/tool/tool.ts";
import { CATALOGUES, textsFor } from "./support/locales.ts";
import { dismissingUser, type Entries, loadExtension, oneQuestion, recordingUser } from "./support/extension.ts";

// First in this file: nothing has loaded what a call runs yet.
describe("start-up", () => {
	it("loads what a call runs after start-up, and has it in before the agent's first run: prepareArguments normalises, the transcript draws again", async () => {
		const { tool, fire } = loadExtension();
		const stringified = { questions: JSON.stringify(oneQuestion.questions) };
		expect(callModule.now()).toBeUndefined();
		// Before: the arguments as sent (execute prepares them), and the tool's name alone in the transcript.
		expect(tool.prepareArguments?.(stringified)).toBe(stringified);
		let redrawn = 0;
		const context = { lastComponent: undefined, invalidate: () => redrawn++ } as never;
		const plain = { fg: (_color: string, text: string) => text, bold: (text: string) => text } as never;
		expect(
			tool
				.renderCall?.(oneQuestion as never, plain, context)
				.render(80)
				.join("")
				.trim(),
		).toBe("ask_user");

		await fire("before_agent_start", { type: "before_agent_start" }, { hasUI: true });
		expect(redrawn).toBe(1);
		expect(tool.prepareArguments?.(stringified)).toMatchObject({
			questions: [{ question: "Which?", options: [{ label: "A" }, { label: "B" }] }],
		});
		expect(
			tool
				.renderCall?.(oneQuestion as never, plain, context)
				.render(80)
				.join("")
				.trim(),
		).toBe("ask_user Q1");
	});
});

describe("after a dismissal", () => {
	it("every tool call is refused until a user message enters the conversation, not when pi starts a run or a turn on its own", async () => {
		const { tool, fire } = loadExtension();
		const bash = { type: "tool_call", toolName: "bash", toolCallId: "b1", input: { command: "ls" } };
		expect(await fire("tool_call", bash)).toBeUndefined();

		const params = tool.prepareArguments ? tool.prepareArguments(oneQuestion) : oneQuestion;
		const result = await tool.execute("a1", params as never, undefined, undefined, dismissingUser);
		expect((result.details as { status: string }).status).toBe("dismissed");

		const refused = await fire("tool_call", bash);
		expect(refused).toMatchObject({ block: true, reason: expect.stringContaining("the user dismissed ask_user") });
		// pi's own retries (after an error, a compaction) start a run and a turn, and stream the model's reply.
		await fire("agent_start");
		await fire("turn_start");
		await fire("message_start", { type: "message_start", message: { role: "assistant", content: [] } });
		expect(await fire("tool_call", bash)).toMatchObject({ block: true });

		await fire("message_start", { type: "message_start", message: { role: "user", content: "go on" } });
		expect(await fire("tool_call", bash)).toBeUndefined();
	});
});

describe("the local channel", () => {
	it("a session with a UI publishes its channel for the processes it starts, answers through it, and takes it back at shutdown", async () => {
		// As the top session: not one started by a pi whose channel this test process inherited.
		delete process.env[CHANNEL_ENV];
		const { fire } = loadExtension();
		expect(process.env[CHANNEL_ENV]).toBeUndefined();
		await fire(
			"session_start",
			{ type: "session_start" },
			{ ...dismissingUser, ui: { ...dismissingUser.ui, notify: () => {} } },
		);
		// Published once the channel listens: polled for, up to 10 s.
		const deadline = Date.now() + 10_000;
		while (process.env[CHANNEL_ENV] === undefined && Date.now() < deadline)
			await new Promise((resolve) => setTimeout(resolve, 5));
		const decoded = decodeChannelAddress(process.env[CHANNEL_ENV]);
		if (!decoded.ok) throw new Error(decoded.error);
		const { address } = decoded;
		expect(existsSync(address.path)).toBe(true);

		const { form } = prepareForm(oneQuestion);
		expect((await collectViaChannel(address, form, { asker: "child" })).status).toBe("dismissed");

		await fire("session_shutdown", { type: "session_shutdown" });
		expect(process.env[CHANNEL_ENV]).toBeUndefined();
		expect(existsSync(dirname(address.path))).toBe(false);
	});
});

describe("no offer that cannot be kept", () => {
	it("a run without a UI and nobody to ask through is not offered ask_user; it is offered again once a session with a UI registers", async () => {
		delete process.env[CHANNEL_ENV];
		const { fire, active } = loadExtension();
		const headless = { hasUI: false };
		await fire("before_agent_start", { type: "before_agent_start" }, headless);
		expect(active()).toEqual(["read", "bash"]);
		const unregister = registerHandler(async () => ({
			v: 1,
			status: "dismissed",
			answers: {},
			skipped: [],
			notes: [],
		}));
		try {
			await fire("before_agent_start", { type: "before_agent_start" }, headless);
			expect(active()).toEqual(["read", "bash", "ask_user"]);
		} finally {
			unregister();
		}
		await fire("before_agent_start", { type: "before_agent_start" }, headless);
		expect(active()).toEqual(["read", "bash"]);
	});

	it("a session continued without a UI and resumed with one gets ask_user back (pi 1.x keeps the tool list in the session); one the user turned off stays off", async () => {
		delete process.env[CHANNEL_ENV];
		const entries: Entries = [{ type: "message" }];
		const session = { getEntries: () => entries };
		// pi -p --continue: no UI, nobody to ask through.
		const print = loadExtension(["read", "bash", "ask_user"], {}, entries);
		await print.fire("session_start", { type: "session_start" }, { hasUI: false, sessionManager: session });
		await print.fire("before_agent_start", { type: "before_agent_start" }, { hasUI: false, sessionManager: session });
		expect(print.active()).toEqual(["read", "bash"]);
		// A new process resumes it with a UI; pi restores the tool list the session recorded.
		const resumed = loadExtension(print.active(), {}, entries);
		await resumed.fire(
			"session_start",
			{ type: "session_start" },
			{ hasUI: true, sessionManager: session, ui: { notify: () => {} } },
		);
		await resumed.fire("before_agent_start", { type: "before_agent_start" }, { hasUI: true, sessionManager: session });
		expect(resumed.active()).toEqual(["read", "bash", "ask_user"]);

		const turnedOff = { getEntries: () => [{ type: "message" }] };
		const userChoice = loadExtension(["read", "bash"]);
		await userChoice.fire(
			"session_start",
			{ type: "session_start" },
			{ hasUI: true, sessionManager: turnedOff, ui: { notify: () => {} } },
		);
		await userChoice.fire(
			"before_agent_start",
			{ type: "before_agent_start" },
			{ hasUI: true, sessionManager: turnedOff },
		);
		expect(userChoice.active()).toEqual(["read", "bash"]);
	});

	it("a tool the user left out at start-up (--tools, --exclude-tools, defaultTools) is never given back, even after a withheld record", async () => {
		expect(userLeftOut(["node", "pi", "--tools", "read,bash"], undefined)).toBe(true);
		expect(userLeftOut(["node", "pi", "-t", "read,ask_user"], undefined)).toBe(false);
		expect(userLeftOut(["node", "pi", "--tools=+codemode,-ask_user"], undefined)).toBe(true);
		expect(userLeftOut(["node", "pi", "--tools", "+codemode"], undefined)).toBe(false);
		expect(userLeftOut(["node", "pi", "--exclude-tools", "ask_*"], undefined)).toBe(true);
		expect(userLeftOut(["node", "pi", "--exclude-tools", "bash"], undefined)).toBe(false);
		expect(userLeftOut(["node", "pi"], ["-ask_user"])).toBe(true);
		expect(userLeftOut(["node", "pi"], ["read", "bash"])).toBe(false);

		delete process.env[CHANNEL_ENV];
		const entries: Entries = [{ type: "custom", customType: OFFER_ENTRY, data: { withheld: true } }];
		const session = { getEntries: () => entries };
		const argv = process.argv;
		process.argv = [...argv, "--exclude-tools", "ask_user"];
		try {
			const resumed = loadExtension(["read", "bash"], {}, entries);
			await resumed.fire(
				"session_start",
				{ type: "session_start" },
				{ hasUI: true, sessionManager: session, ui: { notify: () => {} } },
			);
			await resumed.fire(
				"before_agent_start",
				{ type: "before_agent_start" },
				{ hasUI: true, sessionManager: session },
			);
			expect(resumed.active()).toEqual(["read", "bash"]);
		} finally {
			process.argv = argv;
		}
	});

	it("the record of the session's current branch counts, not one written on another branch", async () => {
		delete process.env[CHANNEL_ENV];
		const branch: Entries = [{ type: "custom", customType: OFFER_ENTRY, data: { withheld: true } }];
		const all: Entries = [...branch, { type: "custom", customType: OFFER_ENTRY, data: { withheld: false } }];
		const session = { getEntries: () => all, getBranch: () => branch };
		const resumed = loadExtension(["read", "bash"], {}, all);
		await resumed.fire(
			"session_start",
			{ type: "session_start" },
			{ hasUI: true, sessionManager: session, ui: { notify: () => {} } },
		);
		await resumed.fire("before_agent_start", { type: "before_agent_start" }, { hasUI: true, sessionManager: session });
		expect(resumed.active()).toEqual(["read", "bash", "ask_user"]);
	});

	it("a session with a UI keeps ask_user, and never adds it where the user left it out", async () => {
		const kept = loadExtension();
		await kept.fire("before_agent_start", { type: "before_agent_start" }, { hasUI: true });
		expect(kept.active()).toEqual(["read", "bash", "ask_user"]);
		const leftOut = loadExtension(["read"]);
		await leftOut.fire("before_agent_start", { type: "before_agent_start" }, { hasUI: true });
		expect(leftOut.active()).toEqual(["read"]);
	});
});

describe("the user's language", () => {
	it("--ask-user-locale picks the walker's words; an unknown one is a warning at start, and the environment's language is used", async () => {
		delete process.env[CHANNEL_ENV];
		const { ctx, notes, titles } = recordingUser();
		const german = loadExtension(undefined, { "ask-user-locale": "de" });
		await german.fire("session_start", { type: "session_start" }, ctx);
		const params = german.tool.prepareArguments ? german.tool.prepareArguments(oneQuestion) : oneQuestion;
		await german.tool.execute("a1", params as never, undefined, undefined, ctx);
		expect(titles).toContain(CATALOGUES.de["walker.freeText"]);
		expect(notes).toEqual([]);
		await german.fire("session_shutdown", { type: "session_shutdown", reason: "quit" });

		const saved = { LC_ALL: process.env["LC_ALL"], LC_MESSAGES: process.env["LC_MESSAGES"], LANG: process.env["LANG"] };
		Object.assign(process.env, { LC_ALL: "", LC_MESSAGES: "", LANG: "fr_FR.UTF-8" });
		try {
			const unknown = loadExtension(undefined, { "ask-user-locale": "tlh" });
			await unknown.fire("session_start", { type: "session_start" }, ctx);
			expect(notes).toEqual([
				textsFor("fr").t("warning.settingsBadValue", {
					source: "--ask-user-locale",
					takes: SETTINGS.locale.rule.takes,
					found: '"tlh"',
				}),
			]);
			await unknown.fire("session_shutdown", { type: "session_shutdown", reason: "quit" });
		} finally {
			for (const [name, value] of Object.entries(saved)) {
				if (value === undefined) delete process.env[name];
				else process.env[name] = value;
			}
		}
	});
});

describe("the settings of the session's folder", () => {
	it("a session in another project than pi started in (pi 1.x resumes one there) reads that project's file", async () => {
		const dir = mkdtempSync(join(tmpdir(), "ask-user-elsewhere-"));
		try {
			mkdirSync(join(dir, ".pi"));
			writeFileSync(join(dir, ".pi", "ask-user.json"), JSON.stringify({ attention: "loud" }));
			const { ctx, notes } = recordingUser();
			const extension = loadExtension();
			await extension.fire("session_start", { type: "session_start" }, { ...ctx, cwd: dir });
			expect(notes).toEqual([
				expect.stringContaining(`${join(dir, ".pi", "ask-user.json")}: attention must be one of`),
			]);
			await extension.fire("session_shutdown", { type: "session_shutdown", reason: "quit" });
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe("a first session start that fails", () => {
	it("is said once; the forms still work, in English", async () => {
		delete process.env[CHANNEL_ENV];
		const { ctx, notes, titles } = recordingUser();
		// pi's flags unreadable: the settings cannot be read.
		const unreadable = () => {
			throw new Error("flags unreadable");
		};
		const broken = new Proxy({}, { get: unreadable }) as Record<string, string>;
		const extension = loadExtension(undefined, broken);
		await extension.fire("session_start", { type: "session_start" }, ctx);
		await extension.fire("session_start", { type: "session_start" }, ctx);
		expect(notes).toEqual([
			"ask_user: its settings or texts could not be loaded (flags unreadable): the defaults and English are used.",
		]);
		const params = extension.tool.prepareArguments ? extension.tool.prepareArguments(oneQuestion) : oneQuestion;
		const result = await extension.tool.execute("f1", params as never, undefined, undefined, ctx);
		expect(result.details).toMatchObject({ status: "dismissed" });
		expect(titles).toContain(CATALOGUES.en["walker.freeText"]);
		await extension.fire("session_shutdown", { type: "session_shutdown", reason: "quit" });
	});
});
