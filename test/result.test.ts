/** What the model reads of an ask (the result text) and what the transcript keeps (details). */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	buildDetails,
	formatProgressText,
	formatResultText,
	progressDetails,
	questionOutcome,
	quoteExact,
} from "../src/tool/result.ts";
import type { AskAnswer, AskDraft, AskForm, AskNote, AskQuestion, AskSelection, Collected } from "../src/core/types.ts";
import {
	anyText,
	collected,
	DB,
	DB_LINE,
	EXTRAS,
	FEATURES,
	FEATURES_LINE,
	FORM,
	NOTES,
	RUNS,
	STATUSES,
} from "./support/answers.ts";

describe("formatResultText: one line per question, one closing sentence", () => {
	it("all three answered: header with the count, then each answer", () => {
		const text = formatResultText(
			FORM,
			collected("answered", { answers: { db: DB, features: FEATURES, extras: EXTRAS }, notes: NOTES }),
		);
		expect(text.split("\n")).toEqual([
			"User submitted the form (3 of 3 answered):",
			DB_LINE,
			FEATURES_LINE,
			'extras: "Docs"',
		]);
	});

	it("the note on the whole form follows the questions, quoted exactly; its unconfirmed draft too, and both reach details", () => {
		const form = collected("dismissed", {
			answers: { db: DB },
			notes: [{ text: "and don't touch the schema" }],
			drafts: [{ kind: "note", text: 'also "quick"' }],
		});
		const lines = formatResultText(FORM, form).split("\n");
		expect(lines).toContain('Note on the whole form: "and don\'t touch the schema"');
		expect(lines).toContain('Unconfirmed note on the whole form left in the editor: "also \\"quick\\""');
		expect(lines[1]).toBe('db: "PostgreSQL" (value "postgres")');
		expect(buildDetails(FORM, form)).toMatchObject({
			notes: [{ text: "and don't touch the schema" }],
			drafts: [{ kind: "note", text: 'also "quick"' }],
		});
	});

	it("a second note on the whole form (a relayed file whose bytes did not come) is a line of its own, not dropped", () => {
		const path = 'The user attached the file "plan.pdf" (application/pdf, 9 bytes), and its bytes did not come.';
		const form = collected("answered", { answers: { db: DB }, notes: [{ text: "keep it boring" }, { text: path }] });
		expect(formatResultText(FORM, form).split("\n")).toEqual(
			expect.arrayContaining([
				'Note on the whole form: "keep it boring"',
				`Note on the whole form: ${JSON.stringify(path)}`,
			]),
		);
	});

	it("the whole form's texts come after the questions in one order, a long draft cut for the model and whole in details.drafts", () => {
		const long = "y".repeat(4002);
		const form = collected("chat", {
			notes: [{ text: "note" }, { questionId: "db", text: "on db" }],
			drafts: [
				{ kind: "chat", text: long },
				{ kind: "note", text: "half" },
				{ questionId: "db", kind: "answer", text: "d" },
			],
			chatMessage: "talk",
		});
		expect(formatResultText(FORM, form).split("\n").slice(1, 8)).toEqual([
			'db: unanswered; note: "on db"; unconfirmed text left in the editor: "d"',
			"features: unanswered",
			"extras: unanswered",
			'Note on the whole form: "note"',
			'Unconfirmed note on the whole form left in the editor: "half"',
			'The user\'s message: "talk"',
			`Unsent message for the chat left in the editor: "${"y".repeat(4000)}" (+2 more characters, in details.drafts)`,
		]);
		expect(buildDetails(FORM, form).drafts?.[0]?.text).toBe(long);
	});

	it("chat: the user's message, quoted exactly, after the answers so far; the model is told to answer it, and the turn goes on", () => {
		const chat = collected("chat", { answers: { db: DB }, chatMessage: "Why not both?\nLet's talk." });
		const lines = formatResultText(FORM, chat).split("\n");
		expect(lines[0]).toBe("User chose to reply in chat instead of finishing the form (1 of 3 answered):");
		expect(lines).toContain("The user's message: \"Why not both?\\nLet's talk.\"");
		expect(lines[lines.length - 1]).toMatch(/answer it as you would answer the user/);
		expect(buildDetails(FORM, chat)).toMatchObject({ status: "chat", chatMessage: "Why not both?\nLet's talk." });
	});

	it("answered with an optional question skipped marks it skipped and adds no closing sentence", () => {
		const text = formatResultText(
			FORM,
			collected("answered", { answers: { db: DB, features: FEATURES }, skipped: ["extras"], notes: NOTES }),
		);
		expect(text.split("\n")).toEqual([
			"User submitted the form (2 of 3 answered, 1 skipped):",
			DB_LINE,
			FEATURES_LINE,
			"extras: skipped",
		]);
	});

	it("dismissed keeps the answers so far and tells the model to wait for the user", () => {
		const text = formatResultText(FORM, collected("dismissed", { answers: { db: DB }, notes: NOTES.slice(0, 1) }));
		expect(text.split("\n")).toEqual([
			"User dismissed the questions (1 of 3 answered):",
			DB_LINE,
			"features: unanswered",
			"extras: unanswered",
			"The user did not submit: do not assume answers or act on the ones given; stop and wait for the user to tell you how to go on.",
		]);
	});

	it("aborted says the user did not finish", () => {
		const text = formatResultText(
			FORM,
			collected("aborted", { answers: { features: FEATURES }, skipped: ["extras"], notes: NOTES.slice(1) }),
		);
		expect(text.split("\n")).toEqual([
			"The run was aborted before the user finished (1 of 3 answered):",
			"db: unanswered",
			FEATURES_LINE,
			"extras: skipped",
			"The user did not finish: do not assume answers to the unanswered questions.",
		]);
	});

	it("no_ui tells the model the tool is disabled and not to call it again", () => {
		const text = formatResultText(FORM, collected("no_ui"));
		expect(text.split("\n")).toEqual([
			"No UI available: the questions could not be shown (0 of 3 answered):",
			"db: unanswered",
			"features: unanswered",
			"extras: unanswered",
			"No user can answer here and ask_user is now disabled for this session: do not call it again; state your assumption and go on, or ask in plain text in your reply.",
		]);
	});

	it("timed_out tells the model to state its assumption or ask in plain text", () => {
		const text = formatResultText(FORM, collected("timed_out", { answers: { db: DB, extras: EXTRAS } }));
		expect(text.split("\n")).toEqual([
			"Time ran out before the user finished (2 of 3 answered):",
			'db: "PostgreSQL" (value "postgres")',
			"features: unanswered",
			'extras: "Docs"',
			"State your assumption and go on, or ask in plain text in your reply.",
		]);
	});

	it("error quotes the error and tells the model to ask in plain text", () => {
		const error = 'relay reply rejected: status: must be one of answered, … (found the string "maybe")';
		const text = formatResultText(FORM, collected("error", { error }));
		expect(text.split("\n")).toEqual([
			"The question form failed (0 of 3 answered):",
			"db: unanswered",
			"features: unanswered",
			"extras: unanswered",
			`The form failed (error: ${JSON.stringify(error)}): do not assume answers; ask the user in plain text in your reply.`,
		]);
	});

	it("error without a message still closes with the instruction", () => {
		const lines = formatResultText(FORM, collected("error")).split("\n");
		expect(lines.at(-1)).toBe("The form failed: do not assume answers; ask the user in plain text in your reply.");
	});

	it("every non-answered status ends with exactly one sentence after the question lines", () => {
		for (const status of STATUSES) {
			const lines = formatResultText(FORM, collected(status)).split("\n");
			expect(lines).toHaveLength(status === "answered" ? 4 : 5);
		}
	});

	it("normalisation notices follow the questions as Note lines, before the closing sentence", () => {
		const notices = [
			'Dropped the option "Other" from question db: the free-text row is added automatically.',
			"two\nlines",
		];
		const lines = formatResultText(FORM, collected("dismissed"), { notices }).split("\n");
		expect(lines.slice(4)).toEqual([
			'Note: Dropped the option "Other" from question db: the free-text row is added automatically.',
			"Note: two lines",
			"The user did not submit: do not assume answers or act on the ones given; stop and wait for the user to tell you how to go on.",
		]);
	});

	it("answers given where previews are not shown: one line names those of them still answered, in the form's order", () => {
		const unseen = (partial: Partial<Collected>) =>
			formatResultText(FORM, collected("answered", partial))
				.split("\n")
				.filter((line) => line.startsWith("Previews not shown"));
		expect(unseen({ answers: { db: DB, extras: EXTRAS }, previewsUnseen: ["extras", "db"] })).toEqual([
			"Previews not shown: the user answered db, extras without seeing the options' previews (only their labels " +
				"and descriptions); do not assume they saw them.",
		]);
		// Only answers: an id with no answer (or of no question) is not named, and none leaves no line.
		expect(unseen({ answers: { db: DB }, previewsUnseen: ["extras", "nope", "db"] })[0]).toContain(
			"answered db without",
		);
		expect(unseen({ answers: { db: DB }, previewsUnseen: ["extras"] })).toEqual([]);
		expect(unseen({ answers: { db: DB } })).toEqual([]);
		// details keep the same ids, for a listener or the transcript.
		const given = collected("answered", {
			answers: { db: DB, extras: EXTRAS },
			previewsUnseen: ["extras", "no", "db"],
		});
		expect(buildDetails(FORM, given).previewsUnseen).toEqual(["db", "extras"]);
		expect(buildDetails(FORM, collected("answered", { answers: { db: DB } }))).not.toHaveProperty("previewsUnseen");
	});

	it("a one-question form submitted with its answer", () => {
		const form: AskForm = { questions: [FORM.questions[0] as AskQuestion] };
		expect(formatResultText(form, collected("answered", { answers: { db: DB } }))).toBe(
			'User submitted the form (1 of 1 answered):\ndb: "PostgreSQL" (value "postgres")',
		);
	});

	it("a submitted form whose only question was skipped says it was submitted, with the question skipped", () => {
		const form: AskForm = { questions: [FORM.questions[2] as AskQuestion] };
		expect(formatResultText(form, collected("answered", { skipped: ["extras"] }))).toBe(
			"User submitted the form (0 of 1 answered, 1 skipped):\nextras: skipped",
		);
	});

	it("a single free-text answer is shown as wrote and quoted exactly", () => {
		const typed = 'my "app"\nsecond line\t\\n  ';
		const answers = {
			db: { kind: "single", selections: [{ value: typed, label: typed, custom: true }] },
		} satisfies Record<string, AskAnswer>;
		const line = formatResultText(FORM, collected("answered", { answers })).split("\n")[1];
		expect(line).toBe('db: wrote "my \\"app\\"\\nsecond line\\t\\\\n  "');
	});

	it("notes on skipped and unanswered questions and on unchosen options are kept", () => {
		const notes: AskNote[] = [
			{ questionId: "extras", text: "ask me later" },
			{ questionId: "db", option: "SQLite", text: "only for tests" },
		];
		const lines = formatResultText(FORM, collected("dismissed", { skipped: ["extras"], notes })).split("\n");
		expect(lines[1]).toBe('db: unanswered; note on "SQLite": "only for tests"');
		expect(lines[3]).toBe('extras: skipped; note: "ask me later"');
	});

	it("answers under ids that are not questions are not listed, and Object.prototype names find nothing", () => {
		// validateParams refuses reserved ids; a form built elsewhere still must not read the prototype.
		const text = formatResultText(
			{ questions: [{ ...(FORM.questions[0] as AskQuestion), id: "constructor" }] },
			collected("answered", { answers: { other: DB } }),
		);
		expect(text).toBe("User submitted the form (0 of 1 answered):\nconstructor: unanswered");
	});

	it("a draft never replaces the answer: it follows it on the question's line, marked unconfirmed", () => {
		const drafts: AskDraft[] = [{ questionId: "db", kind: "answer", text: "half-typ" }];
		const lines = formatResultText(FORM, collected("timed_out", { answers: { db: DB }, drafts })).split("\n");
		expect(lines[0]).toBe("Time ran out before the user finished (1 of 3 answered):");
		expect(lines[1]).toBe('db: "PostgreSQL" (value "postgres"); unconfirmed text left in the editor: "half-typ"');
	});

	it("drafts of notes name the option they are on, and come after the notes; text is quoted exactly", () => {
		const drafts: AskDraft[] = [
			{ questionId: "features", kind: "note", text: "maybe\nlater" },
			{ questionId: "features", kind: "note", option: "Billing", text: 'say "no"' },
			{ questionId: "extras", kind: "answer", text: "x".repeat(4001) },
		];
		const lines = formatResultText(FORM, collected("aborted", { notes: NOTES.slice(1), drafts })).split("\n");
		expect(lines[2]).toBe(
			'features: unanswered; note on "Billing": "Stripe only"; unconfirmed note left in the editor: "maybe\\nlater"; unconfirmed note on "Billing" left in the editor: "say \\"no\\""',
		);
		// Longer than a saved answer may be: whole in details, the first 4000 in the model's text.
		expect(lines[3]).toBe(
			`extras: unanswered; unconfirmed text left in the editor: "${"x".repeat(4000)}" (+1 more characters, in details.drafts)`,
		);
		expect(buildDetails(FORM, collected("aborted", { drafts })).drafts?.[2]?.text).toHaveLength(4001);
	});

	it("ids that are not plain slugs are quoted so each line splits at its first colon", () => {
		const form: AskForm = { questions: [{ ...(FORM.questions[0] as AskQuestion), id: "which db: prod" }] };
		expect(formatResultText(form, collected("no_ui")).split("\n")[1]).toBe('"which db: prod": unanswered');
	});
});

/** The JSON string literal that starts at `start` (a quote), as JSON.parse reads it. */
function readJsonString(line: string, start: number): string {
	expect(line[start]).toBe('"');
	let end = start + 1;
	while (line[end] !== '"') end += line[end] === "\\" ? 2 : 1;
	return JSON.parse(line.slice(start, end + 1)) as string;
}

describe("a question left to the model (You decide)", () => {
	const left = collected("answered", {
		answers: { features: FEATURES },
		skipped: ["extras"],
		delegated: ["db"],
		notes: [{ questionId: "db", text: "whatever is cheaper" }],
	});

	it("its line says it plainly, naming the recommendation; the header counts it apart; the model is told what to do", () => {
		expect(formatResultText(FORM, left).split("\n")).toEqual([
			"User submitted the form (1 of 3 answered, 1 left to you, 1 skipped):",
			'db: left to you — you recommended "PostgreSQL"; note: "whatever is cheaper"',
			'features: "Auth", "Billing", wrote "Crypto \\"wallets\\""',
			"extras: skipped",
			"For each question left to you: decide, say in your reply what you chose, and go on.",
		]);
	});

	it("without a recommendation the line asks the model to choose and say which", () => {
		const text = formatResultText(FORM, collected("answered", { answers: { db: DB }, delegated: ["features"] }));
		expect(text).toContain("features: left to you — choose and say which");
		expect(text.split("\n")[0]).toBe("User submitted the form (1 of 3 answered, 1 left to you):");
	});

	it("details hold it in delegated, beside skipped; questionOutcome tells it apart; a 0.2.0 record has none", () => {
		const details = buildDetails(FORM, left);
		expect(details.delegated).toEqual(["db"]);
		expect(details.answers).not.toHaveProperty("db");
		expect(questionOutcome(details, "db")).toBe("delegated");
		expect(questionOutcome(details, "extras")).toBe("skipped");
		expect(buildDetails(FORM, collected("answered", { answers: { db: DB } }))).not.toHaveProperty("delegated");
		expect(questionOutcome({ answers: {}, skipped: [] }, "db")).toBe("unanswered");
	});
});

describe("quoting keeps text exact and on one line", () => {
	it("examples: quotes, newlines, emoji, escape sequences", () => {
		for (const text of [
			'say "hi"',
			"a\nb\r\nc",
			"tab\there",
			"👨‍👩‍👧 ok",
			"\x1b[31mred\x1b[0m",
			"back\\slash",
			"\u2028",
			"\ud800",
			"\u202e",
		]) {
			const quoted = quoteExact(text);
			expect(JSON.parse(quoted)).toBe(text);
			expect(quoted).not.toMatch(/[\n\r\u2028\u2029\x85\u202e\x1b]/);
		}
	});

	it("for any text, JSON.parse of the quoted text gives it back exactly", () => {
		fc.assert(
			fc.property(anyText(), (text) => {
				const quoted = quoteExact(text);
				expect(JSON.parse(quoted)).toBe(text);
				expect(quoted).not.toMatch(/[\x00-\x1f\x7f-\x9f\u2028\u2029]/);
			}),
			RUNS,
		);
	});

	it("custom text in a result line round-trips through JSON.parse of its quoted part", () => {
		const form: AskForm = { questions: [FORM.questions[1] as AskQuestion] };
		fc.assert(
			fc.property(anyText(60), anyText(20), (typed, note) => {
				const selections: AskSelection[] = [
					{ value: "Auth", label: "Auth" },
					{ value: typed, label: typed, custom: true },
				];
				const text = formatResultText(
					form,
					collected("answered", {
						answers: { features: { kind: "multi", selections } },
						notes: [{ questionId: "features", text: note }],
					}),
				);
				const lines = text.split("\n");
				expect(lines).toHaveLength(2);
				const line = lines[1] as string;
				const wrote = line.indexOf('wrote "');
				expect(readJsonString(line, wrote + "wrote ".length)).toBe(typed);
				const noteAt = line.lastIndexOf('; note: "');
				expect(readJsonString(line, noteAt + "; note: ".length)).toBe(note);
			}),
			RUNS,
		);
	});
});

// ── The structured record ──────────────────────────────────────────────────

describe("buildDetails and questionOutcome", () => {
	const answered = collected("answered", {
		answers: { db: DB, features: FEATURES },
		skipped: ["extras"],
		notes: NOTES,
	});

	it("records questions, answers with their question note, skipped, notes, status and metadata", () => {
		const details = buildDetails(FORM, answered, { notices: ["n1"] });
		expect(details).toEqual({
			status: "answered",
			questions: FORM.questions,
			answers: { db: { ...DB, note: "keep migrations small" }, features: FEATURES },
			skipped: ["extras"],
			notes: NOTES,
			metadata: { source: "planner", tags: ["setup"] },
			notices: ["n1"],
		});
		expect(details.answers.features).not.toHaveProperty("note");
	});

	it("keeps the error, leaves out empty notices and does not alias what the UI collected", () => {
		const source = collected("error", { answers: { db: DB }, error: "boom" });
		const details = buildDetails(FORM, source, { notices: [] });
		expect(details.error).toBe("boom");
		expect(details).not.toHaveProperty("notices");
		(details.answers.db as AskAnswer).selections.push({ value: "x", label: "x" });
		expect(DB.selections).toHaveLength(1);
	});

	it("keeps the drafts, copied, and leaves the field out when there are none", () => {
		const drafts: AskDraft[] = [{ questionId: "db", kind: "note", option: "SQLite", text: "tests only?" }];
		const details = buildDetails(FORM, collected("dismissed", { answers: { db: DB }, drafts }));
		expect(details.drafts).toEqual(drafts);
		expect(details.drafts?.[0]).not.toBe(drafts[0]);
		expect(details.answers.db).toEqual(DB);
		expect(buildDetails(FORM, collected("dismissed", { drafts: [] }))).not.toHaveProperty("drafts");
		expect(buildDetails(FORM, answered)).not.toHaveProperty("drafts");
	});

	it("questionOutcome: answered, skipped, or unanswered", () => {
		const details = buildDetails(FORM, answered);
		expect(questionOutcome(details, "db")).toBe("answered");
		expect(questionOutcome(details, "extras")).toBe("skipped");
		expect(questionOutcome(buildDetails(FORM, collected("dismissed")), "features")).toBe("unanswered");
		expect(questionOutcome({ answers: {}, skipped: [] }, "toString")).toBe("unanswered");
	});

	it("progressDetails is pending, carries the progress and the answers so far", () => {
		const progress = { phase: "answered", answered: 1, total: 3, questionId: "db" } as const;
		const details = progressDetails(FORM, progress, { answers: { db: DB }, skipped: [], notes: NOTES.slice(0, 1) });
		expect(details).toEqual({
			status: "pending",
			questions: FORM.questions,
			answers: { db: { ...DB, note: "keep migrations small" } },
			skipped: [],
			notes: NOTES.slice(0, 1),
			metadata: FORM.metadata,
			progress,
		});
	});

	it("formatProgressText says who we wait for and how far they are", () => {
		expect(formatProgressText({ phase: "opened", answered: 0, total: 3 })).toBe(
			"Waiting for the user: 0 of 3 answered",
		);
		expect(formatProgressText({ phase: "answered", answered: 1, total: 3, questionId: "db" })).toBe(
			"Waiting for the user: 1 of 3 answered",
		);
		expect(formatProgressText({ phase: "review", answered: 3, total: 3 })).toBe(
			"Waiting for the user to submit: 3 of 3 answered",
		);
		expect(formatProgressText({ phase: "submitted", answered: 3, total: 3 })).toBe("User submitted: 3 of 3 answered");
		expect(formatProgressText({ phase: "dismissed", answered: 1, total: 3 })).toBe(
			"User dismissed the questions: 1 of 3 answered",
		);
	});
});
