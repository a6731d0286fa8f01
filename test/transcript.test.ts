import { describe, expect, it } from "vitest";
import { type RenderTheme, renderCallText, renderResultText } from "../src/tool/transcript.ts";
import type { AskDetails, AskQuestion } from "../src/core/types.ts";
import { CATALOGUES, textsFor } from "./support/locales.ts";

/** Shows colours as [color:text] so a test can see which text got which colour. */
const theme: RenderTheme = {
	fg: (color, text) => `[${color}:${text}]`,
	bold: (text) => text,
};
const plain: RenderTheme = { fg: (_color, text) => text, bold: (text) => text };

const q = (id: string, header: string, labels: string[], extra: Partial<AskQuestion> = {}): AskQuestion => ({
	id,
	header,
	question: `${header}?`,
	options: labels.map((label) => ({ label, value: label, recommended: false })),
	multiSelect: false,
	allowOther: true,
	required: true,
	...extra,
});

const questions = [
	q("db", "Database", ["Postgres", "SQLite"]),
	q("features", "Features", ["Auth", "Billing"], { multiSelect: true }),
	q("name", "Name", ["Keep", "Rename"], { required: false }),
];

const answered: AskDetails = {
	status: "answered",
	questions,
	answers: {
		db: { kind: "single", selections: [{ value: "Postgres", label: "Postgres" }] },
		features: {
			kind: "multi",
			selections: [
				{ value: "Auth", label: "Auth" },
				{ value: "audit\nlog", label: "audit\nlog", custom: true },
			],
		},
	},
	skipped: ["name"],
	notes: [
		{ questionId: "db", text: "v16 please" },
		{ questionId: "features", option: "Billing", text: "later" },
	],
};

describe("renderCall", () => {
	it("shows the tool and the headers, with Q<n> for missing ones", () => {
		const args = {
			questions: [
				{ header: "Database", question: "?", options: [] },
				{ question: "?", options: [] },
			],
		};
		expect(renderCallText(args, plain)).toBe("ask_user Database · Q2");
	});

	it("copes with partial and hostile arguments while they stream in", () => {
		expect(renderCallText(undefined, plain)).toBe("ask_user");
		expect(renderCallText({ questions: "not yet" }, plain)).toBe("ask_user");
		expect(
			renderCallText({ question: "Single?", header: "Bad\x1b]52;c;eA==\x07one", options: ["a", "b"] }, plain),
		).toBe("ask_user Badone");
	});
});

describe("renderResult", () => {
	it("compact: one ✓ line per answered question, skipped marked, notes hinted", () => {
		expect(renderResultText(answered, false, plain).split("\n")).toEqual([
			"✓ Database: Postgres (+note)",
			"✓ Features: Auth, “audit log” (+note)",
			"– Name: skipped",
		]);
	});

	it("expanded: every option marked ●/○, the user's own text and the notes", () => {
		const lines = renderResultText(answered, true, plain).split("\n");
		expect(lines).toEqual([
			"Database  Database?",
			"  ● Postgres",
			"  ○ SQLite",
			"  note: v16 please",
			"Features  Features?",
			"  ● Auth",
			"  ○ Billing",
			"      note: later",
			"  ● wrote: audit",
			"    log",
			"Name  Name?",
			"  ○ Keep",
			"  ○ Rename",
			"  skipped",
		]);
	});

	it("a dismissal is shown in the warning colour with how many were answered", () => {
		const dismissed: AskDetails = { ...answered, status: "dismissed", skipped: [] };
		const first = renderResultText(dismissed, false, theme).split("\n")[0];
		expect(first).toBe("[warning:Dismissed · 2 of 3 answered]");
		expect(renderResultText(dismissed, false, plain)).toContain("· Name: unanswered");
	});

	it("no_ui, aborted and timed_out are warnings too; error is an error with its reason", () => {
		for (const status of ["no_ui", "aborted", "timed_out"] as const) {
			expect(renderResultText({ ...answered, status }, false, theme)).toMatch(/^\[warning:/);
		}
		const failed = renderResultText({ ...answered, status: "error", error: "bad reply" }, false, theme);
		expect(failed.split("\n")[0]).toBe("[error:Failed · 2 of 3 answered — bad reply]");
	});

	it("drafts: hinted in the compact view, listed unsaved in the expanded one, in the warning colour, never as the answer", () => {
		const timedOut: AskDetails = {
			...answered,
			status: "timed_out",
			skipped: [],
			drafts: [
				{ questionId: "db", kind: "answer", text: "half-typ" },
				{ questionId: "features", kind: "note", option: "Billing", text: "maybe\nnot" },
				{ questionId: "name", kind: "note", text: "ask \x1b[31mlater" },
			],
		};
		expect(renderResultText(timedOut, false, plain).split("\n")).toEqual([
			"Timed out · 2 of 3 answered",
			"✓ Database: Postgres (+note) (+draft)",
			"✓ Features: Auth, “audit log” (+note) (+draft)",
			"· Name: unanswered (+draft)",
		]);
		const lines = renderResultText(timedOut, true, plain).split("\n");
		expect(lines).toEqual([
			"Timed out · 2 of 3 answered",
			"Database  Database?",
			"  ● Postgres",
			"  ○ SQLite",
			"  draft, not saved: half-typ",
			"  note: v16 please",
			"Features  Features?",
			"  ● Auth",
			"  ○ Billing",
			"      note: later",
			"      note draft, not saved: maybe",
			"      not",
			"  ● wrote: audit",
			"    log",
			"Name  Name?",
			"  ○ Keep",
			"  ○ Rename",
			"  unanswered",
			"  note draft, not saved: ask later",
		]);
		expect(renderResultText(timedOut, true, theme)).toContain("[warning:  draft, not saved: half-typ]");
	});

	it("details without drafts (written before they existed) or with junk in their place still render", () => {
		expect(renderResultText({ ...answered }, false, plain)).not.toContain("draft");
		const junk = { ...answered, drafts: [null, 5, { questionId: "db" }] } as unknown as AskDetails;
		expect(renderResultText(junk, true, plain)).not.toContain("draft");
	});

	it("while the form is open, only counts: the form itself shows the questions", () => {
		expect(renderResultText({ ...answered, status: "pending" }, false, plain)).toBe(
			"Waiting for the user · 2 of 3 answered",
		);
	});
});

describe("a question left to the model", () => {
	const details: AskDetails = { ...answered, answers: { features: answered.answers.features! }, delegated: ["db"] };

	it("compact: ↪ Header: left to the model; expanded: the options unmarked and the same words", () => {
		const compact = renderResultText(details, false, plain).split("\n");
		expect(compact[0]).toBe("↪ Database: left to the model");
		const expanded = renderResultText(details, true, plain).split("\n");
		expect(expanded.slice(0, 4)).toEqual(["Database  Database?", "  ○ Postgres", "  ○ SQLite", "  left to the model"]);
	});
});

describe("the transcript of the complete form", () => {
	it("shows the note on the whole form and a reply in chat, sanitised, with the status", () => {
		const details: AskDetails = {
			status: "chat",
			questions,
			answers: { db: { kind: "single", selections: [{ value: "Postgres", label: "Postgres" }] } },
			skipped: [],
			notes: [{ questionId: "db", text: "on the question" }, { text: "and don't touch the schema" }],
			chatMessage: "Can we talk first?\x1b[31m",
		};
		const text = renderResultText(details, false, plain);
		expect(text).toContain("Replied in chat instead · 1 of 3 answered");
		expect(text).toContain("✎ Note on the whole form: and don't touch the schema");
		expect(text).not.toContain("Note on the whole form: on the question");
		expect(text).toContain("💬 Can we talk first?");
		expect(text).not.toContain("\x1b");
	});

	it("shows the whole form's drafts: the note's and the chat message's, each marked unsaved", () => {
		const details: AskDetails = {
			...answered,
			status: "dismissed",
			drafts: [
				{ questionId: "db", kind: "note", text: "about the db" },
				{ kind: "note", text: "half a note" },
				{ kind: "chat", text: "half a message" },
			],
		};
		const lines = renderResultText(details, false, plain).split("\n");
		expect(lines).toContain("✎ Note on the whole form, draft, not saved: half a note");
		expect(lines).toContain("💬 Message for the chat, draft, not sent: half a message");
		expect(lines.filter((l) => l.includes("about the db"))).toEqual([]);
	});

	it("a session written by the release before scoped notes (formNote, formNoteDraft, chatDraft in details) shows the same lines", () => {
		const earlier = {
			status: "dismissed",
			questions,
			answers: {},
			skipped: [],
			notes: [],
			formNote: "and don't touch the schema",
			formNoteDraft: "half a note",
			chatDraft: "half a message",
		} as unknown as AskDetails;
		const scoped: AskDetails = {
			status: "dismissed",
			questions,
			answers: {},
			skipped: [],
			notes: [{ text: "and don't touch the schema" }],
			drafts: [
				{ kind: "note", text: "half a note" },
				{ kind: "chat", text: "half a message" },
			],
		};
		const text = renderResultText(earlier, true, plain);
		expect(text).toContain("✎ Note on the whole form: and don't touch the schema");
		expect(text).toContain("✎ Note on the whole form, draft, not saved: half a note");
		expect(text).toContain("💬 Message for the chat, draft, not sent: half a message");
		expect(text).toBe(renderResultText(scoped, true, plain));
	});
});

describe("the transcript in the user's language", () => {
	it("says the status, the count, the outcomes and the notes in the locale's words; the answers as given", () => {
		const ja = textsFor("ja");
		const dismissed: AskDetails = {
			...answered,
			status: "dismissed",
			answers: { db: answered.answers["db"] as AskDetails["answers"][string] },
			skipped: ["name"],
		};
		const compact = renderResultText(dismissed, false, plain, ja);
		expect(compact).toContain(
			`${CATALOGUES.ja["status.dismissed"]} · ${ja.t("form.answeredCount", { answered: 1, total: 3 })}`,
		);
		expect(compact).toContain("Postgres");
		expect(compact).toContain(CATALOGUES.ja["outcome.skipped"]);
		expect(compact).toContain(CATALOGUES.ja["outcome.unanswered"]);
		expect(compact).not.toMatch(/Dismissed|skipped|unanswered/);
	});

	it("a status this version does not know (a newer session file) is shown as it is, never thrown on", () => {
		const future = { ...answered, status: "deferred" } as unknown as AskDetails;
		expect(() => renderResultText(future, false, plain)).not.toThrow();
		expect(renderResultText(future, false, plain, textsFor("de"))).toContain("deferred · ");
	});
});
