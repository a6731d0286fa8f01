/**
 * Files in a relay reply. From v3 each file crosses as its bytes (base64) beside its name, type, size and what it
 * belongs to; to a child that reads less, or over a way back that carries no bytes (a runner's RPC), it is a note
 * naming the file and where it is on the machine that showed the form. Here: the parent's reading of the files, the
 * wire's form of them, and what the schema cannot check (the limits in all, the sizes, what each file belongs to).
 */

import { readFileSync } from "node:fs";
import { ATTACHMENT_LIMITS, type AskAttached, isImageMime } from "../core/attachment.ts";
import type { AskNote, AskQuestion } from "../core/types.ts";
import type { WireAttachment } from "./envelope-schema.ts";

/** The first reply version that carries files' bytes. */
export const FILES_REPLY_VERSION = 3;

/**
 * The files with their bytes, read from their paths where the limits allow (a file may have grown since it was
 * attached); one that cannot be read or no longer fits stays without, and reaches the child as a note.
 */
export function withBytes(files: readonly AskAttached[]): AskAttached[] {
	let total = 0;
	return files.map((file) => {
		if (file.data !== undefined) {
			total += file.size;
			return file;
		}
		try {
			const bytes = readFileSync(file.path);
			const limit = isImageMime(file.mime) ? ATTACHMENT_LIMITS.imageBytes : ATTACHMENT_LIMITS.fileBytes;
			if (bytes.length > limit || total + bytes.length > ATTACHMENT_LIMITS.totalBytes) return file;
			total += bytes.length;
			return { ...file, size: bytes.length, data: bytes.toString("base64") };
		} catch {
			return file;
		}
	});
}

/** The files a reply of version `v` carries, and the notes that say the others. */
export function filesForReply(files: readonly AskAttached[], v: number): { carried: AskAttached[]; notes: AskNote[] } {
	const carried = v >= FILES_REPLY_VERSION ? files.filter((file) => file.data !== undefined) : [];
	const notes = files.filter((file) => !carried.includes(file)).map(attachmentNote);
	return { carried, notes };
}

function attachmentNote({ questionId, option, name, path, size, mime }: AskAttached): AskNote {
	const where = path === "" ? "" : `; it is at ${JSON.stringify(path)} on the machine that showed the form`;
	const text = `The user attached the file ${JSON.stringify(name)} (${mime}, ${size} bytes), and its bytes did not come with this reply${where}.`;
	const note: AskNote = { text };
	if (questionId !== undefined) note.questionId = questionId;
	if (option !== undefined) note.option = option;
	return note;
}

export function toWire({ name, mime, size, kind, questionId, option, data = "" }: AskAttached): WireAttachment {
	const wire: WireAttachment = { name, mime, size, kind, data };
	if (questionId !== undefined) wire.questionId = questionId;
	if (option !== undefined) wire.option = option;
	return wire;
}

/** A file as it came: its bytes in hand, no path on this machine until it is saved. */
export const fromWire = (file: WireAttachment): AskAttached => ({ ...file, path: "" });

// ── What no schema can say ──────────────────────────────────────────────────

type Add = (path: string, message: string) => void;

/** How many bytes a base64 text of sound characters holds; undefined when its length or padding is wrong. */
function decodedLength(data: string): number | undefined {
	// The schema's pattern leaves `=` only at the end, two at most.
	if (data.length % 4 !== 0) return undefined;
	const padding = data.endsWith("==") ? 2 : Number(data.endsWith("="));
	return (data.length / 4) * 3 - padding;
}

/**
 * Each file (as the schema left it: an unsound one is undefined) against the limits and, the questions known, what it
 * belongs to; `v`: the reply's version (files cross from v3).
 */
export function fileIssues(
	files: readonly (WireAttachment | undefined)[],
	v: unknown,
	questions: readonly AskQuestion[] | undefined,
	add: Add,
): void {
	if (typeof v === "number" && v < FILES_REPLY_VERSION)
		return add("attachments", `must be absent in a v${v} reply: files cross from v${FILES_REPLY_VERSION}`);
	const perTarget = new Map<string, number>();
	let total = 0;
	files.forEach((file, i) => {
		if (!file) return;
		const at = `attachments[${i}]`;
		const bytes = decodedLength(file.data);
		if (bytes === undefined)
			add(`${at}.data`, "must be base64 whose length is a multiple of 4, padded with = at the end");
		else if (bytes !== file.size)
			add(`${at}.size`, `must be the number of bytes data holds (${bytes}; found ${file.size})`);
		const image = isImageMime(file.mime);
		const limit = image ? ATTACHMENT_LIMITS.imageBytes : ATTACHMENT_LIMITS.fileBytes;
		if (file.size > limit)
			add(`${at}.size`, `must be at most ${limit} bytes for ${image ? "an image" : "a file"} (found ${file.size})`);
		total += file.size;
		const target = JSON.stringify([file.kind, file.questionId ?? null, file.option ?? null]);
		const count = (perTarget.get(target) ?? 0) + 1;
		perTarget.set(target, count);
		if (count === ATTACHMENT_LIMITS.perAnswer + 1)
			add(at, `is a file too many: at most ${ATTACHMENT_LIMITS.perAnswer} per answer or note`);
		targetIssues(file, at, questions, add);
	});
	if (total > ATTACHMENT_LIMITS.totalBytes)
		add("attachments", `must hold at most ${ATTACHMENT_LIMITS.totalBytes} bytes in all (found ${total})`);
}

/** A free answer's file names its question and no option; an option's, a label of that question. */
function targetIssues(file: WireAttachment, at: string, questions: readonly AskQuestion[] | undefined, add: Add): void {
	if (file.kind === "answer" && file.option !== undefined)
		add(`${at}.option`, 'must be absent on an "answer" file (only a note is on an option)');
	if (file.questionId === undefined) {
		if (file.kind === "answer") add(`${at}.questionId`, 'is missing: an "answer" file names its question');
		else if (file.option !== undefined) add(`${at}.questionId`, "is missing: an option's note names its question");
		return;
	}
	if (!questions) return;
	const question = questions.find((q) => q.id === file.questionId);
	if (!question) add(`${at}.questionId`, `${JSON.stringify(file.questionId)} is no question of the request`);
	else if (file.kind === "answer" && !question.allowOther)
		add(at, "is on a free answer, but the question does not allow one (allowOther is false)");
	else if (file.option !== undefined && !question.options.some((o) => o.label === file.option))
		add(
			`${at}.option`,
			`${JSON.stringify(file.option)} is not an option label of question ${JSON.stringify(question.id)}`,
		);
}
