/**
 * The tool's name and the question's one shape: the limits of the input, the form's TypeBox schemas (every UI renders
 * the form; the relay request's schema derives from them), and the parameters the model sends. Apart from the rest of
 * the vocabulary (types.ts) because pi compiles it at every start: registering the tool needs its schema.
 */

import { type Static, type TObject, type TOptional, type TProperties, Type } from "@sinclair/typebox";

export const TOOL_NAME = "ask_user";

/** The limits of the input. Counted in UTF-16 code units unless noted. */
export const LIMITS = {
	minQuestions: 1,
	maxQuestions: 4,
	minOptions: 2,
	maxOptions: 8,
	/** Tab label, counted in characters (code points). */
	header: 12,
	question: 1000,
	context: 2000,
	label: 60,
	/** An answer key, and an option's value: they appear on every result line. */
	id: 64,
	value: 200,
	description: 300,
	preview: 4000,
	/** Free text and notes typed by the user. */
	freeText: 4000,
	/** The model's one line on why it asks (the call's `reason`). */
	reason: 200,
} as const;

// ── One question shape: the form every UI renders, and the parameters the model sends ─────────

/**
 * The form, as TypeBox schemas: every default filled in (validate.ts fills them), the limits a schema can state as its
 * keywords. The tool's parameters (below) and the relay request's schema (relay/envelope-schema.ts) derive from it.
 */
export const OptionSchema = Type.Object({
	label: Type.String({ minLength: 1, maxLength: LIMITS.label, description: "≤60 chars, unique" }),
	value: Type.String({ description: "Returned to you; default: label" }),
	description: Type.Optional(Type.String()),
	preview: Type.Optional(Type.String({ description: "Code/diff/mock-up shown beside it; single-select only" })),
	recommended: Type.Boolean({ description: "At most one" }),
});

const OPTIONS_DESCRIPTION = "2-8, fewest that cover it; omit to ask for text";

export const QuestionSchema = Type.Object({
	id: Type.String({ minLength: 1, description: "Answer key; default: header slug" }),
	header: Type.String({ minLength: 1, description: "Tab label ≤12 chars, unique" }),
	question: Type.String({ minLength: 1, description: "One decision, one line" }),
	context: Type.Optional(Type.String({ description: "What the user needs to know" })),
	options: Type.Array(OptionSchema, {
		maxItems: LIMITS.maxOptions,
		description: OPTIONS_DESCRIPTION,
	}),
	multiSelect: Type.Boolean(),
	allowOther: Type.Boolean({ description: "Free-text row; default: true" }),
	required: Type.Boolean({ description: "false: skippable" }),
});

export const MetadataSchema = Type.Object(
	{
		source: Type.Optional(Type.String()),
		flowId: Type.Optional(Type.String()),
		tags: Type.Optional(Type.Array(Type.String())),
	},
	{ description: "Echoed back in the result" },
);

export type AskOption = Static<typeof OptionSchema>;
/** `options` is empty for a text-only question: its answer is the user's text (allowOther is then true). */
export type AskQuestion = Static<typeof QuestionSchema>;
export type AskMetadata = Static<typeof MetadataSchema>;

/** A validated call: every default filled in, every input rule holds; `reason`: the model's one line on why it asks. */
export type AskForm = { questions: AskQuestion[]; reason?: string; metadata?: AskMetadata };

/** Keywords the model's schema leaves out: validate.ts says each limit with its fix, and some proxies reject them. */
const LIMIT_KEYWORDS = ["minLength", "maxLength", "minItems", "maxItems"] as const;

type Loosened<P extends TProperties, K extends keyof P> = TObject<{
	[N in keyof P]: N extends K ? TOptional<P[N]> : P[N];
}>;

/** The same object for the model: the fields that have a default are optional, and no limit keywords. */
function loosened<P extends TProperties, K extends keyof P>(
	schema: TObject<P>,
	defaulted: readonly K[],
): Loosened<P, K> {
	const { required = [] } = schema as { required?: readonly string[] };
	const properties = Object.entries(schema.properties).map(([name, field]) => {
		// As plain JSON: the schema as the model reads it, none of TypeBox's own marks.
		const bare = JSON.parse(JSON.stringify(field)) as Record<string, unknown>;
		for (const keyword of LIMIT_KEYWORDS) delete bare[keyword];
		const plain = Type.Unsafe(bare);
		return [name, defaulted.includes(name as K) || !required.includes(name) ? Type.Optional(plain) : plain];
	});
	return Type.Object(Object.fromEntries(properties)) as unknown as Loosened<P, K>;
}

const OptionParamsSchema = loosened(OptionSchema, ["value", "recommended"]);
const QuestionParamsSchema = loosened(
	Type.Object({
		...QuestionSchema.properties,
		options: Type.Array(OptionParamsSchema, { description: OPTIONS_DESCRIPTION }),
	}),
	["id", "header", "options", "multiSelect", "allowOther", "required"],
);

/** The tool's parameters, the schema the model reads on every turn: plain types, terse descriptions, no limits. */
export const AskParamsSchema = Type.Object({
	questions: Type.Array(QuestionParamsSchema, { description: "1-4 related decisions" }),
	reason: Type.Optional(Type.String({ description: "Why you ask: one line ≤200" })),
	metadata: Type.Optional(MetadataSchema),
});

export type AskOptionParams = Static<typeof OptionParamsSchema>;
/** Without options: a text-only question. */
export type AskQuestionParams = Static<typeof QuestionParamsSchema>;
export type AskParams = Static<typeof AskParamsSchema>;
