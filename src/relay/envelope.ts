/**
 * The relay envelopes: the request a child sends as one dialog titled RELAY_TITLE (v1, as the first release wrote it; a
 * newer child names the reply it reads in `replyVersion`), the reply (v1; v2 adds `delegated`, v3 the files' bytes,
 * files.ts; each only to a child that reads it), the cancel notice. Decoding never throws: anything malformed is one
 * error naming each problem by path and rule. The shape is the schema's (envelope-schema.ts); here is what no schema
 * can say: a reply's parts agree and fit the questions.
 */

import { describeFound, isObject, type JsonObject, own } from "../core/json.ts";
import {
	type AskAnswer,
	type AskDraft,
	type AskOptions,
	type AskQuestion,
	type Collected,
	errorText,
	RELAY_REPLY_VERSION,
	RELAY_VERSION,
	type RelayReply,
	type RelayRequest,
} from "../core/types.ts";
import { validateParams } from "../input/validate.ts";
import { childPath, type Issue, schemaIssues } from "../core/schema.ts";
import { leftToYou } from "../tool/result.ts";
import { fileIssues, filesForReply, fromWire, sendsFiles, toWire } from "./files.ts";
import { RelayReplySchema, RelayRequestHeader, RID_PATTERN, type WireReply } from "./envelope-schema.ts";

/** The title of the dialog request that carries a relay request; the NUL keeps it from any human-made title. */
export const RELAY_TITLE = "\u0000ask_user/relay/v1";
/** Starts the notify message a child sends when its relayed ask is aborted; the request's rid follows. */
export const RELAY_CANCEL_PREFIX = "\u0000ask_user/relay-cancel/v1:";
const RID = new RegExp(RID_PATTERN);

type Header = Pick<RelayRequest, "rid" | "asker" | "task" | "replyVersion">;
type Decoding<T> = ({ ok: true } & T) | { ok: false; error: string };

/** What the child knows about the reply it waits for: the questions it asked, the request's rid. */
type Expectation = { questions?: readonly AskQuestion[]; rid?: string };

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

/**
 * The reply as v1 writes it (v2 adds `delegated`, v3 `attachments`): `drafts` only when some, as a reader before them
 * knows it.
 */
export function encodeRelayReply(reply: RelayReply): string {
	const { v, rid, status, answers, skipped, delegated, attachments, chatMessage, error, answeredBy } = reply;
	const notes = reply.notes.filter((n) => n.questionId !== undefined);
	const drafts = (reply.drafts ?? []).filter((d) => d.questionId !== undefined);
	const formNote = reply.notes.find((n) => n.questionId === undefined)?.text;
	const formNoteDraft = reply.drafts?.find((d) => d.kind === "note" && d.questionId === undefined)?.text;
	const chatDraft = reply.drafts?.find((d) => d.kind === "chat")?.text;
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
	const parsed = parseEnvelope(text, what, [1, 2, RELAY_REPLY_VERSION]);
	if (!parsed.ok) return parsed;
	try {
		const issues = [
			...schemaIssues(RelayReplySchema, parsed.envelope),
			...replyIssues(parsed.envelope as SoundReply, expect),
		];
		return issues.length > 0
			? { ok: false, error: formatIssues(what, issues) }
			: { ok: true, reply: fromWireReply(parsed.envelope as WireReply) };
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
}: WireReply): RelayReply {
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

// ── What no schema can say ──────────────────────────────────────────────────

/**
 * A reply as schemaIssues leaves it: what it found unsound (a field, an item of a list, an entry of a record) is
 * undefined.
 */
type SoundReply = { [K in keyof WireReply]?: Sound<WireReply[K]> };
type Sound<T> = T extends readonly (infer Item)[]
	? (Item | undefined)[]
	: T extends Record<string, infer Entry>
		? Record<string, Entry | undefined>
		: T;
type Add = (path: string, message: string) => void;
/** The questions the request asked, when the child says. */
type Asked = { byId: Map<string, AskQuestion>; known: string };
const notAsked = (id: string, { known }: Asked) => `${JSON.stringify(id)} is no question of the request (${known})`;

function replyIssues(reply: SoundReply, expect: Expectation): Issue[] {
	const issues: Issue[] = [];
	const add: Add = (path, message) => void issues.push({ path, message });
	if (reply.rid !== undefined && expect.rid !== undefined && reply.rid !== expect.rid) {
		add("rid", `${JSON.stringify(reply.rid)} does not match the request's rid ${JSON.stringify(expect.rid)}`);
	}
	const questions = expect.questions;
	const asked = questions && {
		byId: new Map(questions.map((q) => [q.id, q])),
		known: `known ids: ${questions.map((q) => JSON.stringify(q.id)).join(", ")}`,
	};
	for (const [id, answer] of Object.entries(reply.answers ?? {}))
		if (answer) answerIssues(childPath("answers", id), id, answer, asked, add);
	// A question is answered, skipped or left to the model (delegated), one at most.
	const seen = new Set<string>();
	for (const field of ["skipped", "delegated"] as const)
		reply[field]?.forEach((id, i) => {
			if (id === undefined) return;
			const at = `${field}[${i}]`;
			const question = asked?.byId.get(id);
			if (seen.has(id)) add(at, `repeats ${JSON.stringify(id)}; list each question once, in skipped or delegated`);
			else if (reply.answers && Object.hasOwn(reply.answers, id))
				add(at, `${JSON.stringify(id)} is both answered and ${field}`);
			else if (asked && !question) add(at, notAsked(id, asked));
			else if (field === "skipped" && question?.required)
				add(at, `question ${JSON.stringify(id)} is required and cannot be skipped`);
			seen.add(id);
		});
	// Said of answers: each one answered, listed once.
	reply.previewsUnseen?.forEach((id, i) => {
		if (id === undefined) return;
		const at = `previewsUnseen[${i}]`;
		if (reply.previewsUnseen?.indexOf(id) !== i) add(at, `repeats ${JSON.stringify(id)}; list each question once`);
		else if (!reply.answers || !Object.hasOwn(reply.answers, id))
			add(at, `${JSON.stringify(id)} is not answered; list only questions answered without their previews`);
	});
	draftIssues(reply, asked, add);
	if (reply.attachments) fileIssues(reply.attachments, reply.v, questions, add);
	if (!asked) return issues;
	reply.notes?.forEach(
		(note, i) =>
			note && !asked.byId.has(note.questionId) && add(`notes[${i}].questionId`, notAsked(note.questionId, asked)),
	);
	if (reply.status !== "answered" || !reply.answers) return issues;
	for (const question of asked.byId.values()) {
		if (question.required && !Object.hasOwn(reply.answers, question.id) && !reply.delegated?.includes(question.id)) {
			add(
				childPath("answers", question.id),
				`is missing: status "answered" needs an answer to every required question (or it in delegated)`,
			);
		}
	}
	return issues;
}

const NO_FREE_TEXT = "is free text, but the question does not allow it (allowOther is false)";

/** One answer: its shape's own rules, then (the questions known) whether it fits its question. */
function answerIssues(path: string, id: string, answer: AskAnswer, asked: Asked | undefined, add: Add): void {
	if (answer.kind === "single" && answer.selections.length !== 1)
		add(`${path}.selections`, `a "single" answer has exactly one selection (found ${answer.selections.length})`);
	answer.selections.forEach((s, i) => {
		if (s.custom && s.value !== s.label)
			add(`${path}.selections[${i}].value`, "of a custom selection must equal its label (both are the typed text)");
	});
	if (!asked) return;
	const question = asked.byId.get(id);
	if (!question) return add(path, `answers no question of the request (${asked.known})`);
	const kind = question.multiSelect ? "multi" : "single";
	if (answer.kind !== kind)
		add(`${path}.kind`, `must be "${kind}" for question ${JSON.stringify(id)} (found "${answer.kind}")`);
	const chosen = new Set<string>();
	answer.selections.forEach((selection, i) => {
		const at = `${path}.selections[${i}]`;
		if (selection.custom) {
			if (!question.allowOther) add(at, NO_FREE_TEXT);
			return;
		}
		const option = question.options.find((o) => o.value === selection.value);
		if (!option)
			add(`${at}.value`, `${JSON.stringify(selection.value)} is not an option value of question ${JSON.stringify(id)}`);
		else if (option.label !== selection.label)
			add(
				`${at}.label`,
				`must be ${JSON.stringify(option.label)}, the label of option value ${JSON.stringify(option.value)}`,
			);
		else if (chosen.has(option.value)) add(at, `selects option ${JSON.stringify(option.label)} twice`);
		chosen.add(selection.value);
	});
}

/**
 * An "answer" draft is on no option; given the questions, drafts name real targets, one each, and a submitted form has
 * none.
 */
function draftIssues(reply: SoundReply, asked: Asked | undefined, add: Add): void {
	if (asked && reply.status === "answered") {
		for (const field of ["drafts", "formNoteDraft", "chatDraft"] as const) {
			if ((reply[field]?.length ?? 0) > 0)
				add(field, `must be absent when status is "answered": a submitted form drops its drafts`);
		}
	}
	const targets = new Set<string>();
	reply.drafts?.forEach((draft, i) => {
		const path = `drafts[${i}]`;
		if (!draft) return;
		if (draft.kind === "answer" && draft.option !== undefined)
			add(`${path}.option`, 'must be absent on an "answer" draft (only a note is on an option)');
		if (!asked) return;
		const question = asked.byId.get(draft.questionId);
		const target = JSON.stringify([draft.questionId, draft.kind, draft.option ?? null]);
		if (targets.has(target)) add(path, "is a second draft for the same question, kind and option");
		targets.add(target);
		if (!question) add(`${path}.questionId`, notAsked(draft.questionId, asked));
		else if (draft.kind === "answer" && !question.allowOther) add(path, NO_FREE_TEXT);
		else if (draft.option !== undefined && !question.options.some((o) => o.label === draft.option)) {
			add(
				`${path}.option`,
				`${JSON.stringify(draft.option)} is not an option label of question ${JSON.stringify(draft.questionId)}`,
			);
		}
	});
}
