/**
 * What a relay reply must be that its schema cannot say: its parts agree with
 * one another and, when the child says which questions it asked, with those
 * questions. Runs after the schema check, only on the parts it found sound,
 * so everything read here has its schema's type.
 */

import type { AskAnswer, AskDraft, AskNote, AskQuestion, AskStatus } from "../types.ts";
import { childPath, type Issue } from "./schema-check.ts";

/** A reply as the v1 wire has it: the whole form's texts in fields of their own, every note and draft on a question. */
export interface WireReply {
	v: 1;
	rid?: string;
	status: AskStatus;
	answers: Record<string, AskAnswer>;
	skipped: string[];
	notes: (AskNote & { questionId: string })[];
	drafts?: (AskDraft & { questionId: string; kind: "answer" | "note" })[];
	formNote?: string;
	formNoteDraft?: string;
	chatMessage?: string;
	chatDraft?: string;
	error?: string;
	answeredBy?: string;
}

/** What the child knows about the reply it waits for; lets decodeRelayReply check answers against the form. */
export interface RelayReplyExpectation {
	questions?: readonly AskQuestion[];
	rid?: string;
}

/** Which parts of the reply the schema found sound: `whole` at and under the path, `typed` the value at it. */
export interface Soundness {
	whole(path: string): boolean;
	typed(path: string): boolean;
}

export function replyIssues(reply: WireReply, sound: Soundness, expect: RelayReplyExpectation = {}): Issue[] {
	const issues: Issue[] = [];
	const add = (path: string, message: string) => void issues.push({ path, message });
	if (sound.whole("rid") && reply.rid !== undefined && expect.rid !== undefined && reply.rid !== expect.rid) {
		add("rid", `${JSON.stringify(reply.rid)} does not match the request's rid ${JSON.stringify(expect.rid)}`);
	}
	const byId = expect.questions && new Map(expect.questions.map((q) => [q.id, q]));
	const known = `known ids: ${(expect.questions ?? []).map((q) => JSON.stringify(q.id)).join(", ")}`;
	const answers = sound.typed("answers") ? Object.entries(reply.answers).filter(([id]) => sound.whole(childPath("answers", id))) : [];
	for (const [id, answer] of answers) answerIssues(childPath("answers", id), answer, byId && { question: byId.get(id), id, known }, add);
	if (sound.typed("skipped")) {
		const seen = new Set<string>();
		reply.skipped.forEach((id, i) => {
			const path = `skipped[${i}]`;
			const question = byId?.get(id);
			if (!sound.whole(path)) return;
			if (seen.has(id)) add(path, `repeats ${JSON.stringify(id)}; list each skipped question once`);
			else if (sound.typed("answers") && Object.hasOwn(reply.answers, id)) add(path, `${JSON.stringify(id)} is both answered and skipped`);
			else if (byId && !question) add(path, `${JSON.stringify(id)} is no question of the request (${known})`);
			else if (question?.required) add(path, `question ${JSON.stringify(id)} is required and cannot be skipped`);
			seen.add(id);
		});
	}
	if (sound.typed("drafts")) draftIssues(reply, byId, known, sound, add);
	if (!byId) return issues;
	if (sound.typed("notes")) {
		reply.notes.forEach((note, i) => {
			if (sound.whole(`notes[${i}]`) && !byId.has(note.questionId)) add(`notes[${i}].questionId`, `${JSON.stringify(note.questionId)} is no question of the request (${known})`);
		});
	}
	if (sound.whole("status") && sound.typed("answers") && reply.status === "answered") {
		for (const question of byId.values()) {
			if (question.required && !Object.hasOwn(reply.answers, question.id)) {
				add(childPath("answers", question.id), `is missing: status "answered" needs an answer to every required question`);
			}
		}
	}
	return issues;
}

type Add = (path: string, message: string) => void;

/** One answer: its shape's own rules, then (`asked`, when the questions are known) whether it fits its question. */
function answerIssues(path: string, answer: AskAnswer, asked: { question: AskQuestion | undefined; id: string; known: string } | undefined, add: Add): void {
	if (answer.kind === "single" && answer.selections.length !== 1) {
		add(`${path}.selections`, `a "single" answer has exactly one selection (found ${answer.selections.length})`);
	}
	answer.selections.forEach((s, i) => {
		if (s.custom && s.value !== s.label) add(`${path}.selections[${i}].value`, "of a custom selection must equal its label (both are the typed text)");
	});
	if (!asked) return;
	const { question, id, known } = asked;
	if (!question) return add(path, `answers no question of the request (${known})`);
	const kind = question.multiSelect ? "multi" : "single";
	if (answer.kind !== kind) add(`${path}.kind`, `must be "${kind}" for question ${JSON.stringify(id)} (found "${answer.kind}")`);
	const chosen = new Set<string>();
	answer.selections.forEach((selection, i) => {
		const at = `${path}.selections[${i}]`;
		if (selection.custom) {
			if (!question.allowOther) add(at, "is free text, but the question does not allow it (allowOther is false)");
			return;
		}
		const option = question.options.find((o) => o.value === selection.value);
		if (!option) add(`${at}.value`, `${JSON.stringify(selection.value)} is not an option value of question ${JSON.stringify(id)}`);
		else if (option.label !== selection.label) add(`${at}.label`, `must be ${JSON.stringify(option.label)}, the label of option value ${JSON.stringify(option.value)}`);
		else if (chosen.has(option.value)) add(at, `selects option ${JSON.stringify(option.label)} twice`);
		chosen.add(selection.value);
	});
}

/** An "answer" draft is on no option; given the questions, drafts name real targets, one each, and a submitted form has none. */
function draftIssues(reply: WireReply, byId: Map<string, AskQuestion> | undefined, known: string, sound: Soundness, add: Add): void {
	if (byId && sound.whole("status") && reply.status === "answered") {
		for (const field of ["drafts", "formNoteDraft", "chatDraft"] as const) {
			const value = reply[field];
			if (sound.whole(field) && value !== undefined && value.length > 0) add(field, `must be absent when status is "answered": a submitted form drops its drafts`);
		}
	}
	const targets = new Set<string>();
	reply.drafts?.forEach((draft, i) => {
		const path = `drafts[${i}]`;
		if (!sound.whole(path)) return;
		if (draft.kind === "answer" && draft.option !== undefined) add(`${path}.option`, 'must be absent on an "answer" draft (only a note is on an option)');
		if (!byId) return;
		const question = byId.get(draft.questionId);
		const target = JSON.stringify([draft.questionId, draft.kind, draft.option ?? null]);
		if (targets.has(target)) add(path, "is a second draft for the same question, kind and option");
		targets.add(target);
		if (!question) add(`${path}.questionId`, `${JSON.stringify(draft.questionId)} is no question of the request (${known})`);
		else if (draft.kind === "answer" && !question.allowOther) add(path, "is free text, but the question does not allow it (allowOther is false)");
		else if (draft.option !== undefined && !question.options.some((o) => o.label === draft.option)) {
			add(`${path}.option`, `${JSON.stringify(draft.option)} is not an option label of question ${JSON.stringify(draft.questionId)}`);
		}
	});
}
