import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeArguments } from "../src/input/normalize.ts";
import { isOtherOptionLabel } from "../src/input/normalize/other.ts";
import { withoutRecommendedMarker } from "../src/input/normalize/recommended.ts";
import { arbAskParams } from "./support/arbitraries.ts";

function normalized(raw: unknown): unknown {
	return normalizeArguments(raw).params;
}

/** What Claude Code's AskUserQuestion taught models: already canonical. */
const CLAUDE_CODE_CALL = {
	questions: [
		{
			question: "Which authentication method should the API use?",
			header: "Auth method",
			options: [
				{ label: "JWT tokens", description: "Stateless; scales horizontally; standard for REST APIs" },
				{ label: "Session cookies", description: "Server-side sessions; simple revocation" },
				{ label: "OAuth 2.0", description: "Delegate sign-in to an identity provider" },
			],
			multiSelect: false,
		},
		{
			question: "Which features should the first release include?",
			header: "Features",
			options: [
				{ label: "Password reset", description: "Email a one-time link" },
				{ label: "2FA", description: "TOTP via an authenticator app" },
				{ label: "Audit log", description: "Record every sign-in" },
			],
			multiSelect: true,
		},
	],
};

/** A call shaped for pi's questionnaire example (examples/extensions/questionnaire.ts). */
const PI_QUESTIONNAIRE_CALL = {
	questions: [
		{
			id: "scope",
			label: "Scope",
			prompt: "How much of the code should the refactor touch?",
			options: [
				{ value: "module", label: "Just this module" },
				{ value: "package", label: "The whole package", description: "Touches 14 files" },
			],
			allowOther: true,
		},
		{
			id: "tests",
			prompt: "Should the refactor come with new tests?",
			options: [
				{ value: "yes", label: "Yes" },
				{ value: "no", label: "No" },
			],
		},
	],
};

describe("shapes other ask tools taught models", () => {
	it("passes a Claude Code AskUserQuestion call through untouched", () => {
		expect(normalizeArguments(CLAUDE_CODE_CALL)).toEqual({ params: CLAUDE_CODE_CALL, notices: [] });
	});

	it("renames pi questionnaire fields: prompt → question, label → header", () => {
		expect(normalizeArguments(PI_QUESTIONNAIRE_CALL)).toEqual({
			params: {
				questions: [
					{
						id: "scope",
						header: "Scope",
						question: "How much of the code should the refactor touch?",
						options: [
							{ label: "Just this module", value: "module" },
							{ label: "The whole package", value: "package", description: "Touches 14 files" },
						],
						allowOther: true,
					},
					{
						id: "tests",
						question: "Should the refactor come with new tests?",
						options: [
							{ label: "Yes", value: "yes" },
							{ label: "No", value: "no" },
						],
					},
				],
			},
			notices: [],
		});
	});

	it.each([
		[
			"a single question at the top level",
			{ question: "Tabs or spaces?", options: ["Tabs", "Spaces"] },
			{ questions: [{ question: "Tabs or spaces?", options: [{ label: "Tabs" }, { label: "Spaces" }] }] },
		],
		[
			"a single question at the top level, with header and metadata",
			{
				header: "Style",
				question: "Tabs?",
				options: [{ label: "Yes" }, { label: "No" }],
				metadata: { source: "lint" },
			},
			{
				questions: [{ header: "Style", question: "Tabs?", options: [{ label: "Yes" }, { label: "No" }] }],
				metadata: { source: "lint" },
			},
		],
		[
			"a single prompt-style question at the top level",
			{ prompt: "Tabs?", choices: ["Yes", "No"] },
			{ questions: [{ question: "Tabs?", options: [{ label: "Yes" }, { label: "No" }] }] },
		],
		[
			"questions given as one object",
			{ questions: { question: "Tabs?", options: [{ label: "Yes" }, { label: "No" }] } },
			{ questions: [{ question: "Tabs?", options: [{ label: "Yes" }, { label: "No" }] }] },
		],
		[
			"questions given as a JSON string",
			{ questions: '[{"question":"Tabs?","options":[{"label":"Yes"},{"label":"No"}]}]' },
			{ questions: [{ question: "Tabs?", options: [{ label: "Yes" }, { label: "No" }] }] },
		],
		[
			"questions given as a JSON string of one object",
			{ questions: ' {"question":"Tabs?","options":["Yes","No"]} ' },
			{ questions: [{ question: "Tabs?", options: [{ label: "Yes" }, { label: "No" }] }] },
		],
		[
			"options given as a JSON string",
			{ questions: [{ question: "Tabs?", options: '["Yes", {"label":"No","description":"Spaces"}]' }] },
			{ questions: [{ question: "Tabs?", options: [{ label: "Yes" }, { label: "No", description: "Spaces" }] }] },
		],
		[
			"the whole arguments given as a JSON string",
			'{"question":"Tabs?","options":["Yes","No"]}',
			{ questions: [{ question: "Tabs?", options: [{ label: "Yes" }, { label: "No" }] }] },
		],
		[
			"options as bare strings and numbers",
			{ questions: [{ question: "How many workers?", options: ["one", 2, 4.5] }] },
			{ questions: [{ question: "How many workers?", options: [{ label: "one" }, { label: "2" }, { label: "4.5" }] }] },
		],
		[
			"option id instead of value (a number id becomes a string)",
			{
				questions: [
					{
						question: "Q?",
						options: [
							{ id: "a", label: "A" },
							{ id: 2, label: "B" },
						],
					},
				],
			},
			{
				questions: [
					{
						question: "Q?",
						options: [
							{ label: "A", value: "a" },
							{ label: "B", value: "2" },
						],
					},
				],
			},
		],
		[
			"option value wins over option id",
			{ questions: [{ question: "Q?", options: [{ id: "x", value: "a", label: "A" }, { label: "B" }] }] },
			{ questions: [{ question: "Q?", options: [{ label: "A", value: "a" }, { label: "B" }] }] },
		],
		[
			"option text / name / title as the label",
			{
				questions: [
					{ question: "Q?", options: [{ text: "A" }, { name: "B" }, { title: "C" }, { label: "D", text: "ignored" }] },
				],
			},
			{ questions: [{ question: "Q?", options: [{ label: "A" }, { label: "B" }, { label: "C" }, { label: "D" }] }] },
		],
		[
			"question and header win over prompt and label",
			{ questions: [{ question: "Q?", prompt: "P?", header: "H", label: "L", options: [] }] },
			{ questions: [{ question: "Q?", header: "H", options: [] }] },
		],
		[
			'booleans given as "true" / "false" strings',
			{
				questions: [
					{
						question: "Q?",
						multiSelect: "true",
						allowOther: " FALSE ",
						required: "false",
						options: [{ label: "A", recommended: "true" }],
					},
				],
			},
			{
				questions: [
					{
						question: "Q?",
						multiSelect: true,
						allowOther: false,
						required: false,
						options: [{ label: "A", recommended: true }],
					},
				],
			},
		],
		[
			"null on optional fields (strict function calling) means absent",
			{
				questions: [
					{
						id: null,
						header: null,
						question: "Q?",
						context: null,
						options: [{ label: "A", value: null, description: null, preview: null, recommended: null }],
						multiSelect: null,
						allowOther: null,
						required: null,
					},
				],
				metadata: null,
			},
			{ questions: [{ question: "Q?", options: [{ label: "A" }] }] },
		],
		[
			"unknown fields at every level are dropped",
			{
				questions: [{ question: "Q?", extra: 1, options: [{ label: "A", icon: "x" }] }],
				answers: {},
				metadata: { source: "s", user: "u" },
			},
			{ questions: [{ question: "Q?", options: [{ label: "A" }] }], metadata: { source: "s" } },
		],
	])("folds %s", (_name, raw, expected) => {
		expect(normalizeArguments(raw)).toEqual({ params: expected, notices: [] });
	});

	it.each([
		["a plain string", "Which one?"],
		["a JSON string of a number", "42"],
		["null", null],
		["a number", 7],
		["an array", [{ question: "Q?" }]],
		["questions that are neither array nor object", { questions: 5 }],
		["options that are not JSON", { questions: [{ question: "Q?", options: "A, B or C" }] }],
		["a question that is a string", { questions: ["Which one?"] }],
		["an option that is a boolean", { questions: [{ question: "Q?", options: [true, { label: "A" }] }] }],
		["a label that is an object", { questions: [{ question: "Q?", options: [{ label: { en: "A" } }] }] }],
		['a boolean that is "yes"', { questions: [{ question: "Q?", options: [], multiSelect: "yes" }] }],
	])("leaves %s for the validator to report", (_name, raw) => {
		expect(normalized(raw)).toEqual(raw);
	});
});

describe('an explicit "Other" option', () => {
	const question = (labels: string[], extra: Record<string, unknown> = {}) => ({
		questions: [{ question: "Which OS?", options: labels.map((label) => ({ label })), ...extra }],
	});

	it.each([
		"Other",
		"other",
		"OTHER",
		"Other…",
		"Other...",
		"Other:",
		"Others",
		"  Other  ",
		"Other (please specify)",
		"Other (specify)",
		"Other – please describe",
		"Other: type your answer",
		"Something else",
		"Something else…",
		"Type something.",
		"Type your own answer",
		"Write your own",
		"Custom answer",
		"其他",
		"其它…",
	])("%j is dropped, allowOther becomes true and the model is told", (label) => {
		expect(isOtherOptionLabel(label)).toBe(true);
		const { params, notices } = normalizeArguments(question(["Linux", "macOS", label]));
		expect(params).toEqual({
			questions: [{ question: "Which OS?", options: [{ label: "Linux" }, { label: "macOS" }], allowOther: true }],
		});
		expect(notices).toEqual([
			`questions[0]: removed the option ${JSON.stringify(label.trim())} — ask_user always offers a free-text row; don't add one.`,
		]);
	});

	it.each([
		"Other browsers",
		"Other: BSD",
		"Other (BSD)",
		"Others (BSD, Solaris)",
		"None of the above",
		"None",
		"Otherwise",
		"Custom",
		"Something else entirely different",
	])("%j is a real choice and stays", (label) => {
		expect(isOtherOptionLabel(label)).toBe(false);
		expect(normalizeArguments(question(["Linux", label]))).toEqual({ params: question(["Linux", label]), notices: [] });
	});

	it.each(["Other\u202e", "Other: type\x1b]52;c;x\x07", "Other\n(please specify)"])(
		"%j carries control characters and is left for the validator",
		(label) => {
			expect(isOtherOptionLabel(label)).toBe(false);
		},
	);

	it("names every dropped option of a question in one notice, with the question's index", () => {
		const raw = {
			questions: [
				{ question: "First?", options: ["A", "B"] },
				{ question: "Second?", options: ["A", "Other", "B", "Something else…"], allowOther: true },
			],
		};
		const { params, notices } = normalizeArguments(raw);
		expect(params).toEqual({
			questions: [
				{ question: "First?", options: [{ label: "A" }, { label: "B" }] },
				{ question: "Second?", options: [{ label: "A" }, { label: "B" }], allowOther: true },
			],
		});
		expect(notices).toEqual([
			`questions[1]: removed the options "Other", "Something else…" — ask_user always offers a free-text row; don't add one.`,
		]);
	});

	it("stays when the model turned the free-text row off: then it is a choice like any other", () => {
		for (const allowOther of [false, "false"]) {
			const { params, notices } = normalizeArguments(question(["Linux", "Other"], { allowOther }));
			expect(params).toEqual(question(["Linux", "Other"], { allowOther: false }));
			expect(notices).toEqual([]);
		}
	});

	it("is dropped from bare-string options and from a single top-level question too", () => {
		const { params, notices } = normalizeArguments({ question: "Which OS?", options: ["Linux", "macOS", "Other…"] });
		expect(params).toEqual(question(["Linux", "macOS"], { allowOther: true }));
		expect(notices).toHaveLength(1);
	});

	it("leaves a too-short option list for the validator to report", () => {
		const { params, notices } = normalizeArguments(question(["Linux", "Other"]));
		expect(params).toEqual(question(["Linux"], { allowOther: true }));
		expect(notices).toHaveLength(1);
	});
});

describe('a "(Recommended)" marker on a label', () => {
	it.each([
		"Postgres (Recommended)",
		"Postgres (recommended)",
		"Postgres(Recommended)",
		"Postgres ( RECOMMENDED )",
		"Postgres [Recommended]",
		"Postgres - Recommended",
		"Postgres — recommended",
		"Postgres – (Recommended)",
		"(Recommended) Postgres",
		"[recommended] Postgres",
		"(Recommended): Postgres",
		"Recommended: Postgres",
		"  Postgres (Recommended)  ",
		"(Recommended) Postgres (Recommended)",
		"(Recommended) [Recommended] Postgres",
	])("%j becomes recommended: true with the marker removed", (label) => {
		expect(withoutRecommendedMarker(label)).toBe("Postgres");
		expect(normalized({ questions: [{ question: "Q?", options: [{ label }, { label: "SQLite" }] }] })).toEqual({
			questions: [{ question: "Q?", options: [{ label: "Postgres", recommended: true }, { label: "SQLite" }] }],
		});
	});

	it.each([
		"Recommended reading",
		"Postgres recommended",
		"(Recommended)",
		"Not (Recommended) at all",
		"Postgres (Recommended for prod)",
	])("%j is left as written", (label) => {
		expect(withoutRecommendedMarker(label)).toBeUndefined();
	});

	it("moves a value copied from the label to the cleaned label, keeps a value of its own, and keeps only the first mark", () => {
		const raw = {
			questions: [
				{
					question: "Q?",
					options: [
						{ label: "A (Recommended)", value: "A (Recommended)" },
						{ label: "B (Recommended)", value: "b-value" },
						{ label: "C (Recommended)" },
					],
				},
			],
		};
		expect(normalizeArguments(raw)).toEqual({
			params: {
				questions: [
					{
						question: "Q?",
						options: [
							{ label: "A", value: "A", recommended: true },
							{ label: "B", value: "b-value", recommended: false },
							{ label: "C", recommended: false },
						],
					},
				],
			},
			notices: ["questions[0]: kept options[0] as the one recommended option; mark at most one."],
		});
	});

	it("is found on bare-string options too", () => {
		expect(normalized({ questions: [{ question: "Q?", options: ["Postgres (Recommended)", "SQLite"] }] })).toEqual({
			questions: [{ question: "Q?", options: [{ label: "Postgres", recommended: true }, { label: "SQLite" }] }],
		});
	});

	it("wins over an explicit recommended: false", () => {
		expect(
			normalized({ questions: [{ question: "Q?", options: [{ label: "A (Recommended)", recommended: false }] }] }),
		).toEqual({
			questions: [{ question: "Q?", options: [{ label: "A", recommended: true }] }],
		});
	});

	it("is removed however many times it repeats, so a second normalisation changes nothing", () => {
		const label = `${"Recommended: ".repeat(5)}Postgres`;
		expect(withoutRecommendedMarker(label)).toBe("Postgres");
		const once = normalizeArguments({ questions: [{ question: "Q?", options: [label, "SQLite"] }] }).params;
		expect(normalizeArguments(once).params).toEqual(once);
	});

	it("is found in linear time on a huge label", () => {
		const label = `${"(".repeat(200_000)}${" ".repeat(200_000)}-x`;
		const started = performance.now();
		expect(withoutRecommendedMarker(label)).toBeUndefined();
		expect(isOtherOptionLabel(label)).toBe(false);
		expect(performance.now() - started).toBeLessThan(500);
	});
});

describe("normalizeArguments as a function", () => {
	it("never mutates its input", () => {
		const raw = {
			question: "Q?",
			options: ["A (Recommended)", { id: "b", text: "B" }, "Other"],
			multiSelect: "true",
			metadata: { tags: ["x"] },
		};
		const before = structuredClone(raw);
		normalizeArguments(deepFreeze(raw));
		expect(raw).toEqual(before);
	});

	it("leaves canonical parameters exactly as they are", () => {
		fc.assert(
			fc.property(arbAskParams(), (params) => {
				expect(normalizeArguments(params)).toEqual({ params, notices: [] });
			}),
			{ numRuns: 300 },
		);
	});

	it("never throws, and turns JSON into JSON", () => {
		fc.assert(
			fc.property(fc.jsonValue(), (raw) => {
				const { params, notices } = normalizeArguments(raw);
				// A new object for every object: getting the input back means the safety net caught a throw.
				if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) expect(params).not.toBe(raw);
				const json = JSON.stringify(params);
				expect(JSON.stringify(JSON.parse(json))).toBe(json);
				expect(notices.every((notice) => typeof notice === "string" && notice.startsWith("questions["))).toBe(true);
			}),
			{ numRuns: 2000 },
		);
	});

	it("never throws on anything at all", () => {
		fc.assert(
			fc.property(
				fc.anything({
					withBigInt: true,
					withDate: true,
					withMap: true,
					withSet: true,
					withTypedArray: true,
					withNullPrototype: true,
					withSparseArray: true,
				}),
				(raw) => {
					expect(() => normalizeArguments(raw)).not.toThrow();
					expect(() => normalizeArguments({ questions: [raw], metadata: raw })).not.toThrow();
					expect(() =>
						normalizeArguments({ questions: [{ question: raw, options: [raw, { label: raw }] }] }),
					).not.toThrow();
				},
			),
			{ numRuns: 2000 },
		);
	});

	it("survives deep nesting and huge strings", () => {
		let deep: unknown = { label: "x" };
		for (let i = 0; i < 100_000; i++) deep = [deep];
		expect(() => normalizeArguments({ questions: [{ question: "Q?", options: [deep] }] })).not.toThrow();
		expect(() => normalizeArguments({ questions: `${"[".repeat(1_000_000)}` })).not.toThrow();
		const huge = "x".repeat(5_000_000);
		expect(normalized({ questions: [{ question: huge, options: [huge, { label: huge }] }] })).toEqual({
			questions: [{ question: huge, options: [{ label: huge }, { label: huge }] }],
		});
	});

	it("returns the input when a getter throws instead of throwing itself", () => {
		const hostile = {
			get questions(): unknown {
				throw new Error("boom");
			},
		};
		expect(normalizeArguments(hostile)).toEqual({ params: hostile, notices: [] });
	});
});

function deepFreeze<T>(value: T): T {
	if (typeof value === "object" && value !== null) {
		for (const child of Object.values(value)) deepFreeze(child);
		Object.freeze(value);
	}
	return value;
}
