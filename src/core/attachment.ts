/**
 * Files in an answer, as every layer speaks of them: what one is, the limits, and the pure readings of a paste (one
 * path, as terminals paste a dropped file) and of a file's first bytes (is it really an image?). A leaf: no I/O here.
 */

import { posix } from "node:path";

/** A file the user attached to a free answer or a note: where it is, what it is. */
export interface AskAttachment {
	/** The file's name as the user sees it (its base name). */
	name: string;
	/** Absolute: in the form, the file the user gave; in the result, the copy saved beside the session. */
	path: string;
	/** In bytes. */
	size: number;
	/** From the file's first bytes for an image, else from its extension. */
	mime: string;
}

/**
 * An attachment in what a shell collected and in `details`: what it belongs to (a question's free answer or note, an
 * option's note, or with neither id the whole form's note) and, in the result, how it reached the model. A file that
 * came over a wire (a relay reply) has its bytes in `data` instead of a path on this machine.
 */
export type AskAttached = AskAttachment & {
	kind: "answer" | "note";
	questionId?: string;
	option?: string;
	/** How it reached the model: as image content, or as the saved file's path. */
	sent?: "image" | "path";
	/** Why it could not be saved (the file went away or changed past a limit after it was attached). */
	error?: string;
	/** The bytes, base64, of a file that crossed a wire (then `path` is empty until it is saved); never in `details`. */
	data?: string;
};

const MB = 1024 * 1024;

export const ATTACHMENT_LIMITS = {
	perAnswer: 4,
	perForm: 10,
	fileBytes: 10 * MB,
	imageBytes: 20 * MB,
	totalBytes: 25 * MB,
} as const;

/** How long `bytes` bytes are as base64. */
export const base64Length = (bytes: number): number => Math.ceil(bytes / 3) * 4;

/** Base64's alphabet, `=` only at the end, two at most (a schema's pattern; decodedLength checks the rest). */
export const BASE64_PATTERN = "^[A-Za-z0-9+/]*={0,2}$";
/** What a schema's error says of a text that does not match BASE64_PATTERN (core/schema.ts `sayPatterns`). */
export const BASE64_WORDS = "must be base64 (A–Z, a–z, 0–9, + and /, padded with =)";
const BASE64 = new RegExp(BASE64_PATTERN);

/**
 * How many bytes a base64 text holds; undefined when it is not sound base64: another character, a length that is not a
 * multiple of 4, `=` anywhere but the end.
 */
export function decodedLength(data: string): number | undefined {
	if (data.length % 4 !== 0 || !BASE64.test(data)) return undefined;
	const padding = data.endsWith("==") ? 2 : Number(data.endsWith("="));
	return (data.length / 4) * 3 - padding;
}

/** A size against a limit, "10.1 MB": up to the next tenth, so one byte over never reads as the limit. */
export const megabytes = (bytes: number): string => `${Math.ceil((bytes / MB) * 10) / 10} MB`;

/** The image types a model reads, by their first bytes; anything else is sent as a file. */
export function sniffImageMime(bytes: Uint8Array): string | undefined {
	const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
	if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
	if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
	if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
		return "image/gif";
	const ascii = (from: number, text: string) => [...text].every((c, i) => bytes[from + i] === c.charCodeAt(0));
	if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "image/webp";
	return undefined;
}

/** How many first bytes sniffImageMime reads. */
export const SNIFF_BYTES = 12;

const BY_EXTENSION: Record<string, string> = {
	png: "image/png",
	jpg: "image/jpeg",
	jpeg: "image/jpeg",
	gif: "image/gif",
	webp: "image/webp",
	txt: "text/plain",
	log: "text/plain",
	md: "text/markdown",
	csv: "text/csv",
	json: "application/json",
	html: "text/html",
	pdf: "application/pdf",
	svg: "image/svg+xml",
	zip: "application/zip",
};

/** The type a file claims by its extension (the sniffed bytes win for images). */
export function mimeByExtension(name: string): string {
	const dot = name.lastIndexOf(".");
	return (dot > 0 && BY_EXTENSION[name.slice(dot + 1).toLowerCase()]) || "application/octet-stream";
}

/** The first extension of a type: "jpg" for image/jpeg. */
export const extensionOf = (mime: string): string | undefined =>
	Object.keys(BY_EXTENSION).find((extension) => BY_EXTENSION[extension] === mime);

/** The type to record: an image only when its bytes are one; a file that claims to be an image and is not, a file. */
export function attachmentMime(name: string, head: Uint8Array): string {
	const sniffed = sniffImageMime(head);
	if (sniffed) return sniffed;
	const claimed = mimeByExtension(name);
	return claimed.startsWith("image/") && claimed !== "image/svg+xml" ? "application/octet-stream" : claimed;
}

export const isImageMime = (mime: string): boolean =>
	mime === "image/png" || mime === "image/jpeg" || mime === "image/gif" || mime === "image/webp";

/** "512 B", "412 KB", "3.4 MB": 1024 to the unit, one decimal under ten. */
export function formatSize(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	const units = ["KB", "MB", "GB"];
	let value = bytes / 1024;
	let unit = 0;
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024;
		unit++;
	}
	const shown = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
	return `${shown} ${units[unit]}`;
}

// ── A paste read as one path ───────────────────────────────────────────────

/** Longer than any path a system takes. */
const MAX_PATH = 4096;

/**
 * The one path a paste holds, written as a path as terminals paste a dropped file: `'/a b/c.png'`, `"/a b/c.png"`,
 * `/a\\ b/c.png`, `file:///a%20b/c.png`, `~/c.png`, `./c.png`; absolute, relative ones against `cwd`. Undefined when it
 * is not one path written so (several lines, several words, a bare name: `shot.png` is a word, not a file).
 */
export function parsePastedPath(paste: string, base: { cwd: string; home: string }): string | undefined {
	const text = paste.trim();
	if (text === "" || text.length > MAX_PATH || /[\r\n\u0000]/.test(text)) return undefined;
	const unquoted = unquote(text);
	if (unquoted === undefined) return undefined;
	const { path } = unquoted;
	if (/^file:\/\//i.test(path)) return fileUrlPath(path);
	if (path === "~" || path.startsWith("~/")) return posix.resolve(base.home, path.slice(2));
	if (path.startsWith("/")) return posix.resolve(path);
	const explicit = unquoted.quoted || path.startsWith("./") || path.startsWith("../");
	return explicit && path !== "" ? posix.resolve(base.cwd, path) : undefined;
}

/**
 * Quotes and backslash escapes undone. A bare paste with a space in it is not one path (a dropped file with spaces
 * comes quoted or escaped); a quoted one is.
 */
function unquote(text: string): { path: string; quoted: boolean } | undefined {
	const first = text[0];
	if ((first === "'" || first === '"') && text.length >= 2 && text.endsWith(first)) {
		const inner = text.slice(1, -1);
		if (inner.includes(first)) return undefined;
		return { path: first === '"' ? inner.replace(/\\(["\\$`])/g, "$1") : inner, quoted: true };
	}
	let path = "";
	let escaped = false;
	for (const char of text) {
		if (escaped) {
			path += char;
			escaped = false;
		} else if (char === "\\") escaped = true;
		else if (/\s/.test(char) || char === "'" || char === '"') return undefined;
		else path += char;
	}
	if (escaped) return undefined;
	return { path, quoted: path !== text };
}

function fileUrlPath(url: string): string | undefined {
	const rest = url.slice("file://".length);
	// file:///a or file://localhost/a; another host is no file of this machine.
	const slash = rest.indexOf("/");
	if (slash < 0) return undefined;
	const host = rest.slice(0, slash);
	if (host !== "" && host.toLowerCase() !== "localhost") return undefined;
	try {
		return posix.resolve(decodeURIComponent(rest.slice(slash)));
	} catch {
		return undefined;
	}
}
