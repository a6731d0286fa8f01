/**
 * Hostile arguments through the tool's own prepareArguments (normalise →
 * validate), the first code that touches what a model sent. Each input must
 * end in exactly one of two ways: an AskUserInputError whose every issue
 * names a path and says something, or a valid form that validates again to
 * itself — never another exception, never a hang.
 *
 * 10,000+ inputs: anything at all (wrong types, nesting), valid calls and the
 * other ask tools' shapes with random surgery (fields replaced by hostile
 * values, deleted, added, aliased, sent as JSON text), and fixed extremes
 * (megabyte strings, 100,000 options, nesting 100,000 deep, throwing getters).
 */

import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { callModule, createAskUserTool } from "../../src/tool/tool.ts";
import { AskUserInputError } from "../../src/input/validate.ts";
import type { AskForm } from "../../src/core/types.ts";
import { LIMITS } from "../../src/core/types.ts";
import { validateParams } from "../../src/input/validate.ts";
import { arbAskParams } from "../support/arbitraries.ts";

// prepareArguments is the real one only once what a call runs has loaded (pi: before the first run).
await callModule();

const tool = createAskUserTool({
	getActiveTools: () => ["ask_user"],
	setActiveTools: () => {},
	ask: async () => ({ status: "no_ui", answers: {}, skipped: [], notes: [] }),
});

const prepareArguments = (raw: unknown): unknown => {
	const prepare = tool.prepareArguments;
	if (!prepare) throw new Error("ask_user has no prepareArguments");
	return prepare(raw);
};

/** Where a problem is: `arguments`, or a path into the canonical shape such as `questions[1].options[2].label`. */
const ISSUE_PATH = /^(arguments|questions|reason|metadata)(\[\d+\]|\.[A-Za-z]+)*$/;
/**
 * Above this one call is a hang (runaway backtracking, quadratic work on a
 * huge input), never a slow or busy machine: the largest inputs below take
 * tens of milliseconds on an idle one.
 */
const SLOW_MS = 10_000;

type Outcome = "accepted" | "rejected";

/** Runs prepareArguments and checks that it ended in one of the two allowed ways; returns which. */
function checkPrepare(raw: unknown): Outcome {
	const started = performance.now();
	let prepared: unknown;
	try {
		prepared = prepareArguments(raw);
	} catch (error) {
		if (!(error instanceof AskUserInputError)) {
			throw new Error(
				`prepareArguments threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
			);
		}
		if (error.issues.length === 0) throw new Error("an AskUserInputError without issues");
		for (const issue of error.issues) {
			if (typeof issue.path !== "string" || !ISSUE_PATH.test(issue.path))
				throw new Error(`an issue without a path: ${JSON.stringify(issue.path)}`);
			if (typeof issue.message !== "string" || issue.message.trim() === "")
				throw new Error(`the issue at ${issue.path} says nothing`);
		}
		if (typeof error.message !== "string" || !error.message.includes(error.issues[0]!.path))
			throw new Error("the error message does not name the first path");
		return "rejected";
	} finally {
		const took = performance.now() - started;
		if (took > SLOW_MS) throw new Error(`prepareArguments took ${Math.round(took)} ms`);
	}
	checkValidForm(prepared);
	return "accepted";
}

/** An accepted call is a form within every limit of §2, and validating it again gives it back. */
function checkValidForm(prepared: unknown): void {
	const again = validateParams(prepared);
	if (!again.ok) throw new Error(`accepted, but does not validate again: ${JSON.stringify(again.issues)}`);
	const form: AskForm = again.form;
	const { questions } = form;
	if (questions.length < LIMITS.minQuestions || questions.length > LIMITS.maxQuestions)
		throw new Error(`${questions.length} questions accepted`);
	const distinct = (values: string[], what: string) => {
		if (new Set(values).size !== values.length) throw new Error(`repeated ${what}: ${JSON.stringify(values)}`);
	};
	distinct(
		questions.map((q) => q.id),
		"ids",
	);
	distinct(
		questions.map((q) => q.header.toLowerCase()),
		"headers",
	);
	for (const question of questions) {
		const textOnly = question.options.length === 0;
		if (textOnly && !question.allowOther) throw new Error("a text-only question without free text accepted");
		const fewest = question.allowOther ? 1 : LIMITS.minOptions;
		if (!textOnly && (question.options.length < fewest || question.options.length > LIMITS.maxOptions))
			throw new Error(`${question.options.length} options accepted`);
		if (question.question.length > LIMITS.question || question.question.trim() === "")
			throw new Error("a question over the limit or blank");
		if ([...question.header].length > LIMITS.header)
			throw new Error(`header ${JSON.stringify(question.header)} too long`);
		if (question.id.startsWith("$")) throw new Error(`id ${question.id} starts with $`);
		if (question.options.filter((o) => o.recommended).length > 1) throw new Error("two recommended options");
		distinct(
			question.options.map((o) => o.label.toLowerCase()),
			"labels",
		);
		for (const option of question.options) {
			if (option.label.length > LIMITS.label || option.label.trim() === "")
				throw new Error(`label ${JSON.stringify(option.label)}`);
			if ((option.description?.length ?? 0) > LIMITS.description) throw new Error("description over the limit");
			if ((option.preview?.length ?? 0) > LIMITS.preview) throw new Error("preview over the limit");
			if (option.preview !== undefined && question.multiSelect) throw new Error("a preview on a multi-select question");
		}
		for (const text of [question.question, question.header, question.id, ...question.options.map((o) => o.label)]) {
			if (/[\x00-\x1f\x7f-\x9f]/.test(text))
				throw new Error(`a control character in a one-line field: ${JSON.stringify(text)}`);
		}
	}
}

// ── Hostile values ─────────────────────────────────────────────────────────

const HOSTILE_STRINGS = [
	"",
	"   ",
	"\x1b]52;c;SGVsbG8gd29ybGQ=\x07",
	"\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
	"\x1b[2J\x1b[H\x1b[?1049h",
	"\x9b31m\x9d0;title\x9c",
	"\x1bP+q\x1b\\",
	"\u202eevil\u202c \u2066isolate\u2069 \u200f",
	"\ud800",
	"tail\udc00",
	"\ud83d",
	"a\u0000b\u0007c\b\x7f",
	"line\r\nbreak\u2028sep\u2029",
	"\t\ttabs",
	"x".repeat(100_000),
	"é".repeat(20_000),
	"👨‍👩‍👧".repeat(2_000),
	"Other",
	"Other (please specify)…",
	"(Recommended) Postgres",
	"SQLite [Recommended]",
	"__proto__",
	"constructor",
	"toString",
	"$ref",
	"Q1",
	"true",
	"false",
	"null",
	"42",
	'{"questions":[{"question":"Q?","options":["a","b"]}]}',
	'[{"label":"a"},{"label":"b"}]',
	"[1,2",
	"{",
];

/** Nested `depth` levels deep, built without recursion (as JSON.parse would build it). */
function nested(depth: number, kind: "array" | "object"): unknown {
	let value: unknown = "bottom";
	for (let i = 0; i < depth; i++) value = kind === "array" ? [value] : { questions: value };
	return value;
}

const arbHostileString: fc.Arbitrary<string> = fc.oneof(
	{ weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
	{ weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 80 }) },
	{ weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 80 }) },
	{
		weight: 1,
		arbitrary: fc
			.tuple(fc.constantFrom(...HOSTILE_STRINGS), fc.constantFrom(...HOSTILE_STRINGS))
			.map(([a, b]) => a + b),
	},
);

const arbHostileValue: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 6, arbitrary: arbHostileString },
	{
		weight: 2,
		arbitrary: fc.oneof(
			fc.integer(),
			fc.double(),
			fc.constantFrom(0, -0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, -1),
		),
	},
	{ weight: 2, arbitrary: fc.constantFrom(null, undefined, true, false, [], {}, [[]], [{}], [null]) },
	{ weight: 1, arbitrary: fc.constantFrom(nested(5_000, "array"), nested(5_000, "object")) },
	{ weight: 1, arbitrary: fc.array(arbHostileString, { maxLength: 8 }) },
	{
		weight: 1,
		arbitrary: fc.constantFrom(
			Array.from({ length: 1_000 }, (_, i) => ({ label: `o${i}` })),
			Array.from({ length: 500 }, () => "x"),
		),
	},
	{
		weight: 2,
		arbitrary: fc.anything({
			maxDepth: 3,
			maxKeys: 5,
			withNullPrototype: true,
			withBoxedValues: true,
			withSparseArray: true,
			withObjectString: true,
		}),
	},
);

// ── Surgery on a JSON-like tree ────────────────────────────────────────────

type Tree = unknown;
type Operation = "replace" | "delete" | "add" | "wrap" | "stringify" | "alias";

interface Cut {
	/** Which node (modulo the number of nodes). */
	at: number;
	operation: Operation;
	value: unknown;
	key: string;
}

const ALIASES: Record<string, string> = {
	question: "prompt",
	header: "label",
	options: "choices",
	value: "id",
	label: "text",
	questions: "question",
};

const arbCut: fc.Arbitrary<Cut> = fc.record({
	at: fc.nat(),
	operation: fc.constantFrom<Operation>("replace", "replace", "replace", "delete", "add", "wrap", "stringify", "alias"),
	value: arbHostileValue,
	key: fc.constantFrom(
		"question",
		"options",
		"label",
		"header",
		"id",
		"value",
		"preview",
		"description",
		"context",
		"multiSelect",
		"recommended",
		"required",
		"allowOther",
		"metadata",
		"tags",
		"__proto__",
		"constructor",
		"extra",
	),
});

/** Plain data only: surgery never goes inside boxed values, maps or other exotic objects. */
function isPlainObject(node: unknown): node is Record<string, unknown> {
	if (node === null || typeof node !== "object") return false;
	const proto = Object.getPrototypeOf(node);
	return proto === Object.prototype || proto === null;
}

/** Every (parent, key) edge of the tree, in a fixed order: the places a cut can land. Iterative: the tree may be thousands deep. */
function edges(tree: Tree): { parent: Record<string, unknown> | unknown[]; key: string | number }[] {
	const out: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
	const pending: unknown[] = [tree];
	while (pending.length > 0) {
		const node = pending.pop();
		if (Array.isArray(node)) {
			node.forEach((child, index) => {
				out.push({ parent: node, key: index });
				pending.push(child);
			});
		} else if (isPlainObject(node)) {
			for (const key of Object.keys(node)) {
				out.push({ parent: node, key });
				pending.push(node[key]);
			}
		}
	}
	return out;
}

/**
 * A copy, so that surgery never reaches the shared constants (nor makes a
 * cycle through them). structuredClone gives up on the 5,000-deep constants
 * (it recurses); those are copied without recursion instead — handing back
 * the constant itself let a cut add it inside itself, and the next walk of
 * the tree never ended.
 */
function copy<T>(value: T): T {
	try {
		return structuredClone(value);
	} catch {
		return copyPlainData(value) as T;
	}
}

/** Arrays and plain objects copied iteratively (shared and cyclic references kept as such); anything else as is. */
function copyPlainData(value: unknown): unknown {
	const shell = (node: unknown): Record<string, unknown> | unknown[] | undefined => {
		if (Array.isArray(node)) return new Array(node.length);
		if (!isPlainObject(node)) return undefined;
		return Object.getPrototypeOf(node) === null ? Object.create(null) : {};
	};
	const root = shell(value);
	if (root === undefined) return value;
	const copies = new Map<unknown, unknown>([[value, root]]);
	const pending: [Record<string, unknown>, Record<string, unknown>][] = [
		[value as Record<string, unknown>, root as Record<string, unknown>],
	];
	while (pending.length > 0) {
		const [from, to] = pending.pop()!;
		for (const key of Object.keys(from)) {
			const child = from[key];
			let copied = copies.get(child);
			if (copied === undefined) {
				const childShell = shell(child);
				if (childShell === undefined) copied = child;
				else {
					copied = childShell;
					copies.set(child, childShell);
					pending.push([child as Record<string, unknown>, childShell as Record<string, unknown>]);
				}
			}
			// defineProperty: an own "__proto__" stays a property, as in the original.
			Object.defineProperty(to, key, { value: copied, enumerable: true, writable: true, configurable: true });
		}
	}
	return root;
}

/** Applies the cuts to a deep copy of `tree`, in order. */
function operate(tree: Tree, cuts: readonly Cut[]): Tree {
	const root = { root: copy(tree) };
	for (const original of cuts) {
		const cut = { ...original, value: copy(original.value) };
		const all = edges(root);
		const edge = all[cut.at % all.length];
		if (!edge) continue;
		const { parent, key } = edge;
		const current = (parent as Record<string | number, unknown>)[key];
		const set = (value: unknown) => void ((parent as Record<string | number, unknown>)[key] = value);
		switch (cut.operation) {
			case "replace":
				set(cut.value);
				break;
			case "delete":
				if (Array.isArray(parent)) parent.splice(key as number, 1);
				else delete parent[key as string];
				break;
			case "add":
				if (isPlainObject(current)) {
					// As JSON.parse would: "__proto__" becomes an own property, not the prototype.
					Object.defineProperty(current, cut.key, {
						value: cut.value,
						enumerable: true,
						writable: true,
						configurable: true,
					});
				} else if (Array.isArray(current)) current.push(cut.value);
				break;
			case "wrap":
				set([current]);
				break;
			case "stringify":
				try {
					set(JSON.stringify(current) ?? "undefined");
				} catch {
					set("[unserialisable]");
				}
				break;
			case "alias": {
				const alias = typeof key === "string" ? ALIASES[key] : undefined;
				if (alias !== undefined && !Array.isArray(parent)) {
					delete parent[key as string];
					parent[alias] = current;
				}
				break;
			}
		}
	}
	return root.root;
}

/** Calls as other ask tools taught models to write them (§2). */
const OTHER_SHAPES: unknown[] = [
	// Claude Code's AskUserQuestion
	{
		questions: [
			{
				question: "Which database should we use?",
				header: "Database",
				options: [
					{ label: "Postgres (Recommended)", description: "Robust" },
					{ label: "SQLite", description: "Simple" },
					{ label: "Other", description: "Something else" },
				],
				multiSelect: false,
			},
		],
	},
	// pi's questionnaire example
	{
		questions: [
			{
				id: "scope",
				label: "Scope",
				prompt: "How big?",
				options: [
					{ value: "s", label: "Small" },
					{ value: "l", label: "Large" },
				],
				allowOther: true,
			},
			{
				id: "lang",
				label: "Language",
				prompt: "Which language?",
				options: [
					{ value: "ts", label: "TypeScript" },
					{ value: "go", label: "Go" },
				],
			},
		],
	},
	// A single question at the top level, options as bare strings
	{ question: "Ship it now?", header: "Ship", options: ["Yes", "No", "Something else…"] },
	// questions as a JSON string, options as numbers, booleans as text
	{ questions: '[{"question":"How many workers?","options":[1,2,4],"multiSelect":"true","required":"false"}]' },
	// choices instead of options, text instead of label
	{ questions: { prompt: "Pick a colour", choices: [{ text: "Red" }, { text: "Blue" }, { name: "Green" }] } },
	// strict-mode function calling: null for every field left out
	{
		questions: [
			{
				id: null,
				header: null,
				question: "Null fields?",
				context: null,
				options: [{ label: "A", value: null, description: null, preview: null, recommended: null }, { label: "B" }],
				multiSelect: null,
				allowOther: null,
				required: null,
			},
		],
		metadata: null,
	},
];

// ── The properties ─────────────────────────────────────────────────────────

describe("prepareArguments on hostile input: an AskUserInputError naming every path, or a valid form — nothing else", () => {
	test("2,000 arbitrary values of any type and shape", () => {
		const seen = { accepted: 0, rejected: 0 };
		fc.assert(
			fc.property(
				fc.oneof(
					arbHostileValue,
					fc.dictionary(
						fc.constantFrom("questions", "question", "options", "metadata", "prompt", "choices", "header"),
						arbHostileValue,
					),
				),
				(raw) => {
					seen[checkPrepare(raw)]++;
				},
			),
			{ numRuns: 2_000 },
		);
		expect(seen.rejected).toBeGreaterThan(1_600);
	});

	test("2,000 valid calls after random surgery (replace, delete, add, wrap, stringify, alias)", () => {
		const seen = { accepted: 0, rejected: 0 };
		fc.assert(
			fc.property(arbAskParams(), fc.array(arbCut, { minLength: 0, maxLength: 4 }), (params, cuts) => {
				seen[checkPrepare(operate(params, cuts))]++;
			}),
			{ numRuns: 2_000 },
		);
		// Surgery leaves some calls valid (a description replaced by a string, an extra key): both ends are exercised.
		expect(seen.accepted).toBeGreaterThan(150);
		expect(seen.rejected).toBeGreaterThan(500);
	});

	test("3,000 of the other ask tools' shapes after random surgery", () => {
		const seen = { accepted: 0, rejected: 0 };
		fc.assert(
			fc.property(fc.constantFrom(...OTHER_SHAPES), fc.array(arbCut, { minLength: 0, maxLength: 3 }), (shape, cuts) => {
				seen[checkPrepare(operate(shape, cuts))]++;
			}),
			{ numRuns: 3_000 },
		);
		expect(seen.accepted).toBeGreaterThan(200);
		expect(seen.rejected).toBeGreaterThan(500);
	});

	test("the other tools' shapes as sent are accepted", () => {
		for (const shape of OTHER_SHAPES) expect(checkPrepare(shape)).toBe("accepted");
	});
});

describe("extremes, none a hang", () => {
	const question = (extra: Record<string, unknown>) => ({
		questions: [{ question: "Which?", options: [{ label: "A" }, { label: "B" }], ...extra }],
	});

	test.each([
		["a 1 MB question", question({ question: "q".repeat(1 << 20) })],
		["a 1 MB label full of escapes", question({ options: [{ label: "\x1b]52;c;".repeat(1 << 17) }, { label: "B" }] })],
		["100,000 options", question({ options: Array.from({ length: 100_000 }, (_, i) => ({ label: `option ${i}` })) })],
		[
			"10,000 questions",
			{ questions: Array.from({ length: 10_000 }, (_, i) => ({ question: `q${i}?`, options: ["a", "b"] })) },
		],
		["arrays nested 100,000 deep", { questions: nested(100_000, "array") }],
		["objects nested 100,000 deep", { questions: [nested(100_000, "object")] }],
		["a JSON string nested 100,000 deep", { questions: `${"[".repeat(100_000)}${"]".repeat(100_000)}` }],
		["100,000 tags", { ...question({}), metadata: { tags: Array.from({ length: 100_000 }, (_, i) => `t${i}`) } }],
		[
			"a 4 MB JSON text of questions",
			{
				questions: JSON.stringify(
					Array.from({ length: 20_000 }, () => ({ question: "x".repeat(200), options: ["a", "b"] })),
				),
			},
		],
	])("%s", (_name, raw) => {
		expect(["accepted", "rejected"]).toContain(checkPrepare(raw));
	});

	const explode = () => {
		throw new Error("exploded");
	};
	const throwing = () =>
		new Proxy({}, { get: explode, has: explode, ownKeys: explode, getOwnPropertyDescriptor: explode });
	const revoked = () => {
		const revocable = Proxy.revocable({}, {});
		revocable.revoke();
		return revocable.proxy;
	};

	// Not JSON (pi hands prepareArguments what JSON.parse made), but prepareArguments promises never to throw anything else.
	test.each([
		["an object whose every read throws", () => throwing()],
		["questions whose every read throws", () => ({ questions: throwing() })],
		["a question whose every read throws", () => ({ questions: [throwing()] })],
		["a revoked proxy", () => revoked()],
		["a revoked proxy as a question", () => ({ questions: [revoked()] })],
		[
			"a question getter that throws",
			() => ({
				questions: [
					{
						get question(): string {
							throw new Error("boom");
						},
						options: ["a", "b"],
					},
				],
			}),
		],
		["a questions array that is all holes", () => ({ questions: [, ,] })],
		[
			"an options array with a hole",
			() => ({ questions: [{ question: "Which?", options: [{ label: "A" }, , { label: "B" }] }] }),
		],
	])("%s: a path-named error or a valid form, nothing thrown", (_name, make) => {
		expect(["accepted", "rejected"]).toContain(checkPrepare(make()));
	});
});
