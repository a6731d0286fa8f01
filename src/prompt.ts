/**
 * What the model reads on every turn, paid for on every turn: the steering
 * text, the same thing at three lengths (each guideline names the tool: pi
 * appends guidelines flat to the system prompt), and the parameters' schema:
 * plain types (some proxies strip unions), terse descriptions, no
 * constraints, so validate.ts, not pi, says what to fix.
 */

import { type Static, Type } from "@sinclair/typebox";
import type { AskParams } from "./types.ts";

export const TOOL_NAME = "ask_user";

export const TOOL_LABEL = "Ask user";

export const TOOL_DESCRIPTION =
	"Ask the user 1-4 multiple-choice questions in one form and wait for answers. " +
	"Use it only when several reasonable paths exist, context is gathered and a wrong guess costs real work; batch related decisions. " +
	'A free-text row is automatic: never add an "Other" option. Put the recommended option first (recommended: true).';

export const PROMPT_SNIPPET = "Ask the user 1-4 batched multiple-choice questions when a decision is genuinely ambiguous; recommended option first, no Other option";

export const PROMPT_GUIDELINES: string[] = [
	"Use ask_user only when several reasonable paths exist, context is gathered and a wrong guess would cost real work; otherwise decide and state your assumption.",
	'Batch related decisions into one ask_user call; never add an "Other" option; put the recommended option first.',
];

const OptionSchema = Type.Object({
	label: Type.String({ description: "≤60 chars, unique" }),
	value: Type.Optional(Type.String({ description: "Returned to you; default: label" })),
	description: Type.Optional(Type.String()),
	preview: Type.Optional(Type.String({ description: "Code/diff/mock-up shown beside it; single-select only" })),
	recommended: Type.Optional(Type.Boolean({ description: "At most one" })),
});

const QuestionSchema = Type.Object({
	id: Type.Optional(Type.String({ description: "Answer key; default: header slug" })),
	header: Type.Optional(Type.String({ description: "Tab label ≤12 chars, unique" })),
	question: Type.String({ description: "One decision, one line" }),
	context: Type.Optional(Type.String({ description: "What the user needs to know" })),
	options: Type.Optional(Type.Array(OptionSchema, { description: "2-8, fewest that cover it; omit to ask for text" })),
	multiSelect: Type.Optional(Type.Boolean()),
	allowOther: Type.Optional(Type.Boolean({ description: "Free-text row; default: true" })),
	required: Type.Optional(Type.Boolean({ description: "false: skippable" })),
});

export const AskParamsSchema = Type.Object({
	questions: Type.Array(QuestionSchema, { description: "1-4 related decisions" }),
	metadata: Type.Optional(
		Type.Object(
			{ source: Type.Optional(Type.String()), flowId: Type.Optional(Type.String()), tags: Type.Optional(Type.Array(Type.String())) },
			{ description: "Echoed back in the result" },
		),
	),
});

// Stops compiling the moment the schema and AskParams drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type SchemaMatchesAskParams = Assert<Same<Static<typeof AskParamsSchema>, AskParams>>;
