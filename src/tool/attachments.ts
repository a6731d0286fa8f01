/**
 * The files of a submitted form, delivered: each copied beside the session (`<session>.jsonl.ask-user/attachments/`,
 * the folder 0700, each file 0600; no session file: a temp folder of this process), each image as image content for a
 * model that reads images. A file read from its path, or one that crossed a wire with its bytes (a relay reply); the
 * bytes go to the model only, `details` names the saved copies.
 */

import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ATTACHMENT_LIMITS, type AskAttached, attachmentMime, isImageMime, SNIFF_BYTES } from "../core/attachment.ts";
import { type Collected, errorText, keptDir } from "../core/types.ts";

const GREW = "it grew past the limits after it was attached";

export type ImageBlock = { type: "image"; data: string; mimeType: string };

/** Where a call's files go, and whether its model reads images. */
export type DeliveryTarget = { sessionFile: string | undefined; takesImages: boolean };

let scratch: string | undefined;

/** The folder the copies go to: beside the session file, else one temp folder for the process. */
function attachmentsDir(sessionFile: string | undefined): string {
	if (sessionFile === undefined) {
		scratch ??= mkdtempSync(join(tmpdir(), "pi-ask-user-attachments-"));
		return scratch;
	}
	const dir = join(keptDir(sessionFile), "attachments");
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	return dir;
}

/** A name of the copy no other has, readable after its random part: `1f3a9c2e-layout.png`. */
const copyName = (name: string): string =>
	`${randomUUID().slice(0, 8)}-${name.replace(/[^\p{L}\p{N}._-]+/gu, "_").slice(-100) || "file"}`;

/**
 * `collected` with each file's path the saved copy's and how it reached the model (`sent`), or why it could not be
 * saved; the image blocks to put in the result.
 */
export function deliverAttachments(
	collected: Collected,
	target: DeliveryTarget,
): { collected: Collected; images: ImageBlock[] } {
	const files = collected.attachments ?? [];
	if (files.length === 0) return { collected, images: [] };
	const images: ImageBlock[] = [];
	let total = 0;
	const delivered = files.map(({ data, ...file }): AskAttached => {
		try {
			const bytes = data === undefined ? readFileSync(file.path) : Buffer.from(data, "base64");
			const mime = attachmentMime(file.name, bytes.subarray(0, SNIFF_BYTES));
			const image = isImageMime(mime);
			const limit = image ? ATTACHMENT_LIMITS.imageBytes : ATTACHMENT_LIMITS.fileBytes;
			total += bytes.length;
			if (bytes.length > limit || total > ATTACHMENT_LIMITS.totalBytes)
				return {
					...file,
					size: bytes.length,
					error: data === undefined ? GREW : "it is past the limits for a file that is no image",
				};
			const path = join(attachmentsDir(target.sessionFile), copyName(file.name));
			writeFileSync(path, bytes, { mode: 0o600, flag: "wx" });
			const sent = image && target.takesImages ? "image" : "path";
			if (sent === "image") images.push({ type: "image", data: bytes.toString("base64"), mimeType: mime });
			return { ...file, path, size: bytes.length, mime, sent };
		} catch (error) {
			return { ...file, error: errorText(error) };
		}
	});
	return { collected: { ...collected, attachments: delivered }, images };
}
