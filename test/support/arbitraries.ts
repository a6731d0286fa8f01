/**
 * fast-check generators for ask_user inputs, shared by every test that needs
 * a valid call or form.
 *
 * arbAskParams() gives canonical parameters that pass validation AND that
 * normalisation leaves as they are (no "Other" options, no "(Recommended)"
 * markers, no strings where booleans belong). The text mixes plain English,
 * CJK, emoji (including ZWJ sequences), accents, right-to-left script and
 * long unbroken words, up to each field's limit.
 */

import fc from "fast-check";
import type { AskForm, AskMetadata, AskOptionParams, AskParams, AskQuestionParams } from "../../src/core/types.ts";
import { LIMITS } from "../../src/core/types.ts";
import { isOtherOptionLabel } from "../../src/input/normalize/other.ts";
import { withoutRecommendedMarker } from "../../src/input/normalize/recommended.ts";
import { validateParams } from "../../src/input/validate.ts";

const WORDS = [
	"Postgres",
	"SQLite",
	"use",
	"the",
	"cache",
	"a",
	"deploy",
	"now",
	"later",
	"数据库",
	"認証",
	"設定を変更",
	"한국어",
	"🚀",
	"👨‍👩‍👧",
	"🇯🇵",
	"✓",
	"Ünïcödé",
	"naïve",
	"café",
	"עברית",
	"العربية",
	"supercalifragilisticexpialidocious",
	"https://example.com/a/very/long/path/without/any/spaces/at/all",
	"src/components/form/QuestionView.ts",
	"--flag=value",
	"$HOME",
	'"quoted"',
	"100%",
	"x".repeat(58),
];

/** Printable ASCII pieces, so the words are not all from the list. */
const arbAsciiWord = fc
	.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 12 })
	.filter((word) => /^[\x21-\x7e]+$/.test(word));

const arbWord = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: arbAsciiWord });

function codePoints(text: string): number {
	return [...text].length;
}

/** One line of words, non-blank, at most `max` UTF-16 units (or code points). */
function arbLine(max: number, maxWords: number, countCodePoints = false): fc.Arbitrary<string> {
	return fc
		.array(arbWord, { minLength: 1, maxLength: maxWords })
		.map((words) => words.join(" "))
		.map((line) => (countCodePoints ? [...line].slice(0, max).join("") : line.slice(0, max)).trim())
		.filter(
			(line) =>
				line !== "" && !/[\ud800-\udbff]$/.test(line) && (countCodePoints ? codePoints(line) : line.length) <= max,
		);
}

/** Several lines (indentation kept), at most `max` UTF-16 units. */
function arbText(max: number, maxLines: number): fc.Arbitrary<string> {
	const arbTextLine = fc
		.tuple(fc.constantFrom("", "  ", "\t"), arbLine(120, 12))
		.map(([indent, line]) => indent + line);
	return fc
		.array(arbTextLine, { minLength: 1, maxLength: maxLines })
		.map((lines) => lines.join("\n").slice(0, max).trimEnd())
		.filter((text) => text.trim() !== "" && !/[\ud800-\udbff]$/.test(text));
}

const RESERVED_IDS = new Set(Object.getOwnPropertyNames(Object.prototype));

const arbId = fc.stringMatching(/^[a-z][a-z0-9_-]{0,15}$/).filter((id) => !RESERVED_IDS.has(id));

const arbOption = (multiSelect: boolean): fc.Arbitrary<AskOptionParams> =>
	fc
		.record(
			{
				label: arbLine(LIMITS.label, 6).filter(
					(label) => !isOtherOptionLabel(label) && withoutRecommendedMarker(label) === undefined,
				),
				value: arbLine(80, 6),
				description: arbText(LIMITS.description, 3),
				preview: multiSelect ? fc.constant(undefined) : arbText(LIMITS.preview, 40),
			},
			{ requiredKeys: ["label"] },
		)
		.map((option) => {
			const { preview, ...rest } = option;
			return preview === undefined ? rest : { ...rest, preview };
		});

const arbQuestion: fc.Arbitrary<AskQuestionParams> = fc
	.record(
		{
			id: arbId,
			header: arbLine(LIMITS.header, 3, true),
			question: arbLine(LIMITS.question, 40),
			context: arbText(LIMITS.context, 8),
			multiSelect: fc.boolean(),
			allowOther: fc.boolean(),
			required: fc.boolean(),
		},
		{ requiredKeys: ["question"] },
	)
	.chain((question) =>
		fc
			.tuple(
				fc.uniqueArray(arbOption(question.multiSelect === true), {
					minLength: LIMITS.minOptions,
					maxLength: LIMITS.maxOptions,
					selector: (option) => option.label.toLowerCase(),
				}),
				fc.nat(LIMITS.maxOptions * 2),
				fc.nat(5),
			)
			.map(([options, recommendedAt, shape]): AskQuestionParams => {
				// About one in six is text-only: no options, and free text allowed.
				if (shape === 0) {
					const { allowOther: _, ...rest } = question;
					return rest;
				}
				// At most one recommended option; an index past the end means none.
				return {
					...question,
					options: options.map((option, index) =>
						index === recommendedAt ? { ...option, recommended: true } : option,
					),
				};
			}),
	)
	.filter((question) => {
		const values = (question.options ?? []).map((option) => option.value ?? option.label);
		return new Set(values).size === values.length;
	});

const arbMetadata: fc.Arbitrary<AskMetadata> = fc.record(
	{ source: arbLine(40, 3), flowId: arbId, tags: fc.array(arbLine(20, 2), { maxLength: 4 }) },
	{ requiredKeys: [] },
);

/** Valid canonical parameters: 1–4 questions, 2–8 options each (or none: text-only), every optional field sometimes present. */
export function arbAskParams(): fc.Arbitrary<AskParams> {
	return fc
		.record(
			{
				questions: fc.array(arbQuestion, { minLength: LIMITS.minQuestions, maxLength: LIMITS.maxQuestions }),
				reason: arbLine(LIMITS.reason, 30),
				metadata: arbMetadata,
			},
			{ requiredKeys: ["questions"] },
		)
		.map((params) => ({ ...params, questions: withDistinctNames(params.questions) }));
}

/** Drops a header or id that repeats an earlier one: both are optional, and repeats are invalid. */
function withDistinctNames(questions: AskQuestionParams[]): AskQuestionParams[] {
	const headers = new Set<string>();
	const ids = new Set<string>();
	return questions.map((question) => {
		const { header, id, ...rest } = question;
		const out: AskQuestionParams = { ...rest };
		if (header !== undefined && !headers.has(header.toLowerCase())) {
			headers.add(header.toLowerCase());
			out.header = header;
		}
		if (id !== undefined && !ids.has(id)) {
			ids.add(id);
			out.id = id;
		}
		return out;
	});
}

/** A validated form: arbAskParams() with every default filled in. */
export function arbAskForm(): fc.Arbitrary<AskForm> {
	return arbAskParams().map((params) => {
		const result = validateParams(params);
		if (!result.ok) throw new Error(`arbAskParams produced invalid params: ${JSON.stringify(result.issues)}`);
		return result.form;
	});
}
