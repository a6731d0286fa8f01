/**
 * Files in an answer, below the TUI: a paste read as one path (core/attachment.ts), the type a file's bytes give it,
 * the limits and where files belong (machine/attach.ts), a path read from the disk (core/pasted-file.ts), the form's keys
 * (component with pi-tui's real Editor), the saved answers, and delivery to the model (tool/attachments.ts).
 */

import fc from "fast-check";
import {
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	truncateSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setKeybindings } from "@mariozechner/pi-tui";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import {
	ATTACHMENT_LIMITS,
	type AskAttachment,
	attachmentMime,
	base64Length,
	decodedLength,
	formatSize,
	megabytes,
	parsePastedPath,
	sniffImageMime,
} from "../src/core/attachment.ts";
import { type AskForm, type ClipboardPaste, type Collected, type Phrase, phrase } from "../src/core/types.ts";
import { readPastedFile } from "../src/core/pasted-file.ts";
import { AskFormComponent } from "../src/form/component.ts";
import { attach, collectAttachments, detach } from "../src/machine/attach.ts";
import { answeredState, restoredState, savedAnswers } from "../src/machine/saved.ts";
import { collect } from "../src/machine/collect.ts";
import { initialState, update } from "../src/machine/update.ts";
import { deliverAttachments, UNRESIZED_IMAGE_BYTES } from "../src/tool/attachments.ts";
import { clipboardName } from "../src/tool/clipboard.ts";
import { formatResultText } from "../src/tool/result.ts";
import { ENGLISH } from "../src/i18n/texts.ts";
import { quietTui } from "./form/fake-terminal.ts";
import { formOf, KEY, piKeybindings, plainTheme, question } from "./form/support.ts";
import { solidPng } from "./support/images.ts";

const BASE = { cwd: "/work/project", home: "/home/ada" };
const dir = mkdtempSync(join(tmpdir(), "ask-user-attach-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => setKeybindings(piKeybindings()));

const PNG = solidPng(3, 2, [0, 128, 0]);

describe("a paste read as one path", () => {
	test.each([
		["'/a b/c.png'", "/a b/c.png"],
		['"/a b/c.png"', "/a b/c.png"],
		["/a\\ b/c.png", "/a b/c.png"],
		["file:///a%20b/c.png", "/a b/c.png"],
		["file://localhost/tmp/x.log", "/tmp/x.log"],
		["~/shots/x.png", "/home/ada/shots/x.png"],
		["./x.png", "/work/project/x.png"],
		["../up/x.png", "/work/up/x.png"],
		["x.png", undefined],
		["  /trimmed.png \n", "/trimmed.png"],
	])("%s is %s", (paste, path) => {
		expect(parsePastedPath(paste, BASE)).toBe(path);
	});

	test.each(["", "two words", "/a\n/b", "file://elsewhere/x.png", "'/unclosed", "/a\\", "'it's'", "file:///%zz"])(
		"%j is no path",
		(paste) => {
			expect(parsePastedPath(paste, BASE)).toBeUndefined();
		},
	);

	test("any absolute path, quoted or escaped as terminals paste a dropped file, reads back as itself", () => {
		const segment = fc.stringMatching(/^[\p{L}\p{N} ._()\-]{1,12}$/u).filter((s) => s !== "." && s !== "..");
		fc.assert(
			fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (parts) => {
				const path = `/${parts.join("/")}`;
				fc.pre(path === path.trim());
				expect(parsePastedPath(`'${path}'`, BASE)).toBe(path);
				expect(parsePastedPath(`"${path}"`, BASE)).toBe(path);
				expect(parsePastedPath(path.replace(/ /g, "\\ "), BASE)).toBe(path);
				expect(parsePastedPath(`file://${encodeURI(path)}`, BASE)).toBe(path);
			}),
		);
	});
});

describe("what a file is", () => {
	test("images by their first bytes; a file that claims to be an image and is not, a file", () => {
		expect(sniffImageMime(PNG)).toBe("image/png");
		expect(sniffImageMime(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
		expect(sniffImageMime(Buffer.from("GIF89a"))).toBe("image/gif");
		expect(sniffImageMime(Buffer.from("RIFF\0\0\0\0WEBP"))).toBe("image/webp");
		expect(attachmentMime("shot.png", Buffer.from("not an image"))).toBe("application/octet-stream");
		expect(attachmentMime("error.log", Buffer.from("boom"))).toBe("text/plain");
		expect(attachmentMime("photo.JPG", PNG)).toBe("image/png");
		expect(attachmentMime("no-extension", Buffer.from("x"))).toBe("application/octet-stream");
	});

	test.each([
		[0, "0 B"],
		[1023, "1023 B"],
		[1024, "1 KB"],
		[421_888, "412 KB"],
		[3.4 * 1024 * 1024, "3.4 MB"],
	])("%d bytes read as %s", (bytes, shown) => {
		expect(formatSize(bytes)).toBe(shown);
	});
});

describe("a file's bytes in base64, and its size against a limit", () => {
	test("decodedLength: the bytes sound base64 holds; undefined for a bad length, character or padding", () => {
		fc.assert(
			fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
				const data = Buffer.from(bytes).toString("base64");
				expect(data.length).toBe(base64Length(bytes.length));
				expect(decodedLength(data)).toBe(bytes.length);
			}),
		);
		for (const data of ["Q", "QQ", "QQ=", "QUJDR", "QUJD=", "Q===", "====", "QU=D", "QU-D", "QUJD\n"])
			expect(decodedLength(data)).toBeUndefined();
	});

	test("megabytes: up to the next tenth, so one byte over never reads as the limit", () => {
		expect(megabytes(10 * 1024 * 1024)).toBe("10 MB");
		expect(megabytes(10 * 1024 * 1024 + 1)).toBe("10.1 MB");
		expect(megabytes(25 * 1024 * 1024)).toBe("25 MB");
		expect(megabytes(1)).toBe("0.1 MB");
	});
});

const FORM: AskForm = formOf(question("db"), question("cli"));
const file = (name: string, size = 10, mime = "text/plain"): AskAttachment => ({
	name,
	path: `/f/${name}`,
	size,
	mime,
});
/** The state with the free answer of question 0 open in the editor. */
const editing = () => update(initialState(FORM), { type: "openQuestionNote" });

describe("the limits, and where files belong", () => {
	test("at most 4 per answer and 10 per form; each within its size; in all within 25 MB", () => {
		let state = editing();
		for (const n of [1, 2, 3, 4]) state = attach(state, file(`${n}.txt`));
		const full = attach(state, file("5.txt"));
		expect(full.message?.text).toEqual(phrase("attach.answerFull", { limit: 4 }));
		expect(Object.values(full.attachments).flat()).toHaveLength(4);

		const big = attach(editing(), file("big.log", ATTACHMENT_LIMITS.fileBytes + 1));
		expect(big.message?.text).toMatchObject({ key: "attach.tooLarge", params: { name: "big.log", limit: "10 MB" } });
		// An image may be larger: pi brings it within its limits.
		const photo = attach(editing(), file("photo.png", 15 * 1024 * 1024, "image/png"));
		expect(Object.values(photo.attachments).flat()).toHaveLength(1);
		const heavy = attach(photo, file("second.png", 15 * 1024 * 1024, "image/png"));
		expect(heavy.message?.text).toMatchObject({ key: "attach.totalTooLarge" });
	});

	test("the same file again is there once, with no warning, even at the limit", () => {
		let state = attach(editing(), file("1.txt"));
		expect(attach(state, file("1.txt"))).toBe(state);
		for (const n of [2, 3, 4]) state = attach(state, file(`${n}.txt`));
		const again = attach(state, file("4.txt"));
		expect(again).toBe(state);
		expect(again.message).toBeUndefined();
	});

	test("the 11th file of a form is refused, wherever it goes", () => {
		let state = initialState(FORM);
		const open = (action: Parameters<typeof update>[1]) => {
			state = update(state, action);
		};
		for (const q of [0, 1]) {
			if (q === 1) open({ type: "switchTab", delta: 1 });
			open({ type: "openQuestionNote" });
			for (let n = 0; n < 4; n++) state = attach(state, file(`${q}-${n}.txt`));
			open({ type: "editorSubmitted", text: "see the files" });
		}
		expect(Object.values(state.attachments).flat()).toHaveLength(8);
		open({ type: "openNote" });
		state = attach(state, file("9.txt"));
		state = attach(state, file("10.txt"));
		expect(attach(state, file("11.txt")).message?.text).toEqual(phrase("attach.formFull", { limit: 10 }));
	});

	test("files go with the words they illustrate: no blank save over them, none collected without saved text", () => {
		let state = attach(editing(), file("a.txt"));
		const blank = update(state, { type: "editorSubmitted", text: "   " });
		expect(blank.message?.text).toEqual(phrase("attach.needsText"));
		expect(blank.overlay.kind).toBe("editor");
		expect(collectAttachments(state)).toEqual([]);
		state = update(state, { type: "editorSubmitted", text: "this one" });
		expect(collectAttachments(state)).toEqual([{ ...file("a.txt"), kind: "note", questionId: "db" }]);
	});

	test("detach lets go of the last file, and of nothing when there is none", () => {
		const two = attach(attach(editing(), file("a.txt")), file("b.txt"));
		const one = detach(two);
		expect(
			Object.values(one.attachments)
				.flat()
				.map((f) => f.name),
		).toEqual(["a.txt"]);
		expect(detach(detach(one)).attachments).toEqual({});
		const none = editing();
		expect(detach(none)).toBe(none);
	});

	test("a submitted form kept for a revision comes back with its files on the answers and notes they went with", () => {
		const form = formOf(question("db"), question("cli"));
		let state = initialState(form);
		const act = (action: Parameters<typeof update>[1]) => {
			state = update(state, action);
		};
		act({ type: "openQuestionNote" });
		state = attach(state, file("on-question.txt"));
		act({ type: "editorSubmitted", text: "see the file" });
		act({ type: "openNote" });
		state = attach(state, file("on-alpha.txt"));
		act({ type: "editorSubmitted", text: "and this" });
		const submitted = collect(state, "answered");
		expect(submitted.attachments?.map((f) => f.name)).toEqual(["on-question.txt", "on-alpha.txt"]);
		const kept = JSON.parse(JSON.stringify(answeredState(form, submitted)));
		const restored = restoredState(form, kept);
		expect(restored && collect(restored, "answered").attachments).toEqual(submitted.attachments);
	});

	test("saved answers keep the files; damaged ones are refused", () => {
		const state = attach(editing(), file("a.txt"));
		const saved = JSON.parse(JSON.stringify(savedAnswers(state, "typed")));
		expect(restoredState(FORM, saved)?.attachments).toEqual(state.attachments);
		for (const damaged of [
			{ ...saved, attachments: { nowhere: [file("a.txt")] } },
			{ ...saved, attachments: { "questionNote:0": [{ name: "a.txt", path: "relative", size: 1, mime: "x" }] } },
			{ ...saved, attachments: { "questionNote:0": [{ ...file("a.txt"), size: -1 }] } },
			{ ...saved, attachments: { "questionNote:0": Array.from({ length: 5 }, (_, n) => file(`${n}`)) } },
		])
			expect(restoredState(FORM, damaged)).toBeUndefined();
	});
});

describe("a path read from the disk", () => {
	const at = (name: string) => join(dir, name);
	writeFileSync(at("shot.png"), PNG);
	writeFileSync(at("fake.png"), "text, not an image");
	mkdirSync(at("folder"));

	test("a file: its name, absolute path, size and type", () => {
		expect(readPastedFile(`'${at("shot.png")}'`, "/", "/")).toEqual({
			file: { name: "shot.png", path: at("shot.png"), size: PNG.length, mime: "image/png" },
		});
		expect(readPastedFile("./fake.png", dir, "/")).toEqual({
			file: { name: "fake.png", path: at("fake.png"), size: 18, mime: "application/octet-stream" },
		});
	});

	test("an explicit path that leads nowhere is refused with its reason; a bare word that names no file is just text", () => {
		expect(readPastedFile(at("missing.png"), "/", "/")).toEqual({
			refused: phrase("attach.missing", { path: at("missing.png") }),
		});
		expect(readPastedFile(`${at("shot.png")}/inside`, "/", "/")).toMatchObject({ refused: { key: "attach.missing" } });
		expect(readPastedFile(at("folder"), "/", "/")).toMatchObject({ refused: { key: "attach.directory" } });
		expect(readPastedFile("/dev/null", "/", "/")).toMatchObject({ refused: { key: "attach.notFile" } });
		// One that cannot be read (a link that leads to itself: even root cannot read it) says why, by its code.
		symlinkSync(at("loop"), at("loop"));
		expect(readPastedFile(at("loop"), "/", "/")).toEqual({
			refused: phrase("attach.unreadable", { path: at("loop"), reason: "ELOOP" }),
		});
		expect(readPastedFile("missing.png", dir, "/")).toBeUndefined();
		expect(readPastedFile("folder", dir, "/")).toBeUndefined();
	});
});

describe("the form's keys for files", () => {
	function mount(extra: Partial<ConstructorParameters<typeof AskFormComponent>[0]> = {}) {
		const { tui } = quietTui(80, 30);
		const done = vi.fn<(collected: Collected) => void>();
		const component = new AskFormComponent({
			tui,
			theme: plainTheme,
			keybindings: piKeybindings(),
			form: formOf(question("db")),
			onDone: done,
			cwd: dir,
			...extra,
		});
		const press = (...keys: string[]) => {
			for (const key of keys) component.handleInput(key);
		};
		const screen = () => component.render(80).join("\n");
		return { component, done, press, screen };
	}
	const CTRL_V = "\x16";
	const HOME = "\x01";

	test("a pasted path attaches its file under the text; Backspace at the start lets go of it; the answer carries it", () => {
		const form = mount();
		form.press("4", ..."see", KEY.paste(join(dir, "shot.png")));
		expect(form.screen()).toContain(`📎 shot.png ${PNG.length} B`);
		expect(form.screen()).not.toContain(dir);
		// Backspace after the text deletes a character; at the text's start the file goes.
		form.press(KEY.backspace);
		expect(form.screen()).toContain("📎 shot.png");
		form.press(HOME, KEY.backspace);
		expect(form.screen()).not.toContain("📎");
		form.press(KEY.paste(join(dir, "shot.png")), KEY.enter);
		const collected = form.done.mock.calls[0]?.[0];
		expect(collected?.attachments).toEqual([
			{
				name: "shot.png",
				path: join(dir, "shot.png"),
				size: PNG.length,
				mime: "image/png",
				kind: "answer",
				questionId: "db",
			},
		]);
	});

	test("a refused paste is typed, and the form says why", () => {
		const form = mount();
		form.press("4", KEY.paste(join(dir, "folder")));
		expect(form.screen()).toContain("is a folder, not a file");
		form.press(KEY.enter);
		expect(form.done.mock.calls[0]?.[0].answers["db"]?.selections[0]?.label).toBe(join(dir, "folder"));
	});

	test("pi's paste-image key attaches what the clipboard reader gives; without a reader it says how else", async () => {
		const image = file("clipboard-20261204-181502.png", 99, "image/png");
		const form = mount({ pasteImage: async () => ({ file: image, discard: () => {} }) });
		form.press("4", ..."look", CTRL_V);
		await vi.waitFor(() => expect(form.screen()).toContain("📎 clipboard-20261204-181502.png 99 B"));

		const none = mount();
		none.press("4", CTRL_V);
		await vi.waitFor(() => expect(none.screen()).toContain(ENGLISH.t("attach.noClipboard").slice(0, 40)));

		const empty = mount({ pasteImage: async () => ({ refused: phrase("attach.clipboardEmpty") }) });
		empty.press("4", CTRL_V);
		await vi.waitFor(() => expect(empty.screen()).toContain("The clipboard holds no image"));
	});

	test("the reader checks an image against the limits before anything is saved", async () => {
		let asked: Phrase | undefined;
		const form = mount({
			pasteImage: async (refusal) => {
				asked = refusal(file("huge.png", 30 * 1024 * 1024, "image/png"));
				return { refused: asked ?? phrase("attach.clipboardEmpty") };
			},
		});
		form.press("4", ..."x", CTRL_V);
		await vi.waitFor(() =>
			expect(form.screen()).toContain("huge.png is too large to attach (30 MB, the limit is 20 MB)."),
		);
		expect(asked).toMatchObject({ key: "attach.tooLarge" });
	});

	test.each([
		["the editor saved", KEY.enter],
		["the form aborted", "abort"],
	])("a clipboard read that ends after %s attaches nothing, and its copy is removed", async (_what, ending) => {
		let resolve: (value: ClipboardPaste) => void = () => {};
		const discard = vi.fn();
		const form = mount({ pasteImage: () => new Promise((r) => (resolve = r)) });
		form.press("4", ..."x", CTRL_V);
		if (ending === "abort") form.component.abort();
		else form.press(ending);
		expect(form.done).toHaveBeenCalledTimes(1);
		resolve({ file: file("late.png", 5, "image/png"), discard });
		await vi.waitFor(() => expect(discard).toHaveBeenCalledTimes(1));
		expect(form.done.mock.calls[0]?.[0].attachments).toBeUndefined();
		expect(form.screen()).not.toContain("late.png");
	});

	test("a read that fails says why in the form, and nothing reaches pi", async () => {
		const form = mount({
			pasteImage: async () => {
				throw new Error("the display went away");
			},
		});
		form.press("4", CTRL_V);
		await vi.waitFor(() => expect(form.screen()).toContain("the display went away"));
	});

	test("a pasted bare word is typed, even where a file has that name; a path written as one attaches", () => {
		const form = mount();
		form.press("4", KEY.paste("shot.png"));
		expect(form.screen()).not.toContain("📎");
		form.press(KEY.paste("./shot.png"));
		expect(form.screen()).toContain("📎 shot.png");
	});
});

describe("delivery to the model", () => {
	const session = join(dir, "sessions", "s.jsonl");
	mkdirSync(join(dir, "sessions"));
	writeFileSync(join(dir, "log.txt"), "a log line\n");
	const collected = (attachments: Collected["attachments"]): Collected => ({
		status: "answered",
		answers: { db: { kind: "single", selections: [{ value: "like this", label: "like this", custom: true }] } },
		skipped: [],
		notes: [],
		attachments,
	});
	const onDb = (name: string, mime: string, size: number) => ({
		name,
		path: join(dir, name),
		size,
		mime,
		kind: "answer" as const,
		questionId: "db",
	});

	test("each file copied 0600 beside the session; an image as image content for a model that reads images", async () => {
		const { collected: out, images } = await deliverAttachments(
			collected([onDb("shot.png", "image/png", PNG.length), onDb("log.txt", "text/plain", 11)]),
			{ sessionFile: session, takesImages: true },
			null,
		);
		expect(images).toEqual([{ type: "image", data: PNG.toString("base64"), mimeType: "image/png" }]);
		const [shot, log] = out.attachments ?? [];
		expect(shot?.sent).toBe("image");
		expect(log?.sent).toBe("path");
		for (const copy of [shot, log]) {
			expect(copy?.path.startsWith(join(dir, "sessions", "s.jsonl.ask-user", "attachments"))).toBe(true);
			expect(statSync(copy?.path ?? "").mode & 0o777).toBe(0o600);
		}
		expect(readFileSync(log?.path ?? "", "utf8")).toBe("a log line\n");
		const text = formatResultText(formOf(question("db")), out);
		expect(text).toContain('db: wrote "like this" + 📎 shot.png (image) + 📎 log.txt (file, 11 B)');
		expect(text).toContain(`📎 log.txt (text/plain, 11 B) saved at "${log?.path}": read it with your tools`);
	});

	test("a model without images gets the path; pi's resizing is used where it can fit the image, else the path", async () => {
		const files = collected([onDb("shot.png", "image/png", PNG.length)]);
		const textOnly = await deliverAttachments(files, { sessionFile: session, takesImages: false }, undefined);
		expect(textOnly.images).toEqual([]);
		expect(textOnly.collected.attachments?.[0]?.sent).toBe("path");
		const resized = await deliverAttachments(files, { sessionFile: session, takesImages: true }, async () => ({
			data: "c21hbGw=",
			mimeType: "image/jpeg",
		}));
		expect(resized.images).toEqual([{ type: "image", data: "c21hbGw=", mimeType: "image/jpeg" }]);
		const unfit = await deliverAttachments(files, { sessionFile: session, takesImages: true }, async () => null);
		expect(unfit.images).toEqual([]);
		expect(unfit.collected.attachments?.[0]?.sent).toBe("path");
	});

	test("pi 1.x's own resizing, for real, gives the model a PNG it can read", async () => {
		const pi = (await import("@mariozechner/pi-coding-agent")) as { resizeImage?: unknown };
		expect(typeof pi.resizeImage).toBe("function");
		const { images } = await deliverAttachments(collected([onDb("shot.png", "image/png", PNG.length)]), {
			sessionFile: session,
			takesImages: true,
		});
		expect(images).toHaveLength(1);
		expect(sniffImageMime(Buffer.from(images[0]?.data ?? "", "base64"))).toBe(images[0]?.mimeType);
	});

	test("a file gone or grown past the limits is named as not saved, with why; the files after it still go", async () => {
		const grown = join(dir, "grown.log");
		writeFileSync(grown, "");
		truncateSync(grown, ATTACHMENT_LIMITS.fileBytes + 5);
		const files = [
			onDb("gone.txt", "text/plain", 3),
			{ ...onDb("grown.log", "text/plain", 4), path: grown },
			onDb("log.txt", "text/plain", 11),
		];
		const { collected: out } = await deliverAttachments(collected(files), { sessionFile: session, takesImages: true });
		const [gone, big, log] = out.attachments ?? [];
		expect(gone?.error).toMatch(/ENOENT/);
		expect(big?.error).toBe("it grew since it was attached: it is over the 10 MB limit for a file");
		expect(big?.size).toBe(ATTACHMENT_LIMITS.fileBytes + 5);
		expect(log?.error).toBeUndefined();
		const text = formatResultText(formOf(question("db")), out);
		expect(text).toContain("📎 gone.txt: could not be saved");
		expect(text).toContain('📎 grown.log: could not be saved (error: "it grew since it was attached');
	});

	test("an attachments folder that is a planted link is not followed: nothing is saved through it", async () => {
		const elsewhere = mkdtempSync(join(tmpdir(), "ask-user-elsewhere-"));
		const planted = join(dir, "planted.jsonl");
		mkdirSync(`${planted}.ask-user`, { recursive: true });
		symlinkSync(elsewhere, `${planted}.ask-user/attachments`);
		const { collected: out } = await deliverAttachments(collected([onDb("log.txt", "text/plain", 11)]), {
			sessionFile: planted,
			takesImages: false,
		});
		expect(out.attachments?.[0]?.error).toMatch(/is not a folder of its own/);
		expect(readdirSync(elsewhere)).toEqual([]);
		rmSync(elsewhere, { recursive: true, force: true });
	});

	test("without pi's resizing, an image goes as it is only up to 4 MB; a larger one as its path", async () => {
		const large = Buffer.concat([PNG, Buffer.alloc(UNRESIZED_IMAGE_BYTES)]);
		writeFileSync(join(dir, "large.png"), large);
		const files = [onDb("shot.png", "image/png", PNG.length), onDb("large.png", "image/png", large.length)];
		const { collected: out, images } = await deliverAttachments(
			collected(files),
			{ sessionFile: session, takesImages: true },
			null,
		);
		expect(images).toHaveLength(1);
		expect(out.attachments?.map((f) => f.sent)).toEqual(["image", "path"]);
	});
});

describe("the clipboard image's name", () => {
	test("when it was pasted; pastes in one second each have a name of their own", () => {
		const names = [1, 2, 3].map(() => clipboardName("image/png"));
		for (const name of names) expect(name).toMatch(/^clipboard-\d{8}-\d{6}(-\d)?\.png$/);
		expect(new Set(names).size).toBe(3);
		expect(clipboardName("image/jpeg")).toMatch(/\.jpg$/);
	});
});
