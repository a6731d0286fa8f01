/**
 * The relay envelopes as JSON Schemas (`npm run schemas` writes them to schema/) and the check of an envelope against
 * them; loaded with the codec, never at start-up.
 */

import { type Static, Type } from "@sinclair/typebox";
import { ATTACHMENT_LIMITS, BASE64_PATTERN, BASE64_WORDS, base64Length } from "../core/attachment.ts";
import { sayPatterns } from "../core/schema.ts";
import { ASK_STATUSES, LIMITS, MetadataSchema, QuestionSchema, RELAY_REPLY_VERSION } from "../core/types.ts";

/** Longest asker label accepted, in UTF-16 code units. */
export const RELAY_ASKER_MAX = 200;
/** Longest task accepted, in UTF-16 code units (a child sends at most TASK_MAX code points: asker.ts). */
export const RELAY_TASK_MAX = 2000;

// A rid travels inside a one-line notify message: printable ASCII, no spaces.
export const RID_PATTERN = "^[\\x21-\\x7e]{1,128}$";
const CONTROL = "\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029";
const ONE_LINE = `^[^${CONTROL}]*$`;
const NAME = `^(?=.*\\S)[^${CONTROL}]+$`;
const NON_BLANK = "\\S";
// Checked for length and padding by hand (files.ts): a simple class keeps the match linear on tens of megabytes.
const FILE_NAME = `^(?=.*\\S)[^${CONTROL}/\\\\]+$`;
const MIME = "^[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*$";

/** Each pattern's rule in words, for the error that names it. */
sayPatterns({
	[RID_PATTERN]: "must be 1–128 printable ASCII characters without spaces",
	[ONE_LINE]: "must be one line without control characters",
	[NAME]: "must be one line of text naming who answered",
	[NON_BLANK]: "must not be blank",
	[BASE64_PATTERN]: BASE64_WORDS,
	[FILE_NAME]: "must be a file's base name: one line, no slash or backslash",
	[MIME]: 'must be a media type in lower case, e.g. "image/png"',
});

// Unsafe: TypeBox infers a union's type only from a tuple.
const literals = <T extends string>(values: readonly T[]) =>
	Type.Unsafe<T>(Type.Union(values.map((value) => Type.Literal(value))));
/** Text the user confirmed: within the editor's limit. A draft is never cut, so it has none. */
const typed = (options: object = {}) => Type.String({ maxLength: LIMITS.freeText, ...options });
const closed = { additionalProperties: false } as const;

const rid = Type.String({
	pattern: RID_PATTERN,
	description: "Correlates the reply (and a cancel notice) with the request.",
});
const header = {
	rid: Type.Optional(rid),
	asker: Type.Optional(
		Type.String({
			maxLength: RELAY_ASKER_MAX,
			pattern: ONE_LINE,
			description: 'Who asks, outermost first: "planner › scout".',
		}),
	),
	task: Type.Optional(
		Type.String({
			maxLength: RELAY_TASK_MAX,
			pattern: ONE_LINE,
			description: "What the asker was given to do: the start of its first message, or its runner's description.",
		}),
	),
	replyVersion: Type.Optional(
		Type.Integer({
			minimum: 1,
			description:
				`The newest reply version the child reads (2 since "delegated", 3 since "attachments", ` +
				`${RELAY_REPLY_VERSION} since the whole form's texts in the lists); absent: 1. A parent replies in the ` +
				`newest it knows up to this.`,
		}),
	),
};
/** What the schema checks of a request: its questions pass validateParams. */
export const RelayRequestHeader = Type.Object(header);

export const RelayRequestSchema = Type.Object(
	{
		v: Type.Literal(1),
		...header,
		questions: Type.Array(QuestionSchema, { minItems: LIMITS.minQuestions, maxItems: LIMITS.maxQuestions }),
		reason: Type.Optional(
			Type.String({ maxLength: LIMITS.reason, pattern: ONE_LINE, description: "The model's one line on why it asks." }),
		),
		metadata: Type.Optional(MetadataSchema),
	},
	{
		$id: "https://www.npmjs.com/package/pi-ask-user/schema/relay-request.schema.json",
		title: "ask_user relay request, v1",
		description:
			'A child\'s whole ask_user form. In RPC: the prefill of an editor request titled "\\u0000ask_user/relay/v1".',
		...closed,
	},
);

const selection = Type.Object(
	{ value: typed(), label: typed(), custom: Type.Optional(Type.Literal(true)) },
	{ ...closed, description: "An option (its value and label), or the user's own text (custom: true, value = label)." },
);

const answer = Type.Object(
	{
		kind: literals(["single", "multi"]),
		selections: Type.Array(selection, { minItems: 1 }),
		note: Type.Optional(typed()),
	},
	{ ...closed, description: 'Exactly one selection for "single".' },
);

/** From v4 the whole form's note, its draft and the chat's draft are in the lists too: on no question. */
export const LISTS_REPLY_VERSION = 4;

const onQuestion = Type.String();
const onQuestionOrForm = Type.Optional(
	Type.String({ description: "The question it is on; absent: the whole form (a chat draft too)." }),
);
const noteFields = {
	option: Type.Optional(
		Type.String({ description: "The label of the option the note is on; absent: on the question." }),
	),
	text: typed(),
};
const draftFields = {
	option: Type.Optional(Type.String({ description: 'Only on a "note" draft.' })),
	text: Type.String({ pattern: NON_BLANK }),
};
const drafted = { ...closed, description: "Text the user typed and never confirmed; never on an answered form." };

/** Before v4 every note and draft is on a question; the whole form's are fields of their own. */
const earlierNote = Type.Object({ questionId: onQuestion, ...noteFields }, closed);
const earlierDraft = Type.Object(
	{ questionId: onQuestion, kind: literals(["answer", "note"]), ...draftFields },
	drafted,
);
const note = Type.Object({ questionId: onQuestionOrForm, ...noteFields }, closed);
const draft = Type.Object(
	{ questionId: onQuestionOrForm, kind: literals(["answer", "note", "chat"]), ...draftFields },
	drafted,
);

/** The longest name of a file accepted, in UTF-16 code units. */
export const ATTACHMENT_NAME_MAX = 255;

export const AttachmentSchema = Type.Object(
	{
		name: Type.String({ maxLength: ATTACHMENT_NAME_MAX, pattern: FILE_NAME, description: "The file's base name." }),
		mime: Type.String({
			maxLength: 127,
			pattern: MIME,
			description: "Its media type; the child reads its bytes again.",
		}),
		size: Type.Integer({
			minimum: 0,
			maximum: ATTACHMENT_LIMITS.imageBytes,
			description:
				`In bytes: what data holds. At most ${ATTACHMENT_LIMITS.fileBytes} (an image ` +
				`${ATTACHMENT_LIMITS.imageBytes}).`,
		}),
		kind: literals(["answer", "note"]),
		questionId: Type.Optional(
			Type.String({ description: "The question whose free answer or note it is with; absent: the whole form's note." }),
		),
		option: Type.Optional(Type.String({ description: "The label of the option whose note it is with." })),
		data: Type.String({
			maxLength: base64Length(ATTACHMENT_LIMITS.imageBytes),
			pattern: BASE64_PATTERN,
			description: "The file's bytes, base64.",
		}),
	},
	{ ...closed, description: "A file the user attached to a free answer or a note, with its bytes." },
);

const v = (versions: readonly number[], description: string) =>
	Type.Union(
		versions.map((version) => Type.Literal(version)),
		{ description },
	);

/** What every reply version holds alike. */
const replyFields = {
	rid: Type.Optional(rid),
	status: literals(ASK_STATUSES),
	answers: Type.Record(Type.String(), answer, { description: "Keyed by question id; only answered questions." }),
	skipped: Type.Array(Type.String(), { description: "Ids of optional questions the user skipped." }),
	delegated: Type.Optional(
		Type.Array(Type.String(), {
			description:
				'v2: ids of questions the user left to the model ("You decide"), an answer of their own. v1 says one as a ' +
				"skip with a note.",
		}),
	),
	attachments: Type.Optional(
		Type.Array(AttachmentSchema, {
			maxItems: ATTACHMENT_LIMITS.perForm,
			description:
				`v3: the files of the answers and notes, each with its bytes; at most ` +
				`${ATTACHMENT_LIMITS.perAnswer} per answer or note, ${ATTACHMENT_LIMITS.totalBytes} bytes in all. v1 and ` +
				`v2 say each as a note with its path.`,
		}),
	),
	chatMessage: Type.Optional(
		typed({ pattern: NON_BLANK, description: 'For status "chat": the user\'s message instead of the form.' }),
	),
	error: Type.Optional(Type.String({ description: 'What went wrong, for status "error".' })),
	answeredBy: Type.Optional(
		Type.String({
			pattern: NAME,
			description: "Who answered, when another extension did instead of the user at the terminal.",
		}),
	),
	previewsUnseen: Type.Optional(
		Type.Array(Type.String(), {
			description:
				"Ids of questions with previews the user answered where none are shown (dialogs, an ACP form). A reader " +
				"that predates it drops it.",
		}),
	),
};

const description =
	"The answer to a relay request. In RPC: the value of the editor response. A reader drops the fields it does not " +
	"know (a newer peer's).";

/** v1 to v3: the notes and drafts on questions, the whole form's texts in fields of their own. */
export const RelayReplySchema = Type.Object(
	{
		v: v([1, 2, 3], "Never newer than the replyVersion the request named (2 adds delegated, 3 attachments)."),
		...replyFields,
		notes: Type.Array(earlierNote),
		drafts: Type.Optional(Type.Array(earlierDraft)),
		formNote: Type.Optional(
			typed({
				pattern: NON_BLANK,
				description: "The user's note on the whole form. Optional: a v1 peer that predates it leaves it out.",
			}),
		),
		formNoteDraft: Type.Optional(
			Type.String({
				pattern: NON_BLANK,
				description: "A note on the whole form typed and never confirmed; never on an answered form.",
			}),
		),
		chatDraft: Type.Optional(
			Type.String({
				pattern: NON_BLANK,
				description: "A message for the chat typed and never sent; never on an answered form.",
			}),
		),
	},
	{ title: "ask_user relay reply, v1 to v3", description, ...closed },
);

/** v4: every note in `notes`, every draft in `drafts`, the whole form's and the chat's on no question. */
export const RelayReplyV4Schema = Type.Object(
	{
		v: v([LISTS_REPLY_VERSION], "To a child whose request named replyVersion 4 or more."),
		...replyFields,
		notes: Type.Array(note),
		drafts: Type.Optional(Type.Array(draft)),
	},
	{ title: `ask_user relay reply, v${LISTS_REPLY_VERSION}`, description, ...closed },
);

/** The file schema/ publishes: either shape, by `v`. A reader checks the one its `v` names. */
export const RelayReplyFileSchema = Type.Union([RelayReplySchema, RelayReplyV4Schema], {
	$id: "https://www.npmjs.com/package/pi-ask-user/schema/relay-reply.schema.json",
	title: `ask_user relay reply, v1 to v${LISTS_REPLY_VERSION}`,
	description,
});

export type WireAttachment = Static<typeof AttachmentSchema>;

/** A reply as v1 to v3 have it: the whole form's texts in fields of their own, every note and draft on a question. */
export type WireReply = Static<typeof RelayReplySchema>;
/** A reply as v4 has it: the lists as a state's result holds them. */
export type WireReplyV4 = Static<typeof RelayReplyV4Schema>;
/** Either shape, its `v` one we read: v1 to v3's fields for the whole form are absent in v4's. */
export type AnyWireReply = Omit<WireReply, "v" | "notes" | "drafts"> &
	Pick<WireReplyV4, "notes" | "drafts"> & { v: 1 | 2 | 3 | typeof LISTS_REPLY_VERSION };
