/**
 * A submit from the browser page (src/web/submit.ts): its JSON checked by a schema, every problem at its path; the files
 * in it checked against the terminal's limits, saved 0600 beside the session, and handed on as the terminal's
 * (kind, question, option), so the tool delivers them (tool/attachments.ts) without copying them again; a submit the
 * form does not take leaves no file behind. Over HTTP and through watchForms, the files reach what the form collects.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ATTACHMENT_LIMITS, type AskAttached } from "../src/core/attachment.ts";
import { type Collected, emptyCollected, type OutsideAnswer } from "../src/core/types.ts";
import { ENGLISH } from "../src/i18n/texts.ts";
import { watchForms } from "../src/route/waiting.ts";
import { deliverAttachments } from "../src/tool/attachments.ts";
import { prepareForm } from "../src/tool/call.ts";
import { formatResultText } from "../src/tool/result.ts";
import { MAX_BODY_BYTES } from "../src/web/server.ts";
import { answerFrom, type SubmitSetup } from "../src/web/submit.ts";

const { form } = prepareForm({
	questions: [
		{
			id: "db",
			header: "Database",
			question: "Which database?",
			options: [{ label: "Postgres" }, { label: "SQLite" }],
		},
		{ id: "layout", header: "Layout", question: "What does it look like?", required: false },
	],
});

/** A 1×1 PNG, as a phone's camera would send a much larger one. */
const PNG = Buffer.from(
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
	"base64",
);
const file = (name: string, bytes: Buffer = PNG) => ({ name, data: bytes.toString("base64") });

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
/** A session file in a temp dir of its own (the file itself need not exist). */
function session(): string {
	const dir = mkdtempSync(join(tmpdir(), "pi-ask-user-web-submit-"));
	dirs.push(dir);
	return join(dir, "session.jsonl");
}
const attachmentsOf = (sessionFile: string) => join(`${sessionFile}.ask-user`, "attachments");

function recorder(outcome: { ok: true } | { ok: false; error: string } = { ok: true }) {
	const given: Array<{ reply: OutsideAnswer; files: readonly AskAttached[] | undefined }> = [];
	const answer: SubmitSetup["answer"] = (reply, _source, files) => (given.push({ reply, files }), outcome);
	return { given, answer };
}

describe("a submit's shape", () => {
	it("is checked by a schema, and every problem is said at its path", () => {
		const { given, answer } = recorder();
		const body = {
			questions: [
				{ chosen: ["1"], other: 5 },
				{ note: "x".repeat(4001), otherFiles: [{ name: "" }] },
			],
		};
		const outcome = answerFrom({ form, answer }, JSON.stringify(body));
		expect(outcome.ok).toBe(false);
		const error = outcome.ok ? "" : outcome.error;
		expect(error).toContain("questions[0].chosen[0]: must be an integer");
		expect(error).toContain("questions[0].other: must be a string (found number 5)");
		expect(error).toContain("questions[1].note: must be at most 4000 characters (found 4001)");
		expect(error).toContain("questions[1].otherFiles[0].name: must not have fewer than 1 characters");
		expect(error).toContain("questions[1].otherFiles[0].data: is missing");
		expect(answerFrom({ form, answer }, JSON.stringify({ questions: {} }))).toEqual({
			ok: false,
			error: "questions: must be an array (found an object)",
		});
		expect(answerFrom({ form, answer }, JSON.stringify({ note: "x" }))).toEqual({
			ok: false,
			error: "questions: is missing",
		});
		const notBase64 = { questions: [{ chosen: [0] }, { other: "see", otherFiles: [{ name: "a.png", data: "%%" }] }] };
		expect(answerFrom({ form, answer }, JSON.stringify(notBase64))).toEqual({
			ok: false,
			error:
				'questions[1].otherFiles[0].data: must be base64 (A–Z, a–z, 0–9, + and /, padded with =) (found the string "%%")',
		});
		expect(given).toEqual([]);
	});
});

describe("the files of a submit", () => {
	it("are saved 0600 beside the session and handed on with what they belong to, as the terminal's", () => {
		const sessionFile = session();
		const { given, answer } = recorder();
		const body = {
			note: "both of them",
			noteFiles: [file("notes.txt", Buffer.from("the whole form\n"))],
			questions: [
				{
					chosen: [1],
					note: "a file with it",
					noteFiles: [file("C:\\shots/not-really.png", Buffer.from("plain text"))],
				},
				{ other: "like this", otherFiles: [file("layout.png")] },
			],
		};
		expect(answerFrom({ form, answer, sessionFile }, JSON.stringify(body))).toEqual({ ok: true });
		const files = given[0]?.files ?? [];
		expect(files.map(({ path: _path, ...rest }) => rest)).toEqual([
			// A file that claims to be an image and is not is sent as a file.
			{ name: "not-really.png", size: 10, mime: "application/octet-stream", kind: "note", questionId: "db" },
			{ name: "layout.png", size: PNG.length, mime: "image/png", kind: "answer", questionId: "layout" },
			{ name: "notes.txt", size: 15, mime: "text/plain", kind: "note" },
		]);
		for (const saved of files) {
			expect(dirname(saved.path)).toBe(attachmentsOf(sessionFile));
			expect(statSync(saved.path).mode & 0o777).toBe(0o600);
		}
		expect(statSync(attachmentsOf(sessionFile)).mode & 0o777).toBe(0o700);
		expect(readFileSync(files[1]?.path ?? "")).toEqual(PNG);
		expect(given[0]?.reply).toMatchObject({ formNote: "both of them", notes: [{ questionId: "db" }] });
	});

	it("are delivered as the terminal's: the saved copy itself (no second one), an image as image content", async () => {
		const sessionFile = session();
		const { given, answer } = recorder();
		const body = { questions: [{ chosen: [0] }, { other: "like this", otherFiles: [file("layout.png")] }] };
		expect(answerFrom({ form, answer, sessionFile }, JSON.stringify(body))).toEqual({ ok: true });
		const attachments = [...(given[0]?.files ?? [])];
		const collected: Collected = { ...emptyCollected("answered"), attachments };
		const { collected: delivered, images } = await deliverAttachments(
			collected,
			{ sessionFile, takesImages: true },
			null,
		);
		expect(images).toEqual([{ type: "image", data: PNG.toString("base64"), mimeType: "image/png" }]);
		expect(delivered.attachments?.[0]).toMatchObject({ path: attachments[0]?.path, sent: "image" });
		expect(readdirSync(attachmentsOf(sessionFile))).toHaveLength(1);
		const answered = { ...delivered, answers: { layout: { kind: "single" as const, selections: [] } } };
		expect(formatResultText(form, answered)).toContain("📎 layout.png (image)");
	});

	it("with no session file go to a temp folder of the process", () => {
		const { given, answer } = recorder();
		const body = { questions: [{ chosen: [0] }, { other: "see", otherFiles: [file("a.png")] }] };
		expect(answerFrom({ form, answer }, JSON.stringify(body))).toEqual({ ok: true });
		const path = given[0]?.files?.[0]?.path ?? "";
		expect(dirname(path)).toMatch(/pi-ask-user-attachments-/);
		expect(statSync(path).mode & 0o777).toBe(0o600);
		rmSync(path);
	});

	it("are refused past the limits, or without words of their own, each at its path; nothing is saved", () => {
		const sessionFile = session();
		const { given, answer } = recorder();
		const refused = (body: unknown) => {
			const outcome = answerFrom({ form, answer, sessionFile }, JSON.stringify(body));
			return outcome.ok ? "" : outcome.error;
		};
		const five = Array.from({ length: 5 }, (_, i) => file(`${i}.png`));
		expect(refused({ questions: [{ chosen: [0] }, { other: "see", otherFiles: five }] })).toMatch(
			/^questions\[1\]\.otherFiles: .*4/,
		);
		const four = five.slice(1);
		const eleven = {
			note: "n",
			noteFiles: four,
			questions: [
				{ chosen: [0], note: "n", noteFiles: four },
				{ other: "o", otherFiles: four.slice(1) },
			],
		};
		expect(refused(eleven)).toBe("at most 10 files per form (found 11)");
		const big = Buffer.alloc(ATTACHMENT_LIMITS.fileBytes + 1, 0x61);
		expect(refused({ questions: [{ chosen: [0] }, { other: "log", otherFiles: [file("big.log", big)] }] })).toBe(
			"questions[1].otherFiles[0]: a file of at most 10 MB (found 10.1 MB)",
		);
		expect(refused({ questions: [{ chosen: [0] }, { otherFiles: [file("a.png")] }] })).toBe(
			"questions[1].otherFiles: a file goes with words: the answer is blank",
		);
		expect(refused({ note: " ", noteFiles: [file("a.png")], questions: [{ chosen: [0] }, {}] })).toBe(
			"noteFiles: a file goes with words: the note is blank",
		);
		expect(refused({ questions: [{}, { other: "see", otherFiles: [file("a.png")] }] })).toBe("unanswered: Database");
		expect(given).toEqual([]);
		expect(() => readdirSync(attachmentsOf(sessionFile))).toThrow();
	});

	it("are refused when their base64 is unsound: a length that is not a multiple of 4, as the relay's check", () => {
		const sessionFile = session();
		const { given, answer } = recorder();
		for (const data of ["QQ", "QUJDRA", "QUJDR", "QUJD=", "Q==="]) {
			const body = { questions: [{ chosen: [0] }, { other: "see", otherFiles: [{ name: "a.txt", data }] }] };
			const outcome = answerFrom({ form, answer, sessionFile }, JSON.stringify(body));
			expect(outcome.ok ? "" : outcome.error).toMatch(/^questions\[1\]\.otherFiles\[0\]\.data: must be base64/);
		}
		// Sound, padded or not, it is taken.
		for (const data of ["", "QQ==", "QUI=", "QUJD"]) {
			const body = { questions: [{ chosen: [0] }, { other: "see", otherFiles: [{ name: "a.txt", data }] }] };
			expect(answerFrom({ form, answer, sessionFile }, JSON.stringify(body))).toEqual({ ok: true });
		}
		expect(given.map(({ files }) => files?.[0]?.size)).toEqual([0, 1, 2, 3]);
	});

	it("a file the limits refuse is also given as what it is, for the page to say in the catalogue's words", () => {
		const { answer } = recorder();
		const outcome = (body: unknown) => answerFrom({ form, answer, sessionFile: session() }, JSON.stringify(body));
		const big = Buffer.alloc(ATTACHMENT_LIMITS.fileBytes + 1, 0x61);
		expect(outcome({ questions: [{ chosen: [0] }, { other: "log", otherFiles: [file("a/big.log", big)] }] })).toEqual({
			ok: false,
			error: "questions[1].otherFiles[0]: a file of at most 10 MB (found 10.1 MB)",
			refused: { limit: "file", name: "big.log", size: big.length, bytes: ATTACHMENT_LIMITS.fileBytes },
		});
		const four = Array.from({ length: 4 }, (_, i) => file(`${i}.png`));
		const eleven = {
			note: "n",
			noteFiles: four,
			questions: [
				{ chosen: [0], note: "n", noteFiles: four },
				{ other: "o", otherFiles: four.slice(1) },
			],
		};
		expect(outcome(eleven)).toMatchObject({ ok: false, refused: { limit: "form" } });
		const nine = Buffer.alloc(9 * 1024 * 1024, 0x61);
		const logs = ["1.log", "2.log", "3.log"].map((name) => file(name, nine));
		expect(outcome({ questions: [{ chosen: [0] }, { other: "logs", otherFiles: logs }] })).toEqual({
			ok: false,
			error: "the files: at most 25 MB in all (found 27 MB)",
			refused: { limit: "total", name: "3.log", bytes: ATTACHMENT_LIMITS.totalBytes },
		});
	});

	it("an answer the form does not take (it was closed) leaves no file behind", () => {
		const sessionFile = session();
		const { answer } = recorder({ ok: false, error: "this form is already closed" });
		const body = { questions: [{ chosen: [0] }, { other: "see", otherFiles: [file("a.png")] }] };
		expect(answerFrom({ form, answer, sessionFile }, JSON.stringify(body)).ok).toBe(false);
		expect(readdirSync(attachmentsOf(sessionFile))).toEqual([]);
	});
});

describe("over HTTP, through the waiting form", () => {
	it("a submit with a file reaches what the form collects; the event's answer takes no files", async () => {
		const sessionFile = session();
		let linked: (url: string) => void = () => {};
		const url = new Promise<string>((resolve) => (linked = resolve));
		const web = () => ({ address: "127.0.0.1", port: 0, texts: ENGLISH, warn: () => {}, sessionFile });
		const events: Array<{ answer?: (...args: unknown[]) => unknown }> = [];
		const surface = (_form: unknown, options: { link?: { url: string }; signal?: AbortSignal }) =>
			new Promise<Collected>((resolve) => {
				options.signal?.addEventListener("abort", () => resolve(emptyCollected("aborted")));
				linked(options.link?.url ?? "");
			});
		const emit = (_name: string, payload: unknown) => events.push(payload as (typeof events)[number]);
		const done = watchForms(surface, { emit, web })(form, {});
		const page = await url;
		const token = /name="ask-user" content="([^"]+)"/.exec(await (await fetch(page)).text())?.[1] ?? "";
		const post = (body: string) =>
			fetch(`${page}answer`, {
				method: "POST",
				headers: { "content-type": "application/json", "x-ask-user": token },
				body,
			});
		const tooBig = await post("x".repeat(MAX_BODY_BYTES + 1));
		expect(tooBig.status).toBe(413);
		expect(((await tooBig.json()) as { error: string }).error).toMatch(/the files of a form may take 25 MB in all/);
		// A file the limits refuse: the error at its path, and the catalogue's words the page shows.
		const big = Buffer.alloc(ATTACHMENT_LIMITS.fileBytes + 1, 0x61);
		const refused = await post(
			JSON.stringify({ questions: [{ chosen: [0] }, { other: "log", otherFiles: [file("big.log", big)] }] }),
		);
		expect(refused.status).toBe(400);
		expect(await refused.json()).toEqual({
			error: "questions[1].otherFiles[0]: a file of at most 10 MB (found 10.1 MB)",
			said: ENGLISH.t("web.fileTooLarge", { name: "big.log", size: "10.1 MB", limit: "10 MB" }),
		});
		const body = { questions: [{ chosen: [0] }, { other: "like this", otherFiles: [file("layout.png")] }] };
		expect((await post(JSON.stringify(body))).status).toBe(200);
		const collected = await done;
		expect(collected.answeredBy).toBe("the browser");
		expect(collected.attachments).toMatchObject([
			{ name: "layout.png", mime: "image/png", kind: "answer", questionId: "layout" },
		]);
		expect(dirname(collected.attachments?.[0]?.path ?? "")).toBe(attachmentsOf(sessionFile));
		// Another extension's answer carries the reply's fields only: a third argument is not passed on.
		const waiting = events.find((event) => typeof event.answer === "function");
		expect(waiting?.answer?.length).toBe(2);
	});
});
