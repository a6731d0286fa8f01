/**
 * A form's answers as plain JSON, kept while the user works (src/kept/store.ts) and put back after pi restarts; what
 * comes back is checked against the form first.
 */

import { type Static, Type } from "@sinclair/typebox";
import { ATTACHMENT_LIMITS, type AskAttached, type AskAttachment } from "../core/attachment.ts";
import { attachable } from "./attach.ts";
import { childPath, type Issue, sayPatterns, schemaIssues } from "../core/schema.ts";
import type { AskForm, AskQuestion, Collected } from "../core/types.ts";
import {
	draftKey,
	type FormSetup,
	type FormState,
	formTargets,
	initialState,
	isNoteTarget,
	type Place,
	placeOf,
	type QuestionState,
	rowCount,
	savedText,
} from "./model.ts";

const NON_BLANK = "\\S";
sayPatterns({ [NON_BLANK]: "must not be blank" });

/** Saved text is never blank (the state's rule). */
const Text = Type.String({ pattern: NON_BLANK });
const Index = Type.Integer({ minimum: 0 });

/**
 * A question's state as kept, no scrolls; `delegated` absent in 0.2.0's. `note` and `optionNotes` (null where none) are
 * read in files of 0.2.0 and before, never written: the answers' `notes` hold them now.
 */
const SavedQuestionSchema = Type.Object({
	focus: Index,
	chosen: Type.Array(Index),
	customChosen: Type.Optional(Type.Boolean()),
	skipped: Type.Optional(Type.Boolean()),
	delegated: Type.Optional(Type.Boolean()),
	customText: Type.Optional(Text),
	note: Type.Optional(Text),
	optionNotes: Type.Optional(Type.Array(Type.Union([Type.Null(), Text]))),
});

const AttachmentSchema = Type.Object({
	name: Text,
	path: Type.String({ pattern: "^/" }),
	size: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
	mime: Text,
});
sayPatterns({ "^/": "must be an absolute path" });

const question = { question: Index };
/** The answers as kept, checked against this schema, then against the form, before anything in them is used. */
const SavedAnswersSchema = Type.Object({
	tab: Index,
	questions: Type.Array(SavedQuestionSchema),
	/** The saved notes by draftKey, as the state holds them. */
	notes: Type.Optional(Type.Record(Type.String(), Text)),
	/** Read in files of 0.2.0 and before, never written. */
	formNote: Type.Optional(Text),
	/** Unsaved editor texts by draftKey, the open editor's included. */
	drafts: Type.Optional(Type.Record(Type.String(), Text)),
	/** The editor open when it was saved. */
	editing: Type.Optional(
		Type.Union([
			Type.Object({ kind: Type.Literal("custom"), ...question }),
			Type.Object({ kind: Type.Literal("questionNote"), ...question }),
			Type.Object({ kind: Type.Literal("optionNote"), ...question, option: Index }),
			Type.Object({ kind: Type.Literal("formNote") }),
		]),
	),
	/** Attached files by draftKey: where they are and what they are, never their bytes. */
	attachments: Type.Optional(
		Type.Record(Type.String(), Type.Array(AttachmentSchema, { minItems: 1, maxItems: ATTACHMENT_LIMITS.perAnswer })),
	),
	/** Submitted: the questions answered without their previews in view (Collected.previewsUnseen). */
	previewsUnseen: Type.Optional(Type.Array(Type.String())),
});

export type SavedQuestion = Static<typeof SavedQuestionSchema>;
export type SavedAnswers = Static<typeof SavedAnswersSchema>;

/**
 * What to keep of `state`; `editorText` is what the open editor holds now (it reaches the state only when it closes).
 */
export function savedAnswers(state: FormState, editorText: string | undefined): SavedAnswers {
	const drafts = { ...state.drafts };
	const editing = state.overlay.kind === "editor" ? state.overlay.target : undefined;
	if (editing && editorText !== undefined && editorText.trim() !== "" && editorText !== savedText(state, editing))
		drafts[draftKey(editing)] = editorText;
	// Spread first: the fields keep the order they have on disk.
	const questions = state.questions.map(
		({ scroll: _scroll, detailScroll: _detail, ...qs }): SavedQuestion => ({ ...qs, chosen: [...qs.chosen] }),
	);
	return {
		tab: state.tab,
		questions,
		notes: { ...state.notes },
		drafts,
		...(editing && editing.kind !== "chat" && { editing }),
		...(Object.keys(state.attachments).length > 0 && { attachments: copyAttachments(state.attachments) }),
	};
}

const copyAttachments = (all: FormState["attachments"]): Record<string, AskAttachment[]> =>
	Object.fromEntries(Object.entries(all).map(([key, files]) => [key, files.map((file) => ({ ...file }))]));

/**
 * What the user submitted, as kept: every answer, free text, note, skip and "You decide" of `collected`, the focus on
 * the first choice. From what was collected, not from a shell's state: the walker's and the page's answers are kept
 * too.
 */
export function answeredState(form: AskForm, collected: Collected): SavedAnswers {
	const { answers, skipped, delegated = [] } = collected;
	const keyOf = keysByPlace(form);
	const notes: Record<string, string> = {};
	for (const { text, ...at } of collected.notes) {
		const key = keyOf({ kind: "note", ...at });
		// One note per place: the first, as the result says it.
		if (key !== undefined && !Object.hasOwn(notes, key)) notes[key] = text;
	}
	const questions = form.questions.map((question): SavedQuestion => {
		const selections = Object.hasOwn(answers, question.id) ? (answers[question.id]?.selections ?? []) : [];
		const chosen = selections
			.filter((selection) => !selection.custom)
			.map((selection) => question.options.findIndex((option) => option.label === selection.label));
		const customText = selections.find((selection) => selection.custom)?.label;
		const saved: SavedQuestion = {
			focus: chosen[0] ?? 0,
			chosen,
			customChosen: customText !== undefined,
			skipped: skipped.includes(question.id),
			delegated: delegated.includes(question.id),
		};
		if (customText !== undefined) saved.customText = customText;
		return saved;
	});
	const attachments = attachmentsByTarget(keyOf, collected.attachments ?? []);
	return {
		tab: 0,
		questions,
		notes,
		drafts: {},
		...(Object.keys(attachments).length > 0 && { attachments }),
		...(collected.previewsUnseen?.length && { previewsUnseen: [...collected.previewsUnseen] }),
	};
}

/** The questions a kept form says were answered without their previews in view; `saved`: one restoredState took. */
export const previewsUnseenIn = (saved: unknown): readonly string[] => (saved as SavedAnswers).previewsUnseen ?? [];

/** The draftKey of the target a result's note, draft or file is on (its Place), if the form has it. */
function keysByPlace(form: AskForm): (place: Place) => string | undefined {
	const id = ({ kind, questionId, option }: Place) => JSON.stringify([kind, questionId ?? null, option ?? null]);
	const keys = new Map(formTargets(form).map((target) => [id(placeOf(form, target)), draftKey(target)]));
	return (place) => keys.get(id(place));
}

/** The submitted files, back on the answers and notes they went with (by draftKey), as a state holds them. */
function attachmentsByTarget(
	keyOf: (place: Place) => string | undefined,
	files: readonly AskAttached[],
): Record<string, AskAttachment[]> {
	const byTarget: Record<string, AskAttachment[]> = {};
	for (const { kind, questionId, option, name, path, size, mime, error } of files) {
		const key = keyOf({ kind, questionId, option });
		if (key !== undefined && error === undefined) (byTarget[key] ??= []).push({ name, path, size, mime });
	}
	return byTarget;
}

/**
 * A new state for `form` holding `saved`; undefined when `saved` does not fit the form (another form's, or damaged).
 */
export function restoredState(form: AskForm, saved: unknown, setup?: FormSetup): FormState | undefined {
	const read = readSaved(form, saved, setup);
	return "state" in read ? read.state : undefined;
}

/**
 * `saved` read back for `form`: its shape checked by its schema, then its fit to the form; each problem by its path
 * (`questions[1].chosen[0]`), and nothing of it used unless it is sound whole.
 */
export function readSaved(
	form: AskForm,
	saved: unknown,
	setup?: FormSetup,
): { state: FormState } | { issues: Issue[] } {
	const shape = schemaIssues(SavedAnswersSchema, saved);
	if (shape.length > 0) return { issues: shape };
	const answers = saved as SavedAnswers;
	const start = initialState(form, setup);
	const issues = fitIssues(start, answers);
	if (issues.length > 0) return { issues };
	const questions = start.questions.map((blank, i): QuestionState => {
		const qs = answers.questions[i] as SavedQuestion;
		return {
			...blank,
			focus: qs.focus,
			chosen: [...qs.chosen].sort((a, b) => a - b),
			customText: qs.customText,
			customChosen: qs.customChosen === true,
			skipped: qs.skipped === true,
			delegated: qs.delegated === true,
		};
	});
	const { tab, drafts, attachments = {}, editing } = answers;
	const overlay: FormState["overlay"] = editing ? { kind: "editor", target: editing } : { kind: "none" };
	return {
		state: {
			...start,
			tab,
			questions,
			notes: { ...earlierNotes(answers), ...answers.notes },
			drafts: { ...drafts },
			attachments: copyAttachments(attachments),
			overlay,
		},
	};
}

/** The notes as files of 0.2.0 and before keep them: on each question, per option, and the whole form's. */
function earlierNotes({ questions, formNote }: SavedAnswers): Record<string, string> {
	const notes: Record<string, string> = {};
	questions.forEach(({ note, optionNotes = [] }, question) => {
		if (note !== undefined) notes[draftKey({ kind: "questionNote", question })] = note;
		optionNotes.forEach((text, option) => {
			if (text !== null) notes[draftKey({ kind: "optionNote", question, option })] = text;
		});
	});
	if (formNote !== undefined) notes[draftKey({ kind: "formNote" })] = formNote;
	return notes;
}

// ── What no schema can say: the answers fit the form ───────────────────────

/** Whether sound saved answers fit the form `start` is the blank state of: each index, each target, each limit. */
function fitIssues(start: FormState, answers: SavedAnswers): Issue[] {
	const { form } = start;
	const issues: Issue[] = [];
	const add = (path: string, message: string) => void issues.push({ path, message });
	const count = form.questions.length;
	if (answers.questions.length !== count)
		add("questions", `must hold one entry per question of the form (${count}, found ${answers.questions.length})`);
	const tabs = count + (count > 1 ? 1 : 0);
	if (answers.tab >= tabs) add("tab", `must be below ${tabs}, the form's tabs (found ${answers.tab})`);
	answers.questions.forEach((qs, i) => {
		if (form.questions[i]) questionIssues(start, i, qs, (path, message) => add(`questions[${i}]${path}`, message));
	});
	const notes = new Set(formTargets(form).filter(isNoteTarget).map(draftKey));
	for (const key of Object.keys(answers.notes ?? {}))
		if (!notes.has(key)) add(childPath("notes", key), "is no note of this form");
	const targets = targetsOf(form);
	let files = 0;
	for (const [key, list] of Object.entries(answers.attachments ?? {})) {
		if (!targets.has(key)) add(childPath("attachments", key), "is no answer or note of this form that takes files");
		files += list.length;
	}
	if (files > ATTACHMENT_LIMITS.perForm)
		add("attachments", `must hold at most ${ATTACHMENT_LIMITS.perForm} files in all (found ${files})`);
	if (answers.editing && !targets.has(draftKey(answers.editing)))
		add("editing", "is no row of this form that has an editor");
	return issues;
}

/** One saved question against the form's `i`th (there is one). */
function questionIssues(start: FormState, i: number, qs: SavedQuestion, add: (path: string, message: string) => void) {
	const question = start.form.questions[i] as AskQuestion;
	const options = question.options.length;
	if (qs.optionNotes && qs.optionNotes.length !== options)
		add(".optionNotes", `must hold one entry per option of the question (${options}, found ${qs.optionNotes.length})`);
	qs.chosen.forEach((index, at) => {
		if (index >= options) add(`.chosen[${at}]`, `must be below ${options}, the question's options (found ${index})`);
		else if (qs.chosen.indexOf(index) !== at) add(`.chosen[${at}]`, `repeats option ${index}`);
	});
	if (!question.multiSelect && qs.chosen.length > 1)
		add(".chosen", `must hold at most one option: the question takes one (found ${qs.chosen.length})`);
	const rows = rowCount(start, i);
	if (qs.focus >= rows) add(".focus", `must be below ${rows}, the question's rows (found ${qs.focus})`);
	// Left to the model: only where the form offers it, and alone.
	if (qs.delegated === true && !start.delegable[i]) add(".delegated", "is not offered on this question");
	else if (qs.delegated === true && (qs.chosen.length > 0 || qs.customChosen === true))
		add(".delegated", "must stand alone: nothing chosen beside it");
	if (qs.customChosen === true && qs.customText === undefined)
		add(".customText", "is missing: customChosen needs the text");
}

/** The draftKey of every editor of `form` that takes files: each free answer (where it takes one), each note. */
const targetsOf = (form: AskForm): Set<string> =>
	new Set(
		formTargets(form)
			.filter((t) => attachable(t) && (t.kind !== "custom" || form.questions[t.question]?.allowOther))
			.map(draftKey),
	);
