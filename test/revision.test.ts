/**
 * A revision's pure parts (src/kept/revision.ts): what changed, question by
 * question, in the message the model reads; the order /ask-user lists kept
 * forms in; when a form was answered. The whole flow: test/restore.test.ts and
 * test/e2e/revise.test.ts.
 */

import { describe, expect, it } from "vitest";
import { answeredWhen, listOrder, revisedAnswerText, whatChanged } from "../src/kept/revision.ts";
import type { Collected } from "../src/core/types.ts";
import { prepareForm } from "../src/tool/call.ts";
import { formatResultText } from "../src/tool/result.ts";

const FORM = prepareForm({
	questions: [
		{
			id: "db",
			header: "Database",
			question: "Which database?",
			options: [{ label: "Postgres" }, { label: "SQLite" }],
		},
		{
			id: "the cache",
			header: "Cache",
			question: "Which cache?",
			options: [{ label: "Redis", recommended: true }, { label: "None" }],
		},
		{ id: "why", header: "Context", question: "Anything else?", required: false },
	],
}).form;

const BEFORE: Collected = {
	status: "answered",
	answers: {
		db: { kind: "single", selections: [{ value: "SQLite", label: "SQLite" }] },
		"the cache": { kind: "single", selections: [{ value: "Redis", label: "Redis" }] },
	},
	skipped: ["why"],
	notes: [{ questionId: "db", text: "for now" }],
};

describe("what changed", () => {
	it("a line per question whose answer, note or free text changed, before → now, its id quoted as in the result; then the form's note", () => {
		const after: Collected = {
			status: "answered",
			answers: {
				db: { kind: "single", selections: [{ value: "SQLite", label: "SQLite" }] },
				why: { kind: "single", selections: [{ value: "ship friday", label: "ship friday", custom: true }] },
			},
			skipped: [],
			delegated: ["the cache"],
			notes: [{ questionId: "db", text: "for good" }, { text: "be quick" }],
		};
		expect(whatChanged(FORM, BEFORE, after)).toEqual([
			'db: "SQLite"; note: "for now" → "SQLite"; note: "for good"',
			'"the cache": "Redis" → left to you — you recommended "Redis"',
			'why: skipped → wrote "ship friday"',
			'Note on the whole form: none → "be quick"',
		]);
	});

	it("a file added to the whole form's note alone is a change, as one added to an answer is", () => {
		const noted: Collected = { ...BEFORE, notes: [...BEFORE.notes, { text: "see this" }] };
		const shot = { name: "shot.png", path: "/f/shot.png", size: 9, mime: "image/png", kind: "note" as const };
		expect(whatChanged(FORM, noted, { ...noted, attachments: [shot] })).toEqual([
			'Note on the whole form: "see this" → "see this" + 📎 shot.png (image, 9 B)',
		]);
		const onDb = { ...shot, questionId: "db" };
		expect(whatChanged(FORM, BEFORE, { ...BEFORE, attachments: [onDb] })).toEqual([
			'db: "SQLite"; note: "for now" → "SQLite"; note: "for now" + 📎 shot.png (image, 9 B)',
		]);
	});

	it("nothing changed: no line", () => {
		expect(whatChanged(FORM, BEFORE, { ...BEFORE, notes: [...BEFORE.notes] })).toEqual([]);
	});

	it("the message names the call, says what changed, then the answers exactly as the tool returns them", () => {
		const after: Collected = { ...BEFORE, notes: [] };
		expect(revisedAnswerText("call_7", FORM, BEFORE, after).split("\n")).toEqual([
			'Revised answer to ask_user call "call_7": the user changed their answers after submitting them. From now on act on these, not the earlier ones; where what you did since rests on an earlier answer, say so and adjust.',
			"What changed (before → now):",
			'db: "SQLite"; note: "for now" → "SQLite"',
			"The answers as they now stand:",
			...formatResultText(FORM, after).split("\n"),
		]);
	});
});

describe("the list of /ask-user", () => {
	const item = (id: string, status: "answered" | "dismissed" | "open", savedAt: number) => ({
		id,
		kept: { status, savedAt },
	});

	it("the forms without an answer, newest first, then the answered ones, newest first", () => {
		const listed = listOrder([
			item("a-old", "answered", 1),
			item("d-old", "dismissed", 2),
			item("a-new", "answered", 9),
			item("o-new", "open", 8),
		]);
		expect(listed.map((entry) => entry.id)).toEqual(["o-new", "d-old", "a-new", "a-old"]);
	});

	it("says when a form was answered: the time on the day, else the date and the time (local)", () => {
		const at = new Date(2026, 11, 3, 9, 5).getTime();
		expect(answeredWhen(at, new Date(2026, 11, 3, 23, 59).getTime())).toBe("09:05");
		expect(answeredWhen(at, new Date(2026, 11, 4, 0, 1).getTime())).toBe("2026-12-03 09:05");
	});
});
