import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ATTACHMENT_LIMITS, type AskAttached } from "../src/core/attachment.ts";
import type { AskOptions, AskStatus, Collected } from "../src/core/types.ts";
import { collectedToReply, decodeRelayReply, encodeRelayReply, replyToCollected } from "../src/relay/envelope.ts";
import { wireName, withBytes } from "../src/relay/files.ts";
import { currentHandler } from "../src/route/record.ts";
import { createRouter } from "../src/route/router.ts";
import { collected, DB, FEATURES, FORM } from "./support/answers.ts";
import { PNG_1X1, shotOnFeatures } from "./support/images.ts";

const { dir, onFeatures: ON_FEATURES } = shotOnFeatures("ask-user-reply-files-");
const ANSWERS = { db: DB, features: FEATURES };
const QUESTIONS = { questions: FORM.questions, rid: "r-1" };
const V3 = { questions: FORM.questions, replyVersion: 3 };

/** The reply a child of v3 gets for `files`, encoded and decoded as it would be on its side. */
function throughTheWire(files: AskAttached[], status: AskStatus = "answered"): Collected {
	const reply = collectedToReply(collected(status, { answers: ANSWERS, attachments: withBytes(files) }), "r-1", V3);
	const decoded = decodeRelayReply(encodeRelayReply(reply), QUESTIONS);
	if (!decoded.ok) throw new Error(decoded.error);
	return replyToCollected(decoded.reply);
}

describe("a file's name crosses as a base name the reply's schema takes", () => {
	it("a backslash, an escape sequence, a control character, a line separator: cleaned, and the reply is taken", () => {
		const names = ["a\\b.txt", "\u001b[31mred\u001b[0m.png", "tab\u0007bell.log", "two\u2028lines.md", "x/y.txt"];
		// On five answers and notes: at most four files go on one.
		const on = [{}, { kind: "note", questionId: "db" }, { kind: "note" }, { kind: "note", questionId: "extras" }, {}];
		const files = names.map((name, i) => ({ ...ON_FEATURES, ...on[i], name }) as AskAttached);
		const came = throughTheWire(files).attachments?.map((file) => file.name);
		expect(came).toEqual(["a_b.txt", "red.png", "tabbell.log", "two lines.md", "x_y.txt"]);
	});

	it('a name with nothing printable left is "file"; a long one is cut within the schema\'s limit', () => {
		expect(wireName("\u001b\u0007\u200b")).toBe("file");
		expect(wireName("\\")).toBe("_");
		const long = wireName(`${"ü".repeat(300)}.png`);
		expect(long.length).toBeLessThanOrEqual(255);
		const [file] = throughTheWire([{ ...ON_FEATURES, name: "\u0000\u0001" }]).attachments ?? [];
		expect(file?.name).toBe("file");
	});
});

describe("a file's limit is its bytes', not the type it claims", () => {
	const MB15 = 15 * 1024 * 1024;
	const notAnImage = Buffer.alloc(MB15, 0x61).toString("base64");
	const claimsPng = {
		name: "big.png",
		mime: "image/png",
		size: MB15,
		kind: "answer",
		questionId: "features",
		data: notAnImage,
	};
	const wire = (file: object) =>
		JSON.stringify({
			v: 3,
			rid: "r-1",
			status: "answered",
			answers: ANSWERS,
			skipped: [],
			notes: [],
			attachments: [file],
		});

	it("the child refuses 15 MB of bytes that claim image/png and are none: a file's limit is 10 MB", () => {
		const decoded = decodeRelayReply(wire(claimsPng), QUESTIONS);
		expect(decoded.ok).toBe(false);
		if (!decoded.ok)
			expect(decoded.error).toContain(
				`attachments[0].size: must be at most ${ATTACHMENT_LIMITS.fileBytes} bytes for a file (found ${MB15}): its bytes are no png image, whatever mime says`,
			);
	});

	it("15 MB of a real image passes", () => {
		const png = Buffer.concat([PNG_1X1, Buffer.alloc(MB15 - PNG_1X1.length)]).toString("base64");
		expect(decodeRelayReply(wire({ ...claimsPng, data: png }), QUESTIONS).ok).toBe(true);
	});

	it("the parent does not pass on a file that came with its bytes on its word: measured and typed by them", () => {
		const fake: AskAttached = { ...ON_FEATURES, path: "", size: MB15, data: notAnImage };
		const small: AskAttached = {
			...ON_FEATURES,
			path: "",
			size: 3,
			mime: "text/plain",
			data: PNG_1X1.toString("base64"),
		};
		const [big, png] = withBytes([fake, small]);
		expect(big?.data).toBeUndefined();
		expect(png).toMatchObject({ size: PNG_1X1.length, mime: "image/png", data: PNG_1X1.toString("base64") });
	});
});

describe("files go only with a form the user sent", () => {
	const carried: AskAttached = { ...ON_FEATURES, data: PNG_1X1.toString("base64") };

	it("a dismissed, aborted or timed-out form sends neither the bytes nor a note, to any child", () => {
		for (const status of ["dismissed", "aborted", "timed_out"] as const)
			for (const replyVersion of [1, 2, 3]) {
				const reply = collectedToReply(collected(status, { attachments: [carried] }), "r-1", {
					questions: FORM.questions,
					replyVersion,
				});
				expect(reply.attachments, `${status} v${replyVersion}`).toBeUndefined();
				expect(reply.notes, `${status} v${replyVersion}`).toEqual([]);
			}
	});

	it("a message for the chat sends them, as a submitted form does", () => {
		const reply = collectedToReply(collected("chat", { chatMessage: "see this", attachments: [carried] }), "r-1", V3);
		expect(reply.attachments?.map((file) => file.name)).toEqual(["layout.png"]);
	});
});

describe("a child's form shown through the parent's handler", () => {
	async function throughHandler(ending: Collected) {
		let shownWith: AskOptions | undefined;
		const session = {
			mode: "tui",
			hasUI: true,
			ui: {},
			abort: () => {},
			cwd: dir,
			sessionManager: { getEntries: () => [], getSessionFile: () => join(dir, "s.jsonl") },
		};
		const router = createRouter({
			preferences: () => ({}),
			watch: () => async (_form, options) => {
				shownWith = options;
				return ending;
			},
			upstream: { relay: false, channel: "inherited" },
		});
		router.sessionStarted(session as never, () => {});
		try {
			const handler = currentHandler();
			if (!handler) throw new Error("no handler registered");
			const reply = await handler(
				{ v: 1, rid: "r-1", questions: FORM.questions, replyVersion: 3 },
				{ carriesFiles: true },
			);
			return { reply, shownWith };
		} finally {
			await router.sessionEnded("quit");
		}
	}

	it("takes files as the parent's own form does: its folder for a relative path, pi's clipboard reader for Ctrl+V", async () => {
		const { shownWith } = await throughHandler(collected("answered", { answers: ANSWERS }));
		expect(shownWith?.cwd).toBe(dir);
		expect(typeof shownWith?.pasteImage).toBe("function");
	});

	it("a form the user dismissed reads no file and sends none", async () => {
		const { reply } = await throughHandler(collected("dismissed", { attachments: [ON_FEATURES] }));
		expect(reply.attachments).toBeUndefined();
		expect(reply.notes).toEqual([]);
	});
});
