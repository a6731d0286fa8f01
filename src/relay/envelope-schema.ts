/**
 * The relay envelopes as JSON Schemas: what the decoders check a request's
 * header and a reply's shape against (envelope.ts), and what
 * `npm run schemas` writes to schema/ for authors of RPC hosts and runners
 * (a test holds the files to these definitions). What no schema can say —
 * whether a reply fits its questions — is reply-checks.ts; a
 * request's questions pass validateParams, like a model's call.
 *
 * Loaded with the relay codec, never at pi's start-up.
 */

import { type TSchema, Type } from "@sinclair/typebox";
import { ASK_STATUSES, LIMITS } from "../types.ts";

/** Longest asker label accepted, in UTF-16 code units. */
export const RELAY_ASKER_MAX = 200;

// A rid travels inside a one-line notify message: printable ASCII, no spaces.
export const RID_PATTERN = "^[\\x21-\\x7e]{1,128}$";
const CONTROL = "\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029";
const ONE_LINE = `^[^${CONTROL}]*$`;
const NAME = `^(?=.*\\S)[^${CONTROL}]+$`;
const NON_BLANK = "\\S";

/** Each pattern's rule in words, for the error that names it (see schema-check.ts). */
export const PATTERN_RULES: Readonly<Record<string, string>> = {
	[RID_PATTERN]: "must be 1–128 printable ASCII characters without spaces",
	[ONE_LINE]: "must be one line without control characters",
	[NAME]: "must be one line of text naming who answered",
	[NON_BLANK]: "must not be blank",
};

const literals = (values: readonly string[]) => Type.Union(values.map((value) => Type.Literal(value)));
/** Text the user confirmed: within the editor's limit. A draft is never cut, so it has none. */
const typed = (options: object = {}) => Type.String({ maxLength: LIMITS.freeText, ...options });

const option = Type.Object(
	{
		label: Type.String({ minLength: 1, maxLength: LIMITS.label }),
		value: Type.String(),
		description: Type.Optional(Type.String()),
		preview: Type.Optional(Type.String()),
		recommended: Type.Boolean(),
	},
	{ additionalProperties: false },
);

const question = Type.Object(
	{
		id: Type.String({ minLength: 1 }),
		header: Type.String({ minLength: 1 }),
		question: Type.String({ minLength: 1 }),
		context: Type.Optional(Type.String()),
		options: Type.Array(option, { maxItems: LIMITS.maxOptions, description: `Empty for a text-only question, else 1–${LIMITS.maxOptions} (one only where allowOther is true).` }),
		multiSelect: Type.Boolean(),
		allowOther: Type.Boolean(),
		required: Type.Boolean(),
	},
	{ additionalProperties: false },
);

const metadata = Type.Object(
	{ source: Type.Optional(Type.String()), flowId: Type.Optional(Type.String()), tags: Type.Optional(Type.Array(Type.String())) },
	{ additionalProperties: false },
);

const rid = Type.String({ pattern: RID_PATTERN, description: "Correlates the reply (and a cancel notice) with the request." });

export const RelayRequestSchema: TSchema = Type.Object(
	{
		v: Type.Literal(1),
		rid: Type.Optional(rid),
		asker: Type.Optional(Type.String({ maxLength: RELAY_ASKER_MAX, pattern: ONE_LINE, description: 'Who asks, outermost first: "planner › scout".' })),
		questions: Type.Array(question, { minItems: LIMITS.minQuestions, maxItems: LIMITS.maxQuestions }),
		metadata: Type.Optional(metadata),
	},
	{
		$id: "https://www.npmjs.com/package/pi-ask-user/schema/relay-request.schema.json",
		title: "ask_user relay request, v1",
		description: "A child's whole ask_user form. In RPC: the prefill of an editor request titled \"\\u0000ask_user/relay/v1\".",
		additionalProperties: false,
	},
);

const selection = Type.Object(
	{ value: typed(), label: typed(), custom: Type.Optional(Type.Literal(true)) },
	{ additionalProperties: false, description: "An option (its value and label), or the user's own text (custom: true, value = label)." },
);

const answer = Type.Object(
	{ kind: literals(["single", "multi"]), selections: Type.Array(selection, { minItems: 1 }), note: Type.Optional(typed()) },
	{ additionalProperties: false, description: 'Exactly one selection for "single".' },
);

const note = Type.Object(
	{ questionId: Type.String(), option: Type.Optional(Type.String({ description: "The label of the option the note is on; absent: on the question." })), text: typed() },
	{ additionalProperties: false },
);

const draft = Type.Object(
	{
		questionId: Type.String(),
		kind: literals(["answer", "note"]),
		option: Type.Optional(Type.String({ description: 'Only on a "note" draft.' })),
		text: Type.String({ pattern: NON_BLANK }),
	},
	{ additionalProperties: false, description: "Text the user typed and never confirmed; never on an answered form." },
);

export const RelayReplySchema: TSchema = Type.Object(
	{
		v: Type.Literal(1),
		rid: Type.Optional(rid),
		status: literals(ASK_STATUSES),
		answers: Type.Record(Type.String(), answer, { description: "Keyed by question id; only answered questions." }),
		skipped: Type.Array(Type.String(), { description: "Ids of optional questions the user skipped." }),
		notes: Type.Array(note),
		drafts: Type.Optional(Type.Array(draft)),
		formNote: Type.Optional(typed({ pattern: NON_BLANK, description: "The user's note on the whole form. Optional: a v1 peer that predates it leaves it out." })),
		formNoteDraft: Type.Optional(Type.String({ pattern: NON_BLANK, description: "A note on the whole form typed and never confirmed; never on an answered form." })),
		chatMessage: Type.Optional(typed({ pattern: NON_BLANK, description: 'For status "chat": the user\'s message instead of the form.' })),
		chatDraft: Type.Optional(Type.String({ pattern: NON_BLANK, description: "A message for the chat typed and never sent; never on an answered form." })),
		error: Type.Optional(Type.String({ description: 'What went wrong, for status "error".' })),
		answeredBy: Type.Optional(Type.String({ pattern: NAME, description: "Who answered, when another extension did instead of the user at the terminal." })),
	},
	{
		$id: "https://www.npmjs.com/package/pi-ask-user/schema/relay-reply.schema.json",
		title: "ask_user relay reply, v1",
		description: "The answer to a relay request. In RPC: the value of the editor response. A reader drops the fields it does not know (a newer peer's).",
		additionalProperties: false,
	},
);

/** The files `npm run schemas` writes, by name under schema/. */
export const ENVELOPE_SCHEMA_FILES: Readonly<Record<string, TSchema>> = {
	"relay-request.schema.json": RelayRequestSchema,
	"relay-reply.schema.json": RelayReplySchema,
};

/** A schema as its file holds it: draft-07, two-space JSON, one newline at the end. */
export function schemaFileText(schema: TSchema): string {
	return `${JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", ...schema }, null, 2)}\n`;
}
