/**
 * The subagent relay envelopes: a child's whole form travels to its parent as
 * one dialog request whose title is RELAY_TITLE and whose payload is a
 * versioned JSON request; the parent's answer comes back as a versioned JSON
 * reply. A child whose ask is aborted tells the parent with a notify message
 * made by encodeRelayCancel.
 *
 * Decoding trusts nothing: the text crossed a process boundary. Every decode
 * returns a value (never throws) and rejects anything malformed with one error
 * that lists each problem by path and rule — a broken reply becomes status
 * "error" for the child, never a guess.
 *
 * The wire is v1 as the first release wrote it, so either side may run an
 * older release: the whole form's note and drafts, which Collected keeps with
 * the others (no questionId), travel in v1's own fields (`formNote`,
 * `formNoteDraft`, `chatDraft`), each optional.
 */

import { describeFound, isObject, type JsonObject, own } from "../json.ts";
import type { AskDraft, Collected, RelayReply, RelayRequest } from "../types.ts";
import { RELAY_VERSION, errorText } from "../types.ts";
import { validateParams } from "../validate.ts";
import { RelayReplySchema, RelayRequestSchema, RID_PATTERN } from "./envelope-schema.ts";
import { type RelayReplyExpectation, replyIssues, type WireReply } from "./reply-checks.ts";
import { dropUnknownFields, envelopeIssues, formatIssues, type Issue } from "./schema-check.ts";

export { RELAY_ASKER_MAX } from "./envelope-schema.ts";
export type { RelayReplyExpectation } from "./reply-checks.ts";

/** The title of the dialog request that carries a relay request; the NUL keeps it from any human-made title. */
export const RELAY_TITLE = "\u0000ask_user/relay/v1";
/** Starts the notify message a child sends when its relayed ask is aborted; the request's rid follows. */
export const RELAY_CANCEL_PREFIX = "\u0000ask_user/relay-cancel/v1:";
const RID = new RegExp(RID_PATTERN);

export type RelayRequestDecoding = { ok: true; request: RelayRequest } | { ok: false; error: string };
export type RelayReplyDecoding = { ok: true; reply: RelayReply } | { ok: false; error: string };

// JSON.stringify leaves out the fields that are undefined; listing them keeps the envelope's field order fixed.
export function encodeRelayRequest(request: RelayRequest): string {
	const { rid, asker, questions, metadata } = request;
	return JSON.stringify({ v: RELAY_VERSION, rid, asker, questions, metadata });
}

/** The request, with its questions validated by the same rules as a model's call (the parent renders them). */
export function decodeRelayRequest(text: unknown): RelayRequestDecoding {
	const what = "relay request rejected";
	const parsed = parseEnvelope(text, what);
	if (!parsed.ok) return parsed;
	const envelope = parsed.envelope;
	const issues: Issue[] = envelopeIssues(RelayRequestSchema, envelope, ["rid", "asker"]);
	const validation = validateParams({ questions: own(envelope, "questions"), metadata: own(envelope, "metadata") });
	if (!validation.ok) issues.push(...validation.issues);
	if (!validation.ok || issues.length > 0) return { ok: false, error: formatIssues(what, issues) };
	const { rid, asker } = envelope as { rid?: string; asker?: string };
	const { questions, metadata } = validation.form;
	return { ok: true, request: { v: RELAY_VERSION, ...(rid !== undefined && { rid }), ...(asker !== undefined && { asker }), questions, ...(metadata !== undefined && { metadata }) } };
}

/** The reply as v1 writes it: `drafts` only when there are some, so a reader that predates them sees the envelope it knows. */
export function encodeRelayReply(reply: RelayReply): string {
	const { rid, status, answers, skipped, chatMessage, error, answeredBy } = reply;
	const notes = reply.notes.filter((n) => n.questionId !== undefined);
	const drafts = (reply.drafts ?? []).filter((d) => d.questionId !== undefined);
	const formNote = reply.notes.find((n) => n.questionId === undefined)?.text;
	const formNoteDraft = reply.drafts?.find((d) => d.kind === "note" && d.questionId === undefined)?.text;
	const chatDraft = reply.drafts?.find((d) => d.kind === "chat")?.text;
	const wire = { v: RELAY_VERSION, rid, status, answers, skipped, notes, drafts: drafts.length > 0 ? drafts : undefined };
	return JSON.stringify({ ...wire, formNote, formNoteDraft, chatMessage, chatDraft, error, answeredBy });
}

/** The reply: its shape checked by its schema, then (reply-checks.ts) its parts, and given the request its fit. */
export function decodeRelayReply(text: unknown, expect?: RelayReplyExpectation): RelayReplyDecoding {
	const what = "relay reply rejected";
	const parsed = parseEnvelope(text, what);
	if (!parsed.ok) return parsed;
	try {
		dropUnknownFields(RelayReplySchema, parsed.envelope);
		const wire = parsed.envelope as unknown as WireReply;
		const shape = envelopeIssues(RelayReplySchema, parsed.envelope);
		const under = (path: string, issue: Issue) => issue.path.startsWith(`${path}.`) || issue.path.startsWith(`${path}[`);
		const sound = {
			typed: (path: string) => !shape.some((i) => i.path === path),
			whole: (path: string) => !shape.some((i) => i.path === path || under(path, i)),
		};
		const issues = [...shape, ...replyIssues(wire, sound, expect)];
		return issues.length > 0 ? { ok: false, error: formatIssues(what, issues) } : { ok: true, reply: fromWire(wire) };
	} catch (error) {
		// A guard, not a path: the checks above read only what the schema found sound.
		return { ok: false, error: `${what}: ${errorText(error)}` };
	}
}

function fromWire(wire: WireReply): RelayReply {
	const { formNote, formNoteDraft, chatDraft, notes, drafts = [], ...rest } = wire;
	const formDrafts: AskDraft[] = [
		...(formNoteDraft !== undefined ? [{ kind: "note" as const, text: formNoteDraft }] : []),
		...(chatDraft !== undefined ? [{ kind: "chat" as const, text: chatDraft }] : []),
	];
	const all = [...drafts, ...formDrafts];
	return { ...rest, notes: formNote === undefined ? notes : [...notes, { text: formNote }], ...(all.length > 0 && { drafts: all }) };
}

/** The notify message a child sends when the ask with this rid is aborted. */
export function encodeRelayCancel(rid: string): string {
	return RELAY_CANCEL_PREFIX + rid;
}

/** The rid of a cancel notice, or undefined when the message is anything else. */
export function decodeRelayCancel(message: unknown): string | undefined {
	if (typeof message !== "string" || !message.startsWith(RELAY_CANCEL_PREFIX)) return undefined;
	const rid = message.slice(RELAY_CANCEL_PREFIX.length);
	return RID.test(rid) ? rid : undefined;
}

export function replyToCollected({ v, rid, drafts, ...collected }: RelayReply): Collected {
	return { ...collected, ...(drafts !== undefined && drafts.length > 0 && { drafts }) };
}

/** `shownElsewhere` is this side's business, never the wire's. */
export function collectedToReply({ shownElsewhere, drafts, ...collected }: Collected, rid?: string): RelayReply {
	return { v: RELAY_VERSION, ...(rid !== undefined && { rid }), ...collected, ...(drafts !== undefined && drafts.length > 0 && { drafts }) };
}

type EnvelopeParsing = { ok: true; envelope: JsonObject } | { ok: false; error: string };

/** JSON text → an object of our protocol version, or the one error that stops everything else. */
function parseEnvelope(text: unknown, what: string): EnvelopeParsing {
	if (typeof text !== "string") return { ok: false, error: `${what}: expected JSON text (found ${describeFound(text)})` };
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		return { ok: false, error: `${what}: not valid JSON (${errorText(error)})` };
	}
	if (!isObject(value)) return { ok: false, error: `${what}: expected a JSON object (found ${describeFound(value)})` };
	const v = own(value, "v");
	if (v === RELAY_VERSION) return { ok: true, envelope: value };
	const found = v === undefined ? "v is missing" : `found v ${describeFound(v)}`;
	return { ok: false, error: `${what}: v: expected protocol version ${RELAY_VERSION}, ${found} (parent and child must run compatible pi-ask-user versions)` };
}
