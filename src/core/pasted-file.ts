/**
 * A pasted path read as a file: a stat and the first bytes, the one look at the disk for it. The inline form reads a
 * paste in its editor with it, the walker an editor's answer that is one path.
 */

import { closeSync, openSync, readSync, statSync } from "node:fs";
import { basename } from "node:path";
import { type AskAttachment, attachmentMime, parsePastedPath, SNIFF_BYTES } from "./attachment.ts";
import { errorText, type Phrase, phrase } from "./types.ts";

export type PastedFile = { file: AskAttachment } | { refused: Phrase };

/** The file a paste written as a path names, why it cannot be one, or undefined when the paste is no such path. */
export function readPastedFile(paste: string, cwd: string, home: string): PastedFile | undefined {
	const path = parsePastedPath(paste, { cwd, home });
	return path === undefined ? undefined : readFileAt(path);
}

/** The file at `path` (absolute) as an attachment, or why it cannot be one. */
export function readFileAt(path: string): PastedFile {
	const head = new Uint8Array(SNIFF_BYTES);
	let size: number;
	try {
		const stats = statSync(path);
		if (stats.isDirectory()) return { refused: phrase("attach.directory", { path }) };
		if (!stats.isFile()) return { refused: phrase("attach.notFile", { path }) };
		size = stats.size;
		const fd = openSync(path, "r");
		try {
			readSync(fd, head, 0, SNIFF_BYTES, 0);
		} finally {
			closeSync(fd);
		}
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return { refused: phrase("attach.missing", { path }) };
		return { refused: phrase("attach.unreadable", { path, reason: code ?? errorText(error) }) };
	}
	const name = basename(path);
	return { file: { name, path, size, mime: attachmentMime(name, head) } };
}
