/**
 * Where the files of an answer are kept once sent: beside the session file (`<session>.jsonl.ask-user/attachments/`,
 * the folder 0700, each file 0600), or, with no session file, in one temp folder of this process. The tool's delivery
 * (tool/attachments.ts) copies a terminal's files there; the page's server (web/submit.ts) writes an upload there
 * itself, and the delivery then takes that copy as it is. And how an attached file is read again, within its limit, by
 * the delivery and by the relay's parent.
 */

import { randomUUID } from "node:crypto";
import {
	chmodSync,
	closeSync,
	fstatSync,
	lstatSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ATTACHMENT_LIMITS, SNIFF_BYTES, sniffImageMime } from "./attachment.ts";
import { keptDir } from "./types.ts";

let scratch: string | undefined;

/** The folder the copies go to, made when first needed. */
export function attachmentsDir(sessionFile: string | undefined): string {
	if (sessionFile === undefined) {
		scratch ??= mkdtempSync(join(tmpdir(), "pi-ask-user-attachments-"));
		return scratch;
	}
	const dir = join(keptDir(sessionFile), "attachments");
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	// The user's alone, as the kept forms' folder: a link planted there is not followed, a wider mode is narrowed.
	const stats = lstatSync(dir);
	if (stats.isSymbolicLink() || !stats.isDirectory())
		throw new Error(`${dir} is not a folder of its own (a link, or a file): files are not saved through it`);
	if ((stats.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
	return dir;
}

/** A name no other copy has, readable after its random part: `1f3a9c2e-layout.png`. */
const copyName = (name: string): string =>
	`${randomUUID().slice(0, 8)}-${name.replace(/[^\p{L}\p{N}._-]+/gu, "_").slice(-100) || "file"}`;

/** Writes `bytes` as a new copy named after `name` (0600, never over another file); its path. */
export function saveCopy(sessionFile: string | undefined, name: string, bytes: Uint8Array): string {
	const path = join(attachmentsDir(sessionFile), copyName(name));
	writeFileSync(path, bytes, { mode: 0o600, flag: "wx" });
	return path;
}

/** Whether `path` is already a copy in the folder of `sessionFile` (an upload the page's server saved). */
export function isSavedCopy(sessionFile: string | undefined, path: string): boolean {
	const dir = sessionFile === undefined ? scratch : join(keptDir(sessionFile), "attachments");
	return dir !== undefined && dirname(path) === dir;
}

/** An attached file read again: its size, its first bytes, and its bytes unless it is past its limit. */
export type BoundedRead = { size: number; head: Uint8Array; bytes?: Buffer };

/**
 * The bytes of the regular file at `path`, its size and first bytes known before the rest is read: past its limit (an
 * image's by its first bytes, else a file's, and `room`) nothing more is read, so a file grown to gigabytes costs
 * nothing; one that grows while it is read comes back without bytes too, never half. Throws what the file system does.
 */
export function readWithinLimit(path: string, room = Number.POSITIVE_INFINITY): BoundedRead {
	const fd = openSync(path, "r");
	try {
		const stats = fstatSync(fd);
		if (!stats.isFile()) throw new Error(`${path} is not a regular file`);
		const head = new Uint8Array(SNIFF_BYTES);
		const headSize = readSync(fd, head, 0, SNIFF_BYTES, 0);
		const limit = sniffImageMime(head) ? ATTACHMENT_LIMITS.imageBytes : ATTACHMENT_LIMITS.fileBytes;
		if (stats.size > Math.min(limit, room)) return { size: stats.size, head: head.subarray(0, headSize) };
		// One byte more than it said it holds: a file that grows while it is read is not taken half.
		const bytes = Buffer.alloc(stats.size + 1);
		let size = 0;
		while (size < bytes.length) {
			const got = readSync(fd, bytes, size, bytes.length - size, size);
			if (got === 0) break;
			size += got;
		}
		const read = { size, head: head.subarray(0, headSize) };
		return size > stats.size ? read : { ...read, bytes: bytes.subarray(0, size) };
	} finally {
		closeSync(fd);
	}
}
