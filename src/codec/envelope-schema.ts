/**
 * JSON Schemas of the two relay envelopes, for authors of RPC hosts and
 * runners: the request a host receives (the whole form) and the reply it
 * sends back. Written out to schema/relay-request.schema.json and
 * schema/relay-reply.schema.json by `npm run schemas`; a test holds the files
 * to these definitions and checks real envelopes against them.
 *
 * Documentation only: the decoders in relay.ts are what accept or refuse an
 * envelope (they also check a reply against its questions, which no schema
 * can say). Not loaded by the extension.
 */

import { type TSchema, Type } from "@sinclair/typebox";
import { ASK_STATUSES, LIMITS } from "../types.ts";

const STATUS = Type.Union(ASK_STATUSES.map((s) => Type.Literal(s)));

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
		// Empty for a text-only question; otherwise LIMITS.minOptions or more (a JSON Schema can't say "0, or 2–8" without a union).
		options: Type.Array(option, { maxItems: LIMITS.maxOptions, description: `Empty for a text-only question, else ${LIMITS.minOptions}–${LIMITS.maxOptions}.` }),
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

const rid = Type.String({ pattern: "^[\\x21-\\x7e]{1,128}$", description: "Correlates the reply (and a cancel notice) with the request." });

export const RelayRequestSchema: TSchema = Type.Object(
	{
		v: Type.Literal(1),
		rid: Type.Optional(rid),
		asker: Type.Optional(Type.String({ maxLength: 200, description: 'Who asks, outermost first: "planner › scout".' })),
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
	{ value: Type.String(), label: Type.String(), custom: Type.Optional(Type.Literal(true)) },
	{ additionalProperties: false, description: "An option (its value and label), or the user's own text (custom: true, value = label)." },
);

const answer = Type.Object(
	{ kind: Type.Union([Type.Literal("single"), Type.Literal("multi")]), selections: Type.Array(selection, { minItems: 1 }) },
	{ additionalProperties: false },
);

const note = Type.Object(
	{ questionId: Type.String(), option: Type.Optional(Type.String({ description: "The label of the option the note is on; absent: on the question." })), text: Type.String() },
	{ additionalProperties: false },
);

const draft = Type.Object(
	{
		questionId: Type.String(),
		kind: Type.Union([Type.Literal("answer"), Type.Literal("note")]),
		option: Type.Optional(Type.String()),
		text: Type.String({ minLength: 1 }),
	},
	{ additionalProperties: false, description: "Text the user typed and never confirmed; never on an answered form." },
);

export const RelayReplySchema: TSchema = Type.Object(
	{
		v: Type.Literal(1),
		rid: Type.Optional(rid),
		status: STATUS,
		answers: Type.Record(Type.String(), answer, { description: "Keyed by question id; only answered questions." }),
		skipped: Type.Array(Type.String(), { description: "Ids of optional questions the user skipped." }),
		notes: Type.Array(note),
		drafts: Type.Optional(Type.Array(draft)),
		formNote: Type.Optional(Type.String({ minLength: 1, description: "The user's note on the whole form. Optional: a v1 peer that predates it leaves it out." })),
		formNoteDraft: Type.Optional(Type.String({ minLength: 1, description: "A note on the whole form typed and never confirmed; never on an answered form." })),
		chatMessage: Type.Optional(Type.String({ minLength: 1, description: 'For status "chat": the user\'s message instead of the form.' })),
		chatDraft: Type.Optional(Type.String({ minLength: 1, description: "A message for the chat typed and never sent." })),
		error: Type.Optional(Type.String({ description: 'What went wrong, for status "error".' })),
		answeredBy: Type.Optional(Type.String({ minLength: 1, description: "Who answered, when another extension did instead of the user at the terminal." })),
	},
	{
		$id: "https://www.npmjs.com/package/pi-ask-user/schema/relay-reply.schema.json",
		title: "ask_user relay reply, v1",
		description: "The answer to a relay request. In RPC: the value of the editor response.",
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
