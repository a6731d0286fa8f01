/** The dialog walker takes a file as the terminal's paste does: an editor's answer that is one path attaches it. */

import { mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ATTACHMENT_LIMITS } from "../src/core/attachment.ts";
import type { AskForm, AskQuestion } from "../src/core/types.ts";
import { ENGLISH } from "../src/i18n/texts.ts";
import { collectWithDialogs } from "../src/walker/walker.ts";
import { expectEveryScriptUsedUp, pick, scriptedDialogs, type } from "./support/fake-dialogs.ts";
import { PNG_1X1 } from "./support/images.ts";
import { ROW } from "./support/walker-rows.ts";

const db: AskQuestion = {
	id: "db",
	header: "DB",
	question: "Pick a db?",
	options: [
		{ label: "Postgres", value: "postgres", recommended: false },
		{ label: "SQLite", value: "sqlite", recommended: false },
	],
	multiSelect: false,
	allowOther: true,
	required: true,
};
const form: AskForm = { questions: [db] };

const cwd = mkdtempSync(join(tmpdir(), "ask-user-walker-files-"));
const shot = join(cwd, "my shot.png");
writeFileSync(shot, PNG_1X1);
writeFileSync(join(cwd, "README.md"), "# hi\n");

afterEach(expectEveryScriptUsedUp);

describe("a file in an answer through pi's dialogs", () => {
	it("a path written as one (quoted here) attaches the file; the editor opens again with the text as it was and lists it", async () => {
		const ui = scriptedDialogs([pick(ROW.freeText), type(`'${shot}'`), type("like this")]);
		const result = await collectWithDialogs(ui, form, { cwd });
		expect(result.status).toBe("answered");
		expect(result.answers["db"]?.selections).toEqual([{ value: "like this", label: "like this", custom: true }]);
		expect(result.attachments).toEqual([
			{ name: "my shot.png", path: shot, size: PNG_1X1.length, mime: "image/png", kind: "answer", questionId: "db" },
		]);
		const second = ui.calls[2];
		expect(second?.items).toEqual([""]);
		expect(second?.title).toContain(`📎 my shot.png ${PNG_1X1.length} B`);
	});

	it("a path that leads nowhere comes back as typed, the reason in the title; the same text again is the answer, as text", async () => {
		const ui = scriptedDialogs([pick(ROW.freeText), type("./gone.png"), type("./gone.png")]);
		const result = await collectWithDialogs(ui, form, { cwd });
		const again = ui.calls[2];
		expect(again?.items).toEqual(["./gone.png"]);
		expect(again?.title).toContain(`No such file: ${join(cwd, "gone.png")}.`);
		expect(again?.title).toContain(ENGLISH.t("walker.pathAsText"));
		expect(result.answers["db"]?.selections).toEqual([{ value: "./gone.png", label: "./gone.png", custom: true }]);
		expect(result.attachments).toBeUndefined();
	});

	it("a refused path, then an answer that is not text: the next editor says both, and no warning is left for later", async () => {
		const two: AskForm = { questions: [db, { ...db, id: "name", question: "Which name?" }] };
		const nothing = (() => null) as unknown as Parameters<typeof scriptedDialogs>[0][number];
		const steps = [pick(ROW.freeText), type("./gone.png"), nothing, type("./gone.png"), pick("1."), pick(ROW.submit)];
		const ui = scriptedDialogs(steps);
		const result = await collectWithDialogs(ui, two, { cwd });
		expect(result.status).toBe("answered");
		expect(ui.calls[3]?.title).toContain(ENGLISH.t("walker.pathAsText"));
		expect(ui.calls[3]?.title).toContain(ENGLISH.t("walker.notText"));
		expect(ui.calls[4]?.title).not.toContain(ENGLISH.t("walker.notText"));
		expect(result.answers["db"]?.selections).toEqual([{ value: "./gone.png", label: "./gone.png", custom: true }]);
	});

	it('a folder is an answer too: "/usr/local" for "Install where?" once it is given again unchanged', async () => {
		const where: AskForm = { questions: [{ ...db, id: "where", question: "Install where?", options: [] }] };
		const ui = scriptedDialogs([type(cwd), type(cwd)]);
		const result = await collectWithDialogs(ui, where, { cwd });
		expect(ui.calls[1]?.items).toEqual([cwd]);
		expect(ui.calls[1]?.title).toContain(`${cwd} is a folder, not a file`);
		expect(result.status).toBe("answered");
		expect(result.answers["where"]?.selections).toEqual([{ value: cwd, label: cwd, custom: true }]);
	});

	it("a file past a limit is refused with its reason and kept as typed; changed to another path, that one attaches", async () => {
		const big = join(cwd, "big.log");
		writeFileSync(big, "");
		truncateSync(big, ATTACHMENT_LIMITS.fileBytes + 1);
		const ui = scriptedDialogs([pick(ROW.freeText), type(big), type(`'${shot}'`), type("this one")]);
		const result = await collectWithDialogs(ui, form, { cwd });
		expect(ui.calls[2]?.items).toEqual([big]);
		expect(ui.calls[2]?.title).toContain("big.log is too large to attach");
		expect(ui.calls[2]?.title).toContain(ENGLISH.t("walker.pathAsText"));
		// The path was not the answer: the text the file goes with is asked for, the title free of the refusal.
		expect(ui.calls[3]?.items).toEqual([big]);
		expect(ui.calls[3]?.title).not.toContain(ENGLISH.t("walker.pathAsText"));
		expect(result.answers["db"]?.selections).toEqual([{ value: "this one", label: "this one", custom: true }]);
		expect(result.attachments).toMatchObject([{ name: "my shot.png", kind: "answer", questionId: "db" }]);
	});

	it("a bare name is text, even where such a file exists", async () => {
		const ui = scriptedDialogs([pick(ROW.freeText), type("README.md")]);
		const result = await collectWithDialogs(ui, form, { cwd });
		expect(result.answers["db"]?.selections).toEqual([{ value: "README.md", label: "README.md", custom: true }]);
		expect(result.attachments).toBeUndefined();
	});

	it("a note takes a file too; words are needed with it", async () => {
		const ui = scriptedDialogs([pick(ROW.note), type(`"${shot}"`), type(""), type("see the corner"), pick("1.")]);
		const result = await collectWithDialogs(ui, form, { cwd });
		// The way out a host has: no dialog removes a file, so it says to cancel and choose instead.
		expect(ui.calls[3]?.title).toContain(
			"Write a few words with the attached files; to answer without them, cancel this editor and choose an option.",
		);
		expect(ui.calls[3]?.title).not.toContain("remove them");
		expect(result.notes).toEqual([{ questionId: "db", text: "see the corner" }]);
		expect(result.attachments).toMatchObject([{ name: "my shot.png", kind: "note", questionId: "db" }]);
	});
});
