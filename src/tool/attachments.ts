/**
 * The files of a submitted form, delivered: each copied beside the session (`<session>.jsonl.ask-user/attachments/`,
 * the folder 0700, each file 0600; no session file: a temp folder of this process), each image as image content for a
 * model that reads images (core/attachment-copy.ts says where). The bytes go to the model only; `details` names the
 * saved copies.
 */

import { readFileSync } from "node:fs";
import { ATTACHMENT_LIMITS, type AskAttached, attachmentMime, isImageMime, SNIFF_BYTES } from "../core/attachment.ts";
import { isSavedCopy, saveCopy } from "../core/attachment-copy.ts";
import { type Collected, errorText } from "../core/types.ts";

export type ImageBlock = { type: "image"; data: string; mimeType: string };

/** Where a call's files go, and whether its model reads images. */
export type DeliveryTarget = { sessionFile: string | undefined; takesImages: boolean };

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
	const delivered = files.map((file): AskAttached => {
		try {
			const bytes = readFileSync(file.path);
			const mime = attachmentMime(file.name, bytes.subarray(0, SNIFF_BYTES));
			const image = isImageMime(mime);
			const limit = image ? ATTACHMENT_LIMITS.imageBytes : ATTACHMENT_LIMITS.fileBytes;
			total += bytes.length;
			if (bytes.length > limit || total > ATTACHMENT_LIMITS.totalBytes)
				return { ...file, size: bytes.length, error: "it grew past the limits after it was attached" };
			// An upload the page's server saved is the copy already.
			const { sessionFile } = target;
			const path = isSavedCopy(sessionFile, file.path) ? file.path : saveCopy(sessionFile, file.name, bytes);
			const sent = image && target.takesImages ? "image" : "path";
			if (sent === "image") images.push({ type: "image", data: bytes.toString("base64"), mimeType: mime });
			return { ...file, path, size: bytes.length, mime, sent };
		} catch (error) {
			return { ...file, error: errorText(error) };
		}
	});
	return { collected: { ...collected, attachments: delivered }, images };
}
