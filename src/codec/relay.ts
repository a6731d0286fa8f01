/**
 * The subagent relay envelopes: a child's whole form travels to its
 * parent as one dialog request whose title is RELAY_TITLE and whose payload is
 * a versioned JSON request; the parent's answer comes back as a versioned JSON
 * reply. A child whose ask is aborted tells the parent with a notify message
 * made by encodeRelayCancel.
 *
 * Decoding trusts nothing: the text crossed a process boundary. Every decode
 * returns a value (never throws) and rejects anything malformed with one error
 * that lists each problem by path and rule — a broken reply becomes status
 * "error" for the child, never a guess.
 */

import { ASK_STATUSES, FORM_TEXT_FIELDS, formTextsOf, LIMITS, RELAY_VERSION } from "../types.ts";
import type { AskQuestion, AskStatus, Collected, RelayReply, RelayRequest } from "../types.ts";
import { errorText } from "../abort.ts";
import { validateParams } from "../validate.ts";
import { checkAgainstQuestions, checkAnswers, checkDrafts, checkNotes, checkSkipped } from "./reply-checks.ts";
import { isObject, type JsonObject, own } from "../json.ts";
import { describeFound, formatShapeIssues, type ShapeIssue } from "./shape.ts";

/** The title of the dialog request that carries a relay request; the NUL keeps it from any human-made title. */
export const RELAY_TITLE = "\u0000ask_user/relay/v1";
/** Starts the notify message a child sends when its relayed ask is aborted; the request's rid follows. */
export const RELAY_CANCEL_PREFIX = "\u0000ask_user/relay-cancel/v1:";
/** Longest asker label accepted, in UTF-16 code units. */
export const RELAY_ASKER_MAX = 200;

// A rid travels inside a one-line notify message: printable ASCII, no spaces.
const RID = /^[\x21-\x7e]{1,128}$/;
const RID_RULE = "must be 1–128 printable ASCII characters without spaces";
const CONTROL = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/;
const STATUSES: readonly AskStatus[] = ASK_STATUSES;

export type RelayRequestDecoding = { ok: true; request: RelayRequest } | { ok: false; error: string };
export type RelayReplyDecoding = { ok: true; reply: RelayReply } | { ok: false; error: string };

/** What the child knows about the reply it waits for; lets decodeRelayReply check answers against the form. */
export interface RelayReplyExpectation {
	questions?: readonly AskQuestion[];
	rid?: string;
}

// ── Request ────────────────────────────────────────────────────────────────

// JSON.stringify leaves out the fields that are undefined; listing them keeps the envelope's field order fixed.
export function encodeRelayRequest(request: RelayRequest): string {
	const { rid, asker, questions, metadata } = request;
	return JSON.stringify({ v: RELAY_VERSION, rid, asker, questions, metadata });
}

/** The request, with its questions validated by the same rules as a model's call. */
export function decodeRelayRequest(text: unknown): RelayRequestDecoding {
	const what = "relay request rejected";
	const parsed = parseEnvelope(text, what);
	if (!parsed.ok) return parsed;
	const envelope = parsed.envelope;
	const issues: ShapeIssue[] = [];

	const rid = checkRid(envelope, issues);
	const asker = checkAsker(envelope, issues);
	// The parent renders these questions: they must keep every invariant a model's call keeps.
	const validation = validateParams({ questions: own(envelope, "questions"), metadata: own(envelope, "metadata") });
	if (!validation.ok) issues.push(...validation.issues);

	if (!validation.ok || issues.length > 0) return { ok: false, error: formatShapeIssues(what, issues) };
	const { questions, metadata } = validation.form;
	const request: RelayRequest = {
		v: RELAY_VERSION,
		...(rid !== undefined && { rid }),
		...(asker !== undefined && { asker }),
		questions,
		...(metadata !== undefined && { metadata }),
	};
	return { ok: true, request };
}

// ── Reply ──────────────────────────────────────────────────────────────────

// `drafts` only when there are some: a v1 reader that predates them sees the envelope it knows.
export function encodeRelayReply(reply: RelayReply): string {
	const { rid, status, answers, skipped, notes, error, answeredBy } = reply;
	const drafts = reply.drafts !== undefined && reply.drafts.length > 0 ? reply.drafts : undefined;
	return JSON.stringify({ v: RELAY_VERSION, rid, status, answers, skipped, notes, drafts, ...formTextsOf(reply), error, answeredBy });
}

/**
 * The reply, with every answer's shape checked. Given the questions it
 * answers, also checks that every id is one of them, that each answer fits
 * its question (kind, options, free text allowed, optional when skipped),
 * that each draft fits too (free text allowed, an option label it names
 * exists) and that status "answered" answers every required question.
 * `drafts` may be absent (a parent that predates them); when present it is
 * checked like the rest.
 */
export function decodeRelayReply(text: unknown, expect?: RelayReplyExpectation): RelayReplyDecoding {
	const what = "relay reply rejected";
	const parsed = parseEnvelope(text, what);
	if (!parsed.ok) return parsed;
	const envelope = parsed.envelope;
	const issues: ShapeIssue[] = [];

	const rid = checkRid(envelope, issues);
	if (rid !== undefined && expect?.rid !== undefined && rid !== expect.rid) {
		issues.push({ path: "rid", message: `${JSON.stringify(rid)} does not match the request's rid ${JSON.stringify(expect.rid)}` });
	}
	const status = own(envelope, "status");
	if (typeof status !== "string" || !(STATUSES as readonly string[]).includes(status)) {
		issues.push({ path: "status", message: `must be one of ${STATUSES.join(", ")} (found ${describeFound(status)})` });
	}
	const answers = checkAnswers(own(envelope, "answers"), issues);
	const skipped = checkSkipped(own(envelope, "skipped"), answers, issues);
	const notes = checkNotes(own(envelope, "notes"), issues);
	const drafts = checkDrafts(own(envelope, "drafts"), issues);
	const texts = checkFormTexts(envelope, issues);
	const error = own(envelope, "error");
	if (error !== undefined && typeof error !== "string") {
		issues.push({ path: "error", message: `must be a string (found ${describeFound(error)})` });
	}
	const answeredBy = own(envelope, "answeredBy");
	if (answeredBy !== undefined && (typeof answeredBy !== "string" || CONTROL.test(answeredBy) || answeredBy.trim() === "")) {
		issues.push({ path: "answeredBy", message: `must be one line of text naming who answered (found ${describeFound(answeredBy)})` });
	}

	if (issues.length > 0) return { ok: false, error: formatShapeIssues(what, issues) };
	const reply: RelayReply = {
		v: RELAY_VERSION,
		...(rid !== undefined && { rid }),
		status: status as AskStatus,
		answers: answers ?? {},
		skipped: skipped ?? [],
		notes: notes ?? [],
		...(drafts !== undefined && drafts.length > 0 && { drafts }),
		...texts,
		...(typeof error === "string" && { error }),
		...(typeof answeredBy === "string" && { answeredBy }),
	};

	// Only a well-formed reply is compared with the form: shape errors would repeat here as nonsense.
	if (expect?.questions !== undefined) checkAgainstQuestions(reply, expect.questions, issues);
	if (issues.length > 0) return { ok: false, error: formatShapeIssues(what, issues) };
	return { ok: true, reply };
}

// ── Cancel notice ──────────────────────────────────────────────────────────

/** The notify message a child sends when the ask with this rid is aborted. */
export function encodeRelayCancel(rid: string): string {
	return RELAY_CANCEL_PREFIX + rid;
}

/**
 * The texts on the whole form (a note, …): each absent (a parent that
 * predates them) or a non-blank string the user typed. A draft may be longer
 * than the editor's limit (it is never cut); a confirmed text may not.
 */
function checkFormTexts(envelope: JsonObject, issues: ShapeIssue[]): Partial<Record<(typeof FORM_TEXT_FIELDS)[number], string>> {
	const texts: Partial<Record<(typeof FORM_TEXT_FIELDS)[number], string>> = {};
	for (const field of FORM_TEXT_FIELDS) {
		const value = own(envelope, field);
		if (value === undefined) continue;
		if (typeof value !== "string" || value.trim() === "") {
			issues.push({ path: field, message: `must be a non-blank string, or absent (found ${describeFound(value)})` });
		} else if (!field.endsWith("Draft") && value.length > LIMITS.freeText) {
			issues.push({ path: field, message: `must be at most ${LIMITS.freeText} characters (found ${value.length})` });
		} else texts[field] = value;
	}
	return texts;
}

/** The rid of a cancel notice, or undefined when the message is anything else. */
export function decodeRelayCancel(message: unknown): string | undefined {
	if (typeof message !== "string" || !message.startsWith(RELAY_CANCEL_PREFIX)) return undefined;
	const rid = message.slice(RELAY_CANCEL_PREFIX.length);
	return RID.test(rid) ? rid : undefined;
}

// ── Between the reply and what a UI collected ──────────────────────────────

export function replyToCollected(reply: RelayReply): Collected {
	return {
		status: reply.status,
		answers: reply.answers,
		skipped: reply.skipped,
		notes: reply.notes,
		...(reply.drafts !== undefined && reply.drafts.length > 0 && { drafts: reply.drafts }),
		...formTextsOf(reply),
		...(reply.error !== undefined && { error: reply.error }),
		...(reply.answeredBy !== undefined && { answeredBy: reply.answeredBy }),
	};
}

export function collectedToReply(collected: Collected, rid?: string): RelayReply {
	return {
		v: RELAY_VERSION,
		...(rid !== undefined && { rid }),
		status: collected.status,
		answers: collected.answers,
		skipped: collected.skipped,
		notes: collected.notes,
		...(collected.drafts !== undefined && collected.drafts.length > 0 && { drafts: collected.drafts }),
		...formTextsOf(collected),
		...(collected.error !== undefined && { error: collected.error }),
		...(collected.answeredBy !== undefined && { answeredBy: collected.answeredBy }),
	};
}

// ── Shared ─────────────────────────────────────────────────────────────────

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
	if (v !== RELAY_VERSION) {
		const found = v === undefined ? "v is missing" : `found v ${describeFound(v)}`;
		return {
			ok: false,
			error: `${what}: v: expected protocol version ${RELAY_VERSION}, ${found} (parent and child must run compatible pi-ask-user versions)`,
		};
	}
	return { ok: true, envelope: value };
}

function checkAsker(envelope: JsonObject, issues: ShapeIssue[]): string | undefined {
	const asker = own(envelope, "asker");
	if (asker === undefined) return undefined;
	if (typeof asker !== "string") issues.push({ path: "asker", message: `must be a string (found ${describeFound(asker)})` });
	else if (CONTROL.test(asker)) issues.push({ path: "asker", message: "must be one line without control characters" });
	else if (asker.length > RELAY_ASKER_MAX) {
		issues.push({ path: "asker", message: `must be at most ${RELAY_ASKER_MAX} characters (found ${asker.length})` });
	} else return asker;
	return undefined;
}

function checkRid(envelope: JsonObject, issues: ShapeIssue[]): string | undefined {
	const rid = own(envelope, "rid");
	if (rid === undefined) return undefined;
	if (typeof rid !== "string" || !RID.test(rid)) {
		issues.push({ path: "rid", message: `${RID_RULE} (found ${describeFound(rid)})` });
		return undefined;
	}
	return rid;
}
