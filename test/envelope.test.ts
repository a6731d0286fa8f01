/** The relay envelopes: what crosses between a child and the session that shows its form, checked before it is believed. */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	RELAY_CANCEL_PREFIX,
	RELAY_TITLE,
	collectedToReply,
	decodeRelayCancel,
	decodeRelayReply,
	decodeRelayRequest,
	encodeRelayCancel,
	encodeRelayReply,
	encodeRelayRequest,
	replyToCollected,
} from "../src/relay/envelope.ts";
import type {
	AskAnswer,
	AskDraft,
	AskForm,
	AskMetadata,
	AskNote,
	AskOption,
	AskQuestion,
	AskSelection,
	RelayReply,
	RelayRequest,
} from "../src/core/types.ts";
import {
	anyChar,
	anyText,
	collected,
	DB,
	FEATURES,
	FORM,
	NOTES,
	RUNS,
	STATUSES,
	validForm,
} from "./support/answers.ts";

// ── Relay envelopes: examples ──────────────────────────────────────────────

function decodeRequestError(envelope: unknown): string {
	const result = decodeRelayRequest(typeof envelope === "string" ? envelope : JSON.stringify(envelope));
	if (result.ok) throw new Error("expected the request to be rejected");
	return result.error;
}

function decodeReplyError(envelope: unknown, expect?: Parameters<typeof decodeRelayReply>[1]): string {
	const result = decodeRelayReply(typeof envelope === "string" ? envelope : JSON.stringify(envelope), expect);
	if (result.ok) throw new Error("expected the reply to be rejected");
	return result.error;
}

const REQUEST: RelayRequest = {
	v: 1,
	rid: "r-1",
	asker: "planner › scout",
	task: "pick the database for the invoices",
	questions: FORM.questions,
	reason: "The migration depends on it.",
	metadata: { flowId: "f" },
};
const REPLY: RelayReply = {
	v: 1,
	rid: "r-1",
	status: "answered",
	answers: { db: DB, features: FEATURES },
	skipped: ["extras"],
	notes: NOTES,
};

describe("relay markers", () => {
	it("the title and cancel prefix start with NUL so no human title matches them", () => {
		expect(RELAY_TITLE.startsWith("\u0000")).toBe(true);
		expect(RELAY_CANCEL_PREFIX.startsWith("\u0000")).toBe(true);
		expect(RELAY_TITLE).not.toBe(RELAY_CANCEL_PREFIX);
	});

	it("a cancel notice carries the rid and nothing else decodes as one", () => {
		expect(decodeRelayCancel(encodeRelayCancel("r-42"))).toBe("r-42");
		expect(decodeRelayCancel("r-42")).toBeUndefined();
		expect(decodeRelayCancel(RELAY_CANCEL_PREFIX)).toBeUndefined();
		expect(decodeRelayCancel(`${RELAY_CANCEL_PREFIX}has space`)).toBeUndefined();
		expect(decodeRelayCancel(42)).toBeUndefined();
		expect(decodeRelayCancel(undefined)).toBeUndefined();
	});
});

describe("relay request", () => {
	it("round-trips a form with its rid, asker, task, reason and metadata", () => {
		expect(decodeRelayRequest(encodeRelayRequest(REQUEST))).toEqual({ ok: true, request: REQUEST });
	});

	it("is versioned JSON with v first", () => {
		expect(encodeRelayRequest(REQUEST).startsWith('{"v":1,')).toBe(true);
	});

	it("rejects text that is not a string or not JSON", () => {
		expect(decodeRelayRequest(undefined)).toEqual({
			ok: false,
			error: "relay request rejected: expected JSON text (found nothing)",
		});
		expect(decodeRequestError("{not json")).toMatch(/^relay request rejected: not valid JSON \(/);
		expect(decodeRequestError("[1,2]")).toBe("relay request rejected: expected a JSON object (found an array)");
	});

	it("names the expected and the found version", () => {
		expect(decodeRequestError({ questions: [] })).toMatch(/v: expected protocol version 1, v is missing/);
		expect(decodeRequestError({ v: 2, questions: [] })).toMatch(/v: expected protocol version 1, found v number 2/);
		expect(decodeRequestError({ v: "1", questions: [] })).toMatch(/found v the string "1"/);
	});

	it("validates the questions with the rules of a model's call and names each path", () => {
		const questions = [
			{ ...FORM.questions[0], allowOther: false, options: [{ label: "Only one", value: "x", recommended: false }] },
			{ question: 3 },
		];
		const error = decodeRequestError({ v: 1, questions });
		expect(error).toMatch(/questions\[0\]\.options: 1 option and "allowOther": false/);
		expect(error).toMatch(/questions\[1\]\.question: expected a string/);
		expect(error).not.toMatch(/questions\[1\]\.options/);
	});

	it("rejects a missing question list, a bad asker and a bad rid", () => {
		expect(decodeRequestError({ v: 1 })).toMatch(/questions: missing/);
		expect(decodeRequestError({ ...REQUEST, asker: "two\nlines" })).toMatch(
			/asker: must be one line without control characters/,
		);
		expect(decodeRequestError({ ...REQUEST, asker: "x".repeat(201) })).toMatch(
			/asker: must be at most 200 characters \(found 201\)/,
		);
		expect(decodeRequestError({ ...REQUEST, asker: 7 })).toMatch(/asker: must be a string \(found number 7\)/);
		expect(decodeRequestError({ ...REQUEST, rid: "" })).toMatch(/rid: must be 1–128 printable ASCII/);
		expect(decodeRequestError({ ...REQUEST, rid: 12 })).toMatch(/rid: must be a string \(found number 12\)/);
	});

	it("rejects a task that is not one line or past its limit, and a reason by the rules of a model's call", () => {
		expect(decodeRequestError({ ...REQUEST, task: "two\nlines" })).toMatch(/task: must be one line without control/);
		expect(decodeRequestError({ ...REQUEST, task: "t".repeat(2001) })).toMatch(/task: must be at most 2000 characters/);
		expect(decodeRequestError({ ...REQUEST, task: 7 })).toMatch(/task: must be a string \(found number 7\)/);
		expect(decodeRequestError({ ...REQUEST, reason: "r".repeat(201) })).toMatch(
			/reason: 201 characters; the limit is 200/,
		);
		expect(decodeRequestError({ ...REQUEST, reason: "a\u001bb" })).toMatch(
			/reason: contains the control character U\+001B/,
		);
		// A child that predates them sends neither: the request is what it was.
		const { task: _task, reason: _reason, ...older } = REQUEST;
		expect(decodeRelayRequest(encodeRelayRequest(older))).toEqual({ ok: true, request: older });
	});

	it("returns the validated questions with every default filled in", () => {
		const result = decodeRelayRequest(
			JSON.stringify({ v: 1, questions: [{ question: "Pick?", options: ["A", "B"].map((label) => ({ label })) }] }),
		);
		expect(result).toEqual({
			ok: true,
			request: {
				v: 1,
				questions: [
					{
						id: "q1",
						header: "Q1",
						question: "Pick?",
						options: [
							{ label: "A", value: "A", recommended: false },
							{ label: "B", value: "B", recommended: false },
						],
						multiSelect: false,
						allowOther: true,
						required: true,
					},
				],
			},
		});
	});

	it("ignores fields it does not know, so a newer child's additions do not break an older parent", () => {
		const result = decodeRelayRequest(JSON.stringify({ ...REQUEST, future: { x: 1 } }));
		expect(result).toEqual({ ok: true, request: REQUEST });
	});
});

describe("relay reply", () => {
	it("round-trips every status, with the error kept", () => {
		for (const status of STATUSES) {
			const reply: RelayReply = { ...REPLY, status, ...(status === "error" ? { error: "it broke" } : {}) };
			expect(decodeRelayReply(encodeRelayReply(reply))).toEqual({ ok: true, reply });
		}
	});

	it("carries the note on the whole form, and accepts a reply without it (a v1 peer that predates it)", () => {
		const reply: RelayReply = {
			...REPLY,
			status: "dismissed",
			notes: [...NOTES, { text: "and don't touch the schema" }],
			drafts: [{ kind: "note", text: "draft" }],
		};
		expect(decodeRelayReply(encodeRelayReply(reply), { questions: FORM.questions, rid: "r-1" })).toEqual({
			ok: true,
			reply,
		});
		expect(replyToCollected(reply)).toMatchObject({ notes: reply.notes, drafts: reply.drafts });
		expect(collectedToReply(replyToCollected(reply), "r-1")).toEqual(reply);
		expect(decodeReplyError({ ...REPLY, formNote: " " })).toMatch(/formNote: must not be blank/);
		expect(decodeRelayReply(encodeRelayReply(REPLY))).toEqual({ ok: true, reply: REPLY });
	});

	it("speaks v1 as the previous release wrote it: the whole form's texts in formNote, formNoteDraft, chatMessage and chatDraft", () => {
		// Written by the previous release's encoder, field for field.
		const wire =
			'{"v":1,"rid":"r-1","status":"chat","answers":{},"skipped":[],"notes":[{"questionId":"db","text":"n"}],' +
			'"drafts":[{"questionId":"db","kind":"answer","text":"d"}],"formNote":"fn","formNoteDraft":"fnd","chatMessage":"cm","chatDraft":"cd"}';
		const scoped: RelayReply = {
			v: 1,
			rid: "r-1",
			status: "chat",
			answers: {},
			skipped: [],
			notes: [{ questionId: "db", text: "n" }, { text: "fn" }],
			drafts: [
				{ questionId: "db", kind: "answer", text: "d" },
				{ kind: "note", text: "fnd" },
				{ kind: "chat", text: "cd" },
			],
			chatMessage: "cm",
		};
		expect(decodeRelayReply(wire, { questions: FORM.questions, rid: "r-1" })).toEqual({ ok: true, reply: scoped });
		expect(encodeRelayReply(scoped)).toBe(wire);
	});

	it("speaks v4 to a child that reads it: every note in notes, every draft in drafts, the whole form's on no question", () => {
		const scoped: RelayReply = {
			v: 4,
			rid: "r-1",
			status: "chat",
			answers: {},
			skipped: [],
			notes: [{ questionId: "db", option: "PostgreSQL", text: "n" }, { text: "fn" }],
			drafts: [
				{ questionId: "db", kind: "answer", text: "d" },
				{ kind: "note", text: "fnd" },
				{ kind: "chat", text: "cd" },
			],
			chatMessage: "cm",
		};
		const wire = encodeRelayReply(scoped);
		expect(JSON.parse(wire)).toEqual(scoped);
		expect(decodeRelayReply(wire, { questions: FORM.questions, rid: "r-1" })).toEqual({ ok: true, reply: scoped });
		// The same reply to a child of v3 is v1's shape; each decodes to the one the other wrote.
		const earlier = encodeRelayReply({ ...scoped, v: 3 });
		expect(JSON.parse(earlier)).toMatchObject({ formNote: "fn", formNoteDraft: "fnd", chatDraft: "cd" });
		expect(decodeRelayReply(earlier, { questions: FORM.questions })).toEqual({ ok: true, reply: { ...scoped, v: 3 } });
		expect(collectedToReply(replyToCollected(scoped), "r-1", { ...REQUEST, replyVersion: 4 })).toEqual(scoped);
	});

	it("v4's lists say where each text is: a chat draft on nothing, an answer on a question, an option under a question", () => {
		const v4 = { ...REPLY, v: 4, status: "dismissed", answers: {}, skipped: [] };
		const problems = decodeReplyError(
			{
				...v4,
				notes: [
					{ option: "PostgreSQL", text: "on what?" },
					{ questionId: "nope", text: "x" },
				],
				drafts: [
					{ kind: "chat", questionId: "db", text: "c" },
					{ kind: "answer", text: "a" },
					{ kind: "note", option: "PostgreSQL", text: "n" },
					{ kind: "chat", text: "c" },
					{ kind: "chat", text: "again" },
				],
				formNote: "a v3 field, dropped in v4",
			},
			{ questions: FORM.questions },
		).split("; ");
		expect(problems).toEqual([
			"relay reply rejected: notes[0].option: must be absent on the whole form's note or draft (no questionId): an option is on a question",
			'notes[1].questionId: "nope" is no question of the request (known ids: "db", "features", "extras")',
			'drafts[0]: must name no question or option: a "chat" draft is the message for the chat',
			'drafts[1].questionId: is missing: an "answer" draft is on a question',
			"drafts[2].option: must be absent on the whole form's note or draft (no questionId): an option is on a question",
			"drafts[4]: is a second draft for the same question, kind and option",
		]);
		expect(decodeReplyError({ ...REPLY, notes: [{ text: "a v3 note on no question" }] })).toContain(
			"notes[0].questionId: is missing",
		);
		expect(
			decodeReplyError(
				{ ...v4, notes: [{ questionId: "db", option: "Oracle", text: "n" }] },
				{ questions: FORM.questions },
			),
		).toBe('relay reply rejected: notes[0].option: "Oracle" is not an option label of question "db"');
	});

	it("a field it does not know (a newer peer's), at any depth, is dropped, not refused", () => {
		const newer = {
			...REPLY,
			mood: "calm",
			answers: { db: { ...DB, weight: 1 } },
			notes: [{ ...NOTES[0], scope: "x" }],
		};
		expect(decodeRelayReply(JSON.stringify(newer))).toEqual({
			ok: true,
			reply: { ...REPLY, answers: { db: DB }, notes: [NOTES[0]] },
		});
	});

	it("checks the answers against the questions when it knows them", () => {
		expect(decodeRelayReply(encodeRelayReply(REPLY), { questions: FORM.questions, rid: "r-1" })).toEqual({
			ok: true,
			reply: REPLY,
		});
	});

	it("rejects an unknown status", () => {
		expect(decodeReplyError({ ...REPLY, status: "maybe" })).toBe(
			'relay reply rejected: status: must be one of "answered", "dismissed", "aborted", "no_ui", "timed_out", "error", "chat" (found the string "maybe")',
		);
	});

	it("rejects answers of the wrong shape, naming each path", () => {
		const error = decodeReplyError({
			...REPLY,
			answers: {
				db: { kind: "one", selections: [{ value: "postgres", label: "PostgreSQL" }] },
				features: { kind: "multi", selections: [] },
				extras: {
					kind: "single",
					selections: [
						{ value: "a", label: "a" },
						{ value: "b", label: "b" },
					],
				},
				"my id": { kind: "single", selections: [{ value: 1, label: "x", custom: false }] },
				other: "Docs",
			},
			skipped: [],
		});
		expect(error).toContain('answers.db.kind: must be "single" or "multi" (found the string "one")');
		expect(error).toContain("answers.features.selections: must have at least 1 item (found none)");
		expect(error).toContain('answers.extras.selections: a "single" answer has exactly one selection (found 2)');
		expect(error).toContain('answers["my id"].selections[0].value: must be a string (found number 1)');
		expect(error).toContain('answers["my id"].selections[0].custom: must be true (found boolean false)');
		expect(error).toContain('answers.other: must be an object (found the string "Docs")');
	});

	it("rejects a custom selection whose value is not its text, and text past the editor's limit", () => {
		const long = "x".repeat(4001);
		const error = decodeReplyError({
			...REPLY,
			answers: { db: { kind: "single", selections: [{ value: "a", label: "b", custom: true }] } },
			notes: [{ questionId: "db", text: long }],
		});
		expect(error).toContain("answers.db.selections[0].value: of a custom selection must equal its label");
		expect(error).toContain("notes[0].text: must be at most 4000 characters (found 4001)");
	});

	it("rejects bad skipped and notes lists", () => {
		expect(decodeReplyError({ ...REPLY, skipped: "extras" })).toContain(
			'skipped: must be an array (found the string "extras")',
		);
		expect(decodeReplyError({ ...REPLY, skipped: ["extras", "extras"] })).toContain('skipped[1]: repeats "extras"');
		expect(decodeReplyError({ ...REPLY, skipped: ["db"] })).toContain('skipped[0]: "db" is both answered and skipped');
		expect(decodeReplyError({ ...REPLY, notes: [{ questionId: "db" }] })).toContain("notes[0].text: is missing");
		expect(decodeReplyError({ ...REPLY, notes: [{ questionId: "db", option: 1, text: "" }] })).toContain(
			"notes[0].option: must be a string (found number 1)",
		);
		expect(decodeReplyError({ ...REPLY, notes: {} })).toContain("notes: must be an array (found an object)");
		expect(decodeReplyError({ ...REPLY, error: 5 })).toContain("error: must be a string (found number 5)");
	});

	it("rejects answers to questions that were not asked, and answers that do not fit their question", () => {
		const error = decodeReplyError(
			{
				...REPLY,
				answers: {
					db: { kind: "multi", selections: [{ value: "mysql", label: "MySQL" }] },
					features: {
						kind: "multi",
						selections: [
							{ value: "Auth", label: "Login" },
							{ value: "Search", label: "Search" },
							{ value: "Search", label: "Search" },
						],
					},
					ghost: { kind: "single", selections: [{ value: "a", label: "a" }] },
				},
				skipped: ["extras", "nobody"],
				notes: [{ questionId: "phantom", text: "?" }],
			},
			{ questions: FORM.questions },
		);
		expect(error).toContain('answers.db.kind: must be "single" for question "db" (found "multi")');
		expect(error).toContain('answers.db.selections[0].value: "mysql" is not an option value of question "db"');
		expect(error).toContain('answers.features.selections[0].label: must be "Auth", the label of option value "Auth"');
		expect(error).toContain('answers.features.selections[2]: selects option "Search" twice');
		expect(error).toContain(
			'answers.ghost: answers no question of the request (known ids: "db", "features", "extras")',
		);
		expect(error).toContain('skipped[1]: "nobody" is no question of the request');
	});

	it("with the questions known: no free text where allowOther is false, no skipping a required question, every required one answered", () => {
		const strict = validForm({
			questions: [{ id: "a", question: "A?", options: [{ label: "x" }, { label: "y" }], allowOther: false }],
		}).questions;
		expect(
			decodeReplyError(
				{
					v: 1,
					status: "dismissed",
					answers: { a: { kind: "single", selections: [{ value: "z", label: "z", custom: true }] } },
					skipped: [],
					notes: [],
				},
				{ questions: strict },
			),
		).toContain("answers.a.selections[0]: is free text, but the question does not allow it (allowOther is false)");
		expect(
			decodeReplyError({ v: 1, status: "dismissed", answers: {}, skipped: ["a"], notes: [] }, { questions: strict }),
		).toContain('skipped[0]: question "a" is required and cannot be skipped');
		expect(
			decodeReplyError({ v: 1, status: "answered", answers: {}, skipped: [], notes: [] }, { questions: strict }),
		).toContain('answers.a: is missing: status "answered" needs an answer to every required question');
		// The same empty reply is fine for any other status: answers so far are whatever the user gave.
		expect(
			decodeRelayReply(JSON.stringify({ v: 1, status: "aborted", answers: {}, skipped: [], notes: [] }), {
				questions: strict,
			}).ok,
		).toBe(true);
	});

	it("carries drafts from the parent back to the child, checked against the questions", () => {
		const drafts: AskDraft[] = [
			{ questionId: "db", kind: "answer", text: "half-typ" },
			{ questionId: "features", kind: "note", option: "Billing", text: "x".repeat(4001) },
			{ questionId: "extras", kind: "note", text: "later" },
		];
		const reply: RelayReply = { ...REPLY, status: "timed_out", drafts };
		const text = encodeRelayReply(reply);
		expect(Object.keys(JSON.parse(text))).toEqual(["v", "rid", "status", "answers", "skipped", "notes", "drafts"]);
		expect(decodeRelayReply(text, { questions: FORM.questions, rid: "r-1" })).toEqual({ ok: true, reply });
	});

	it("a reply without drafts is still valid v1, and no drafts are sent as no field at all", () => {
		expect(JSON.parse(encodeRelayReply({ ...REPLY, drafts: [] }))).not.toHaveProperty("drafts");
		const decoded = decodeRelayReply(encodeRelayReply(REPLY), { questions: FORM.questions });
		expect(decoded).toEqual({ ok: true, reply: REPLY });
		expect(decoded.ok && decoded.reply).not.toHaveProperty("drafts");
	});

	it("rejects malformed drafts, naming each path", () => {
		expect(decodeReplyError({ ...REPLY, drafts: "half-typ" })).toBe(
			'relay reply rejected: drafts: must be an array (found the string "half-typ")',
		);
		expect(decodeReplyError({ ...REPLY, drafts: null })).toContain("drafts: must be an array (found null)");
		const error = decodeReplyError({
			...REPLY,
			drafts: [
				"text",
				{ questionId: 1, kind: "answer", text: "a" },
				{ questionId: "db", kind: "selection", text: "a" },
				{ questionId: "db", kind: "answer", option: "SQLite", text: "a" },
				{ questionId: "db", kind: "note", option: 2, text: "a" },
				{ questionId: "db", kind: "note", text: "  \n " },
				{ questionId: "db", kind: "note" },
			],
		});
		expect(error).toContain('drafts[0]: must be an object (found the string "text")');
		expect(error).toContain("drafts[1].questionId: must be a string (found number 1)");
		expect(error).toContain('drafts[2].kind: must be "answer" or "note" (found the string "selection")');
		expect(error).toContain('drafts[3].option: must be absent on an "answer" draft');
		expect(error).toContain("drafts[4].option: must be a string (found number 2)");
		expect(error).toContain("drafts[5].text: must not be blank");
		expect(error).toContain("drafts[6].text: is missing");
	});

	it("with the questions known: a draft is on a question of the request, free text only where allowed, on an option it has", () => {
		const strict = validForm({
			questions: [{ id: "a", question: "A?", options: [{ label: "x" }, { label: "y" }], allowOther: false }],
		}).questions;
		const reply = (drafts: unknown) => ({ v: 1, status: "aborted", answers: {}, skipped: [], notes: [], drafts });
		expect(decodeReplyError(reply([{ questionId: "b", kind: "note", text: "n" }]), { questions: strict })).toContain(
			'drafts[0].questionId: "b" is no question of the request (known ids: "a")',
		);
		expect(
			decodeReplyError(reply([{ questionId: "a", kind: "answer", text: "mine" }]), { questions: strict }),
		).toContain("drafts[0]: is free text, but the question does not allow it (allowOther is false)");
		expect(
			decodeReplyError(reply([{ questionId: "a", kind: "note", option: "z", text: "n" }]), { questions: strict }),
		).toContain('drafts[0].option: "z" is not an option label of question "a"');
		expect(
			decodeRelayReply(JSON.stringify(reply([{ questionId: "a", kind: "note", option: "y", text: "n" }])), {
				questions: strict,
			}).ok,
		).toBe(true);
	});

	it("with the questions known: no drafts on a submitted form, and one draft per question, kind and option", () => {
		const questions = validForm({
			questions: [{ id: "a", question: "A?", options: [{ label: "x" }, { label: "y" }] }],
		}).questions;
		const submitted = {
			v: 1,
			status: "answered",
			answers: { a: { kind: "single", selections: [{ value: "x", label: "x" }] } },
			skipped: [],
			notes: [],
		};
		expect(
			decodeReplyError({ ...submitted, drafts: [{ questionId: "a", kind: "note", text: "n" }] }, { questions }),
		).toContain('drafts: must be absent when status is "answered"');
		const twice = [
			{ questionId: "a", kind: "note", option: "x", text: "one" },
			{ questionId: "a", kind: "note", text: "on the question" },
			{ questionId: "a", kind: "note", option: "x", text: "two" },
		];
		expect(
			decodeReplyError(
				{ v: 1, status: "dismissed", answers: {}, skipped: [], notes: [], drafts: twice },
				{ questions },
			),
		).toContain("drafts[2]: is a second draft for the same question, kind and option");
	});

	it("answeredBy is one line of text naming who answered", () => {
		const reply: RelayReply = { ...REPLY, answeredBy: "phone bridge" };
		expect(decodeRelayReply(encodeRelayReply(reply))).toEqual({ ok: true, reply });
		expect(decodeReplyError({ ...REPLY, answeredBy: "two\nlines" })).toContain(
			"answeredBy: must be one line of text naming who answered",
		);
		expect(decodeReplyError({ ...REPLY, answeredBy: "  " })).toContain(
			"answeredBy: must be one line of text naming who answered",
		);
	});

	it("a problem in one field or entry never hides another's (TypeBox stops at eight errors a check), whatever the key", () => {
		const error = decodeReplyError({
			...REPLY,
			status: "maybe",
			answers: { "a\nb": { kind: "x", selections: [] }, db: DB },
			skipped: [1],
		});
		expect(error).toContain('status: must be one of "answered", ');
		expect(error).toContain('answers["a\\nb"].kind: must be "single" or "multi" (found the string "x")');
		expect(error).toContain('answers["a\\nb"].selections: must have at least 1 item (found none)');
		expect(error).toContain("skipped[0]: must be a string (found number 1)");
	});

	it("rejects a reply to another request", () => {
		expect(decodeReplyError(REPLY, { rid: "r-2" })).toContain('rid: "r-1" does not match the request\'s rid "r-2"');
	});

	it("answers keyed by Object.prototype names are own data, not the prototype", () => {
		const answer = `{"kind":"single","selections":[{"value":"a","label":"a"}]}`;
		const text = `{"v":1,"status":"answered","answers":{"__proto__":${answer},"constructor":${answer}},"skipped":["toString"],"notes":[]}`;
		const result = decodeRelayReply(text);
		if (!result.ok) throw new Error(result.error);
		expect(Object.keys(result.reply.answers)).toEqual(["__proto__", "constructor"]);
		expect(Object.hasOwn(result.reply.answers, "__proto__")).toBe(true);
		expect(Object.getPrototypeOf(result.reply.answers)).toBe(Object.prototype);
		expect(JSON.parse(encodeRelayReply(result.reply))).toEqual(JSON.parse(text));
	});

	it("lists at most eight problems and counts the rest", () => {
		const error = decodeReplyError({ ...REPLY, skipped: Array.from({ length: 12 }, (_, i) => i) });
		expect(error.match(/skipped\[\d+\]/g)).toHaveLength(8);
		expect(error).toMatch(/… and 4 more$/);
	});

	it("converts to and from what a UI collected", () => {
		const c = collected("error", {
			answers: { db: DB },
			skipped: ["extras"],
			notes: NOTES,
			drafts: [{ questionId: "db", kind: "answer", text: "d" }],
			error: "x",
		});
		const reply = collectedToReply(c, "r-9");
		expect(reply).toEqual({ v: 1, rid: "r-9", ...c });
		expect(replyToCollected(reply)).toEqual(c);
		expect(collectedToReply(collected("answered"))).not.toHaveProperty("rid");
		expect(replyToCollected({ ...REPLY })).not.toHaveProperty("error");
		expect(replyToCollected({ ...REPLY, drafts: [] })).not.toHaveProperty("drafts");
		expect(collectedToReply(collected("aborted", { drafts: [] }))).not.toHaveProperty("drafts");
	});

	it("carries previewsUnseen (answered where previews are not shown) to the child; a reply without it has none", () => {
		const unseen = collected("dismissed", { answers: { db: DB }, previewsUnseen: ["db"] });
		const wire = encodeRelayReply(collectedToReply(unseen, "r-9", { ...REQUEST, replyVersion: 3 }));
		const decoded = decodeRelayReply(wire, { rid: "r-9", questions: REQUEST.questions });
		if (!decoded.ok) throw new Error(decoded.error);
		expect(replyToCollected(decoded.reply)).toEqual(unseen);
		const plain = encodeRelayReply(collectedToReply(collected("dismissed", { answers: { db: DB } }), "r-9"));
		expect(JSON.parse(plain)).not.toHaveProperty("previewsUnseen");
		expect(decodeReplyError({ ...REPLY, previewsUnseen: true })).toContain("previewsUnseen");
		// Each one an answered question, listed once.
		expect(decodeReplyError({ ...REPLY, previewsUnseen: ["db", "db"] })).toBe(
			'relay reply rejected: previewsUnseen[1]: repeats "db"; list each question once',
		);
		expect(decodeReplyError({ ...REPLY, previewsUnseen: ["extras"] })).toBe(
			'relay reply rejected: previewsUnseen[0]: "extras" is not answered; list only questions answered without their ' +
				"previews",
		);
		expect(decodeRelayReply(JSON.stringify({ ...REPLY, previewsUnseen: ["features", "db"] })).ok).toBe(true);
		expect(replyToCollected({ ...REPLY, previewsUnseen: [] })).not.toHaveProperty("previewsUnseen");
	});
});

// ── Relay envelopes: properties ────────────────────────────────────────────

/** What validateParams refuses inside one-line fields. */
const NOT_ONE_LINE = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
const RESERVED_IDS = new Set(Object.getOwnPropertyNames(Object.prototype));
const codePoints = (text: string) => [...text].length;

const oneLineChar = anyChar.filter((c) => !NOT_ONE_LINE.test(c));
/** Trimmed, non-blank, one-line text of at most `max` UTF-16 units. */
const oneLineText = (max: number, maxUnits = 12) =>
	fc
		.string({ unit: oneLineChar, minLength: 1, maxLength: maxUnits })
		.map((s) => s.trim())
		.filter((s) => s !== "" && s.length <= max);
/** Multi-line text as validate keeps it: trimmed at the end, not blank. */
const multiLineText = (max: number) =>
	anyText(20)
		.map((s) => s.trimEnd())
		.filter((s) => s.trim() !== "" && s.length <= max);

const arbOptions = (multiSelect: boolean): fc.Arbitrary<AskOption[]> =>
	fc
		.uniqueArray(oneLineText(60), { minLength: 2, maxLength: 5, selector: (label) => label.toLowerCase() })
		.chain((labels) =>
			fc.tuple(
				fc.constant(labels),
				fc.array(fc.option(oneLineText(60), { nil: undefined }), {
					minLength: labels.length,
					maxLength: labels.length,
				}),
				fc.array(fc.option(multiLineText(300), { nil: undefined }), {
					minLength: labels.length,
					maxLength: labels.length,
				}),
				fc.array(multiSelect ? fc.constant(undefined) : fc.option(multiLineText(4000), { nil: undefined }), {
					minLength: labels.length,
					maxLength: labels.length,
				}),
				fc.option(fc.nat({ max: labels.length - 1 }), { nil: undefined }),
			),
		)
		.map(([labels, values, descriptions, previews, recommended]) =>
			labels.map((label, i) => {
				const option: AskOption = { label, value: values[i] ?? label, recommended: i === recommended };
				const description = descriptions[i];
				const preview = previews[i];
				if (description !== undefined) option.description = description;
				if (preview !== undefined) option.preview = preview;
				return option;
			}),
		)
		.filter((options) => new Set(options.map((o) => o.value)).size === options.length);

const arbQuestion = (id: string, header: string): fc.Arbitrary<AskQuestion> =>
	fc.boolean().chain((multiSelect) =>
		fc
			.record({
				question: oneLineText(1000, 30),
				context: fc.option(multiLineText(1000), { nil: undefined }),
				options: arbOptions(multiSelect),
				allowOther: fc.boolean(),
				required: fc.boolean(),
			})
			.map(({ question, context, options, allowOther, required }) => {
				const q: AskQuestion = { id, header, question, options, multiSelect, allowOther, required };
				if (context !== undefined) q.context = context;
				return q;
			}),
	);

const arbIds = fc.uniqueArray(
	oneLineText(40).filter((id) => !id.startsWith("$") && !RESERVED_IDS.has(id)),
	{ minLength: 1, maxLength: 4 },
);
const arbHeaders = (count: number) =>
	fc.uniqueArray(
		oneLineText(48, 6).filter((h) => codePoints(h) <= 12),
		{ minLength: count, maxLength: count, selector: (h) => h.toLowerCase() },
	);

const arbMetadata: fc.Arbitrary<AskMetadata> = fc.record(
	{ source: anyText(), flowId: anyText(), tags: fc.array(anyText(10), { maxLength: 3 }) },
	{ requiredKeys: [], noNullPrototype: true },
);

/** A form as validateParams leaves it: every input rule holds, every default filled in. */
const arbForm: fc.Arbitrary<AskForm> = arbIds
	.chain((ids) => fc.tuple(fc.constant(ids), arbHeaders(ids.length)))
	.chain(([ids, headers]) =>
		fc.tuple(
			fc.tuple(...ids.map((id, i) => arbQuestion(id, headers[i] as string))),
			fc.option(arbMetadata, { nil: undefined }),
			fc.option(oneLineText(200, 40), { nil: undefined }),
		),
	)
	.map(([questions, metadata, reason]) => ({
		questions,
		...(reason !== undefined && { reason }),
		...(metadata !== undefined && { metadata }),
	}));

const arbRid = fc.string({
	unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
	minLength: 1,
	maxLength: 40,
});
const arbAsker = fc
	.string({ unit: anyChar.filter((c) => !/[\x00-\x1f\x7f-\x9f\u2028\u2029]/.test(c)), maxLength: 30 })
	.filter((s) => s.length <= 200);

const arbRequest: fc.Arbitrary<RelayRequest> = fc
	.tuple(
		arbForm,
		fc.option(arbRid, { nil: undefined }),
		fc.option(arbAsker, { nil: undefined }),
		fc.option(arbAsker, { nil: undefined }),
		fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
	)
	.map(([form, rid, asker, task, replyVersion]) => ({
		v: 1 as const,
		...(rid !== undefined && { rid }),
		...(asker !== undefined && { asker }),
		...(task !== undefined && { task }),
		...form,
		...(replyVersion !== undefined && { replyVersion }),
	}));

const userText = anyText(40).filter((s) => s.length <= 4000);
const customSelection: fc.Arbitrary<AskSelection> = userText.map((text) => ({
	value: text,
	label: text,
	custom: true,
}));
const optionSelection: fc.Arbitrary<AskSelection> = fc.record(
	{ value: anyText(), label: anyText() },
	{ noNullPrototype: true },
);
const arbAnswer: fc.Arbitrary<AskAnswer> = fc
	.record({
		kind: fc.constantFrom("single" as const, "multi" as const),
		selections: fc.array(fc.oneof(optionSelection, customSelection), { minLength: 1, maxLength: 4 }),
		note: fc.option(userText, { nil: undefined }),
	})
	.map(({ kind, selections, note }) => ({
		kind,
		selections: kind === "single" ? selections.slice(0, 1) : selections,
		...(note !== undefined && { note }),
	}));
const arbNote = (ids: fc.Arbitrary<string>): fc.Arbitrary<AskNote> =>
	fc
		.record({ questionId: ids, option: fc.option(anyText(), { nil: undefined }), text: userText })
		.map(({ questionId, option, text }) => ({ questionId, ...(option !== undefined && { option }), text }));
const draftText = anyText(40).filter((s) => s.trim() !== "");
const arbDraft = (ids: fc.Arbitrary<string>): fc.Arbitrary<AskDraft> =>
	fc
		.record({ questionId: ids, option: fc.option(anyText(), { nil: undefined }), text: draftText })
		.map(
			({ questionId, option, text }): AskDraft =>
				option === undefined ? { questionId, kind: "answer", text } : { questionId, kind: "note", option, text },
		);
const arbStatus = fc.constantFrom(...STATUSES);
const arbError = fc.option(anyText(), { nil: undefined });

/**
 * Any well-shaped reply, to questions nobody checks: ids are any strings, Object.prototype names included
 * ("constructor" has its own example: an own "constructor" key confuses toStrictEqual's type check).
 */
const arbReply: fc.Arbitrary<RelayReply> = fc
	.uniqueArray(fc.oneof(anyText(10), fc.constantFrom("__proto__", "toString", "hasOwnProperty", "")), { maxLength: 6 })
	.chain((ids) => {
		const split = fc.nat({ max: ids.length });
		return fc.record({
			ids: fc.constant(ids),
			split,
			answers: fc.array(arbAnswer, { minLength: ids.length, maxLength: ids.length }),
			notes: fc.array(arbNote(fc.oneof(anyText(10), ids.length ? fc.constantFrom(...ids) : fc.constant("x"))), {
				maxLength: 4,
			}),
			drafts: fc.array(arbDraft(fc.oneof(anyText(10), ids.length ? fc.constantFrom(...ids) : fc.constant("x"))), {
				maxLength: 3,
			}),
			status: arbStatus,
			rid: fc.option(arbRid, { nil: undefined }),
			error: arbError,
		});
	})
	.map(({ ids, split, answers, notes, drafts, status, rid, error }) => ({
		v: 1 as const,
		...(rid !== undefined && { rid }),
		status,
		answers: Object.fromEntries(ids.slice(0, split).map((id, i) => [id, answers[i] as AskAnswer])),
		skipped: ids.slice(split),
		notes,
		...(drafts.length > 0 && { drafts }),
		...(error !== undefined && { error }),
	}));

/** A reply that fits the form: what any correct UI hands back. */
const arbReplyTo = (form: AskForm): fc.Arbitrary<RelayReply> =>
	fc
		.tuple(
			arbStatus,
			fc.tuple(
				...form.questions.map((q) =>
					fc.record({
						outcome: fc.constantFrom(
							...(q.required
								? ["answered", "unanswered", "delegated"]
								: ["answered", "skipped", "unanswered", "delegated"]),
						),
						chosen: fc.subarray(q.options, { minLength: 1 }),
						custom: q.allowOther ? fc.option(userText, { nil: undefined }) : fc.constant(undefined),
						note: fc.option(userText, { nil: undefined }),
						optionNote: fc.option(fc.tuple(fc.constantFrom(...q.options), userText), { nil: undefined }),
						customDraft: q.allowOther ? fc.option(draftText, { nil: undefined }) : fc.constant(undefined),
						noteDraft: fc.option(fc.tuple(fc.option(fc.constantFrom(...q.options), { nil: undefined }), draftText), {
							nil: undefined,
						}),
					}),
				),
			),
			arbError,
		)
		.map(([status, picks, error]) => {
			const reply: RelayReply = { v: 1, status, answers: {}, skipped: [], notes: [] };
			form.questions.forEach((q, i) => {
				const pick = picks[i];
				if (!pick) return;
				const settled = pick.outcome === "delegated" ? "delegated" : "answered";
				const outcome = status === "answered" && q.required ? settled : pick.outcome;
				if (pick.note !== undefined) reply.notes.push({ questionId: q.id, text: pick.note });
				if (pick.optionNote)
					reply.notes.push({ questionId: q.id, option: pick.optionNote[0].label, text: pick.optionNote[1] });
				const drafts: AskDraft[] = [];
				if (pick.customDraft !== undefined) drafts.push({ questionId: q.id, kind: "answer", text: pick.customDraft });
				if (pick.noteDraft) {
					const [option, text] = pick.noteDraft;
					drafts.push(
						option
							? { questionId: q.id, kind: "note", option: option.label, text }
							: { questionId: q.id, kind: "note", text },
					);
				}
				// A submitted form has dropped its drafts.
				if (drafts.length > 0 && status !== "answered") reply.drafts = [...(reply.drafts ?? []), ...drafts];
				if (outcome === "skipped") reply.skipped.push(q.id);
				// Left to the model: a v2 reply.
				if (outcome === "delegated") Object.assign(reply, { v: 2, delegated: [...(reply.delegated ?? []), q.id] });
				if (outcome !== "answered") return;
				const selections: AskSelection[] = pick.chosen.map((o) => ({ value: o.value, label: o.label }));
				if (pick.custom !== undefined) selections.push({ value: pick.custom, label: pick.custom, custom: true });
				reply.answers[q.id] = q.multiSelect
					? { kind: "multi", selections }
					: { kind: "single", selections: [selections.at(-1) as AskSelection] };
			});
			if (error !== undefined) reply.error = error;
			return reply;
		});

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path into a JSON value, with the value found there. */
function jsonPaths(value: Json, path: (string | number)[] = []): { path: (string | number)[]; value: Json }[] {
	const here = path.length ? [{ path, value }] : [];
	if (Array.isArray(value)) return [...here, ...value.flatMap((item, i) => jsonPaths(item, [...path, i]))];
	if (value !== null && typeof value === "object")
		return [...here, ...Object.keys(value).flatMap((key) => jsonPaths(value[key] as Json, [...path, key]))];
	return here;
}

function jsonType(value: Json): string {
	if (value === null) return "null";
	return Array.isArray(value) ? "array" : typeof value;
}

/** A value of another JSON type than `value`: something no decoder may accept in its place. */
function wrongTypeFor(value: Json, choice: number): Json {
	const others = ([null, 7, "7", true, [], {}] as Json[]).filter((c) => jsonType(c) !== jsonType(value));
	return others[choice % others.length] as Json;
}

/** A path as errors name it: `questions[0].options[1].label`, `answers["my id"].kind`. */
function formatPath(path: (string | number)[]): string {
	return path.reduce<string>((text, step) => {
		if (typeof step === "number") return `${text}[${step}]`;
		if (!/^[A-Za-z_$][\w$]*$/.test(step)) return `${text}[${JSON.stringify(step)}]`;
		return text === "" ? step : `${text}.${step}`;
	}, "");
}

function replaceAt(root: Json, path: (string | number)[], replacement: Json): Json {
	const copy = structuredClone(root) as Json;
	let parent = copy as { [key: string]: Json } | Json[];
	path.slice(0, -1).forEach((step) => {
		parent = (parent as Record<string | number, Json>)[step] as typeof parent;
	});
	(parent as Record<string | number, Json>)[path.at(-1) as string | number] = replacement;
	return copy;
}

const junk = fc.oneof(
	fc.anything(),
	fc.string(),
	fc.string({ unit: anyChar }),
	fc.jsonValue().map((v) => JSON.stringify(v)),
);

describe("You decide on the wire: a v2 reply to a child that reads it, a skip with a note to one of v1", () => {
	const left = collected("answered", { answers: { features: FEATURES }, delegated: ["db"], notes: NOTES });

	it("a child that names replyVersion 2 gets v2 with delegated, which decodes to the same collected answers", () => {
		const reply = collectedToReply(left, "r-1", { ...REQUEST, replyVersion: 2 });
		expect(reply).toMatchObject({ v: 2, delegated: ["db"], skipped: [] });
		const decoded = decodeRelayReply(encodeRelayReply(reply), { questions: FORM.questions, rid: "r-1" });
		expect(decoded.ok && replyToCollected(decoded.reply)).toEqual(left);
		// A newer child (4) gets the newest this release writes.
		expect(collectedToReply(left, "r-1", { ...REQUEST, replyVersion: 5 }).v).toBe(4);
	});

	it("a child that names none reads v1: the question is skipped with a note that says it is left to it", () => {
		const optional = validForm({
			questions: [
				{
					id: "db",
					question: "Which?",
					required: false,
					options: [{ label: "PostgreSQL", recommended: true }, { label: "SQLite" }],
				},
			],
		});
		const reply = collectedToReply(collected("answered", { delegated: ["db"] }), "r-1", optional);
		expect(reply).toEqual({
			v: 1,
			rid: "r-1",
			status: "answered",
			answers: {},
			skipped: ["db"],
			notes: [{ questionId: "db", text: 'left to you — you recommended "PostgreSQL"' }],
		});
		expect(JSON.parse(encodeRelayReply(reply))).not.toHaveProperty("delegated");
		expect(decodeRelayReply(encodeRelayReply(reply), { questions: optional.questions }).ok).toBe(true);
	});

	it("a required question may be left to the model, but is in one list only; a version this release does not know is refused", () => {
		const wire = { ...REPLY, v: 2, answers: { features: FEATURES }, skipped: [], delegated: ["db"] };
		expect(decodeRelayReply(JSON.stringify(wire), { questions: FORM.questions }).ok).toBe(true);
		expect(decodeReplyError({ ...wire, skipped: ["db"] }, { questions: FORM.questions })).toContain(
			'delegated[0]: repeats "db"; list each question once, in skipped or delegated',
		);
		expect(decodeReplyError({ ...wire, delegated: ["features"] }, { questions: FORM.questions })).toContain(
			'delegated[0]: "features" is both answered and delegated',
		);
		expect(decodeReplyError({ ...wire, delegated: ["nope"] }, { questions: FORM.questions })).toContain(
			'delegated[0]: "nope" is no question',
		);
		expect(decodeReplyError({ ...wire, delegated: [] }, { questions: FORM.questions })).toContain(
			"answers.db: is missing",
		);
		expect(decodeReplyError({ ...wire, v: 5 })).toContain("expected protocol version 1, 2, 3 or 4, found v number 5");
	});

	it("the request names the reply it reads; an older parent ignores the field (it reads rid and asker only)", () => {
		const decoded = decodeRelayRequest(encodeRelayRequest({ ...REQUEST, replyVersion: 2 }));
		expect(decoded.ok && decoded.request.replyVersion).toBe(2);
		expect(decodeRequestError({ ...REQUEST, replyVersion: 0 })).toContain("replyVersion: ");
	});
});

describe("relay envelope properties", () => {
	it("encode → decode is the identity for any valid request", () => {
		fc.assert(
			fc.property(arbRequest, (request) => {
				const decoded = decodeRelayRequest(encodeRelayRequest(request));
				expect(decoded).toStrictEqual({ ok: true, request });
			}),
			RUNS,
		);
	});

	it("encode → decode is the identity for any well-shaped reply", () => {
		fc.assert(
			fc.property(arbReply, (reply) => {
				const decoded = decodeRelayReply(encodeRelayReply(reply));
				expect(decoded).toStrictEqual({ ok: true, reply });
			}),
			RUNS,
		);
	});

	it("encode → decode is the identity for any reply that fits its form, checked against the form", () => {
		fc.assert(
			fc.property(
				arbForm.chain((form) => fc.tuple(fc.constant(form), arbReplyTo(form))),
				([form, reply]) => {
					const decoded = decodeRelayReply(encodeRelayReply(reply), { questions: form.questions });
					expect(decoded).toStrictEqual({ ok: true, reply });
				},
			),
			RUNS,
		);
	});

	it("decoding junk never throws and always says what is wrong", () => {
		fc.assert(
			fc.property(junk, (text) => {
				const checked = decodeRelayReply(text, { questions: FORM.questions, rid: "r-1" });
				for (const result of [decodeRelayRequest(text), decodeRelayReply(text), checked]) {
					expect(result.ok).toBe(false);
					if (!result.ok) expect(result.error).toMatch(/^relay (request|reply) rejected: \S/);
				}
				expect(decodeRelayCancel(text)).toBeUndefined();
			}),
			RUNS,
		);
	});

	it("a truncated envelope is rejected as invalid JSON", () => {
		fc.assert(
			fc.property(
				arbRequest,
				arbReply,
				fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
				(request, reply, at) => {
					const requestText = encodeRelayRequest(request);
					const replyText = encodeRelayReply(reply);
					const cutRequest = decodeRelayRequest(requestText.slice(0, Math.floor(at * requestText.length)));
					const cutReply = decodeRelayReply(replyText.slice(0, Math.floor(at * replyText.length)));
					expect(cutRequest).toMatchObject({
						ok: false,
						error: expect.stringMatching(/^relay request rejected: (not valid JSON|expected)/),
					});
					expect(cutReply).toMatchObject({
						ok: false,
						error: expect.stringMatching(/^relay reply rejected: (not valid JSON|expected)/),
					});
				},
			),
			RUNS,
		);
	});

	it("a request with any one value swapped for another type is rejected, naming its path", () => {
		fc.assert(
			fc.property(arbRequest, fc.nat(), fc.nat(), (request, where, choice) => {
				const envelope = JSON.parse(encodeRelayRequest(request)) as Json;
				const paths = jsonPaths(envelope);
				const target = paths[where % paths.length] as (typeof paths)[number];
				const mutated = replaceAt(envelope, target.path, wrongTypeFor(target.value, choice));
				const result = decodeRelayRequest(JSON.stringify(mutated));
				expect(result.ok).toBe(false);
				if (!result.ok) expect(result.error).toContain(`${formatPath(target.path)}: `);
			}),
			RUNS,
		);
	});

	it("a reply with any one value swapped for another type is rejected, naming its path", () => {
		fc.assert(
			fc.property(arbReply, fc.nat(), fc.nat(), (reply, where, choice) => {
				const envelope = JSON.parse(encodeRelayReply(reply)) as Json;
				const paths = jsonPaths(envelope);
				const target = paths[where % paths.length] as (typeof paths)[number];
				const mutated = replaceAt(envelope, target.path, wrongTypeFor(target.value, choice));
				const result = decodeRelayReply(JSON.stringify(mutated));
				expect(result.ok).toBe(false);
				if (!result.ok) expect(result.error).toContain(`${formatPath(target.path)}: `);
			}),
			RUNS,
		);
	});

	it("a reply to a known form with any one value swapped for another type is rejected, naming its path", () => {
		fc.assert(
			fc.property(
				arbForm.chain((form) => fc.tuple(fc.constant(form), arbReplyTo(form))),
				fc.nat(),
				fc.nat(),
				([form, reply], where, choice) => {
					const envelope = JSON.parse(encodeRelayReply(reply)) as Json;
					const paths = jsonPaths(envelope);
					const target = paths[where % paths.length] as (typeof paths)[number];
					const mutated = replaceAt(envelope, target.path, wrongTypeFor(target.value, choice));
					const result = decodeRelayReply(JSON.stringify(mutated), { questions: form.questions });
					expect(result.ok).toBe(false);
					if (!result.ok) expect(result.error).toContain(`${formatPath(target.path)}: `);
				},
			),
			RUNS,
		);
	});
});
