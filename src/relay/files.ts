/**
 * Files in a relay reply. From v3 each file crosses as its bytes (base64) beside its name, type, size and what it
 * belongs to; to a child that reads less, or over a way back that carries no bytes (a runner's RPC), it is a note
 * naming the file and where it is on the machine that showed the form. Here: the parent's reading of the files, the
 * wire's form of them, and what the schema cannot check (the limits in all, the sizes, what each file belongs to).
 */

import {
	ATTACHMENT_LIMITS,
	type AskAttached,
	attachmentMime,
	decodedLength,
	isImageMime,
	SNIFF_BYTES,
	sniffImageMime,
} from "../core/attachment.ts";
import { readWithinLimit } from "../core/attachment-copy.ts";
import { cleanName } from "../core/sanitize.ts";
import type { AskNote, AskQuestion, AskStatus } from "../core/types.ts";
import type { WireAttachment } from "./envelope-schema.ts";

/** The first reply version that carries files' bytes. */
export const FILES_REPLY_VERSION = 3;

/** A file's limit by what its first bytes are: an image's, else a file's. */
const limitFor = (head: Uint8Array): number =>
	sniffImageMime(head) ? ATTACHMENT_LIMITS.imageBytes : ATTACHMENT_LIMITS.fileBytes;

/** The first bytes of base64 `data`: 16 characters hold the 12 that tell an image. */
const headOf = (data: string): Buffer => Buffer.from(data.slice(0, (SNIFF_BYTES / 3) * 4), "base64");

/**
 * The files with their bytes, read from their paths where the limits allow (a file may have grown since it was
 * attached); one that cannot be read or no longer fits stays without, and reaches the child as a note. A file that came
 * with its bytes is measured and typed by them, not by what it says of itself.
 */
export function withBytes(files: readonly AskAttached[]): AskAttached[] {
	let total = 0;
	return files.map((file) => {
		const { data: _came, ...bare } = file;
		const room = ATTACHMENT_LIMITS.totalBytes - total;
		const read = file.data === undefined ? readWithin(file.path, room) : measured(file.data, room);
		if (!read) return bare;
		total += read.size;
		return { ...bare, size: read.size, mime: attachmentMime(file.name, read.head), data: read.data };
	});
}

type Bytes = { data: string; size: number; head: Uint8Array };

/** Bytes that came as base64: within their limit and `room`, or undefined. */
function measured(data: string, room: number): Bytes | undefined {
	const size = decodedLength(data);
	const head = headOf(data);
	return size !== undefined && size <= Math.min(limitFor(head), room) ? { data, size, head } : undefined;
}

/** A file's bytes read again from its path within its limit and `room` (core/attachment-copy.ts), or undefined. */
function readWithin(path: string, room: number): Bytes | undefined {
	try {
		const { bytes, size, head } = readWithinLimit(path, room);
		return bytes && { data: bytes.toString("base64"), size, head };
	} catch {
		return undefined;
	}
}

/** Whether a form that ended so sends its files: only one the user sent (submitted, or their message for the chat). */
export const sendsFiles = (status: AskStatus): boolean => status === "answered" || status === "chat";

/** The files a reply of version `v` carries, and the notes that say the others. */
export function filesForReply(files: readonly AskAttached[], v: number): { carried: AskAttached[]; notes: AskNote[] } {
	const carried = v >= FILES_REPLY_VERSION ? files.filter((file) => file.data !== undefined) : [];
	const notes = files.filter((file) => !carried.includes(file)).map(attachmentNote);
	return { carried, notes };
}

function attachmentNote({ questionId, option, name, path, size, mime }: AskAttached): AskNote {
	const where = path === "" ? "" : `; it is at ${JSON.stringify(path)} on the machine that showed the form`;
	const file = `the file ${JSON.stringify(name)} (${mime}, ${size} bytes)`;
	const text = `The user attached ${file}, and its bytes did not come with this reply${where}.`;
	const note: AskNote = { text };
	if (questionId !== undefined) note.questionId = questionId;
	if (option !== undefined) note.option = option;
	return note;
}

/**
 * A name the reply's schema takes, whatever the user's file was called (a pasted `a\b.txt`, an escape in it): one
 * printable line (sanitize.ts `cleanName`), a slash or backslash as `_`; "file" when nothing printable is left.
 */
export const wireName = (name: string): string => cleanName(name.replace(/[\\/]/g, "_")) || "file";

export function toWire({ name, mime, size, kind, questionId, option, data = "" }: AskAttached): WireAttachment {
	const wire: WireAttachment = { name: wireName(name), mime, size, kind, data };
	if (questionId !== undefined) wire.questionId = questionId;
	if (option !== undefined) wire.option = option;
	return wire;
}

/** A file as it came: its bytes in hand, no path on this machine until it is saved. */
export const fromWire = (file: WireAttachment): AskAttached => ({ ...file, path: "" });

// ── What no schema can say ──────────────────────────────────────────────────

type Add = (path: string, message: string) => void;

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
		// The limit is the bytes' own, never the type the file claims: the child reads the type again from them.
		const limit = limitFor(headOf(file.data));
		if (file.size > limit) add(`${at}.size`, sizeRule(file, limit));
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

/** The limit a file is over, in words; one that claims to be an image and is not is told why it has a file's. */
function sizeRule({ mime, size }: WireAttachment, limit: number): string {
	if (limit === ATTACHMENT_LIMITS.imageBytes) return `must be at most ${limit} bytes for an image (found ${size})`;
	const rule = `must be at most ${limit} bytes for a file (found ${size})`;
	return isImageMime(mime)
		? `${rule}: its bytes are no ${mime.slice("image/".length)} image, whatever mime says`
		: rule;
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
