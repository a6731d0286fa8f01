/**
 * Files in a relay reply: from v3 each crosses with its bytes, an older child gets a note with its path, and what comes
 * in is checked by the schema and the limits (each problem by its path) before the child saves and delivers it.
 */

import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ATTACHMENT_LIMITS, type AskAttached } from "../src/core/attachment.ts";
import type { RelayReply } from "../src/core/types.ts";
import { collectedToReply, decodeRelayReply, encodeRelayReply, replyToCollected } from "../src/relay/envelope.ts";
import { withBytes } from "../src/relay/files.ts";
import { currentHandler } from "../src/route/record.ts";
import { createRouter } from "../src/route/router.ts";
import { deliverAttachments } from "../src/tool/attachments.ts";
import { collected, DB, FEATURES, FORM } from "./support/answers.ts";
import { PNG_1X1, shotOnFeatures } from "./support/images.ts";

const { dir, shot, onFeatures: ON_FEATURES } = shotOnFeatures("ask-user-relay-files-");
const ANSWERS = { db: DB, features: FEATURES };
const ANSWERED = collected("answered", { answers: ANSWERS, attachments: [ON_FEATURES] });
const QUESTIONS = { questions: FORM.questions, rid: "r-1" };

/** A v3 reply's wire, with `files` as its attachments. */
function wire(files: unknown, v = 3): string {
	return JSON.stringify({
		v,
		rid: "r-1",
		status: "answered",
		answers: ANSWERS,
		skipped: [],
		notes: [],
		attachments: files,
	});
}

function wireFile(extra: Record<string, unknown> = {}) {
	const data = PNG_1X1.toString("base64");
	return {
		name: "layout.png",
		mime: "image/png",
		size: PNG_1X1.length,
		kind: "answer",
		questionId: "features",
		data,
		...extra,
	};
}

function refused(text: string): string {
	const decoded = decodeRelayReply(text, QUESTIONS);
	if (decoded.ok) throw new Error("expected the reply to be rejected");
	return decoded.error;
}

describe("a reply's files: v3 carries the bytes, an older child gets the path", () => {
	it("to a child that reads v3, a file read by the parent crosses with its bytes and decodes to the same file", () => {
		const reply = collectedToReply({ ...ANSWERED, attachments: withBytes([ON_FEATURES]) }, "r-1", {
			questions: FORM.questions,
			replyVersion: 3,
		});
		expect(reply.v).toBe(3);
		expect(reply.notes).toEqual([]);
		const text = encodeRelayReply(reply);
		expect(JSON.parse(text).attachments).toEqual([wireFile()]);
		expect(text).not.toContain(dir);
		const decoded = decodeRelayReply(text, QUESTIONS);
		if (!decoded.ok) throw new Error(decoded.error);
		expect(replyToCollected(decoded.reply).attachments).toEqual([
			{ ...ON_FEATURES, path: "", data: PNG_1X1.toString("base64") },
		]);
	});

	it("to a child of v2 or v1 (or over a way back with no bytes), each file is a note with its name, type, size and path", () => {
		for (const [replyVersion, files] of [
			[2, withBytes([ON_FEATURES])],
			[1, withBytes([ON_FEATURES])],
			[3, [ON_FEATURES]],
		] as const) {
			const reply = collectedToReply({ ...ANSWERED, attachments: [...files] }, "r-1", {
				questions: FORM.questions,
				replyVersion,
			});
			expect(reply.attachments).toBeUndefined();
			expect(reply.notes).toEqual([
				{
					questionId: "features",
					text: `The user attached the file "layout.png" (image/png, 70 bytes), and its bytes did not come with this reply; it is at ${JSON.stringify(shot)} on the machine that showed the form.`,
				},
			]);
			expect(JSON.parse(encodeRelayReply(reply))).not.toHaveProperty("attachments");
			expect(decodeRelayReply(encodeRelayReply(reply), QUESTIONS).ok).toBe(true);
		}
	});

	it("a file that went away, or grew past its limit, stays without bytes: a note", () => {
		const gone = { ...ON_FEATURES, path: join(dir, "gone.png") };
		const big = join(dir, "big.log");
		writeFileSync(big, Buffer.alloc(ATTACHMENT_LIMITS.fileBytes + 1));
		const grown = { ...ON_FEATURES, name: "big.log", path: big, size: 10, mime: "text/plain" };
		expect(withBytes([gone, grown]).map((file) => file.data)).toEqual([undefined, undefined]);
	});
});

describe("a reply's files are checked before they are believed, each problem by its path", () => {
	it("a sound v3 reply with a file passes", () => {
		expect(decodeRelayReply(wire([wireFile()]), QUESTIONS).ok).toBe(true);
	});

	it("each field by the schema: the name, the type, the size, the kind, the bytes", () => {
		const error = refused(
			wire([wireFile({ name: "../etc/passwd", mime: "Image/PNG", size: -1, kind: "picture", data: "not base64!" })]),
		);
		expect(error).toContain("attachments[0].name: must be a file's base name: one line, no slash or backslash");
		expect(error).toContain('attachments[0].mime: must be a media type in lower case, e.g. "image/png"');
		expect(error).toContain("attachments[0].size: ");
		expect(error).toContain('attachments[0].kind: must be "answer" or "note"');
		expect(error).toContain("attachments[0].data: must be base64");
		expect(refused(wire([{ ...wireFile(), data: undefined }]))).toContain("attachments[0].data: is missing");
	});

	it("the size is what the bytes hold, and base64 comes in fours", () => {
		expect(refused(wire([wireFile({ size: 66 })]))).toContain(
			"attachments[0].size: must be the number of bytes data holds (70; found 66)",
		);
		expect(refused(wire([wireFile({ data: "iVBORw0" })]))).toContain(
			"attachments[0].data: must be base64 whose length is a multiple of 4",
		);
	});

	it("the limits: a file over its size, a fifth on one answer, an eleventh on the form, more than the total", () => {
		const size = ATTACHMENT_LIMITS.fileBytes + 3;
		const large = wireFile({ name: "big.log", mime: "text/plain", size, data: Buffer.alloc(size).toString("base64") });
		expect(refused(wire([large]))).toContain(
			`attachments[0].size: must be at most ${ATTACHMENT_LIMITS.fileBytes} bytes for a file (found ${size})`,
		);
		expect(refused(wire(Array.from({ length: 5 }, () => wireFile())))).toContain(
			"attachments[4]: is a file too many: at most 4 per answer or note",
		);
		const onNotes = Array.from({ length: 11 }, (_, i) =>
			wireFile({ kind: "note", questionId: ["db", "features", "extras"][i % 3] }),
		);
		expect(refused(wire(onNotes))).toContain("attachments: must have at most 10 items (found 11)");
		const nine = 9 * 1024 * 1024;
		const image = Buffer.concat([PNG_1X1, Buffer.alloc(nine - PNG_1X1.length)]).toString("base64");
		const three = ["db", "features", "extras"].map((questionId) =>
			wireFile({ kind: "note", questionId, size: nine, data: image }),
		);
		expect(refused(wire(three))).toContain(
			`attachments: must hold at most ${ATTACHMENT_LIMITS.totalBytes} bytes in all (found ${3 * nine})`,
		);
	});

	it("what each file belongs to: a question of the request, an option's label, a free answer only where one is allowed", () => {
		const error = refused(
			wire([
				wireFile({ questionId: "nope" }),
				wireFile({ kind: "note", questionId: "db", option: "MySQL" }),
				wireFile({ option: "Auth" }),
				wireFile({ questionId: undefined }),
			]),
		);
		expect(error).toContain('attachments[0].questionId: "nope" is no question of the request');
		expect(error).toContain('attachments[1].option: "MySQL" is not an option label of question "db"');
		expect(error).toContain('attachments[2].option: must be absent on an "answer" file');
		expect(error).toContain('attachments[3].questionId: is missing: an "answer" file names its question');
		const closed = { ...QUESTIONS, questions: FORM.questions.map((q) => ({ ...q, allowOther: false })) };
		const chosen = { db: DB, features: { kind: "multi", selections: [{ value: "Auth", label: "Auth" }] } };
		const text = JSON.stringify({ ...JSON.parse(wire([wireFile()])), answers: chosen });
		const decoded = decodeRelayReply(text, closed);
		expect(!decoded.ok && decoded.error).toBe(
			"relay reply rejected: attachments[0]: is on a free answer, but the question does not allow one (allowOther is false)",
		);
	});

	it("files in a v2 reply are refused: they cross from v3", () => {
		expect(refused(wire([wireFile()], 2))).toContain("attachments: must be absent in a v2 reply: files cross from v3");
	});
});

describe("the child delivers a file from the bytes that came, not the parent's path", () => {
	const session = join(mkdtempSync(join(tmpdir(), "ask-user-relay-session-")), "s.jsonl");
	const came: AskAttached = { ...ON_FEATURES, path: "", data: PNG_1X1.toString("base64") };

	it("saved 0600 beside the child's session, the image block with its type, no bytes left in what is collected", async () => {
		const { collected: delivered, images } = await deliverAttachments(
			{ ...ANSWERED, attachments: [came] },
			{ sessionFile: session, takesImages: true },
		);
		const [file] = delivered.attachments ?? [];
		expect(file?.path.startsWith(join(`${session}.ask-user`, "attachments"))).toBe(true);
		expect(readFileSync(file?.path ?? "")).toEqual(PNG_1X1);
		expect(statSync(file?.path ?? "").mode & 0o777).toBe(0o600);
		expect(file).toMatchObject({ sent: "image", mime: "image/png", size: PNG_1X1.length });
		expect(file).not.toHaveProperty("data");
		expect(images).toEqual([{ type: "image", data: PNG_1X1.toString("base64"), mimeType: "image/png" }]);
	});

	it("a model without images gets the saved path; bytes that claim to be an image and are not go as a file", async () => {
		const fake: AskAttached = { ...came, data: Buffer.from("not a picture").toString("base64"), size: 13 };
		const { collected: delivered, images } = await deliverAttachments(
			{ ...ANSWERED, attachments: [came, fake] },
			{ sessionFile: session, takesImages: false },
		);
		expect(images).toEqual([]);
		expect(delivered.attachments?.map((f) => [f.sent, f.mime])).toEqual([
			["path", "image/png"],
			["path", "application/octet-stream"],
		]);
	});

	it("a reply decoded then delivered: what the model gets is the parent's file", async () => {
		const reply: RelayReply = collectedToReply({ ...ANSWERED, attachments: withBytes([ON_FEATURES]) }, "r-1", {
			questions: FORM.questions,
			replyVersion: 3,
		});
		const decoded = decodeRelayReply(encodeRelayReply(reply), QUESTIONS);
		if (!decoded.ok) throw new Error(decoded.error);
		const { images } = await deliverAttachments(replyToCollected(decoded.reply), {
			sessionFile: session,
			takesImages: true,
		});
		expect(Buffer.from(images[0]?.data ?? "", "base64")).toEqual(PNG_1X1);
	});
});

describe("the parent's handler reads the files' bytes where they can cross", () => {
	it("for a way back that takes them and a child that reads v3; else each file is a note with its path", async () => {
		const session = { mode: "tui", hasUI: true, ui: {}, abort: () => {} } as never;
		const router = createRouter({
			preferences: () => ({}),
			// The user's answer, with a file, instead of a form on a screen.
			watch: () => async () => ANSWERED,
			upstream: { relay: false, channel: "inherited" },
		});
		router.sessionStarted(session, () => {});
		try {
			const handler = currentHandler();
			if (!handler) throw new Error("no handler registered");
			const ask = (replyVersion: number, carriesFiles: boolean) =>
				handler({ v: 1, rid: "r-1", questions: FORM.questions, replyVersion }, { carriesFiles });
			const carried = await ask(3, true);
			expect(carried.attachments?.map((file) => file.data)).toEqual([PNG_1X1.toString("base64")]);
			expect(carried.notes).toEqual([]);
			for (const [replyVersion, carriesFiles] of [
				[3, false],
				[2, true],
			] as const) {
				const noted = await ask(replyVersion, carriesFiles);
				expect(noted.attachments).toBeUndefined();
				expect(noted.notes.map((note) => note.text)).toEqual([expect.stringContaining(JSON.stringify(shot))]);
			}
		} finally {
			await router.sessionEnded("quit");
		}
	});
});
