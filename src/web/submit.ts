/**
 * A submit from the page (server.ts), checked and turned into an answer: its JSON against a TypeBox schema (every
 * problem with its path), then the files (each within its limit, by the type its bytes show, and all within the form's
 * total; each beside words of its own), then the form's own rules through the machine (saved.ts, collect). Only then
 * is each file written 0600 beside the session (core/attachment-copy.ts); an answer the form does not take removes
 * them again.
 */

import { rmSync } from "node:fs";
import { type Static, Type } from "@sinclair/typebox";
import {
	ATTACHMENT_LIMITS,
	type AskAttached,
	type AskAttachment,
	attachmentMime,
	BASE64_PATTERN,
	BASE64_WORDS,
	base64Length,
	decodedLength,
	isImageMime,
	megabytes as mb,
	SNIFF_BYTES,
} from "../core/attachment.ts";
import { saveCopy } from "../core/attachment-copy.ts";
import { cleanName } from "../core/sanitize.ts";
import { type Issue, sayPatterns, schemaIssues } from "../core/schema.ts";
import { type AnswerOutcome, type AskForm, errorText, LIMITS, type OutsideAnswer } from "../core/types.ts";
import { collect } from "../machine/collect.ts";
import { canSubmit, draftKey, type EditorTarget, type FormSetup, missingRequired } from "../machine/model.ts";
import { restoredState, type SavedAnswers, type SavedQuestion } from "../machine/saved.ts";

/** Who answered, as the model and the transcript are told. */
export const BROWSER_SOURCE = "the browser";

sayPatterns({ [BASE64_PATTERN]: BASE64_WORDS });

/** A file the page sends: its name and its bytes, in base64. */
const FileSchema = Type.Object(
	{
		name: Type.String({ minLength: 1, maxLength: 255 }),
		data: Type.String({ maxLength: base64Length(ATTACHMENT_LIMITS.imageBytes), pattern: BASE64_PATTERN }),
	},
	{ additionalProperties: false },
);
const Files = Type.Optional(Type.Array(FileSchema, { maxItems: ATTACHMENT_LIMITS.perAnswer }));
const Text = Type.Optional(Type.String({ maxLength: LIMITS.freeText }));

/**
 * What the page sends: per question, the chosen options' indices, its own answer, a note, or "left to the model", and
 * the files of its own answer and of its note; the note on the whole form and its files.
 */
export const PageSubmitSchema = Type.Object({
	questions: Type.Array(
		Type.Object({
			chosen: Type.Optional(Type.Array(Type.Integer({ minimum: 0 }), { maxItems: LIMITS.maxOptions })),
			other: Text,
			note: Text,
			delegated: Type.Optional(Type.Boolean()),
			otherFiles: Files,
			noteFiles: Files,
		}),
		{ maxItems: LIMITS.maxQuestions },
	),
	note: Text,
	noteFiles: Files,
});
type PageSubmit = Static<typeof PageSubmitSchema>;
type PageFile = Static<typeof FileSchema>;

/** What the page's answers go to (waiting.ts): the reply, who gave it, and the files saved with it. */
export type PageAnswer = (reply: OutsideAnswer, source: string, files?: readonly AskAttached[]) => AnswerOutcome;

export type SubmitSetup = {
	form: AskForm;
	options?: FormSetup | undefined;
	answer: PageAnswer;
	/** The session's file, beside which the files go; none: a temp folder of this process. */
	sessionFile?: string | undefined;
};

/**
 * A file the limits refuse, for the page to say in the catalogue's words (as it refuses one where it is chosen): one
 * past its limit (`bytes`), one too many for the form, the one that takes the files past their total (`bytes`).
 */
export type FileRefusal =
	| { limit: "file"; name: string; size: number; bytes: number }
	| { limit: "form" }
	| { limit: "total"; name: string; bytes: number };

/** The form's outcome, or a refusal; `refused`: a file's, which the page says in the catalogue's words. */
export type PageOutcome = AnswerOutcome | { ok: false; error: string; refused: FileRefusal };

/** A file of the submit, decoded and checked, with where it belongs. */
type Upload = { key: string; at: string; name: string; bytes: Buffer; mime: string };

/**
 * The page's answers through the form's own rules: the submit's shape, its files, a state the machine accepts, every
 * required question answered; then the files saved and all of it collected as the form would.
 */
export function answerFrom(setup: SubmitSetup, body: string): PageOutcome {
	let page: unknown;
	try {
		page = JSON.parse(body);
	} catch {
		return { ok: false, error: "not JSON" };
	}
	const { form } = setup;
	const issues = schemaIssues(PageSubmitSchema, page);
	if (issues.length > 0) return { ok: false, error: said(issues) };
	const submit = page as PageSubmit;
	if (submit.questions.length !== form.questions.length)
		return { ok: false, error: `questions: expected ${form.questions.length} answers` };
	const uploads = uploadsOf(submit);
	if (!Array.isArray(uploads)) return { ok: false, ...uploads };
	// The files on their answers and notes, checked by the machine before any is written (the paths are to come).
	const saved = {
		...savedOf(form, submit),
		attachments: byTarget(uploads.map((upload) => ({ ...upload, path: "/" }))),
	};
	const state = restoredState(form, saved, setup.options);
	if (!state) return { ok: false, error: "the answers do not fit the questions" };
	if (!canSubmit(state)) {
		const names = missingRequired(state).map((i) => form.questions[i]?.header);
		return { ok: false, error: `unanswered: ${names.join(", ")}` };
	}
	const written = writeUploads(uploads, setup.sessionFile);
	if (!Array.isArray(written)) return { ok: false, error: written.error };
	const { answers, skipped, notes, delegated, attachments } = collect(
		{ ...state, attachments: byTarget(written) },
		"answered",
	);
	// On the wire of a reply, the note on the whole form is its own field.
	const formNote = notes.find((note) => note.questionId === undefined)?.text;
	const reply = {
		answers,
		skipped,
		notes: notes.filter((note) => note.questionId !== undefined),
		...(formNote !== undefined && { formNote }),
		...(delegated && { delegated }),
	};
	const outcome = setup.answer(reply, BROWSER_SOURCE, attachments);
	if (!outcome.ok) for (const { path } of written) rmSync(path, { force: true });
	return outcome;
}

/** Every problem, each at its path: `questions[0].otherFiles[1].data: must be base64 (found …)`. */
const said = (issues: readonly Issue[]) =>
	issues.map(({ path, message }) => (path === "" ? message : `${path}: ${message}`)).join("; ");

/** A text the page sent; blank is none. */
const given = (text: string | undefined): string | undefined =>
	text !== undefined && text.trim() !== "" ? text : undefined;

function savedOf(form: AskForm, submit: PageSubmit): SavedAnswers {
	const notes: Record<string, string> = {};
	const noteOn = (target: EditorTarget, text: string | undefined) => {
		if (text !== undefined) notes[draftKey(target)] = text;
	};
	const questions = form.questions.map((_, question): SavedQuestion => {
		const { chosen = [], other, note, delegated } = submit.questions[question] ?? {};
		const customText = given(other);
		noteOn({ kind: "questionNote", question }, given(note));
		return { focus: 0, chosen, customText, customChosen: customText !== undefined, delegated: delegated === true };
	});
	noteOn({ kind: "formNote" }, given(submit.note));
	return { tab: 0, drafts: {}, questions, notes };
}

/**
 * The submit's files, decoded, each with the target it belongs to; or the first problem, at its path. A file goes with
 * the words it illustrates (as the terminal's rule: attach.needsText), within the limits of core/attachment.ts.
 */
function uploadsOf(submit: PageSubmit): Upload[] | { error: string; refused?: FileRefusal } {
	type List = { target: EditorTarget; at: string; text: string | undefined; files: PageFile[] | undefined };
	const lists: List[] = submit.questions.flatMap(({ other, note, otherFiles, noteFiles }, question): List[] => [
		{ target: { kind: "custom", question }, at: `questions[${question}].otherFiles`, text: other, files: otherFiles },
		{
			target: { kind: "questionNote", question },
			at: `questions[${question}].noteFiles`,
			text: note,
			files: noteFiles,
		},
	]);
	lists.push({ target: { kind: "formNote" }, at: "noteFiles", text: submit.note, files: submit.noteFiles });
	const uploads: Upload[] = [];
	for (const { target, at, text, files = [] } of lists) {
		const words = target.kind === "custom" ? "answer" : "note";
		if (files.length > 0 && given(text) === undefined)
			return { error: `${at}: a file goes with words: the ${words} is blank` };
		for (const [i, { name, data }] of files.entries()) {
			if (decodedLength(data) === undefined)
				return { error: `${at}[${i}].data: must be base64 whose length is a multiple of 4, padded with = at the end` };
			const bytes = Buffer.from(data, "base64");
			// Its base name, printable: a browser sends no folder, and nothing else is believed.
			const shown = cleanName(name.split(/[\\/]/).pop() ?? "", 255) || "file";
			const mime = attachmentMime(shown, bytes.subarray(0, SNIFF_BYTES));
			uploads.push({ key: draftKey(target), at: `${at}[${i}]`, name: shown, bytes, mime });
		}
	}
	return withinLimits(uploads) ?? uploads;
}

/** The first limit the files break, said at its path, and what the page says of it in the catalogue's words. */
function withinLimits(uploads: readonly Upload[]): { error: string; refused: FileRefusal } | undefined {
	const { perForm, imageBytes, fileBytes, totalBytes } = ATTACHMENT_LIMITS;
	if (uploads.length > perForm)
		return { error: `at most ${perForm} files per form (found ${uploads.length})`, refused: { limit: "form" } };
	for (const { at, name, bytes, mime } of uploads) {
		const limit = isImageMime(mime) ? imageBytes : fileBytes;
		const what = isImageMime(mime) ? "an image" : "a file";
		if (bytes.length > limit)
			return {
				error: `${at}: ${what} of at most ${mb(limit)} (found ${mb(bytes.length)})`,
				refused: { limit: "file", name, size: bytes.length, bytes: limit },
			};
	}
	let total = 0;
	for (const { name, bytes } of uploads) {
		total += bytes.length;
		if (total > totalBytes) {
			const all = uploads.reduce((sum, upload) => sum + upload.bytes.length, 0);
			return {
				error: `the files: at most ${mb(totalBytes)} in all (found ${mb(all)})`,
				refused: { limit: "total", name, bytes: totalBytes },
			};
		}
	}
	return undefined;
}

/** Each upload written as a copy of its own; none left behind when one cannot be. */
function writeUploads(
	uploads: readonly Upload[],
	sessionFile: string | undefined,
): Array<Upload & { path: string }> | { error: string } {
	const written: Array<Upload & { path: string }> = [];
	try {
		for (const upload of uploads) {
			const path = saveCopy(sessionFile, upload.name, upload.bytes);
			written.push({ ...upload, path });
		}
		return written;
	} catch (error) {
		for (const { path } of written) rmSync(path, { force: true });
		return { error: `the files could not be saved: ${errorText(error)}` };
	}
}

function byTarget(files: ReadonlyArray<Upload & { path: string }>): Record<string, AskAttachment[]> {
	const out: Record<string, AskAttachment[]> = {};
	for (const { key, name, path, bytes, mime } of files)
		(out[key] ??= []).push({ name, path, size: bytes.length, mime });
	return out;
}
