/**
 * A form's answers as plain JSON, kept while the user works (src/kept/store.ts) and put back after pi restarts; what
 * comes back is checked against the form first.
 */

import { ATTACHMENT_LIMITS, type AskAttachment } from "../core/attachment.ts";
import type { AskForm, Collected } from "../core/types.ts";
import {
	draftKey,
	type EditorTarget,
	type FormSetup,
	type FormState,
	initialState,
	isQuestionTarget,
	type QuestionState,
	rowCount,
	savedText,
} from "./model.ts";

/** A question's state as kept, no scrolls; `optionNotes` null where none (JSON); `delegated` absent in 0.2.0's. */
export type SavedQuestion = Pick<QuestionState, "focus" | "customChosen" | "skipped"> & {
	delegated?: boolean;
	chosen: number[];
	customText?: string;
	note?: string;
	optionNotes: Array<string | null>;
};

export interface SavedAnswers {
	tab: number;
	questions: SavedQuestion[];
	formNote?: string;
	/** Unsaved editor texts by draftKey, the open editor's included. */
	drafts: Record<string, string>;
	/** The editor open when it was saved. */
	editing?: EditorTarget;
	/** Attached files by draftKey: where they are and what they are, never their bytes. */
	attachments?: Record<string, AskAttachment[]>;
}

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
		({ scroll: _scroll, detailScroll: _detail, ...qs }): SavedQuestion => ({
			...qs,
			chosen: [...qs.chosen],
			optionNotes: qs.optionNotes.map((note) => note ?? null),
		}),
	);
	return {
		tab: state.tab,
		questions,
		...(state.formNote !== undefined && { formNote: state.formNote }),
		drafts,
		...(editing && editing.kind !== "chat" && { editing }),
		...(Object.keys(state.attachments).length > 0 && { attachments: copyAttachments(state.attachments) }),
	};
}

const copyAttachments = (all: FormState["attachments"]): Record<string, AskAttachment[]> =>
	Object.fromEntries(Object.entries(all).map(([key, files]) => [key, files.map((file) => ({ ...file }))]));

/**
 * What the user submitted, as kept: every answer, free text, note, skip and "You decide" of `collected`, the focus on
 * the first choice. From what was collected, not from a shell's state: the walker's and the page's answers are kept too.
 */
export function answeredState(form: AskForm, { answers, skipped, delegated = [], notes }: Collected): SavedAnswers {
	const noteOn = (questionId: string | undefined, option?: string) =>
		notes.find((note) => note.questionId === questionId && note.option === option)?.text;
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
			optionNotes: question.options.map((option) => noteOn(question.id, option.label) ?? null),
		};
		if (customText !== undefined) saved.customText = customText;
		const note = noteOn(question.id);
		if (note !== undefined) saved.note = note;
		return saved;
	});
	const formNote = noteOn(undefined);
	return { tab: 0, questions, ...(formNote !== undefined && { formNote }), drafts: {} };
}

/**
 * A new state for `form` holding `saved`; undefined when `saved` does not fit the form (another form's, or damaged).
 */
export function restoredState(form: AskForm, saved: unknown, setup?: FormSetup): FormState | undefined {
	const answers = saved as Partial<SavedAnswers> | null;
	const start = initialState(form, setup);
	if (
		typeof answers !== "object" ||
		answers === null ||
		!Array.isArray(answers.questions) ||
		answers.questions.length !== form.questions.length
	)
		return undefined;
	if (!isIndex(answers.tab, form.questions.length + (form.questions.length > 1 ? 1 : 0))) return undefined;
	const questions = start.questions.map((blank, i) => {
		const question = form.questions[i];
		const qs = answers.questions?.[i] as Partial<SavedQuestion> | undefined;
		if (
			!question ||
			!qs ||
			!Array.isArray(qs.chosen) ||
			!Array.isArray(qs.optionNotes) ||
			qs.optionNotes.length !== question.options.length
		)
			return undefined;
		const chosen = qs.chosen.filter((index) => isIndex(index, question.options.length));
		if (
			chosen.length !== qs.chosen.length ||
			(!question.multiSelect && chosen.length > 1) ||
			new Set(chosen).size !== chosen.length
		)
			return undefined;
		if (!isIndex(qs.focus, rowCount(start, i)) || !qs.optionNotes.every((note) => note === null || text(note)))
			return undefined;
		// Left to the model: only where the form offers it, and alone.
		const delegated = qs.delegated === true;
		if (delegated && (!start.delegable[i] || chosen.length > 0 || qs.customChosen === true)) return undefined;
		if (!optional(qs.customText) || !optional(qs.note) || (qs.customChosen === true && qs.customText === undefined))
			return undefined;
		const optionNotes = qs.optionNotes.map((note) => note ?? undefined);
		const customText = qs.customText;
		return {
			...blank,
			focus: qs.focus,
			chosen: chosen.sort((a, b) => a - b),
			customText,
			customChosen: qs.customChosen === true,
			note: qs.note,
			optionNotes,
			skipped: qs.skipped === true,
			delegated,
		};
	});
	if (!questions.every((qs) => qs !== undefined) || !optional(answers.formNote)) return undefined;
	const drafts = answers.drafts ?? {};
	if (typeof drafts !== "object" || !Object.values(drafts).every(text)) return undefined;
	const attachments = answers.attachments ?? {};
	if (!attachmentsFit(form, attachments)) return undefined;
	const restored: FormState = {
		...start,
		tab: answers.tab,
		questions,
		formNote: answers.formNote,
		drafts: { ...drafts },
		attachments: copyAttachments(attachments),
	};
	const editing = answers.editing;
	if (editing === undefined) return { ...restored, overlay: { kind: "none" } };
	return fits(form, editing) ? { ...restored, overlay: { kind: "editor", target: editing } } : undefined;
}

const isIndex = (value: unknown, length: number): value is number =>
	Number.isInteger(value) && (value as number) >= 0 && (value as number) < length;
/** Saved text is never blank (the state's rule). */
const text = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";
const optional = (value: unknown): value is string | undefined => value === undefined || text(value);

/** Whether an editor target names a row of this form. */
function fits(form: AskForm, target: EditorTarget): boolean {
	if (typeof target !== "object" || target === null) return false;
	if (!isQuestionTarget(target)) return target.kind === "formNote";
	const question = form.questions[target.question];
	if (!question || !isIndex(target.question, form.questions.length)) return false;
	if (target.kind === "custom") return question.allowOther;
	return (
		target.kind === "questionNote" || (target.kind === "optionNote" && isIndex(target.option, question.options.length))
	);
}

/** Kept files fit the form: each list on a target that takes files, within the limits, each entry whole. */
function attachmentsFit(form: AskForm, attachments: unknown): attachments is Record<string, AskAttachment[]> {
	if (typeof attachments !== "object" || attachments === null || Array.isArray(attachments)) return false;
	const targets = new Set<string>(["formNote"]);
	form.questions.forEach((question, i) => {
		if (question.allowOther) targets.add(draftKey({ kind: "custom", question: i }));
		targets.add(draftKey({ kind: "questionNote", question: i }));
		question.options.forEach((_, option) => targets.add(draftKey({ kind: "optionNote", question: i, option })));
	});
	let count = 0;
	for (const [key, files] of Object.entries(attachments)) {
		if (!targets.has(key) || !Array.isArray(files) || files.length === 0) return false;
		if (files.length > ATTACHMENT_LIMITS.perAnswer || !files.every(isAttachment)) return false;
		count += files.length;
	}
	return count <= ATTACHMENT_LIMITS.perForm;
}

function isAttachment(value: unknown): value is AskAttachment {
	const file = value as Partial<AskAttachment> | null;
	return (
		typeof file === "object" &&
		file !== null &&
		text(file.name) &&
		typeof file.path === "string" &&
		file.path.startsWith("/") &&
		Number.isSafeInteger(file.size) &&
		(file.size as number) >= 0 &&
		text(file.mime)
	);
}
