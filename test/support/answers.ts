/** A three-question form, answers to it and what a UI collects: shared by the result and the relay envelope tests. */

import fc from "fast-check";
import type { AskAnswer, AskForm, AskNote, AskStatus, Collected } from "../../src/core/types.ts";
import { validateParams } from "../../src/input/validate.ts";

export const RUNS = { numRuns: 1000 };
export const STATUSES: AskStatus[] = ["answered", "dismissed", "aborted", "no_ui", "timed_out", "error"];

export function validForm(params: unknown): AskForm {
	const result = validateParams(params);
	if (!result.ok) throw new Error(JSON.stringify(result.issues));
	return result.form;
}

export const FORM = validForm({
	questions: [
		{
			id: "db",
			header: "Database",
			question: "Which database?",
			options: [{ label: "PostgreSQL", value: "postgres", recommended: true }, { label: "SQLite" }],
		},
		{
			id: "features",
			header: "Features",
			question: "Which features first?",
			options: [{ label: "Auth" }, { label: "Billing" }, { label: "Search" }],
			multiSelect: true,
		},
		{
			id: "extras",
			header: "Extras",
			question: "Anything else?",
			options: [{ label: "Docs" }, { label: "Tests" }],
			required: false,
		},
	],
	metadata: { source: "planner", tags: ["setup"] },
});

export const DB: AskAnswer = { kind: "single", selections: [{ value: "postgres", label: "PostgreSQL" }] };
export const FEATURES: AskAnswer = {
	kind: "multi",
	selections: [
		{ value: "Auth", label: "Auth" },
		{ value: "Billing", label: "Billing" },
		{ value: 'Crypto "wallets"', label: 'Crypto "wallets"', custom: true },
	],
};
export const EXTRAS: AskAnswer = { kind: "single", selections: [{ value: "Docs", label: "Docs" }] };
export const NOTES: AskNote[] = [
	{ questionId: "db", text: "keep migrations small" },
	{ questionId: "features", option: "Billing", text: "Stripe only" },
];

export function collected(status: AskStatus, partial: Partial<Collected> = {}): Collected {
	return { status, answers: {}, skipped: [], notes: [], ...partial };
}

export const DB_LINE = 'db: "PostgreSQL" (value "postgres"); note: "keep migrations small"';
export const FEATURES_LINE =
	'features: "Auth", "Billing", wrote "Crypto \\"wallets\\""; note on "Billing": "Stripe only"';

// ── The text the model reads ───────────────────────────────────────────────

/** Any character a model or a user could send: controls, escapes, lone surrogates, line separators, bidi marks, emoji. */
export const anyChar = fc.oneof(
	fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
	fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
	fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)),
	fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
	fc.constantFrom(
		'"',
		"\\",
		"\\n",
		"\\u0000",
		"\n",
		"\r\n",
		"\u2028",
		"\u2029",
		"\u202e",
		"\u200d",
		"👨‍👩‍👧",
		"\x1b]52;c;x\x07",
		"\0",
	),
);
export const anyText = (maxLength = 30) => fc.string({ unit: anyChar, maxLength });
