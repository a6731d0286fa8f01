import { afterEach, describe, expect, it, vi } from "vitest";
import { collectWithDialogs, type DialogUI, type WalkOptions } from "../src/walker/walker.ts";
import { ROW } from "./support/walker-rows.ts";
import { rowTexts } from "../src/walker/views.ts";
import { EVERY_LOCALE } from "./support/locales.ts";
import {
	type AskAnswer,
	type AskForm,
	type AskProgress,
	type AskQuestion,
	type Collected,
	phrase,
} from "../src/core/types.ts";
import { answeredState } from "../src/machine/saved.ts";
import {
	cancel,
	type DialogStep,
	expectEveryScriptUsedUp,
	pick,
	scriptedDialogs,
	type,
} from "./support/fake-dialogs.ts";

function question(id: string, labels: string[], extra: Partial<AskQuestion> = {}): AskQuestion {
	return {
		id,
		header: id.toUpperCase(),
		question: `Pick a ${id}?`,
		options: labels.map((label) => ({ label, value: label.toLowerCase(), recommended: false })),
		multiSelect: false,
		allowOther: true,
		required: true,
		...extra,
	};
}

const db = question("db", ["Postgres", "SQLite"], { context: "We have 3 services." });
const features = question("features", ["Auth", "Billing", "Search"], { multiSelect: true });
const name = question("name", ["Keep", "Rename"], { required: false });

const form = (...questions: AskQuestion[]): AskForm => ({ questions });

/** The db question with these options, each with its preview where one is given. */
const previewedDb = (previews: Record<string, string | undefined>): AskQuestion => {
	const asked = question("db", Object.keys(previews));
	return {
		...asked,
		options: asked.options.map((o) => ({ ...o, ...(previews[o.label] && { preview: previews[o.label] }) })),
	};
};

/** The walk, failing on an `error` result: the walker turns any throw (a script that does not fit) into one. */
async function walk(ui: DialogUI, asked: AskForm, options?: WalkOptions): Promise<Collected> {
	const result = await collectWithDialogs(ui, asked, options);
	expect(result.error, "an unexpected error result").toBeUndefined();
	expect(result.status).not.toBe("error");
	return result;
}

afterEach(expectEveryScriptUsedUp);

describe("the dialog walker", () => {
	it("one single-select question: choosing an option answers and submits without a review", async () => {
		const ui = scriptedDialogs([pick("2.")]);
		const result = await walk(ui, form(db));
		expect(result).toEqual({
			status: "answered",
			answers: { db: { kind: "single", selections: [{ value: "sqlite", label: "SQLite" }] } },
			skipped: [],
			notes: [],
		});
		expect(ui.calls[0]?.title).toContain("Pick a db?");
		expect(ui.calls[0]?.title).toContain("We have 3 services.");
		expect(ui.remaining()).toBe(0);
	});

	it("offers the options as their labels, then the free-text row, You decide and a note row; no Back on the first question", async () => {
		const ui = scriptedDialogs([pick("1.")]);
		await walk(ui, form(db));
		expect(ui.calls[0]?.items).toEqual(["Postgres", "SQLite", ROW.freeText, ROW.youDecide, ROW.note, ROW.chat]);
	});

	it("reads as a host's prompt: the question first, then the header, the position and the asker; the recommended option is the first row", async () => {
		const recommended = question("db", ["Postgres", "SQLite"], {
			options: [
				{ label: "Postgres", value: "pg", recommended: false, description: "Runs in production" },
				{ label: "SQLite", value: "sqlite", recommended: true },
			],
		});
		const ui = scriptedDialogs([pick("1."), pick("1."), pick(ROW.submit)]);
		const result = await walk(ui, form(recommended, name), { asker: "scout" });
		const [first, ...rest] = ui.calls[0]?.title.split("\n") ?? [];
		expect(first).toBe("Pick a db?");
		expect(rest).toEqual(["DB · 1 of 2 · asked by scout", "• Postgres — Runs in production", "• SQLite (recommended)"]);
		expect(ui.calls[0]?.items.slice(0, 2)).toEqual(["SQLite", "Postgres"]);
		// The host's default (its first button) took the recommendation.
		expect(result.answers.db?.selections[0]?.label).toBe("SQLite");
		expect(ui.calls[1]?.title.split("\n")[1]).toBe("NAME · 2 of 2 · optional · asked by scout");
	});

	it("You decide is a choice of its own: it leaves the question to the model, the review says so, Back can change it", async () => {
		const ui = scriptedDialogs([
			pick(ROW.youDecide),
			pick(ROW.youDecide),
			pick(ROW.back),
			pick(ROW.done),
			pick(ROW.submit),
		]);
		const result = await walk(ui, form(db, features));
		expect(result).toMatchObject({ status: "answered", answers: {}, skipped: [], delegated: ["db", "features"] });
		expect(ui.calls[2]?.title).toContain("FEATURES: left to the model");
		// Back on the review: the question says what was chosen, and Done keeps it.
		expect(ui.calls[3]?.title).toContain("Selected: left to the model");
	});

	it("a host without text dialogs still offers You decide; a form from a child that reads relay v1 offers it on optional questions only", async () => {
		const host = scriptedDialogs([pick(ROW.youDecide)]);
		expect((await walk(host, form(db), { host: { choiceOnly: true } })).delegated).toEqual(["db"]);
		expect(host.calls[0]?.items).toEqual(["Postgres", "SQLite", ROW.youDecide]);
		const v1 = scriptedDialogs([pick("1."), pick(ROW.youDecide), pick(ROW.submit)]);
		const result = await walk(v1, form(db, name), { replyVersion: 1 });
		expect(v1.calls[0]?.items).not.toContain(ROW.youDecide);
		expect(result.delegated).toEqual(["name"]);
		const off = scriptedDialogs([pick("1.")]);
		await walk(off, form(db), { youDecide: false });
		expect(off.calls[0]?.items).not.toContain(ROW.youDecide);
	});

	it("a question's title says the model's reason and the asker's task (its start)", async () => {
		const ui = scriptedDialogs([pick("1.")]);
		const why = { ...form(db), reason: "The schema \u001b[31mdepends on it." };
		await walk(ui, why, { asker: "scout", task: `pick a database ${"and more ".repeat(40)}` });
		const lines = ui.calls[0]?.title.split("\n") ?? [];
		expect(lines.slice(0, 3)).toEqual(["Pick a db?", "We have 3 services.", "Why: The schema depends on it."]);
		expect(lines[3]).toMatch(/^Task: pick a database and more .*…$/);
		expect([...(lines[3] ?? "")].length).toBeLessThanOrEqual(206);
		expect(lines[4]).toBe("DB · asked by scout");
	});

	it("an option whose label reads like one of the walker's rows stays a row of its own", async () => {
		const tricky = question("db", [ROW.freeText, ROW.done]);
		const ui = scriptedDialogs([pick("2.")]);
		const result = await walk(ui, form(tricky));
		expect(new Set(ui.calls[0]?.items).size).toBe(ui.calls[0]?.items.length);
		expect(result.answers.db?.selections[0]?.label).toBe(ROW.done);
	});

	it("walks three questions, multi-select with Done, Skip on the optional one, then submits from the review", async () => {
		const ui = scriptedDialogs([pick("1."), pick("1."), pick("3."), pick(ROW.done), pick(ROW.skip), pick(ROW.submit)]);
		const result = await walk(ui, form(db, features, name));
		expect(result.status).toBe("answered");
		expect(result.answers).toEqual({
			db: { kind: "single", selections: [{ value: "postgres", label: "Postgres" }] },
			features: {
				kind: "multi",
				selections: [
					{ value: "auth", label: "Auth" },
					{ value: "search", label: "Search" },
				],
			},
		});
		expect(result.skipped).toEqual(["name"]);
		expect(ui.calls[1]?.items.slice(0, 3)).toEqual(["Auth", "Billing", "Search"]);
		expect(ui.calls[1]?.title).toContain("Pick one or more, then Done.");
		expect(ui.calls[2]?.title).toContain("Selected: Auth");
		expect(ui.calls[5]?.title).toContain("FEATURES: Auth, Search");
		expect(ui.calls[5]?.title).toContain("NAME: (skipped)");
	});

	it("toggling a multi-select option twice removes it again", async () => {
		const ui = scriptedDialogs([pick("2."), pick("2."), pick("1."), pick(ROW.done)]);
		const result = await walk(ui, form(features));
		expect(result.answers.features?.selections.map((s) => s.label)).toEqual(["Auth"]);
	});

	it("Done with nothing picked on a required multi-select question asks again with a hint", async () => {
		const ui = scriptedDialogs([pick(ROW.done), pick("1."), pick(ROW.done)]);
		const result = await walk(ui, form(features));
		expect(ui.calls[1]?.title).toContain("Pick at least one");
		expect(result.status).toBe("answered");
	});

	it("free text is kept exactly as typed, newlines and spaces included", async () => {
		const text = '  two\nlines "quoted" 🎉  ';
		const ui = scriptedDialogs([pick(ROW.freeText), type(text)]);
		const result = await walk(ui, form(db));
		expect(result.answers.db).toEqual({ kind: "single", selections: [{ value: text, label: text, custom: true }] });
	});

	it("free text on a multi-select question is one more selection, after the chosen options", async () => {
		const ui = scriptedDialogs([pick(ROW.freeText), type("Audit log"), pick("2."), pick(ROW.done)]);
		const result = await walk(ui, form(features));
		expect(result.answers.features?.selections).toEqual([
			{ value: "billing", label: "Billing" },
			{ value: "Audit log", label: "Audit log", custom: true },
		]);
	});

	it("a text over 4000 units is refused with a message and offered again intact, never clipped", async () => {
		const long = "x".repeat(4001);
		const ui = scriptedDialogs([pick(ROW.freeText), type(long), (call) => (call.items[0] === long ? "short" : "LOST")]);
		const result = await walk(ui, form(db));
		expect(ui.calls[2]?.title).toContain("Too long: 4001 characters, the limit is 4000");
		expect(result.answers.db?.selections[0]?.label).toBe("short");
	});

	it("a refused text the user then cancels is kept as a draft: offered again as the prefill, reported on dismiss", async () => {
		const long = "x".repeat(4001);
		const ui = scriptedDialogs([pick("1."), pick(ROW.note), type(long), cancel, pick(ROW.note), cancel, cancel]);
		const result = await walk(ui, form(db, name));
		expect(ui.calls[5]).toMatchObject({ method: "editor", items: [long] });
		expect(result.status).toBe("dismissed");
		expect(result.answers.db?.selections[0]?.label).toBe("Postgres");
		expect(result.notes).toEqual([]);
		expect(result.drafts).toEqual([{ questionId: "name", kind: "note", text: long }]);
	});

	it("the review says a submit drops the unsaved text, and a submit does", async () => {
		const long = "y".repeat(4002);
		const ui = scriptedDialogs([pick("1."), pick(ROW.freeText), type(long), cancel, pick(ROW.skip), pick(ROW.submit)]);
		const result = await walk(ui, form(db, name));
		expect(ui.calls.at(-1)?.title).toContain("⚠ 1 text over the limit was not saved; Submit drops it.");
		expect(result.status).toBe("answered");
		expect(result).not.toHaveProperty("drafts");
	});

	it("one question with a refused text pending shows the review before it submits, instead of dropping it unsaid", async () => {
		const long = "z".repeat(4001);
		const ui = scriptedDialogs([pick(ROW.freeText), type(long), cancel, pick("1."), pick(ROW.submit)]);
		const result = await walk(ui, form(db));
		expect(ui.calls.at(-1)?.title).toContain("⚠ 1 text over the limit was not saved; Submit drops it.");
		expect(result.status).toBe("answered");
		expect(result).not.toHaveProperty("drafts");
		// Without one, one question still submits on its answer.
		const plain = scriptedDialogs([pick("1.")]);
		expect((await walk(plain, form(db))).status).toBe("answered");
		expect(plain.calls).toHaveLength(1);
	});

	it("a stray answer on the review of a submit that would drop a text asks again, and does not submit", async () => {
		const long = "z".repeat(4001);
		const ui = scriptedDialogs([pick(ROW.freeText), type(long), cancel, pick("1."), () => "Submit", pick(ROW.submit)]);
		const result = await walk(ui, form(db));
		expect(ui.calls.at(-1)?.title).toContain("not one of the rows");
		expect(ui.calls.at(-1)?.title).toContain("Submit drops it.");
		expect(result.status).toBe("answered");
	});

	it("an abort while a refused text is offered again keeps it as a draft", async () => {
		const controller = new AbortController();
		const long = "z".repeat(4001);
		let edits = 0;
		const ui = {
			select: async (_title: string, rows: string[]) => rows.find((r) => r === ROW.freeText),
			editor: async () => {
				if (edits++ === 0) return long;
				controller.abort();
				return new Promise<string | undefined>(() => {});
			},
		};
		const result = await walk(ui, form(db), { signal: controller.signal });
		expect(result.status).toBe("aborted");
		expect(result.drafts).toEqual([{ questionId: "db", kind: "answer", text: long }]);
	});

	it("cancelling the editor returns to the question and keeps the earlier custom answer", async () => {
		const ui = scriptedDialogs([
			pick(ROW.freeText),
			type("mine"),
			pick(ROW.back),
			pick(ROW.freeText),
			cancel,
			pick(ROW.next),
			pick("1."),
			pick(ROW.submit),
		]);
		const result = await walk(ui, form(db, name));
		// the editor reopened with the saved text, was cancelled, and the question came back
		expect(ui.calls[4]).toMatchObject({ method: "editor", items: ["mine"] });
		expect(ui.calls[5]?.method).toBe("select");
		expect(ui.calls[5]?.title).toContain("Pick a db?");
		expect(result.answers.db?.selections[0]).toEqual({ value: "mine", label: "mine", custom: true });
	});

	it("Back returns to the previous question with its answer marked", async () => {
		const ui = scriptedDialogs([pick("2."), pick(ROW.back), pick("1."), pick("1."), pick(ROW.submit)]);
		const result = await walk(ui, form(db, name));
		expect(ui.calls[2]?.title).toContain("Your answer: SQLite");
		expect(result.answers.db?.selections[0]?.label).toBe("Postgres");
		expect(result.answers.name?.selections[0]?.label).toBe("Keep");
	});

	it("a note is saved on the question, and an empty note removes it", async () => {
		const ui = scriptedDialogs([pick(ROW.note), type("ask the DBA"), pick("1.")]);
		const result = await walk(ui, form(db));
		expect(result.notes).toEqual([{ questionId: "db", text: "ask the DBA" }]);
		expect(ui.calls[2]?.items).toContain(ROW.editNote);
		expect(ui.calls[2]?.items).not.toContain(ROW.next);

		const removing = scriptedDialogs([pick(ROW.note), type("x"), pick(ROW.editNote), type("  "), pick("1.")]);
		expect((await walk(removing, form(db))).notes).toEqual([]);
	});

	it("cancelling a question's select dismisses the form and keeps the answers given so far", async () => {
		const ui = scriptedDialogs([pick("1."), cancel]);
		const result = await walk(ui, form(db, features));
		expect(result.status).toBe("dismissed");
		expect(result.answers.db?.selections[0]?.label).toBe("Postgres");
	});

	it("Cancel on the review dismisses with every answer kept", async () => {
		const ui = scriptedDialogs([pick("1."), pick("2."), pick(ROW.cancel)]);
		const result = await walk(ui, form(db, name));
		expect(result.status).toBe("dismissed");
		expect(Object.keys(result.answers)).toEqual(["db", "name"]);
	});

	it("an answer that is none of the rows (a client that trimmed it) asks again, saying why; it never dismisses", async () => {
		const trimmed: DialogStep = (call) => call.items[0]?.trim().slice(0, 6);
		const ui = scriptedDialogs([trimmed, pick("1."), pick("1."), () => "Submit", pick(ROW.submit)]);
		const result = await walk(ui, form(db, name));
		expect(result.status).toBe("answered");
		expect(ui.calls[1]?.title).toContain("not one of the rows");
		expect(ui.calls.map((c) => c.title.includes("Review"))).toEqual([false, false, false, true, true]);
		expect(ui.calls[4]?.title).toContain("not one of the rows");
	});

	it("three stray answers in a row end the walk as an error naming the answer, with the answers kept", async () => {
		const ui = scriptedDialogs([pick("1."), () => "1", () => "1", () => "1"]);
		const result = await collectWithDialogs(ui, form(db, name));
		expect(result.status).toBe("error");
		expect(result.error).toContain('"1"');
		expect(result.error).toMatch(/not one of its rows, 3 times/);
		expect(result.answers.db?.selections[0]?.label).toBe("Postgres");
	});

	it("a question's prompt lists each option's description whole, up to its 300 characters", async () => {
		const long = `${"word ".repeat(53)}IMPORTANT: this drops the table.`;
		const described = question("db", ["Postgres", "SQLite"], {
			options: [
				{ label: "Postgres", value: "pg", recommended: false, description: long },
				{ label: "SQLite", value: "sqlite", recommended: false },
			],
		});
		const ui = scriptedDialogs([pick("1.")]);
		await walk(ui, form(described));
		expect(long.length).toBeLessThanOrEqual(300);
		expect(ui.calls[0]?.title).toContain(`• Postgres — ${long}`);
	});

	it("dialogs show no previews: the answers given to questions with some are marked, by id; a form without has none", async () => {
		const previewed = previewedDb({ Postgres: "CREATE TABLE t (id serial);", SQLite: undefined });
		const ui = scriptedDialogs([pick("2."), pick("Keep"), pick(ROW.submit)]);
		const both = await walk(ui, form(previewed, name));
		expect(both.previewsUnseen).toEqual(["db"]);
		expect(JSON.stringify(ui.calls)).not.toContain("CREATE TABLE");
		expect(await walk(scriptedDialogs([pick("2.")]), form(db))).not.toHaveProperty("previewsUnseen");
		const dismissed = await collectWithDialogs(scriptedDialogs([cancel]), form(previewed));
		expect(dismissed).toMatchObject({ status: "dismissed" });
		expect(dismissed).not.toHaveProperty("previewsUnseen");
	});

	it("a row shows the previews in an editor dialog, to read; read there, an answer is not marked as given without them", async () => {
		const previewed = previewedDb({
			Postgres: "CREATE TABLE t (id serial);\n\x1b[31mred",
			SQLite: "-- one file",
			Mongo: undefined,
		});
		// The clock (the walker's Date.now) moves on while a step's dialog is open, the way a person takes their time.
		vi.useFakeTimers({ toFake: ["Date"] });
		const slowly =
			(answer: unknown): DialogStep =>
			async () => (vi.setSystemTime(Date.now() + 350), answer as string | undefined);
		const ui = scriptedDialogs([pick(ROW.previews), slowly("scribbled"), pick("Postgres")]);
		const read = await walk(ui, form(previewed), { asker: "scout" }).finally(() => vi.useRealTimers());
		expect(ui.calls[0]?.items.slice(0, 4)).toEqual(["Postgres", "SQLite", "Mongo", ROW.previews]);
		const shown = ui.calls[1];
		expect(shown?.method).toBe("editor");
		expect(shown?.title.split("\n")).toEqual([
			"Previews of the options for: Pick a db?",
			"Only to read: nothing typed here is kept. Close it to go back to the question.",
			"asked by scout",
		]);
		// Each preview under its option's label, escape sequences dropped; an option without one is not listed.
		expect(shown?.items[0]).toBe("── Postgres ──\nCREATE TABLE t (id serial);\nred\n\n── SQLite ──\n-- one file");
		expect(ui.calls[2]?.method).toBe("select");
		expect(read.answers["db"]?.selections[0]?.label).toBe("Postgres");
		expect(read).not.toHaveProperty("previewsUnseen");
		expect(JSON.stringify(read)).not.toContain("scribbled");
		// Closed later, read; closed or saved at once (a host: one that shows no text dialogs cancels them), or answered
		// with something that is not text (a client's stray answer), not.
		vi.useFakeTimers({ toFake: ["Date"] });
		const after = async (step: DialogStep) =>
			walk(scriptedDialogs([pick(ROW.previews), step, pick("SQLite")]), form(previewed));
		// One at a time: the clock is shared.
		const outcomes: Collected[] = [];
		try {
			for (const step of [slowly(undefined), cancel, type("x"), slowly(null)]) outcomes.push(await after(step));
		} finally {
			vi.useRealTimers();
		}
		expect(outcomes.map((result) => result.previewsUnseen)).toEqual([undefined, ["db"], ["db"], ["db"]]);
		// Two closed at once: the host shows no text dialogs, and then no such row.
		const host = { choiceOnly: false };
		const twice = scriptedDialogs([pick(ROW.previews), cancel, pick(ROW.previews), cancel, pick("Postgres")]);
		await walk(twice, form(previewed), { host });
		expect(host.choiceOnly).toBe(true);
		expect(twice.calls.at(-1)?.items).not.toContain(ROW.previews);
	});

	it("a kept form reopened in dialogs: an answer it came back with was given where the previews showed, and is not marked", async () => {
		const asked = form(previewedDb({ Postgres: "CREATE TABLE t (id serial);", SQLite: "-- one file" }));
		const chosen: AskAnswer = { kind: "single", selections: [{ value: "postgres", label: "Postgres" }] };
		const answers = answeredState(asked, { status: "answered", answers: { db: chosen }, skipped: [], notes: [] });
		const keep = { restored: { answers, notice: phrase("form.reopened") }, changed: () => {} };
		const same = await walk(scriptedDialogs([pick("Postgres")]), asked, { keep });
		expect(same.answers["db"]).toEqual(chosen);
		expect(same).not.toHaveProperty("previewsUnseen");
		const changed = await walk(scriptedDialogs([pick("SQLite")]), asked, { keep });
		expect(changed.answers["db"]?.selections[0]?.label).toBe("SQLite");
		expect(changed.previewsUnseen).toEqual(["db"]);
		// Answered in dialogs the first time too, the kept form says so: kept as it was, it is still marked.
		const unseenAnswers = answeredState(asked, {
			status: "answered",
			answers: { db: chosen },
			skipped: [],
			notes: [],
			previewsUnseen: ["db"],
		});
		expect(unseenAnswers.previewsUnseen).toEqual(["db"]);
		const unseenKeep = { restored: { answers: unseenAnswers, notice: phrase("form.reopened") }, changed: () => {} };
		const again = await walk(scriptedDialogs([pick("Postgres")]), asked, { keep: unseenKeep });
		expect(again.answers["db"]).toEqual(chosen);
		expect(again.previewsUnseen).toEqual(["db"]);
	});

	it("a blank text saved closes the editor with nothing kept, and the question's prompt says so once", async () => {
		const ui = scriptedDialogs([pick(ROW.freeText), type("  \n "), pick("1."), pick("1."), pick(ROW.submit)]);
		const result = await walk(ui, form(db, name));
		expect(ui.calls[2]?.method).toBe("select");
		expect(ui.calls[2]?.title).toContain("The text was left blank: nothing is saved for it.");
		expect(ui.calls[3]?.title).not.toContain("left blank");
		expect(result.answers.db?.selections).toEqual([{ value: "postgres", label: "Postgres" }]);
	});

	it("an editor answered with something that is not text (a client's null or number) asks again, the text kept, saying why", async () => {
		const notText = (value: unknown): DialogStep => (() => value) as unknown as DialogStep;
		const ui = scriptedDialogs([pick(ROW.freeText), notText(null), notText(42), type("MySQL")]);
		const result = await walk(ui, form(db));
		expect(result.answers.db?.selections).toEqual([{ value: "MySQL", label: "MySQL", custom: true }]);
		expect(ui.calls.map((call) => call.method)).toEqual(["select", "editor", "editor", "editor"]);
		expect(ui.calls[1]?.title).not.toContain("not text");
		expect(ui.calls[2]?.title).toContain("That answer was not text");
		expect(ui.calls[3]?.title).toContain("That answer was not text");
	});

	it("three answers that are not text in a row end the walk as an error that says what the client sent", async () => {
		const nothing = (() => null) as unknown as DialogStep;
		const editor = await collectWithDialogs(scriptedDialogs([pick(ROW.freeText), nothing, nothing, nothing]), form(db));
		expect(editor.status).toBe("error");
		expect(editor.error).toMatch(/answered an editor with null, not text, 3 times in a row: an editor must return/);
		const object = (() => ({ value: "Postgres" })) as unknown as DialogStep;
		const select = await collectWithDialogs(scriptedDialogs([object, object, object]), form(db));
		expect(select.status).toBe("error");
		expect(select.error).toMatch(/answered a select with an object, not text, 3 times in a row/);
	});

	it("with a deadline, each select tells the client when it closes by itself, after the form's own timeout", async () => {
		const timeouts: (number | undefined)[] = [];
		const ui: DialogUI = {
			select: async (_title, rows, opts) => {
				timeouts.push(opts?.timeout);
				return rows[0];
			},
			editor: async () => undefined,
		};
		const deadline = Date.now() + 60_000;
		await walk(ui, form(db));
		await walk(ui, form(db), { deadline });
		expect(timeouts[0]).toBeUndefined();
		expect(timeouts[1]).toBeGreaterThan(60_000);
		expect(timeouts[1]).toBeLessThanOrEqual(61_000);
		// At the longest time limit a setting takes, the select's timer stays within what setTimeout takes (past it,
		// Node fires at once and the select would close at once).
		await walk(ui, form(db), { deadline: Date.now() + 2_147_483_000 });
		expect(timeouts[2]).toBe(2 ** 31 - 1);
	});

	it("a select that closes by itself at the deadline is no dismissal: the walk ends as the clock's abort says", async () => {
		const controller = new AbortController();
		const seen: string[] = [];
		let selects = 0;
		const ui: DialogUI = {
			select: async () => {
				// The first closes by pi's own timer, a moment before the form's clock aborts the walk.
				if (selects++ === 0) return undefined;
				controller.abort();
				return new Promise<string | undefined>(() => {});
			},
			editor: async () => undefined,
		};
		const options = {
			signal: controller.signal,
			deadline: Date.now() - 1,
			onProgress: (p: AskProgress) => seen.push(p.phase),
		};
		const result = await walk(ui, form(db), options);
		expect(result.status).toBe("aborted");
		expect(seen).not.toContain("dismissed");
	});

	it("a dialog left open by an abort or the timeout: the client is told, once, that an answer to it will be ignored", async () => {
		const controller = new AbortController();
		const notices: [string, string | undefined][] = [];
		const ui: DialogUI = {
			select: () => new Promise<string | undefined>(() => {}),
			editor: () => new Promise<string | undefined>(() => {}),
			notify: (message, type) => void notices.push([message, type]),
		};
		const pending = walk(ui, form(db), { signal: controller.signal });
		controller.abort();
		await expect(pending).resolves.toMatchObject({ status: "aborted" });
		expect(notices).toEqual([[expect.stringContaining("will be ignored"), "warning"]]);
	});

	it("an abort while a dialog is open resolves at once as aborted, even if the dialog never answers", async () => {
		const controller = new AbortController();
		const ui = {
			select: () => new Promise<string | undefined>(() => {}),
			editor: () => new Promise<string | undefined>(() => {}),
		};
		const pending = walk(ui, form(db), { signal: controller.signal });
		controller.abort();
		await expect(pending).resolves.toMatchObject({ status: "aborted" });
	});

	it("an abort while the editor is open keeps the answers given so far", async () => {
		const controller = new AbortController();
		let step = 0;
		const ui = {
			select: async (_title: string, rows: string[]) => (step++ === 0 ? rows[0] : rows.find((r) => r === ROW.freeText)),
			editor: () => {
				controller.abort();
				return new Promise<string | undefined>(() => {});
			},
		};
		const result = await walk(ui, form(db, name), { signal: controller.signal });
		expect(result.status).toBe("aborted");
		expect(result.answers.db?.selections[0]?.label).toBe("Postgres");
	});

	it("reports progress: opened, each answer, review, submitted", async () => {
		const seen: AskProgress[] = [];
		const ui = scriptedDialogs([pick("1."), pick("1."), pick(ROW.submit)]);
		await walk(ui, form(db, name), { onProgress: (p) => seen.push(p) });
		expect(seen.map((p) => p.phase)).toEqual(["opened", "answered", "answered", "review", "submitted"]);
		expect(seen[2]).toMatchObject({ questionId: "name", answered: 2, total: 2 });
	});

	it("an abort reports no 'dismissed' progress: the walk did not end by the user's choice", async () => {
		const controller = new AbortController();
		const seen: string[] = [];
		const ui = {
			select: () => {
				controller.abort();
				return new Promise<string | undefined>(() => {});
			},
			editor: async () => undefined,
		};
		const result = await walk(ui, form(db), { signal: controller.signal, onProgress: (p) => seen.push(p.phase) });
		expect(result.status).toBe("aborted");
		expect(seen).toEqual(["opened"]);
	});

	it("a dialog that throws ends the walk as error, keeping the answers given so far", async () => {
		let calls = 0;
		const ui = {
			select: async (_title: string, rows: string[]) => {
				if (calls++ === 0) return rows[0];
				throw new Error("client went away");
			},
			editor: async () => undefined,
		};
		const result = await collectWithDialogs(ui, form(db, name));
		expect(result).toMatchObject({ status: "error", error: "client went away" });
		expect(result.answers.db?.selections[0]?.label).toBe("Postgres");
	});

	it("what was written stays on offer after choosing an option instead", async () => {
		const ui = scriptedDialogs([
			pick(ROW.freeText),
			type("my own"),
			pick(ROW.back),
			pick("1."),
			pick(ROW.back),
			pick(ROW.freeText),
			cancel,
			pick(ROW.next),
			pick("1."),
			pick(ROW.submit),
		]);
		const result = await walk(ui, form(db, name));
		expect(ui.calls[6]).toMatchObject({ method: "editor", items: ["my own"] });
		expect(result.answers.db?.selections[0]?.label).toBe("Postgres");
	});

	it("labels every dialog with the asker, and keeps model text from reaching the client raw", async () => {
		const hostile = question("db", ["Post\x1b]52;c;aGk=\x07gres", "SQLite"], { question: "Which\x1b[2J one?" });
		const ui = scriptedDialogs([pick("1.")]);
		await walk(ui, form(hostile), { asker: "scout" });
		const shown = `${ui.calls[0]?.title}${ui.calls[0]?.items.join("")}`;
		expect(ui.calls[0]?.title.split("\n")[1]).toBe("DB · asked by scout");
		expect(shown).not.toContain("\x1b");
		expect(ui.calls[0]?.items[0]).toBe("Postgres");
	});
});

describe("hosts without text dialogs (ACP adapters)", () => {
	const cancelAtOnce: DialogStep = (call) => {
		if (call.method !== "editor") throw new Error(`expected an editor, got ${call.method}`);
		return undefined;
	};
	const hasTextRows = (items: string[]) =>
		items.some((item) => item.startsWith(ROW.freeText) || item === ROW.note || item === ROW.editNote);

	it("two text dialogs cancelled at once mark the host as choice-only: no text rows from then on, said once in the next title", async () => {
		const host = { choiceOnly: false };
		const ui = scriptedDialogs([
			pick(ROW.freeText),
			cancelAtOnce,
			pick("1."),
			pick(ROW.note),
			cancelAtOnce,
			pick("2."),
			pick(ROW.done),
			pick(ROW.submit),
		]);
		const result = await walk(ui, form(db, features), { host });
		expect(result.status).toBe("answered");
		expect(host.choiceOnly).toBe(true);
		const selects = ui.calls.filter((c) => c.method === "select");
		expect(selects.map((c) => hasTextRows(c.items))).toEqual([true, true, true, false, false, false]);
		expect(selects[3]?.title).toContain("This host shows no text boxes");
		expect(selects[4]?.title).not.toContain("This host shows no text boxes");
		// What it learnt holds for the next form.
		const next = scriptedDialogs([pick("1.")]);
		await walk(next, form(db), { host });
		expect(hasTextRows(next.calls[0]?.items ?? [])).toBe(false);
	});

	it("with the choiceOnly setting given as false, editors cancelled at once teach it nothing: the text rows stay", async () => {
		const host = { choiceOnly: false, learns: false };
		const ui = scriptedDialogs([pick(ROW.freeText), cancelAtOnce, pick(ROW.freeText), cancelAtOnce, pick("1.")]);
		await walk(ui, form(db), { host });
		expect(host.choiceOnly).toBe(false);
		expect(hasTextRows(ui.calls.at(-1)?.items ?? [])).toBe(true);
		expect(ui.calls.at(-1)?.title).not.toContain("This host shows no text boxes");
	});

	it("a person who opens the editor and cancels later is no host without text dialogs", async () => {
		const host = { choiceOnly: false };
		// The clock (the walker's Date.now) moves on while the editor is open, the way a person takes their time.
		vi.useFakeTimers({ toFake: ["Date"] });
		const slowCancel: DialogStep = async () => (vi.setSystemTime(Date.now() + 350), undefined);
		const ui = scriptedDialogs([pick(ROW.freeText), slowCancel, pick(ROW.freeText), slowCancel, pick("1.")]);
		try {
			await walk(ui, form(db), { host });
		} finally {
			vi.useRealTimers();
		}
		expect(host.choiceOnly).toBe(false);
		expect(hasTextRows(ui.calls.at(-1)?.items ?? [])).toBe(true);
	});

	it("choice-only from the start (the setting): no text row is ever offered", async () => {
		const ui = scriptedDialogs([pick("1."), pick("1."), pick(ROW.done), pick(ROW.skip), pick(ROW.submit)]);
		const result = await walk(ui, form(db, features, name), { host: { choiceOnly: true } });
		expect(result.status).toBe("answered");
		expect(ui.calls.some((c) => hasTextRows(c.items))).toBe(false);
	});

	it("a required question only text can answer ends as an error that says why, instead of a loop; an optional one is skipped", async () => {
		const textOnly = question("name", [], { options: [] });
		const optional = question("extra", [], { options: [], required: false });
		const skipping = scriptedDialogs([pick("1."), pick(ROW.submit)]);
		const skipped = await walk(skipping, form(optional, db), { host: { choiceOnly: true } });
		expect(skipped.skipped).toEqual(["extra"]);
		expect(skipped.answers.db?.selections[0]?.label).toBe("Postgres");
		expect(skipping.calls[0]?.title).toContain("Pick a db?");
		const ui = scriptedDialogs([]);
		const result = await collectWithDialogs(ui, form(textOnly), { host: { choiceOnly: true } });
		expect(result.status).toBe("error");
		expect(result.error).toContain("only be answered with text");
	});
});

describe("the dialog walker: text-only questions", () => {
	const serviceName = question("service", [], { question: "What should the new service be called?" });

	it("opens an editor dialog straight away, and the text is the answer", async () => {
		const ui = scriptedDialogs([type("billing-api")]);
		const result = await walk(ui, form(serviceName));
		expect(ui.calls[0]?.method).toBe("editor");
		expect(ui.calls[0]?.title).toContain("What should the new service be called?");
		expect(result.status).toBe("answered");
		expect(result.answers).toEqual({
			service: { kind: "single", selections: [{ value: "billing-api", label: "billing-api", custom: true }] },
		});
	});

	it("after an answer moves into the next text-only question's editor; a cancelled editor returns to its select", async () => {
		const ui = scriptedDialogs([pick("1."), cancel, pick(ROW.freeText), type("ops"), pick(ROW.submit)]);
		const result = await walk(ui, form(db, serviceName));
		expect(ui.calls.map((c) => c.method)).toEqual(["select", "editor", "select", "editor", "select"]);
		expect(ui.calls[2]?.items[0]).toBe(ROW.freeText);
		expect(result.answers.service?.selections[0]?.label).toBe("ops");
	});
});

describe("the dialog walker: the note on the whole form", () => {
	it("the review offers a note on the whole form, shows it, and the result carries it", async () => {
		const ui = scriptedDialogs([
			pick("1."),
			pick("1."),
			pick(ROW.done),
			pick(ROW.formNote),
			type("and don't touch the schema"),
			pick(ROW.submit),
		]);
		const result = await walk(ui, form(db, features));
		expect(result.status).toBe("answered");
		expect(result.notes).toEqual([{ text: "and don't touch the schema" }]);
		expect(ui.calls[5]?.title).toContain("Note on the whole form: and don't touch the schema");
		expect(ui.calls[5]?.items).toContain(ROW.editFormNote);
	});
});

describe("the dialog walker: reply in chat instead", () => {
	it("a row on every question: the message ends the walk as chat, keeping the answers given", async () => {
		const ui = scriptedDialogs([pick("1."), pick(ROW.chat), type("Why not both? Let's talk first.")]);
		const result = await walk(ui, form(db, features));
		expect(result.status).toBe("chat");
		expect(result.chatMessage).toBe("Why not both? Let's talk first.");
		expect(result.answers.db?.selections[0]?.label).toBe("Postgres");
	});

	it("on the review too; a cancelled message editor goes back to the review", async () => {
		const ui = scriptedDialogs([
			pick("1."),
			pick("1."),
			pick(ROW.done),
			pick(ROW.chat),
			cancel,
			pick(ROW.chat),
			type("hold on"),
		]);
		const result = await walk(ui, form(db, features));
		expect(ui.calls[5]?.title).toContain("Review your answers");
		expect(result).toMatchObject({ status: "chat", chatMessage: "hold on" });
	});
});

describe("the walker in the user's language", () => {
	it.each(EVERY_LOCALE)(
		"%s: the walker's own rows are all different, so the row a client returns names one",
		(_locale, texts) => {
			const rows = Object.values(rowTexts(texts));
			expect(new Set(rows).size).toBe(rows.length);
		},
	);

	it.each(EVERY_LOCALE)(
		"%s: its own rows and titles are the locale's, the model's options as given; the rows it shows are the rows it reads",
		async (_locale, texts) => {
			const row = rowTexts(texts);
			const ui = scriptedDialogs([
				pick("1."),
				pick(row.note),
				type("a note"),
				pick("1."),
				pick(row.done),
				() => "not a row",
				pick(row.skip),
				pick(row.submit),
			]);
			const result = await walk(ui, form(db, features, name), { texts });
			expect(result.status).toBe("answered");
			expect(result.answers["features"]?.selections.map((s) => s.label)).toEqual(["Auth"]);
			expect(ui.calls[0]?.items).toEqual(["Postgres", "SQLite", row.freeText, row.youDecide, row.note, row.chat]);
			expect(ui.calls[0]?.title).toContain(texts.t("walker.position", { index: 1, total: 3 }));
			const review = ui.calls[ui.calls.length - 1];
			expect(review?.title).toContain(texts.t("review.title"));
			expect(review?.items).toEqual([row.submit, row.formNote, row.chat, row.back, row.cancel]);
			// The stray answer is asked again, in the locale's words.
			expect(ui.calls.some((call) => call.title.includes(texts.t("walker.stray")))).toBe(true);
		},
	);
});
