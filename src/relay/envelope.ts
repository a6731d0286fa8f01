/**
 * The relay envelopes: the request a child sends as one dialog titled RELAY_TITLE (v1, as the first release wrote it; a
 * newer child names the reply it reads in `replyVersion`), the reply (v1; v2 adds `delegated`, v3 the files' bytes,
 * files.ts, v4 the whole form's texts in the lists; each only to a child that reads it), the cancel notice. Decoding
 * never throws: anything malformed is one error naming each problem by path and rule. The shape is the schema's
 * (envelope-schema.ts); what no schema can say, reply-fit.ts checks.
 */

import { describeFound, isObject, type JsonObject, own } from "../core/json.ts";
import {
	type AskDraft,
	type AskNote,
	type AskOptions,
	type Collected,
	errorText,
	RELAY_REPLY_VERSION,
	RELAY_VERSION,
	type RelayReply,
	type RelayRequest,
} from "../core/types.ts";
import { validateParams } from "../input/validate.ts";
import { type Issue, schemaIssues } from "../core/schema.ts";
import { leftToYou } from "../tool/result.ts";
import { filesForReply, fromWire, sendsFiles, toWire } from "./files.ts";
import {
	LISTS_REPLY_VERSION,
	RelayReplySchema,
	RelayReplyV4Schema,
	RelayRequestHeader,
	RID_PATTERN,
	type AnyWireReply,
	type WireReply,
} from "./envelope-schema.ts";
import { type Expectation, replyIssues, type SoundReply } from "./reply-fit.ts";

/** The title of the dialog request that carries a relay request; the NUL keeps it from any human-made title. */
export const RELAY_TITLE = "\u0000ask_user/relay/v1";
/** Starts the notify message a child sends when its relayed ask is aborted; the request's rid follows. */
export const RELAY_CANCEL_PREFIX = "\u0000ask_user/relay-cancel/v1:";
const RID = new RegExp(RID_PATTERN);

type Header = Pick<RelayRequest, "rid" | "asker" | "task" | "replyVersion">;
type Decoding<T> = ({ ok: true } & T) | { ok: false; error: string };

// JSON.stringify leaves out the fields that are undefined; listing them keeps the envelope's field order fixed.
export const encodeRelayRequest = ({
	rid,
	asker,
	task,
	questions,
	reason,
	metadata,
	replyVersion,
}: RelayRequest): string =>
	JSON.stringify({ v: RELAY_VERSION, rid, asker, task, questions, reason, metadata, replyVersion });

/** The reply version a request asks for: ours, or less for a child that reads less (a nested relay passes it on). */
export const replyVersionFor = ({ replyVersion = RELAY_REPLY_VERSION }: Pick<AskOptions, "replyVersion">): number =>
	Math.min(replyVersion, RELAY_REPLY_VERSION);

/** The request, with its questions validated by the same rules as a model's call (the parent renders them). */
export function decodeRelayRequest(text: unknown): Decoding<{ request: RelayRequest }> {
	const what = "relay request rejected";
	const parsed = parseEnvelope(text, what, [RELAY_VERSION]);
	if (!parsed.ok) return parsed;
	const keys = ["rid", "asker", "task", "replyVersion"] as const;
	const [rid, asker, task, replyVersion] = keys.map((key) => own(parsed.envelope, key));
	const issues = schemaIssues(RelayRequestHeader, { rid, asker, task, replyVersion });
	const validation = validateParams({
		questions: own(parsed.envelope, "questions"),
		reason: own(parsed.envelope, "reason"),
		metadata: own(parsed.envelope, "metadata"),
	});
	if (!validation.ok) issues.push(...validation.issues);
	if (!validation.ok || issues.length > 0) return { ok: false, error: formatIssues(what, issues) };
	const header = Object.entries({ rid, asker, task, replyVersion }).filter(([, value]) => value !== undefined);
	return { ok: true, request: { v: RELAY_VERSION, ...(Object.fromEntries(header) as Header), ...validation.form } };
}

/** The notes and drafts as a reply of version `v` writes them. */
type Lists = Pick<WireReply, "formNote" | "formNoteDraft" | "chatDraft"> & { notes: AskNote[]; drafts: AskDraft[] };

/** Before v4 the whole form's note, its draft and the chat's draft are fields of their own, off the lists. */
function listsFor(v: number, { notes, drafts = [] }: RelayReply): Lists {
	if (v >= LISTS_REPLY_VERSION) return { notes, drafts };
	const onForm = (item: AskNote) => item.questionId === undefined;
	return {
		notes: notes.filter((note) => !onForm(note)),
		drafts: drafts.filter((draft) => !onForm(draft)),
		formNote: notes.find(onForm)?.text,
		formNoteDraft: drafts.find((draft) => draft.kind === "note" && onForm(draft))?.text,
		chatDraft: drafts.find((draft) => draft.kind === "chat")?.text,
	};
}

/**
 * The reply as its version writes it (v2 adds `delegated`, v3 `attachments`, v4 the whole form's texts in the lists):
 * `drafts` only when some, as a reader before them knows it.
 */
export function encodeRelayReply(reply: RelayReply): string {
	const { v, rid, status, answers, skipped, delegated, attachments, chatMessage, error, answeredBy } = reply;
	const { notes, drafts, formNote, formNoteDraft, chatDraft } = listsFor(v, reply);
	const wire = {
		v,
		rid,
		status,
		answers,
		skipped,
		delegated: delegated?.length ? delegated : undefined,
		notes,
		drafts: drafts.length > 0 ? drafts : undefined,
		attachments: attachments?.length ? attachments.map(toWire) : undefined,
		previewsUnseen: reply.previewsUnseen?.length ? reply.previewsUnseen : undefined,
	};
	return JSON.stringify({ ...wire, formNote, formNoteDraft, chatMessage, chatDraft, error, answeredBy });
}

/** The reply: its shape checked by its schema, then its parts, and given the request its fit. */
export function decodeRelayReply(text: unknown, expect: Expectation = {}): Decoding<{ reply: RelayReply }> {
	const what = "relay reply rejected";
	const parsed = parseEnvelope(text, what, [1, 2, 3, RELAY_REPLY_VERSION]);
	if (!parsed.ok) return parsed;
	try {
		const schema = parsed.envelope["v"] === LISTS_REPLY_VERSION ? RelayReplyV4Schema : RelayReplySchema;
		const issues = [...schemaIssues(schema, parsed.envelope), ...replyIssues(parsed.envelope as SoundReply, expect)];
		return issues.length > 0
			? { ok: false, error: formatIssues(what, issues) }
			: { ok: true, reply: fromWireReply(parsed.envelope as AnyWireReply) };
	} catch (error) {
		// A guard, not a path: the checks read only what the schema found sound.
		return { ok: false, error: `${what}: ${errorText(error)}` };
	}
}

function fromWireReply({
	formNote,
	formNoteDraft,
	chatDraft,
	notes,
	drafts = [],
	attachments = [],
	...rest
}: AnyWireReply): RelayReply {
	const formDrafts: AskDraft[] = [
		...(formNoteDraft !== undefined ? [{ kind: "note" as const, text: formNoteDraft }] : []),
		...(chatDraft !== undefined ? [{ kind: "chat" as const, text: chatDraft }] : []),
	];
	const all = [...drafts, ...formDrafts];
	return {
		...rest,
		notes: formNote === undefined ? notes : [...notes, { text: formNote }],
		...(all.length > 0 && { drafts: all }),
		...(attachments.length > 0 && { attachments: attachments.map(fromWire) }),
	};
}

export const encodeRelayCancel = (rid: string): string => RELAY_CANCEL_PREFIX + rid;

export function decodeRelayCancel(message: unknown): string | undefined {
	if (typeof message !== "string" || !message.startsWith(RELAY_CANCEL_PREFIX)) return undefined;
	const rid = message.slice(RELAY_CANCEL_PREFIX.length);
	return RID.test(rid) ? rid : undefined;
}

export const replyToCollected = ({
	v,
	rid,
	drafts,
	delegated,
	previewsUnseen,
	...collected
}: RelayReply): Collected => ({
	...collected,
	...(drafts !== undefined && drafts.length > 0 && { drafts }),
	...(delegated !== undefined && delegated.length > 0 && { delegated }),
	...(previewsUnseen !== undefined && previewsUnseen.length > 0 && { previewsUnseen }),
});

/**
 * `shownElsewhere` is this side's business, never the wire's. The reply is the newest the child reads (its `request`'s
 * replyVersion, else 1). To a child that reads v1 a question left to the model is a skip with a note that says so, as
 * the model's own result line would; below v3, and for a file whose bytes are not at hand, a file is a note with its
 * path. Files go only with a form the user sent (answered, or a message for the chat).
 */
export function collectedToReply(
	{ shownElsewhere, drafts, delegated = [], attachments = [], ...collected }: Collected,
	rid?: string,
	request?: Pick<RelayRequest, "questions" | "replyVersion">,
): RelayReply {
	const v = Math.max(1, Math.min(request?.replyVersion ?? 1, RELAY_REPLY_VERSION)) as RelayReply["v"];
	const reply: RelayReply = {
		v,
		...(rid !== undefined && { rid }),
		...collected,
		...(drafts !== undefined && drafts.length > 0 && { drafts }),
	};
	// A form the user did not send (dismissed, aborted, timed out) sends no files, as in the child's own terminal.
	const files = filesForReply(sendsFiles(collected.status) ? attachments : [], v);
	if (files.carried.length > 0) reply.attachments = files.carried;
	if (files.notes.length > 0) reply.notes = [...reply.notes, ...files.notes];
	if (delegated.length === 0) return reply;
	if (reply.v !== 1) return { ...reply, delegated };
	const left = (request?.questions ?? []).filter((q) => delegated.includes(q.id));
	const notes = left.map((q) => ({ questionId: q.id, text: leftToYou(q) }));
	return { ...reply, skipped: [...reply.skipped, ...left.map((q) => q.id)], notes: [...reply.notes, ...notes] };
}

/** JSON text → an object of one of our protocol `versions`, or the one error that stops everything else. */
function parseEnvelope(text: unknown, what: string, versions: readonly number[]): Decoding<{ envelope: JsonObject }> {
	if (typeof text !== "string")
		return { ok: false, error: `${what}: expected JSON text (found ${describeFound(text)})` };
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		return { ok: false, error: `${what}: not valid JSON (${errorText(error)})` };
	}
	if (!isObject(value)) return { ok: false, error: `${what}: expected a JSON object (found ${describeFound(value)})` };
	const v = own(value, "v");
	if (versions.includes(v as number)) return { ok: true, envelope: value };
	const found = v === undefined ? "v is missing" : `found v ${describeFound(v)}`;
	const known = versions.length > 1 ? `${versions.slice(0, -1).join(", ")} or ${versions.at(-1)}` : `${versions[0]}`;
	return {
		ok: false,
		error:
			`${what}: v: expected protocol version ${known}, ${found} (parent and child must run compatible ` +
			`pi-ask-user versions)`,
	};
}

/** `what: path: rule; path: rule` on one line, at most MAX_LISTED issues listed. */
function formatIssues(what: string, issues: readonly Issue[]): string {
	const listed = issues
		.slice(0, MAX_LISTED)
		.map(({ path, message }) => (path === "" ? message : `${path}: ${message.replace(/\.$/, "")}`));
	const more = issues.length > MAX_LISTED ? `; … and ${issues.length - MAX_LISTED} more` : "";
	return `${what}: ${listed.join("; ")}${more}`;
}

const MAX_LISTED = 8;
