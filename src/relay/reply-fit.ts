/**
 * What no schema can say of a relay reply: its parts agree (each question answered, skipped or left to the model, one
 * at most), and given the request they fit its questions (ids, labels, values, free text, every note, draft and file
 * where it can be). Read only after the schema's check: what it found unsound is undefined here.
 */

import type { AskAnswer, AskQuestion } from "../core/types.ts";
import { childPath, type Issue } from "../core/schema.ts";
import type { AnyWireReply } from "./envelope-schema.ts";
import { fileIssues } from "./files.ts";

/** What the child knows about the reply it waits for: the questions it asked, the request's rid. */
export type Expectation = { questions?: readonly AskQuestion[]; rid?: string };

/**
 * A reply as schemaIssues leaves it: what it found unsound (a field, an item of a list, an entry of a record) is
 * undefined.
 */
export type SoundReply = { [K in keyof AnyWireReply]?: Sound<AnyWireReply[K]> };
type Sound<T> = T extends readonly (infer Item)[]
	? (Item | undefined)[]
	: T extends Record<string, infer Entry>
		? Record<string, Entry | undefined>
		: T;
type Add = (path: string, message: string) => void;
/** The questions the request asked, when the child says. */
type Asked = { byId: Map<string, AskQuestion>; known: string };
const notAsked = (id: string, { known }: Asked) => `${JSON.stringify(id)} is no question of the request (${known})`;

export function replyIssues(reply: SoundReply, expect: Expectation): Issue[] {
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
	reply.notes?.forEach((note, i) => {
		if (note?.questionId === undefined) {
			if (note?.option !== undefined) add(`notes[${i}].option`, ON_FORM);
			return;
		}
		const question = asked?.byId.get(note.questionId);
		if (asked && !question) add(`notes[${i}].questionId`, notAsked(note.questionId, asked));
		else if (question && note.option !== undefined && !hasLabel(question, note.option))
			add(`notes[${i}].option`, notAnOption(note.option, question));
	});
	draftIssues(reply, asked, add);
	if (reply.attachments) fileIssues(reply.attachments, reply.v, questions, add);
	if (!asked) return issues;
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
const ON_FORM = "must be absent on the whole form's note or draft (no questionId): an option is on a question";

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
		if (draft.kind === "chat" && (draft.questionId !== undefined || draft.option !== undefined))
			add(path, 'must name no question or option: a "chat" draft is the message for the chat');
		else if (draft.kind === "answer" && draft.option !== undefined)
			add(`${path}.option`, 'must be absent on an "answer" draft (only a note is on an option)');
		else if (draft.kind === "answer" && draft.questionId === undefined)
			add(`${path}.questionId`, 'is missing: an "answer" draft is on a question');
		else if (draft.questionId === undefined && draft.option !== undefined) add(`${path}.option`, ON_FORM);
		if (!asked) return;
		const target = JSON.stringify([draft.questionId ?? null, draft.kind, draft.option ?? null]);
		if (targets.has(target)) add(path, "is a second draft for the same question, kind and option");
		targets.add(target);
		if (draft.questionId === undefined) return;
		const question = asked.byId.get(draft.questionId);
		if (!question) add(`${path}.questionId`, notAsked(draft.questionId, asked));
		else if (draft.kind === "answer" && !question.allowOther) add(path, NO_FREE_TEXT);
		else if (draft.option !== undefined && !hasLabel(question, draft.option))
			add(`${path}.option`, notAnOption(draft.option, question));
	});
}

const hasLabel = (question: AskQuestion, label: string) => question.options.some((o) => o.label === label);
const notAnOption = (label: string, question: AskQuestion) =>
	`${JSON.stringify(label)} is not an option label of question ${JSON.stringify(question.id)}`;
