/**
 * The files of a submitted form, delivered: each copied beside the session (`<session>.jsonl.ask-user/attachments/`,
 * the folder 0700, each file 0600; no session file: a temp folder of this process), each image as image content for a
 * model that reads images (core/attachment-copy.ts says where). A file read from its path, or one that crossed a wire
 * with its bytes (a relay reply); the bytes go to the model only, `details` names the saved copies.
 */

import * as pi from "@mariozechner/pi-coding-agent";
import {
	ATTACHMENT_LIMITS,
	type AskAttached,
	attachmentMime,
	formatSize,
	isImageMime,
	SNIFF_BYTES,
} from "../core/attachment.ts";
import { type BoundedRead, isSavedCopy, readWithinLimit, saveCopy } from "../core/attachment-copy.ts";
import { type Collected, errorText } from "../core/types.ts";

export type ImageBlock = { type: "image"; data: string; mimeType: string };

export type DeliveryTarget = { sessionFile: string | undefined; takesImages: boolean };

/**
 * pi's own image resizing (pi 1.x exports it; pi 0.73.1 does not): to pi's limits for a model, as its read tool does.
 */
type Resize = (bytes: Uint8Array, mime: string) => Promise<{ data: string; mimeType: string } | null>;
const piResize = (pi as { resizeImage?: Resize }).resizeImage;

/**
 * `collected` with each file's path the saved copy's and how it reached the model (`sent`), or why it could not be
 * saved; the image blocks to put in the result. An image pi cannot bring within its limits goes as a path.
 */
export async function deliverAttachments(
	collected: Collected,
	target: DeliveryTarget,
	/** null: none (as in pi 0.73.1). */
	resize: Resize | null = piResize ?? null,
): Promise<{ collected: Collected; images: ImageBlock[] }> {
	const files = collected.attachments ?? [];
	if (files.length === 0) return { collected, images: [] };
	const images: ImageBlock[] = [];
	let total = 0;
	const delivered: AskAttached[] = [];
	for (const { data, ...file } of files) {
		try {
			const { bytes, size, head } = data === undefined ? readWithinLimit(file.path) : carried(data);
			const mime = attachmentMime(file.name, head);
			const over = overLimit(size, isImageMime(mime), total);
			if (!bytes || over) {
				const why = over ?? "it changed while it was read";
				delivered.push({ ...file, size, error: data === undefined ? `it grew since it was attached: ${why}` : why });
				continue;
			}
			total += bytes.length;
			// A pasted clipboard image, or an upload the page's server saved, is the copy already.
			const { sessionFile } = target;
			const path = isSavedCopy(sessionFile, file.path) ? file.path : saveCopy(sessionFile, file.name, bytes);
			const block = isImageMime(mime) && target.takesImages ? await imageBlock(bytes, mime, resize) : undefined;
			if (block) images.push(block);
			delivered.push({ ...file, path, size: bytes.length, mime, sent: block ? "image" : "path" });
		} catch (error) {
			delivered.push({ ...file, error: errorText(error) });
		}
	}
	return { collected: { ...collected, attachments: delivered }, images };
}

/** Which limit `size` breaks (in English, for the model), with `total` the bytes of the files taken before it. */
function overLimit(size: number, image: boolean, total: number): string | undefined {
	const limit = image ? ATTACHMENT_LIMITS.imageBytes : ATTACHMENT_LIMITS.fileBytes;
	if (size > limit) return `it is over the ${formatSize(limit)} limit for ${image ? "an image" : "a file"}`;
	if (total + size > ATTACHMENT_LIMITS.totalBytes)
		return `it takes the form's files over their ${formatSize(ATTACHMENT_LIMITS.totalBytes)} in all`;
	return undefined;
}

/** Bytes that crossed a wire with the file (a relay reply), read as a file on disk is. */
function carried(data: string): BoundedRead {
	const bytes = Buffer.from(data, "base64");
	return { bytes, size: bytes.length, head: bytes.subarray(0, SNIFF_BYTES) };
}

/**
 * Without pi's resizing (pi 0.73.1) an image goes as it is only up to this size, which every provider takes; a larger
 * one goes as its path.
 */
export const UNRESIZED_IMAGE_BYTES = 4 * 1024 * 1024;

/**
 * The image as the model gets it: resized by pi where pi can; as it is without pi's resizing; none if pi cannot fit it.
 */
async function imageBlock(bytes: Buffer, mime: string, resize: Resize | null): Promise<ImageBlock | undefined> {
	if (!resize)
		return bytes.length <= UNRESIZED_IMAGE_BYTES
			? { type: "image", data: bytes.toString("base64"), mimeType: mime }
			: undefined;
	const resized = await resize(new Uint8Array(bytes), mime).catch(() => null);
	return resized ? { type: "image", data: resized.data, mimeType: resized.mimeType } : undefined;
}
