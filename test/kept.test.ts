/**
 * Forms kept on disk: the answers' round trip through JSON (any form, any
 * keys), the keeper's writes and ends, what reading a folder drops, and
 * that the files are the user's alone.
 */

import {
	chmodSync,
	lstatSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
	createKeeper,
	fingerprint,
	heldByAnotherPi,
	KEPT_VERSION,
	type KeptForm,
	MAX_KEPT,
	MAX_KEPT_BYTES,
	readKept,
	SAVE_DELAY_MS,
} from "../src/kept/store.ts";
import { collect } from "../src/machine/collect.ts";
import { answeredState, readSaved, restoredState, savedAnswers } from "../src/machine/saved.ts";
import { initialState, update } from "../src/machine/update.ts";
import { lateAnswerText } from "../src/kept/restore.ts";
import { formatResultText } from "../src/tool/result.ts";
import { type AskForm, phrase } from "../src/core/types.ts";
import { arbAskForm } from "./support/arbitraries.ts";
import { drive, formOf, KEY, option, question, type } from "./form/support.ts";

/** Every file opened through node:fs, with its flags: the aside file must be created exclusively. */
const opened = vi.hoisted(() => [] as Array<{ path: unknown; flags: unknown }>);
/** While set, a write through node:fs fails as on a full disk. */
const diskFull = vi.hoisted(() => ({ now: false }));
vi.mock("node:fs", async (original) => {
	const fs = await original<typeof import("node:fs")>();
	const openSync: typeof fs.openSync = (path, flags, mode) => (
		opened.push({ path, flags }), fs.openSync(path, flags, mode)
	);
	const writeFileSync: typeof fs.writeFileSync = (file, data, options) => {
		if (diskFull.now) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
		fs.writeFileSync(file, data, options);
	};
	return { ...fs, default: { ...fs, openSync, writeFileSync }, openSync, writeFileSync };
});

const FORM = formOf(
	question("db", { header: "Database", options: [option("Postgres"), option("SQLite")] }),
	question("why", { header: "Context", options: [] }),
);
const KEYS = [
	KEY.up,
	KEY.down,
	KEY.enter,
	KEY.tab,
	KEY.shiftTab,
	KEY.space,
	KEY.escape,
	KEY.backspace,
	"n",
	"s",
	"1",
	"2",
	"3",
	"a",
	"é",
];
/** Keys, and whole gestures that leave text behind: a note or a free answer saved, a draft left open. */
const arbKeys = fc
	.array(
		fc.oneof(
			fc.constantFrom(...KEYS).map((key) => [key]),
			fc.constantFrom("n", "N", KEY.enter).map((open) => [open, ...type("words 字"), KEY.enter]),
			fc.constantFrom("n", KEY.enter).map((open) => [open, ...type("left open"), KEY.escape]),
		),
		{ maxLength: 20 },
	)
	.map((gestures) => gestures.flat());

const throughJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe("saved answers", () => {
	it("any keys on any form: the answers, notes, drafts and tab come back as they were through JSON", () => {
		fc.assert(
			fc.property(arbAskForm(), arbKeys, (form, keys) => {
				const { state } = drive(form, keys);
				const restored = restoredState(form, throughJson(savedAnswers(state, undefined)));
				expect(restored).toBeDefined();
				if (!restored) return;
				expect(collect(restored, "aborted")).toEqual(collect(state, "aborted"));
				expect(restored.tab).toBe(state.tab);
				expect(restored.questions.map((qs) => qs.focus)).toEqual(state.questions.map((qs) => qs.focus));
			}),
			{ numRuns: 300 },
		);
	});

	it("any form submitted after any keys: kept as collected, it comes back with every answer, free text, note, skip and left-to-you as submitted", () => {
		fc.assert(
			fc.property(arbAskForm(), arbKeys, (form, keys) => {
				const { state } = drive(form, keys);
				const submitted = collect(state, "answered");
				const restored = restoredState(form, throughJson(answeredState(form, submitted)));
				expect(restored).toBeDefined();
				if (restored) expect(collect(restored, "answered")).toEqual(submitted);
			}),
			{ numRuns: 300 },
		);
	});

	it("a question left to the model stays so; a file of 0.2.0 (no delegated) still reads; where the form has no such row it does not fit", () => {
		const { state } = drive(FORM, [KEY.up, KEY.enter]);
		const saved = throughJson(savedAnswers(state, undefined)) as { questions: Array<Record<string, unknown>> };
		expect(saved.questions[0]?.["delegated"]).toBe(true);
		expect(collect(restoredState(FORM, saved) ?? state, "aborted").delegated).toEqual(["db"]);
		expect(restoredState(FORM, saved, { youDecide: false })).toBeUndefined();
		const old = { ...saved, questions: saved.questions.map(({ delegated: _left, ...qs }) => qs) };
		expect(restoredState(FORM, old)?.questions[0]?.delegated).toBe(false);
		const both = { ...saved, questions: [{ ...saved.questions[0], chosen: [0] }, saved.questions[1]] };
		expect(restoredState(FORM, both)).toBeUndefined();
	});

	it("notes are kept by the key their drafts and files have; a file of 0.2.0 (notes on the questions) still reads", () => {
		const notes = { "questionNote:0": "on db", "optionNote:0:1": "on SQLite", formNote: "on the form" };
		const state = { ...initialState(FORM), notes };
		const saved = throughJson(savedAnswers(state, undefined)) as Record<string, unknown>;
		expect(saved["notes"]).toEqual(notes);
		expect(restoredState(FORM, saved)?.notes).toEqual(notes);
		const { notes: _now, ...rest } = saved;
		const questions = (saved["questions"] as object[]).map((qs, i) =>
			i === 0 ? { ...qs, note: "on db", optionNotes: [null, "on SQLite"] } : { ...qs, optionNotes: [] },
		);
		const earlier = { ...rest, questions, formNote: "on the form" };
		expect(restoredState(FORM, earlier)?.notes).toEqual(notes);
		expect(collect(restoredState(FORM, earlier) ?? state, "aborted").notes).toEqual([
			{ questionId: "db", text: "on db" },
			{ questionId: "db", option: "SQLite", text: "on SQLite" },
			{ text: "on the form" },
		]);
	});

	it("the open editor's text is kept as its row's draft, and the editor opens on it again", () => {
		const { state } = drive(FORM, ["2"], undefined, "choose");
		expect(state.overlay).toEqual({ kind: "editor", target: { kind: "custom", question: 1 } });
		const restored = restoredState(FORM, throughJson(savedAnswers(state, "typed, not saved")));
		expect(restored?.overlay).toEqual(state.overlay);
		expect(collect(restored ?? state, "aborted").drafts).toEqual([
			{ questionId: "why", kind: "answer", text: "typed, not saved" },
		]);
		expect(collect(restored ?? state, "aborted").answers["db"]?.selections).toEqual([
			{ label: "SQLite", value: "SQLite" },
		]);
	});

	it("answers that do not fit the form are refused whole, never half used", () => {
		const saved = savedAnswers(drive(FORM, ["2", ...type("x")], undefined, "choose").state, undefined);
		const broken: unknown[] = [
			null,
			"text",
			{ ...saved, tab: 3 },
			{ ...saved, questions: saved.questions.slice(1) },
			{ ...saved, questions: [{ ...saved.questions[0], chosen: [0, 1] }, saved.questions[1]] },
			{ ...saved, questions: [{ ...saved.questions[0], chosen: [5] }, saved.questions[1]] },
			{ ...saved, questions: [{ ...saved.questions[0], note: "  " }, saved.questions[1]] },
			{ ...saved, questions: [{ ...saved.questions[0], optionNotes: [null] }, saved.questions[1]] },
			{ ...saved, drafts: { "custom:1": 42 } },
			{ ...saved, notes: { "questionNote:0": " " } },
			{ ...saved, notes: { "optionNote:1:0": "on no option" } },
			{ ...saved, editing: { kind: "optionNote", question: 1, option: 0 } },
		];
		for (const answers of broken) expect(restoredState(FORM, answers), JSON.stringify(answers)).toBeUndefined();
		expect(restoredState(FORM, saved)).toBeDefined();
	});

	it("each problem of answers that do not fit is named by its path: the shape's first, then the fit to the form", () => {
		const saved = savedAnswers(drive(FORM, ["2", ...type("x")], undefined, "choose").state, undefined);
		const issuesOf = (answers: unknown) => {
			const read = readSaved(FORM, answers);
			return "issues" in read ? read.issues.map(({ path, message }) => `${path} ${message}`) : [];
		};
		const [first, second] = saved.questions;
		expect(issuesOf({ ...saved, tab: -1, questions: [{ ...first, note: " ", chosen: ["0"] }, second] })).toEqual([
			expect.stringMatching(/^tab must be >= 0/),
			expect.stringMatching(/^questions\[0\]\.chosen\[0\] must be an integer/),
			'questions[0].note must not be blank (found the string " ")',
		]);
		expect(
			issuesOf({
				...saved,
				tab: 3,
				questions: [{ ...first, chosen: [1, 5], focus: 9 }, second],
				editing: { kind: "optionNote", question: 1, option: 0 },
				notes: { "custom:0": "a free answer is no note", "optionNote:0:1": "on SQLite" },
				attachments: { "custom:7": [{ name: "a.png", path: "/tmp/a.png", size: 1, mime: "image/png" }] },
			}),
		).toEqual([
			"tab must be below 3, the form's tabs (found 3)",
			"questions[0].chosen[1] must be below 2, the question's options (found 5)",
			"questions[0].chosen must hold at most one option: the question takes one (found 2)",
			expect.stringMatching(/^questions\[0\]\.focus must be below \d+, the question's rows \(found 9\)$/),
			'notes["custom:0"] is no note of this form',
			'attachments["custom:7"] is no answer or note of this form that takes files',
			"editing is no row of this form that has an editor",
		]);
		expect(issuesOf(saved)).toEqual([]);
	});
});

describe("the keeper and the folder", () => {
	let dir = "";
	afterEach(() => rmSync(dir, { recursive: true, force: true }));
	const fresh = () => (dir = mkdtempSync(join(tmpdir(), "kept-")));
	const files = () => readdirSync(dir).sort();
	const keptIn = (name: string) => JSON.parse(readFileSync(join(dir, name), "utf8")) as KeptForm;

	it("writes the latest answers once, after the changes pause; any end keeps it with its status, an answer as it was collected", async () => {
		fresh();
		let reads = 0;
		// Ids and entries are encoded: "@" joins them, so it is encoded inside them.
		const keeper = createKeeper(dir, () => ({ id: "call@1/2", entry: "e1" }), FORM, { closing: () => false });
		const state = update(initialState(FORM), { type: "number", row: 1 });
		for (let i = 0; i < 5; i++) keeper.changed(() => (reads++, savedAnswers(state, undefined)));
		expect(files()).toEqual([]);
		const changedAt = Date.now();
		await vi.waitFor(() => expect(files()).toEqual(["call%401%2F2@e1.json"]), { timeout: 10_000, interval: 20 });
		expect(Date.now() - changedAt).toBeGreaterThanOrEqual(SAVE_DELAY_MS - 1);
		expect(reads).toBe(1);
		expect(keptIn("call%401%2F2@e1.json")).toMatchObject({
			version: KEPT_VERSION,
			id: "call@1/2",
			entry: "e1",
			status: "open",
			pid: process.pid,
			fingerprint: fingerprint(FORM),
		});
		keeper.end("timed_out");
		expect(keptIn("call%401%2F2@e1.json").status).toBe("timed_out");
		// Submitted elsewhere (the page): what was collected is kept, not the form's last state.
		const page = collect(update(initialState(FORM), { type: "number", row: 0 }), "answered");
		keeper.end("answered", page);
		expect(files()).toEqual(["call%401%2F2@e1.json"]);
		const answered = keptIn("call%401%2F2@e1.json");
		expect(answered.status).toBe("answered");
		expect(collect(restoredState(FORM, answered.answers) ?? initialState(FORM), "answered")).toEqual(page);
	});

	it("an answer kept in a folder past both limits leaves the newest MAX_KEPT answered forms; below them nothing else goes", () => {
		fresh();
		const answered = (id: string, savedAt: number) =>
			JSON.stringify({ version: KEPT_VERSION, id, pid: 1, status: "answered", savedAt, fingerprint: "f", answers: {} });
		for (let i = 0; i < 2 * MAX_KEPT - 1; i++) writeFileSync(join(dir, `a${i}.json`), answered(`a${i}`, 1000 + i));
		const submit = () => collect(update(initialState(FORM), { type: "number", row: 1 }), "answered");
		createKeeper(dir, () => ({ id: "new" }), FORM, { closing: () => false }).end("answered", submit());
		expect(files()).toHaveLength(2 * MAX_KEPT);
		createKeeper(dir, () => ({ id: "newer" }), FORM, { closing: () => false }).end("answered", submit());
		expect(files()).toHaveLength(MAX_KEPT);
		expect(files()).toContain("newer.json");
		expect(files()).toContain("new.json");
		expect(files()).not.toContain(`a${MAX_KEPT}.json`);
	});

	it("a write that fails (a full disk) leaves nothing behind: the file begun aside is removed, the last one written stays", async () => {
		fresh();
		const keeper = createKeeper(dir, () => ({ id: "c" }), FORM, { closing: () => false });
		const first = savedAnswers(initialState(FORM), undefined);
		keeper.changed(() => first);
		keeper.flush();
		diskFull.now = true;
		try {
			for (let i = 0; i < 3; i++) {
				keeper.changed(() => savedAnswers(update(initialState(FORM), { type: "number", row: 1 }), undefined));
				keeper.flush();
			}
		} finally {
			diskFull.now = false;
		}
		expect(files()).toEqual(["c.json"]);
		expect(keptIn("c.json").answers).toEqual(throughJson(first));
	});

	it("a form is held by a live process only: not this one, not one with a reused pid (another start time)", () => {
		expect(heldByAnotherPi({ pid: process.pid })).toBe(false);
		expect(heldByAnotherPi({ pid: process.ppid })).toBe(true);
		const started = Number(readFileSync(`/proc/${process.ppid}/stat`, "utf8").split(") ")[1]?.split(" ")[19]);
		expect(heldByAnotherPi({ pid: process.ppid, started })).toBe(true);
		expect(heldByAnotherPi({ pid: process.ppid, started: started + 1 })).toBe(false);
		expect(heldByAnotherPi({ pid: 2 ** 22 + 1 })).toBe(false);
	});

	it("when pi is going away, every end leaves the form open (it comes back at the next start)", () => {
		fresh();
		const keeper = createKeeper(dir, () => ({ id: "c" }), FORM, { closing: () => true });
		keeper.changed(() => savedAnswers(initialState(FORM), undefined));
		keeper.end("aborted");
		expect(keptIn("c.json").status).toBe("open");
	});

	it("a form never shown inline (no change reported) writes nothing; a restored one keeps what it was given", () => {
		fresh();
		createKeeper(dir, () => ({ id: "relayed" }), FORM, { closing: () => false }).end("dismissed");
		expect(files()).toEqual([]);
		const answers = savedAnswers(initialState(FORM), undefined);
		createKeeper(dir, () => ({ id: "again" }), FORM, {
			closing: () => false,
			restored: { answers, notice: phrase("form.restored") },
		}).end("dismissed");
		expect(keptIn("again.json")).toMatchObject({ status: "dismissed", answers: throughJson(answers) });
	});

	it("reading drops, each with a reason, what is not JSON, another version's, oversized or not a form; keeps the newest MAX_KEPT of each kind; removes a dead writer's aside file", () => {
		fresh();
		const good = (id: string, savedAt: number): KeptForm => ({
			version: KEPT_VERSION,
			id,
			pid: 1,
			status: "timed_out",
			savedAt,
			fingerprint: "f",
			answers: {},
		});
		writeFileSync(join(dir, "bad.json"), "{ not json");
		writeFileSync(join(dir, "old.json"), JSON.stringify({ ...good("old", 1), version: 0 }));
		writeFileSync(join(dir, "big.json"), JSON.stringify({ ...good("big", 1), answers: "x".repeat(MAX_KEPT_BYTES) }));
		writeFileSync(join(dir, "odd.json"), JSON.stringify({ ...good("odd", 1), status: "pending" }));
		// Aside files: a dead writer's is left over, a running pi's (pid 1 here) may be mid-write.
		writeFileSync(join(dir, "left.json.999999999.0a1b2c3d4e5f.tmp"), "{");
		writeFileSync(join(dir, "busy.json.1.0a1b2c3d4e5f.tmp"), "{");
		// As an older version named them.
		writeFileSync(join(dir, "older.json.999999999.tmp"), "{");
		for (let i = 0; i < MAX_KEPT + 2; i++) {
			writeFileSync(join(dir, `k${i}.json`), JSON.stringify(good(`k${i}`, 1000 + i)));
			// Answered forms, all newer: they never push out a form still without an answer.
			writeFileSync(join(dir, `a${i}.json`), JSON.stringify({ ...good(`a${i}`, 5000 + i), status: "answered" }));
		}
		const { forms, problems } = readKept(dir);
		expect(problems).toEqual([
			"bad.json: not valid JSON",
			`big.json: larger than ${MAX_KEPT_BYTES} bytes`,
			'odd.json: not a saved form: status must be one of "open", "answered", "dismissed", "aborted", "timed_out", "error", "chat" (found the string "pending")',
			"old.json: written by another version of pi-ask-user (0)",
		]);
		expect(forms).toHaveLength(2 * MAX_KEPT);
		expect(forms[0]?.id).toBe(`a${MAX_KEPT + 1}`);
		expect(forms.filter((kept) => kept.status === "answered")).toHaveLength(MAX_KEPT);
		expect(files()).not.toContain("k0.json");
		expect(files()).not.toContain("a1.json");
		expect(files()).toContain("k2.json");
		expect(files()).not.toContain("bad.json");
		expect(files()).not.toContain("left.json.999999999.0a1b2c3d4e5f.tmp");
		expect(files()).not.toContain("older.json.999999999.tmp");
		expect(files()).toContain("busy.json.1.0a1b2c3d4e5f.tmp");
		expect(readKept(join(dir, "missing"))).toEqual({ forms: [], problems: [] });
	});
});

describe("kept files are the user's alone", () => {
	let dir = "";
	const mask = process.umask();
	afterEach(() => {
		process.umask(mask);
		rmSync(dir, { recursive: true, force: true });
	});
	const modeOf = (path: string) => statSync(path).mode & 0o777;
	const keptAt = (file: string) => JSON.parse(readFileSync(file, "utf8")) as KeptForm;
	const keep = (folder: string, id: string) => {
		const keeper = createKeeper(folder, () => ({ id }), FORM, { closing: () => false });
		keeper.changed(() => savedAnswers(initialState(FORM), undefined));
		keeper.flush();
	};

	it.each(["077", "000", "022", "277"])(
		"umask %s: the file is 0600 in a 0700 folder, also one an older version left open",
		(umask) => {
			dir = mkdtempSync(join(tmpdir(), "kept-"));
			process.umask(Number.parseInt(umask, 8));
			const folder = join(dir, "s.jsonl.ask-user");
			keep(folder, "c");
			expect(modeOf(folder)).toBe(0o700);
			expect(modeOf(join(folder, "c.json"))).toBe(0o600);
			// As the version before left them: readable by everyone.
			chmodSync(folder, 0o755);
			chmodSync(join(folder, "c.json"), 0o644);
			readKept(folder);
			expect(modeOf(folder)).toBe(0o700);
			keep(folder, "c");
			expect(modeOf(folder)).toBe(0o700);
			expect(modeOf(join(folder, "c.json"))).toBe(0o600);
		},
	);

	it("nothing planted in the folder is followed: the aside file is new (O_EXCL) under a name no one can predict; a link at the file's own place is replaced, not written through", () => {
		dir = mkdtempSync(join(tmpdir(), "kept-"));
		const folder = join(dir, "s.jsonl.ask-user");
		mkdirSync(folder);
		const target = join(dir, "target");
		writeFileSync(target, "precious");
		// The aside names a writer could once predict: this pid's, and the next ones'.
		for (let pid = process.pid; pid < process.pid + 3; pid++) symlinkSync(target, join(folder, `c.json.${pid}.tmp`));
		symlinkSync(target, join(folder, "d.json"));
		opened.length = 0;
		keep(folder, "c");
		keep(folder, "d");
		expect(readFileSync(target, "utf8")).toBe("precious");
		for (const name of ["c.json", "d.json"]) {
			expect(lstatSync(join(folder, name)).isFile()).toBe(true);
			expect(keptAt(join(folder, name)).id).toBe(name.slice(0, 1));
		}
		expect(opened.map(({ flags }) => flags)).toEqual(["wx", "wx"]);
		expect(
			readdirSync(folder).filter((name) => name.endsWith(".tmp") && !lstatSync(join(folder, name)).isSymbolicLink()),
		).toEqual([]);
	});
});

describe("the late answer", () => {
	it("names the call and why it comes late, then the answer exactly as the tool gives it", () => {
		const form: AskForm = FORM;
		const state = update(initialState(form), { type: "number", row: 1 });
		const kept: KeptForm = {
			version: KEPT_VERSION,
			id: "call_7",
			pid: 1,
			status: "timed_out",
			savedAt: 0,
			fingerprint: fingerprint(form),
			answers: {},
		};
		const text = lateAnswerText(kept, formatResultText(form, collect(state, "answered")));
		expect(text.split("\n")[0]).toBe(
			'Late answer to ask_user call "call_7": the call had ended (timed_out) before this answer. The user has answered it now:',
		);
		expect(text).toContain('db: "SQLite"');
		expect(lateAnswerText({ ...kept, status: "open" }, formatResultText(form, collect(state, "answered")))).toContain(
			"pi stopped while the form was open",
		);
	});
});
