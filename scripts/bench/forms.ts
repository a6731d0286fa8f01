/**
 * The forms the benchmark drives: the largest legal ask_user call, and the
 * nearest equivalent call of pi's questionnaire example. Deterministic: the
 * same text on every run, so runs compare.
 *
 * Largest legal form: 4 questions × 5 options, every description 120
 * characters, a 40-line preview on each option of the three single-select
 * questions (previews are single-select only), a long question and context,
 * and CJK, emoji (ZWJ sequences and flags included) and accents throughout.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AskOptionParams, AskParams } from "../../src/core/types.ts";

const PIECES = [
	"Postgres",
	"数据库迁移",
	"🚀",
	"cache",
	"認証フロー",
	"👨‍👩‍👧",
	"deploy",
	"한국어",
	"🇯🇵",
	"naïve",
	"rollback",
	"設定を変更",
	"café",
	"✓",
	"the",
	"a",
	"window",
];

/** `count` characters (code points) of mixed text, starting at a different piece per seed. */
export function mixedText(count: number, seed: number): string {
	const out: string[] = [];
	for (let i = 0; out.length < count; i++) {
		const piece = PIECES[(seed + i * 7) % PIECES.length] ?? "x";
		for (const char of [...piece, " "]) if (out.length < count) out.push(char);
	}
	// Never end on a space or inside a grapheme that was cut in half: the validator trims.
	if (out[out.length - 1] === " ") out[out.length - 1] = ".";
	return out.join("");
}

/** At most `max` UTF-16 units (the validator's unit), cut between code points. */
function withinUnits(text: string, max: number): string {
	const chars = [...text];
	while (chars.join("").length > max) chars.pop();
	return chars.join("").trim();
}

function previewFor(question: number, option: number): string {
	const lines: string[] = [];
	for (let i = 0; i < 40; i++) {
		lines.push(
			i % 5 === 0
				? `// ${mixedText(50, question * 31 + option * 7 + i)}`
				: `${"\t".repeat(i % 3)}const value${i} = migrate("${mixedText(24, i + option)}", { step: ${i}, dry: ${i % 2 === 0} });`,
		);
	}
	return lines.join("\n").slice(0, 3900);
}

const HEADERS = ["Database", "認証", "Deploy 🚀", "Targets"];

/** The largest legal ask_user call: what our form is measured on. */
export function largestAskParams(): AskParams {
	return {
		questions: HEADERS.map((header, q) => {
			const multiSelect = q === 3;
			const options: AskOptionParams[] = Array.from({ length: 5 }, (_, o) => {
				const option: AskOptionParams = {
					label: withinUnits(`${o + 1}: ${mixedText(40 + o * 3, q * 5 + o)}`, 60),
					value: `q${q}-option-${o}`,
					description: mixedText(120, q * 11 + o * 3 + 1),
				};
				if (!multiSelect) option.preview = previewFor(q, o);
				if (o === 0) option.recommended = true;
				return option;
			});
			return {
				id: `q${q + 1}`,
				header,
				question: `${mixedText(230, q * 13)}?`,
				context: mixedText(400, q * 17 + 5),
				options,
				multiSelect,
			};
		}),
		metadata: { source: "bench", flowId: "largest", tags: ["bench"] },
	};
}

type DemoScript = { conversations: { replies: { toolCalls?: { name: string; arguments: unknown }[] }[] }[] };

/** A typical call: the demo's (`npm run demo`), three questions with short previews, as a model writes them. */
export function demoAskParams(repo: string): AskParams {
	const script = JSON.parse(readFileSync(join(repo, "scripts", "demo-script.json"), "utf8")) as DemoScript;
	const calls = script.conversations.flatMap(({ replies }) => replies.flatMap((reply) => reply.toolCalls ?? []));
	const call = calls.find(({ name }) => name === "ask_user");
	if (!call) throw new Error("scripts/demo-script.json has no ask_user call");
	return call.arguments as AskParams;
}

/**
 * The questionnaire example's nearest equivalent: the same four questions,
 * five options each with the same 120-character descriptions. It has no
 * context, previews, recommended marks or multi-select, so those are left out.
 */
export function questionnaireParams(): { questions: unknown[] } {
	const ours = largestAskParams();
	return {
		questions: ours.questions.map((question) => ({
			id: question.id,
			label: question.header,
			prompt: question.question,
			options: (question.options ?? []).map((option) => ({
				value: option.value,
				label: option.label,
				description: option.description,
			})),
		})),
	};
}

/** The parts of a JSON Schema the peer's form is fitted to. */
interface SchemaNode {
	properties?: Record<string, SchemaNode>;
	required?: string[];
	items?: SchemaNode;
	maxItems?: number;
	maxLength?: number;
}

/** Claude Code's AskUserQuestion: what every peer in its shape takes. */
const CLAUDE_QUESTION_FIELDS = ["question", "header", "multiSelect", "options"];
const CLAUDE_OPTION_FIELDS = ["label", "description"];

/**
 * A peer's nearest equivalent in its own argument shape: Claude Code's
 * AskUserQuestion (questions of question, header, multiSelect and options of
 * label and description) plus whatever else the peer's parameter schema
 * requires (ids), with the same four questions and texts as ours, as many
 * options as it allows (at most our five), headers cut to its limit. What
 * only ours shows (context, previews, recommended marks) is left out, so the
 * peer draws less than ours does.
 */
export function peerParams(parameters: unknown): { questions: unknown[] } {
	const root = parameters as SchemaNode;
	const questionSchema = root.properties?.["questions"]?.items;
	const optionsSchema = questionSchema?.properties?.["options"];
	const questionFields = new Set([...CLAUDE_QUESTION_FIELDS, ...(questionSchema?.required ?? [])]);
	const optionFields = new Set([...CLAUDE_OPTION_FIELDS, ...(optionsSchema?.items?.required ?? [])]);
	const maxOptions = Math.min(5, optionsSchema?.maxItems ?? 5);
	const headerMax = questionSchema?.properties?.["header"]?.maxLength ?? Number.POSITIVE_INFINITY;
	const keep = (fields: Set<string>, all: Record<string, unknown>) =>
		Object.fromEntries(Object.entries(all).filter(([key, value]) => fields.has(key) && value !== undefined));
	return {
		questions: largestAskParams().questions.map((question, q) =>
			keep(questionFields, {
				id: question.id,
				header: [...(question.header ?? "")].slice(0, headerMax).join(""),
				question: question.question,
				multiSelect: question.multiSelect,
				options: (question.options ?? [])
					.slice(0, maxOptions)
					.map((option, o) =>
						keep(optionFields, { id: `q${q}-o${o}`, label: option.label, description: option.description }),
					),
			}),
		),
	};
}

/** How many options each of the peer's questions has (the key cycle reaches its free-text row). */
export function optionCount(params: { questions: unknown[] }): number {
	const first = params.questions[0] as { options?: unknown[] } | undefined;
	return first?.options?.length ?? 5;
}
