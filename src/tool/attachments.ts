/**
 * The files of a submitted form, delivered: each copied beside the session (`<session>.jsonl.ask-user/attachments/`,
 * the folder 0700, each file 0600; no session file: a temp folder of this process), each image as image content for a
 * model that reads images (core/attachment-copy.ts says where). A file read from its path, or one that crossed a wire with
 * its bytes (a relay reply); the bytes go to the model only, `details` names the saved copies.
 */

import * as pi from "@mariozechner/pi-coding-agent";
import { readFileSync } from "node:fs";
import { ATTACHMENT_LIMITS, type AskAttached, attachmentMime, isImageMime, SNIFF_BYTES } from "../core/attachment.ts";
import { isSavedCopy, saveCopy } from "../core/attachment-copy.ts";
import { type Collected, errorText } from "../core/types.ts";

const GREW = "it grew past the limits after it was attached";

export type ImageBlock = { type: "image"; data: string; mimeType: string };

/** Where a call's files go, and whether its model reads images. */
export type DeliveryTarget = { sessionFile: string | undefined; takesImages: boolean };

/** pi's own image resizing (pi 1.x exports it; pi 0.73.1 does not): to pi's limits for a model, as its read tool does. */
type Resize = (bytes: Uint8Array, mime: string) => Promise<{ data: string; mimeType: string } | null>;
const piResize = (pi as { resizeImage?: Resize }).resizeImage;

/**
 * `collected` with each file's path the saved copy's and how it reached the model (`sent`), or why it could not be
 * saved; the image blocks to put in the result. An image pi cannot bring within its limits goes as a path.
 */
export async function deliverAttachments(
	collected: Collected,
	target: DeliveryTarget,
	resize: Resize | undefined = piResize,
): Promise<{ collected: Collected; images: ImageBlock[] }> {
	const files = collected.attachments ?? [];
	if (files.length === 0) return { collected, images: [] };
	const images: ImageBlock[] = [];
	let total = 0;
	const delivered: AskAttached[] = [];
	for (const { data, ...file } of files) {
		try {
			const bytes = data === undefined ? readFileSync(file.path) : Buffer.from(data, "base64");
			const mime = attachmentMime(file.name, bytes.subarray(0, SNIFF_BYTES));
			const image = isImageMime(mime);
			const limit = image ? ATTACHMENT_LIMITS.imageBytes : ATTACHMENT_LIMITS.fileBytes;
			total += bytes.length;
			if (bytes.length > limit || total > ATTACHMENT_LIMITS.totalBytes) {
				const error = data === undefined ? GREW : "it is past the limits for a file that is no image";
				delivered.push({ ...file, size: bytes.length, error });
				continue;
			}
			// A pasted clipboard image, or an upload the page's server saved, is the copy already.
			const { sessionFile } = target;
			const path = isSavedCopy(sessionFile, file.path) ? file.path : saveCopy(sessionFile, file.name, bytes);
			const block = image && target.takesImages ? await imageBlock(bytes, mime, resize) : undefined;
			if (block) images.push(block);
			delivered.push({ ...file, path, size: bytes.length, mime, sent: block ? "image" : "path" });
		} catch (error) {
			delivered.push({ ...file, error: errorText(error) });
		}
	}
	return { collected: { ...collected, attachments: delivered }, images };
}

/** The image as the model gets it: resized by pi where pi can; as is without pi's resizing; none if pi cannot fit it. */
async function imageBlock(bytes: Buffer, mime: string, resize: Resize | undefined): Promise<ImageBlock | undefined> {
	if (!resize) return { type: "image", data: bytes.toString("base64"), mimeType: mime };
	const resized = await resize(new Uint8Array(bytes), mime).catch(() => null);
	return resized ? { type: "image", data: resized.data, mimeType: resized.mimeType } : undefined;
}
