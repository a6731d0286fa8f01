import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeArguments } from "../src/input/normalize.ts";
import type { Issue } from "../src/core/schema.ts";
import { AskUserInputError, slugOf, validateParams } from "../src/input/validate.ts";
import { arbAskForm, arbAskParams } from "./support/arbitraries.ts";

type Params = { questions: Record<string, unknown>[]; reason?: unknown; metadata?: unknown };

/** Two valid questions; each rule test breaks one thing in a fresh copy. */
function validParams(): Params {
	return {
		questions: [
			{
				header: "Database",
				question: "Which database should the service use?",
				options: [
					{ label: "Postgres", description: "Already runs in production" },
					{ label: "SQLite", description: "One file, no server" },
				],
			},
			{
				header: "Targets",
				question: "Which platforms should the build produce?",
				multiSelect: true,
				options: [{ label: "Linux" }, { label: "macOS" }, { label: "Windows" }],
			},
		],
	};
}

function option(params: Params, question: number, index: number): Record<string, unknown> {
	return (params.questions[question]?.options as Record<string, unknown>[])[index] as Record<string, unknown>;
}

function issuesOf(params: unknown): Issue[] {
	const result = validateParams(params);
	if (result.ok) throw new Error("expected validation to fail");
	return result.issues;
}

describe("one rule at a time: the path, the limit and the fix", () => {
	/** Returns the arguments to validate: usually the valid params, changed in one place. */
	type Case = [rule: string, breakIt: (params: Params) => unknown, path: string, says: string[]];
	const edit = (change: (params: Params) => unknown) => (params: Params) => {
		change(params);
		return params;
	};
	const cases: Case[] = [
		["arguments must be an object", () => "Which one?", "arguments", ["expected an object", 'the string "Which one?"']],
		["arguments must not be null", () => null, "arguments", ["expected an object", "got null"]],
		["questions is required", () => ({}), "questions", ["missing", "1-4 question objects"]],
		[
			"questions is an array",
			() => ({ questions: { question: "Q?" } }),
			"questions",
			["expected an array", "got an object"],
		],
		["questions is not empty", () => ({ questions: [] }), "questions", ["empty", "1-4"]],
		[
			"at most 4 questions",
			(p) => ({
				questions: [...p.questions, ...p.questions, ...p.questions].map((q, i) => ({ ...q, header: `H${i}` })),
			}),
			"questions",
			["6 questions; the limit is 4", "later call"],
		],
		[
			"a question is an object",
			(p) => ({ questions: [p.questions[0], "Tabs or spaces?"] }),
			"questions[1]",
			["expected a question object", 'the string "Tabs or spaces?"'],
		],
		[
			"question is required",
			edit((p) => delete p.questions[0]?.question),
			"questions[0].question",
			["missing", "one line"],
		],
		[
			"question is a string",
			edit((p) => (p.questions[0]!.question = 42)),
			"questions[0].question",
			["expected a string, got the number 42"],
		],
		["question is not blank", edit((p) => (p.questions[0]!.question = " \t ")), "questions[0].question", ["blank"]],
		[
			"question ≤ 1000",
			edit((p) => (p.questions[0]!.question = "q".repeat(1001))),
			"questions[0].question",
			["1001 characters; the limit is 1000", '"context"'],
		],
		[
			"question is one line",
			edit((p) => (p.questions[0]!.question = "Which database?\nWe use Redis today.")),
			"questions[0].question",
			["line break", "one line", '"context"'],
		],
		[
			"question has no escape characters",
			edit((p) => (p.questions[0]!.question = "Which \x1b]52;c;bad\x07db?")),
			"questions[0].question",
			["U+001B", "Remove it"],
		],
		[
			"question has no bidi overrides",
			edit((p) => (p.questions[0]!.question = "Which \u202edb?")),
			"questions[0].question",
			["U+202E"],
		],
		[
			"question has no C1 controls",
			edit((p) => (p.questions[0]!.question = "Which \u0085db?")),
			"questions[0].question",
			["U+0085"],
		],
		[
			"question has no DEL",
			edit((p) => (p.questions[0]!.question = "Which\x7f db?")),
			"questions[0].question",
			["U+007F"],
		],
		[
			"question has no tab",
			edit((p) => (p.questions[0]!.question = "Which\tdb?")),
			"questions[0].question",
			["U+0009"],
		],
		[
			"context is a string",
			edit((p) => (p.questions[0]!.context = ["a", "b"])),
			"questions[0].context",
			["expected a string, got an array of 2 items"],
		],
		[
			"context ≤ 2000",
			edit((p) => (p.questions[0]!.context = "c\n".repeat(1001))),
			"questions[0].context",
			["2001 characters; the limit is 2000"],
		],
		[
			"header is a string",
			edit((p) => (p.questions[0]!.header = true)),
			"questions[0].header",
			["expected a string, got the boolean true"],
		],
		[
			"header is not blank",
			edit((p) => (p.questions[0]!.header = "  ")),
			"questions[0].header",
			["blank", 'leave "header" out'],
		],
		[
			"header ≤ 12 characters",
			edit((p) => (p.questions[0]!.header = "Database kind")),
			"questions[0].header",
			["13 characters; the limit is 12", "short tab label"],
		],
		[
			"header counts emoji as one character each",
			edit((p) => (p.questions[0]!.header = "🚀".repeat(13))),
			"questions[0].header",
			["13 characters; the limit is 12"],
		],
		["header is one line", edit((p) => (p.questions[0]!.header = "Data\nbase")), "questions[0].header", ["line break"]],
		[
			"id ≤ 64",
			edit((p) => (p.questions[0]!.id = "k".repeat(65))),
			"questions[0].id",
			["65 characters; the limit is 64", "short key"],
		],
		[
			"value ≤ 200",
			edit((p) => (option(p, 0, 0).value = "v".repeat(201))),
			"questions[0].options[0].value",
			["201 characters; the limit is 200", '"description"'],
		],
		[
			"headers are unique ignoring case",
			edit((p) => (p.questions[1]!.header = " DATABASE ")),
			"questions[1].header",
			['"DATABASE" is already the header of questions[0]', "own label"],
		],
		[
			"id is a string",
			edit((p) => (p.questions[0]!.id = 1.5)),
			"questions[0].id",
			["expected a string, got the number 1.5"],
		],
		["id is not blank", edit((p) => (p.questions[0]!.id = "")), "questions[0].id", ["blank", 'leave "id" out']],
		[
			"id does not start with $",
			edit((p) => (p.questions[0]!.id = "$db")),
			"questions[0].id",
			['"$db" starts with "$"', "reserved"],
		],
		[
			"id is not a built-in property name",
			edit((p) => (p.questions[0]!.id = "__proto__")),
			"questions[0].id",
			['"__proto__" is a reserved name'],
		],
		["id is one line", edit((p) => (p.questions[0]!.id = "d\rb")), "questions[0].id", ["line break"]],
		[
			"ids are unique",
			edit((p) => ((p.questions[0]!.id = "x"), (p.questions[1]!.id = "x"))),
			"questions[1].id",
			['"x" is already the id of questions[0]'],
		],
		[
			"a question without options needs free text",
			edit((p) => {
				delete p.questions[0]?.options;
				p.questions[0]!.allowOther = false;
			}),
			"questions[0].allowOther",
			["nothing to answer", "Give 2-8 options", 'drop "allowOther": false'],
		],
		[
			"options is an array",
			edit((p) => (p.questions[0]!.options = "Postgres, SQLite")),
			"questions[0].options",
			["expected an array", "the string"],
		],
		[
			"1 option only beside the free-text row",
			edit((p) => {
				p.questions[0]!.options = [{ label: "Postgres" }];
				p.questions[0]!.allowOther = false;
			}),
			"questions[0].options",
			['1 option and "allowOther": false', "Give 2-8 options"],
		],
		[
			"at most 8 options",
			edit(
				(p) => (p.questions[0]!.options = ["a", "b", "c", "d", "e", "f", "g", "h", "i"].map((label) => ({ label }))),
			),
			"questions[0].options",
			["9 options; the limit is 8"],
		],
		[
			"an option is an object",
			edit((p) => ((p.questions[0]!.options as unknown[])[1] = 7)),
			"questions[0].options[1]",
			["expected an option object", "the number 7"],
		],
		[
			"label is required",
			edit((p) => delete option(p, 0, 1).label),
			"questions[0].options[1].label",
			["missing", "visible label"],
		],
		[
			"label is a string",
			edit((p) => (option(p, 0, 1).label = null)),
			"questions[0].options[1].label",
			["expected a string, got null"],
		],
		["label is not blank", edit((p) => (option(p, 0, 1).label = "")), "questions[0].options[1].label", ["blank"]],
		[
			"label ≤ 60",
			edit((p) => (option(p, 0, 1).label = "L".repeat(74))),
			"questions[0].options[1].label",
			["74 characters; the limit is 60", 'Shorten the label and move detail into "description"'],
		],
		[
			"label is one line",
			edit((p) => (option(p, 0, 1).label = "SQLite\n(one file)")),
			"questions[0].options[1].label",
			["line break", '"description"'],
		],
		[
			"labels are unique ignoring case",
			edit((p) => (option(p, 1, 2).label = "linux ")),
			"questions[1].options[2].label",
			['"linux" repeats the label of options[0]', "distinct"],
		],
		[
			"value is a string",
			edit((p) => (option(p, 0, 0).value = 1)),
			"questions[0].options[0].value",
			["expected a string, got the number 1"],
		],
		[
			"value is not blank",
			edit((p) => (option(p, 0, 0).value = " ")),
			"questions[0].options[0].value",
			["blank", 'Leave "value" out'],
		],
		[
			"value is one line",
			edit((p) => (option(p, 0, 0).value = "pg\u2028sql")),
			"questions[0].options[0].value",
			["line break"],
		],
		[
			"values are unique",
			edit((p) => ((option(p, 1, 0).value = "os"), (option(p, 1, 2).value = "os"))),
			"questions[1].options[2].value",
			['"os" is already the value of options[0]', "maps back"],
		],
		[
			"a value may not repeat another option's label",
			edit((p) => (option(p, 1, 2).value = "Linux")),
			"questions[1].options[2].value",
			['"Linux" is already the value of options[0]'],
		],
		[
			"description is a string",
			edit((p) => (option(p, 0, 0).description = {})),
			"questions[0].options[0].description",
			["expected a string, got an object"],
		],
		[
			"description ≤ 300",
			edit((p) => (option(p, 0, 0).description = "d".repeat(301))),
			"questions[0].options[0].description",
			["301 characters; the limit is 300", '"preview"'],
		],
		[
			"preview is a string",
			edit((p) => (option(p, 0, 0).preview = 3)),
			"questions[0].options[0].preview",
			["expected a string"],
		],
		[
			"preview ≤ 4000",
			edit((p) => (option(p, 0, 0).preview = "line\n".repeat(801))),
			"questions[0].options[0].preview",
			["4004 characters; the limit is 4000", "excerpt"],
		],
		[
			"preview only on single-select questions",
			edit((p) => (option(p, 1, 0).preview = "cross-compile with zig")),
			"questions[1].options[0].preview",
			["single-select", 'Remove "preview"'],
		],
		[
			"recommended is a boolean",
			edit((p) => (option(p, 0, 0).recommended = "yes")),
			"questions[0].options[0].recommended",
			['expected true or false, got the string "yes"'],
		],
		[
			"at most one recommended option",
			edit((p) => [0, 1].forEach((i) => (option(p, 1, i).recommended = true))),
			"questions[1].options[1].recommended",
			["options[0] is already recommended", "at most one"],
		],
		[
			"multiSelect is a boolean",
			edit((p) => (p.questions[0]!.multiSelect = "false")),
			"questions[0].multiSelect",
			['expected true or false, got the string "false"'],
		],
		[
			"allowOther is a boolean",
			edit((p) => (p.questions[0]!.allowOther = 0)),
			"questions[0].allowOther",
			["expected true or false, got the number 0"],
		],
		[
			"required is a boolean",
			edit((p) => (p.questions[0]!.required = null)),
			"questions[0].required",
			["expected true or false, got null"],
		],
		["reason is a string", edit((p) => (p.reason = ["why"])), "reason", ["expected a string, got an array"]],
		[
			"reason is at most 200 characters",
			edit((p) => (p.reason = "r".repeat(201))),
			"reason",
			["201 characters; the limit is 200", "one short line", '"context"'],
		],
		[
			"reason is one line",
			edit((p) => (p.reason = "Needed for the plan.\nMore.")),
			"reason",
			["line break", "a reason is one line", "Write it as one line"],
		],
		[
			"reason has no control characters",
			edit((p) => (p.reason = "Needed \x1b]52;c;x\x07now")),
			"reason",
			["control character U+001B", "plain text only"],
		],
		[
			"metadata is an object",
			edit((p) => (p.metadata = "from planner")),
			"metadata",
			["expected an object", 'Leave "metadata" out'],
		],
		[
			"metadata.source is a string",
			edit((p) => (p.metadata = { source: 5 })),
			"metadata.source",
			["expected a string, got the number 5"],
		],
		[
			"metadata.flowId is a string",
			edit((p) => (p.metadata = { flowId: ["f"] })),
			"metadata.flowId",
			["expected a string, got an array of 1 item"],
		],
		[
			"metadata.tags is an array",
			edit((p) => (p.metadata = { tags: "a,b" })),
			"metadata.tags",
			["expected an array of strings"],
		],
		[
			"metadata.tags holds strings",
			edit((p) => (p.metadata = { tags: ["a", 2] })),
			"metadata.tags[1]",
			["expected a string, got the number 2"],
		],
	];

	it.each(cases)("%s", (_rule, breakIt, path, says) => {
		const issues = issuesOf(breakIt(validParams()));
		expect(issues.map((issue) => issue.path)).toEqual([path]);
		for (const words of says) expect(issues[0]?.message).toContain(words);
	});
});

describe("the reason", () => {
	it("is kept trimmed, up to 200 characters; blank is none", () => {
		const valid = (reason: unknown) => {
			const result = validateParams({ ...validParams(), reason });
			if (!result.ok) throw new Error(JSON.stringify(result.issues));
			return result.form;
		};
		expect(valid("  Needed for the migration plan. ").reason).toBe("Needed for the migration plan.");
		expect(valid("r".repeat(200)).reason).toHaveLength(200);
		expect(valid(" \t ")).not.toHaveProperty("reason");
		expect(valid(undefined)).not.toHaveProperty("reason");
		// Beside a lone question at the top level, as the normaliser folds it.
		const { params } = normalizeArguments({ question: "Which?", options: ["A", "B"], reason: "To plan." });
		expect(validateParams(params)).toMatchObject({ ok: true, form: { reason: "To plan." } });
	});
});

describe("every violation at once", () => {
	it("reports each broken rule with its own path: questions in order, then repeats across questions, then metadata", () => {
		const issues = issuesOf({
			questions: [
				{ header: "A very long header", question: "Two\nlines", options: [{ label: "Same" }, { label: "same" }] },
				{ id: "$x", question: "", allowOther: false, options: [{ label: "Only one", preview: 5 }] },
				"not a question",
				{
					header: "a very long header",
					question: "Q?",
					multiSelect: "no",
					options: [{ label: "x", preview: "p" }, { label: "y" }],
				},
				{
					question: "Q?",
					options: [
						{ label: "a", recommended: true },
						{ label: "b", recommended: true },
					],
				},
			],
			metadata: { tags: [1] },
		});
		expect(issues.map((issue) => issue.path)).toEqual([
			"questions",
			"questions[0].header",
			"questions[0].question",
			"questions[0].options[1].label",
			"questions[1].id",
			"questions[1].question",
			"questions[1].options",
			"questions[1].options[0].preview",
			"questions[2]",
			"questions[3].header",
			"questions[3].multiSelect",
			"questions[4].options[1].recommended",
			"questions[3].header",
			"metadata.tags[0]",
		]);
	});
});

describe("defaults of a valid call", () => {
	const minimal = { questions: [{ question: "Tabs or spaces?", options: [{ label: "Tabs" }, { label: "Spaces" }] }] };

	it("fills in every default", () => {
		expect(validateParams(minimal)).toEqual({
			ok: true,
			form: {
				questions: [
					{
						id: "q1",
						header: "Q1",
						question: "Tabs or spaces?",
						options: [
							{ label: "Tabs", value: "Tabs", recommended: false },
							{ label: "Spaces", value: "Spaces", recommended: false },
						],
						multiSelect: false,
						allowOther: true,
						required: true,
					},
				],
			},
		});
	});

	it("a question without options (absent or []) is a text-only question with free text", () => {
		for (const options of [undefined, []]) {
			const result = validateParams({
				questions: [{ question: "What should the new service be called?", ...(options && { options }) }],
			});
			expect(result).toMatchObject({
				ok: true,
				form: { questions: [{ options: [], allowOther: true, multiSelect: false }] },
			});
		}
	});

	it("keeps what the model gave", () => {
		const given = {
			questions: [
				{
					id: "style",
					header: "Style",
					question: "Tabs or spaces?",
					context: "The repo mixes both.\nCI does not check.",
					options: [
						{
							label: "Tabs",
							value: "tab",
							description: "Like pi",
							preview: "\tif (x) {\n\t\ty();\n\t}",
							recommended: true,
						},
						{ label: "Spaces", value: "space", recommended: false },
					],
					multiSelect: false,
					allowOther: false,
					required: false,
				},
			],
			metadata: { source: "planner", flowId: "f-1", tags: ["style", "lint"] },
		};
		expect(validateParams(given)).toEqual({ ok: true, form: given });
	});

	it.each([
		[["Auth method"], ["auth-method"]],
		[["Café olé!"], ["cafe-ole"]],
		[
			["数据库", "認証"],
			["q1", "q2"],
		],
		[
			["Auth", "AUTH?"],
			["auth", "auth-2"],
		],
		[["Constructor"], ["constructor-2"]],
		[["🚀 Deploy"], ["deploy"]],
	])("ids default to the header's slug: %j → %j", (headers, ids) => {
		const params = {
			questions: headers.map((header) => ({ header, question: "Q?", options: [{ label: "A" }, { label: "B" }] })),
		};
		const result = validateParams(params);
		expect(result.ok && result.form.questions.map((question) => question.id)).toEqual(ids);
	});

	it("makes defaulted ids and headers step around the ones the model chose", () => {
		const params = {
			questions: [
				{ question: "First?", options: [{ label: "A" }, { label: "B" }] },
				{ id: "q1", header: "q1", question: "Second?", options: [{ label: "A" }, { label: "B" }] },
				{ question: "Third?", options: [{ label: "A" }, { label: "B" }] },
			],
		};
		const result = validateParams(params);
		expect(result.ok && result.form.questions.map(({ id, header }) => [id, header])).toEqual([
			["q1-2", "Q1-2"],
			["q1", "q1"],
			["q3", "Q3"],
		]);
	});

	it("slugs are lower-case ASCII, at most 24 characters, never empty-ended", () => {
		expect(slugOf("㎏㎏㎏㎏㎏㎏㎏㎏㎏㎏㎏㎏")).toBe("kgkgkgkgkgkgkgkgkgkgkgkg");
		expect(slugOf("--Hello,  World--")).toBe("hello-world");
		expect(slugOf("a".repeat(23) + " b")).toBe("a".repeat(23));
		expect(slugOf("数据库")).toBe("");
	});

	it("trims one-line fields; keeps the indentation of multi-line text; drops blank optional text", () => {
		const result = validateParams({
			questions: [
				{
					id: " db ",
					header: "  Database ",
					question: "  Which one?\n",
					context: "  indented\n\n",
					options: [
						{ label: " Postgres ", value: " pg ", description: "   ", preview: "  code\n" },
						{ label: "SQLite", description: "  one file  " },
					],
				},
			],
		});
		expect(result.ok && result.form.questions[0]).toEqual({
			id: "db",
			header: "Database",
			question: "Which one?",
			context: "  indented",
			options: [
				{ label: "Postgres", value: "pg", preview: "  code", recommended: false },
				{ label: "SQLite", value: "SQLite", description: "  one file", recommended: false },
			],
			multiSelect: false,
			allowOther: true,
			required: true,
		});
	});

	it("echoes only the known metadata fields, and only when given", () => {
		const withExtra = { ...minimal, metadata: { source: "s", extra: 1, tags: [] } };
		expect(validateParams(withExtra)).toMatchObject({ ok: true, form: { metadata: { source: "s", tags: [] } } });
		const result = validateParams(minimal);
		expect(result.ok && "metadata" in result.form).toBe(false);
	});

	it("accepts the limits exactly", () => {
		const result = validateParams({
			questions: [
				{
					header: "🚀".repeat(12),
					question: "q".repeat(1000),
					context: "c".repeat(1000),
					options: [
						{ label: "l".repeat(60), description: "d".repeat(300), preview: "p".repeat(4000) },
						{ label: "b" },
						{ label: "c" },
						{ label: "d" },
						{ label: "e" },
					],
				},
				...["2", "3", "4"].map((n) => ({ question: n, options: [{ label: "a" }, { label: "b" }] })),
			],
		});
		expect(result.ok).toBe(true);
	});
});

describe("quoting values in messages", () => {
	it("quotes at most 40 characters, JSON-escaped, and shows invisible characters", () => {
		const [issue] = issuesOf({
			questions: [{ question: "Q?", multiSelect: `\u202e${"y".repeat(500)}`, options: [] }],
		}).filter((i) => i.path.endsWith("multiSelect"));
		expect(issue?.message).toBe(`expected true or false, got the string "\\u202e${"y".repeat(39)}"….`);
	});

	it("never cuts an emoji in half", () => {
		const [issue] = issuesOf({ questions: [{ question: "Q?", required: "😀".repeat(50), options: [] }] }).filter((i) =>
			i.path.endsWith("required"),
		);
		expect(issue?.message).toContain(`"${"😀".repeat(40)}"…`);
	});
});

describe("AskUserInputError", () => {
	const issue = (n: number): Issue => ({ path: `questions[${n}]`, message: "broken." });
	const formatIssues = (issues: Issue[]) => new AskUserInputError(issues).message;

	it("starts with one line that says the tool was not called, then one line per issue", () => {
		expect(formatIssues([issue(0), issue(1)])).toBe(
			"ask_user was not called: 2 problems in the arguments. Fix them and call ask_user again:\n- questions[0]: broken.\n- questions[1]: broken.",
		);
		expect(formatIssues([issue(0)])).toBe(
			"ask_user was not called: 1 problem in the arguments. Fix it and call ask_user again:\n- questions[0]: broken.",
		);
	});

	it("lists at most 40 issues and counts the rest", () => {
		const text = formatIssues(Array.from({ length: 45 }, (_, n) => issue(n)));
		const lines = text.split("\n");
		expect(lines[0]).toContain("45 problems");
		expect(lines).toHaveLength(42);
		expect(lines.at(-1)).toBe("- …and 5 more of the same kinds.");
	});

	it("is an Error that keeps its issues, and ends with the normalisation notes", () => {
		const issues = issuesOf({ questions: [] });
		const error = new AskUserInputError(issues, ['read "prompt" as "question".']);
		expect(error).toBeInstanceOf(Error);
		expect(error.name).toBe("AskUserInputError");
		expect(error.issues).toBe(issues);
		expect(error.message).toBe(
			'ask_user was not called: 1 problem in the arguments. Fix it and call ask_user again:\n- questions: empty. Ask 1-4 questions.\nNote: read "prompt" as "question".',
		);
	});
});

describe("unreadable input", () => {
	it("a throwing getter becomes an issue, not an exception", () => {
		const hostile = {
			get questions(): unknown {
				throw new Error("boom");
			},
		};
		expect(issuesOf(hostile)).toEqual([
			{ path: "arguments", message: "could not be read as JSON. Send plain JSON arguments." },
		]);
	});
});

describe("properties", () => {
	it("every generated call is valid", () => {
		fc.assert(
			fc.property(arbAskParams(), (params) => {
				expect(validateParams(params)).toMatchObject({ ok: true });
			}),
			{ numRuns: 500 },
		);
	});

	it("validating a form gives the same form", () => {
		fc.assert(
			fc.property(arbAskForm(), (form) => {
				expect(validateParams(form)).toEqual({ ok: true, form });
			}),
			{ numRuns: 500 },
		);
	});

	it("normalize + validate never throw, and either succeed or name at least one problem with a path", () => {
		let validRuns = 0;
		const anything = fc.anything({
			withBigInt: true,
			withDate: true,
			withMap: true,
			withNullPrototype: true,
			withSparseArray: true,
		});
		fc.assert(
			fc.property(fc.oneof(anything, arbNearValid()), (raw) => {
				const { params } = normalizeArguments(raw);
				const result = validateParams(params);
				// Normalisation builds a new object; getting the input back means its safety net caught a throw.
				if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) expect(params).not.toBe(raw);
				if (result.ok) validRuns++;
				else {
					expect(result.issues.length).toBeGreaterThan(0);
					// validateParams's own safety net is for hostile getters only, never for plain data.
					expect(result.issues.map((issue) => issue.message)).not.toContain(
						"could not be read as JSON. Send plain JSON arguments.",
					);
					for (const issue of result.issues) {
						expect(issue.path).not.toBe("");
						expect(issue.message).not.toBe("");
					}
					expect(() => new AskUserInputError(result.issues)).not.toThrow();
				}
			}),
			{ numRuns: 3000 },
		);
		expect(validRuns).toBeGreaterThan(100);
	});

	it("a form that came out of normalize + validate comes out again unchanged, with no notices", () => {
		let validRuns = 0;
		fc.assert(
			fc.property(arbNearValid(), (raw) => {
				const first = validateParams(normalizeArguments(raw).params);
				if (!first.ok) return;
				validRuns++;
				const again = normalizeArguments(first.form);
				expect(again.notices).toEqual([]);
				expect(validateParams(again.params)).toEqual(first);
			}),
			{ numRuns: 2000 },
		);
		// The edits must leave enough calls valid for the property to say something.
		expect(validRuns).toBeGreaterThan(200);
	});
});

/** Valid params with a few random edits: the inputs closest to what models really send. */
function arbNearValid(): fc.Arbitrary<unknown> {
	const arbEdit = fc.record({
		at: fc.nat(),
		kind: fc.constantFrom("replace", "delete", "stringify", "wrap", "control", "marker", "other"),
		with: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom("true", "Other…", "x (Recommended)", "\n", "")),
	});
	return fc.tuple(arbAskParams(), fc.array(arbEdit, { minLength: 1, maxLength: 4 })).map(([params, edits]) => {
		const copy = structuredClone(params) as unknown;
		for (const edit of edits) applyEdit(copy, edit);
		return copy;
	});
}

type Edit = { at: number; kind: string; with: unknown };

function applyEdit(root: unknown, edit: Edit): void {
	const slots = slotsOf(root);
	const slot = slots[edit.at % slots.length];
	if (slot === undefined) return;
	const [parent, key] = slot;
	const current = (parent as Record<string | number, unknown>)[key];
	const target = parent as Record<string | number, unknown>;
	switch (edit.kind) {
		case "replace":
			target[key] = edit.with;
			break;
		case "delete":
			if (Array.isArray(parent) && typeof key === "number") parent.splice(key, 1);
			else delete target[key];
			break;
		case "stringify":
			target[key] = JSON.stringify(current);
			break;
		case "wrap":
			target[key] = Array.isArray(current) ? current[0] : [current];
			break;
		case "control":
			target[key] = typeof current === "string" ? `${current}\x1b[2J` : current;
			break;
		case "marker":
			target[key] = typeof current === "string" ? `${current} (Recommended)` : current;
			break;
		case "other":
			target[key] = "Other…";
			break;
	}
}

/** Every (container, key) pair in a JSON tree. */
function slotsOf(node: unknown): [object, string | number][] {
	if (typeof node !== "object" || node === null) return [];
	const entries: [string | number, unknown][] = Array.isArray(node)
		? node.map((value, index) => [index, value])
		: Object.entries(node);
	return entries.flatMap(([key, value]) => [[node, key] as [object, string | number], ...slotsOf(value)]);
}

describe("text-only questions and multiSelect", () => {
	it("a question without options is answered by one text: multiSelect is set aside", () => {
		const result = validateParams({
			questions: [{ question: "What should the service be called?", multiSelect: true }],
		});
		expect(result.ok).toBe(true);
		if (result.ok) expect(result.form.questions[0]?.multiSelect).toBe(false);
	});
});
