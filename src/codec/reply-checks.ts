/**
 * The checks a relay reply passes before the child believes it: first its
 * shape (types, the one-or-more selection rules, the editor's length limit
 * for confirmed text; drafts are never cut, so they have none),
 * then, when the child says which questions it asked, whether each answer fits
 * its question. Each check records what is wrong as a path and a rule and
 * returns the clean value it could build.
 */

import { LIMITS } from "../types.ts";
import type { AskAnswer, AskDraft, AskNote, AskQuestion, AskSelection, RelayReply } from "../types.ts";
import { isObject, own } from "../json.ts";
import { childPath, describeFound, indexPath, type ShapeIssue } from "./shape.ts";

export function checkAnswers(value: unknown, issues: ShapeIssue[]): Record<string, AskAnswer> | undefined {
	if (!isObject(value)) {
		issues.push({ path: "answers", message: `must be an object keyed by question id (found ${describeFound(value)})` });
		return undefined;
	}
	const entries: [string, AskAnswer][] = [];
	for (const [id, raw] of Object.entries(value)) {
		const answer = checkAnswer(childPath("answers", id), raw, issues);
		if (answer) entries.push([id, answer]);
	}
	return Object.fromEntries(entries);
}

function checkAnswer(path: string, value: unknown, issues: ShapeIssue[]): AskAnswer | undefined {
	if (!isObject(value)) {
		issues.push({ path, message: `must be an answer object { kind, selections } (found ${describeFound(value)})` });
		return undefined;
	}
	const before = issues.length;
	const kind = own(value, "kind");
	if (kind !== "single" && kind !== "multi") {
		issues.push({ path: `${path}.kind`, message: `must be "single" or "multi" (found ${describeFound(kind)})` });
	}
	const rawSelections = own(value, "selections");
	const selections: AskSelection[] = [];
	if (!Array.isArray(rawSelections)) {
		issues.push({ path: `${path}.selections`, message: `must be an array (found ${describeFound(rawSelections)})` });
	} else {
		rawSelections.forEach((raw, i) => {
			const selection = checkSelection(indexPath(`${path}.selections`, i), raw, issues);
			if (selection) selections.push(selection);
		});
		if (kind === "single" && rawSelections.length !== 1) {
			issues.push({
				path: `${path}.selections`,
				message: `a "single" answer has exactly one selection (found ${rawSelections.length})`,
			});
		}
		if (kind === "multi" && rawSelections.length === 0) {
			issues.push({ path: `${path}.selections`, message: `a "multi" answer has at least one selection (found none)` });
		}
	}
	const note = own(value, "note");
	if (note !== undefined) checkUserText(`${path}.note`, note, issues);
	if (issues.length > before) return undefined;
	const answer: AskAnswer = { kind: kind as AskAnswer["kind"], selections };
	if (typeof note === "string") answer.note = note;
	return answer;
}

function checkSelection(path: string, value: unknown, issues: ShapeIssue[]): AskSelection | undefined {
	if (!isObject(value)) {
		issues.push({ path, message: `must be a selection object { value, label, custom? } (found ${describeFound(value)})` });
		return undefined;
	}
	const before = issues.length;
	const selectionValue = own(value, "value");
	const label = own(value, "label");
	const custom = own(value, "custom");
	if (typeof selectionValue !== "string") {
		issues.push({ path: `${path}.value`, message: `must be a string (found ${describeFound(selectionValue)})` });
	}
	if (typeof label !== "string") issues.push({ path: `${path}.label`, message: `must be a string (found ${describeFound(label)})` });
	if (custom !== undefined && custom !== true) {
		issues.push({ path: `${path}.custom`, message: `must be true or absent (found ${describeFound(custom)})` });
	}
	if (custom === true && typeof selectionValue === "string" && typeof label === "string") {
		if (selectionValue !== label) {
			issues.push({ path: `${path}.value`, message: "of a custom selection must equal its label (both are the typed text)" });
		} else checkUserText(`${path}.label`, label, issues);
	}
	if (issues.length > before) return undefined;
	const selection: AskSelection = { value: selectionValue as string, label: label as string };
	if (custom === true) selection.custom = true;
	return selection;
}

export function checkSkipped(value: unknown, answers: Record<string, AskAnswer> | undefined, issues: ShapeIssue[]): string[] | undefined {
	if (!Array.isArray(value)) {
		issues.push({ path: "skipped", message: `must be an array of question ids (found ${describeFound(value)})` });
		return undefined;
	}
	const seen = new Set<string>();
	value.forEach((id: unknown, i) => {
		const path = indexPath("skipped", i);
		if (typeof id !== "string") issues.push({ path, message: `must be a question id string (found ${describeFound(id)})` });
		else if (seen.has(id)) issues.push({ path, message: `repeats ${JSON.stringify(id)}; list each skipped question once` });
		else if (answers !== undefined && Object.hasOwn(answers, id)) {
			issues.push({ path, message: `${JSON.stringify(id)} is both answered and skipped` });
		} else seen.add(id);
	});
	return [...seen];
}

export function checkNotes(value: unknown, issues: ShapeIssue[]): AskNote[] | undefined {
	if (!Array.isArray(value)) {
		issues.push({ path: "notes", message: `must be an array of notes (found ${describeFound(value)})` });
		return undefined;
	}
	const notes: AskNote[] = [];
	value.forEach((raw: unknown, i) => {
		const path = indexPath("notes", i);
		if (!isObject(raw)) {
			issues.push({ path, message: `must be a note object { questionId, option?, text } (found ${describeFound(raw)})` });
			return;
		}
		const before = issues.length;
		const questionId = own(raw, "questionId");
		const option = own(raw, "option");
		const text = own(raw, "text");
		if (typeof questionId !== "string") {
			issues.push({ path: `${path}.questionId`, message: `must be a string (found ${describeFound(questionId)})` });
		}
		if (option !== undefined && typeof option !== "string") {
			issues.push({ path: `${path}.option`, message: `must be an option label string or absent (found ${describeFound(option)})` });
		}
		checkUserText(`${path}.text`, text, issues);
		if (issues.length > before) return;
		notes.push({
			questionId: questionId as string,
			...(typeof option === "string" && { option }),
			text: text as string,
		});
	});
	return notes;
}

/**
 * Drafts: absent (a reply from before drafts existed) or an array of
 * { questionId, kind: "answer" | "note", option?, text } with non-blank text;
 * only a note names an option.
 */
export function checkDrafts(value: unknown, issues: ShapeIssue[]): AskDraft[] | undefined {
	if (value === undefined) return undefined;
	if (!Array.isArray(value)) {
		issues.push({ path: "drafts", message: `must be an array of drafts, or absent (found ${describeFound(value)})` });
		return undefined;
	}
	const drafts: AskDraft[] = [];
	value.forEach((raw: unknown, i) => {
		const path = indexPath("drafts", i);
		if (!isObject(raw)) {
			issues.push({ path, message: `must be a draft object { questionId, kind, option?, text } (found ${describeFound(raw)})` });
			return;
		}
		const before = issues.length;
		const questionId = own(raw, "questionId");
		const kind = own(raw, "kind");
		const option = own(raw, "option");
		const text = own(raw, "text");
		if (typeof questionId !== "string") {
			issues.push({ path: `${path}.questionId`, message: `must be a string (found ${describeFound(questionId)})` });
		}
		if (kind !== "answer" && kind !== "note") {
			issues.push({ path: `${path}.kind`, message: `must be "answer" or "note" (found ${describeFound(kind)})` });
		}
		if (option !== undefined && typeof option !== "string") {
			issues.push({ path: `${path}.option`, message: `must be an option label string or absent (found ${describeFound(option)})` });
		} else if (option !== undefined && kind === "answer") {
			issues.push({ path: `${path}.option`, message: `must be absent on an "answer" draft (only a note is on an option)` });
		}
		if (typeof text !== "string") issues.push({ path: `${path}.text`, message: `must be a string (found ${describeFound(text)})` });
		else if (text.trim() === "") issues.push({ path: `${path}.text`, message: "must not be blank (a blank draft is no draft)" });
		if (issues.length > before) return;
		drafts.push({
			questionId: questionId as string,
			kind: kind as AskDraft["kind"],
			...(typeof option === "string" && { option }),
			text: text as string,
		});
	});
	return drafts;
}

/** Free text and notes: strings the user typed, within the editor's limit. */
function checkUserText(path: string, value: unknown, issues: ShapeIssue[]): void {
	if (typeof value !== "string") issues.push({ path, message: `must be a string (found ${describeFound(value)})` });
	else if (value.length > LIMITS.freeText) {
		issues.push({ path, message: `must be at most ${LIMITS.freeText} characters (found ${value.length})` });
	}
}

export function checkAgainstQuestions(reply: RelayReply, questions: readonly AskQuestion[], issues: ShapeIssue[]): void {
	const byId = new Map(questions.map((q) => [q.id, q]));
	const known = `known ids: ${questions.map((q) => JSON.stringify(q.id)).join(", ")}`;
	for (const [id, answer] of Object.entries(reply.answers)) {
		const path = childPath("answers", id);
		const question = byId.get(id);
		if (!question) {
			issues.push({ path, message: `answers no question of the request (${known})` });
			continue;
		}
		const kind = question.multiSelect ? "multi" : "single";
		if (answer.kind !== kind) {
			issues.push({ path: `${path}.kind`, message: `must be "${kind}" for question ${JSON.stringify(id)} (found "${answer.kind}")` });
		}
		const chosen = new Set<string>();
		answer.selections.forEach((selection, i) => {
			const at = indexPath(`${path}.selections`, i);
			if (selection.custom) {
				if (!question.allowOther) issues.push({ path: at, message: "is free text, but the question does not allow it (allowOther is false)" });
				return;
			}
			const option = question.options.find((o) => o.value === selection.value);
			if (!option) {
				issues.push({ path: `${at}.value`, message: `${JSON.stringify(selection.value)} is not an option value of question ${JSON.stringify(id)}` });
			} else if (option.label !== selection.label) {
				issues.push({ path: `${at}.label`, message: `must be ${JSON.stringify(option.label)}, the label of option value ${JSON.stringify(option.value)}` });
			} else if (chosen.has(option.value)) {
				issues.push({ path: at, message: `selects option ${JSON.stringify(option.label)} twice` });
			}
			chosen.add(selection.value);
		});
	}
	reply.skipped.forEach((id, i) => {
		const question = byId.get(id);
		const path = indexPath("skipped", i);
		if (!question) issues.push({ path, message: `${JSON.stringify(id)} is no question of the request (${known})` });
		else if (question.required) issues.push({ path, message: `question ${JSON.stringify(id)} is required and cannot be skipped` });
	});
	reply.notes.forEach((note, i) => {
		if (!byId.has(note.questionId)) {
			issues.push({ path: `${indexPath("notes", i)}.questionId`, message: `${JSON.stringify(note.questionId)} is no question of the request (${known})` });
		}
	});
	// A submitted form has dropped its drafts (the user confirmed), and a target holds one draft.
	if (reply.status === "answered" && (reply.drafts ?? []).length > 0) {
		issues.push({ path: "drafts", message: 'must be absent when status is "answered": a submitted form drops its drafts' });
	}
	const targets = new Set<string>();
	(reply.drafts ?? []).forEach((draft, i) => {
		const path = indexPath("drafts", i);
		const question = byId.get(draft.questionId);
		const target = JSON.stringify([draft.questionId, draft.kind, draft.option ?? null]);
		if (targets.has(target)) issues.push({ path, message: "is a second draft for the same question, kind and option" });
		targets.add(target);
		if (!question) {
			issues.push({ path: `${path}.questionId`, message: `${JSON.stringify(draft.questionId)} is no question of the request (${known})` });
		} else if (draft.kind === "answer" && !question.allowOther) {
			issues.push({ path, message: "is free text, but the question does not allow it (allowOther is false)" });
		} else if (draft.option !== undefined && !question.options.some((o) => o.label === draft.option)) {
			issues.push({ path: `${path}.option`, message: `${JSON.stringify(draft.option)} is not an option label of question ${JSON.stringify(draft.questionId)}` });
		}
	});
	if (reply.status === "answered") {
		for (const question of questions) {
			if (question.required && !Object.hasOwn(reply.answers, question.id)) {
				issues.push({
					path: childPath("answers", question.id),
					message: `is missing: status "answered" needs an answer to every required question`,
				});
			}
		}
	}
}
