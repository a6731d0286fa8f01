/**
 * A pasted path read as a file: a stat and the first bytes, the one look at the disk for it. The inline form reads a
 * paste in its editor with it, the walker an editor's answer that is one path.
 */

import { closeSync, openSync, readSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename } from "node:path";
import { type AskAttachment, attachmentMime, parsePastedPath, SNIFF_BYTES } from "./attachment.ts";
import { errorText, type Phrase, phrase } from "./types.ts";

export type PastedFile = { file: AskAttachment } | { refused: Phrase };

/**
 * The file a paste names, why it cannot be one, or undefined when the paste is no path (a bare word that names none).
 */
export function readPastedFile(
	paste: string,
	cwd: string,
	home = homedir(),
	{ explicitOnly = false } = {},
): PastedFile | undefined {
	const pasted = parsePastedPath(paste, { cwd, home });
	// explicitOnly: a bare name is text (an answer "README.md" is a word, not a file, where nothing says "path").
	if (!pasted || (explicitOnly && !pasted.explicit)) return undefined;
	const { path, explicit } = pasted;
	let stats: ReturnType<typeof statSync>;
	try {
		stats = statSync(path);
	} catch (error) {
		if (!explicit) return undefined;
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return { refused: phrase("attach.missing", { path }) };
		return { refused: phrase("attach.unreadable", { path, reason: code ?? errorText(error) }) };
	}
	if (stats.isDirectory()) return explicit ? { refused: phrase("attach.directory", { path }) } : undefined;
	if (!stats.isFile()) return explicit ? { refused: phrase("attach.notFile", { path }) } : undefined;
	const head = new Uint8Array(SNIFF_BYTES);
	try {
		const fd = openSync(path, "r");
		try {
			readSync(fd, head, 0, SNIFF_BYTES, 0);
		} finally {
			closeSync(fd);
		}
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		return { refused: phrase("attach.unreadable", { path, reason: code ?? errorText(error) }) };
	}
	const name = basename(path);
	return { file: { name, path, size: stats.size, mime: attachmentMime(name, head) } };
}
