/**
 * pi's paste-image key in the form's editor: the clipboard's image read by pi's own reader (pi-tui 1.x exports
 * `getNativeClipboard`; pi 0.73.1 has none, and on Linux it needs a display), saved 0600 beside the session, then
 * attached like a pasted path. The image is a file from the moment it is pasted, so a kept form keeps it.
 */

import * as tui from "@mariozechner/pi-tui";
import { rmSync } from "node:fs";
import { extensionOf, sniffImageMime } from "../core/attachment.ts";
import { type AskOptions, errorText, phrase } from "../core/types.ts";
import { saveCopy } from "../core/attachment-copy.ts";

/** The reader for a session's forms; undefined where pi exports no clipboard reader (the key then says so). */
export function clipboardImageReader(sessionFile: string | undefined): AskOptions["pasteImage"] {
	const native = (tui as Partial<typeof tui>).getNativeClipboard;
	if (typeof native !== "function") return undefined;
	return async (refusal) => {
		const clipboard = native();
		if (!clipboard) return { refused: phrase("attach.noClipboard") };
		let bytes: Uint8Array | null | undefined;
		try {
			bytes = await clipboard.getImage();
		} catch (error) {
			return { refused: phrase("attach.clipboardFailed", { reason: errorText(error) }) };
		}
		if (bytes === undefined) return { refused: phrase("attach.noClipboard") };
		if (bytes === null || bytes.length === 0) return { refused: phrase("attach.clipboardEmpty") };
		const mime = sniffImageMime(bytes);
		if (mime === undefined) return { refused: phrase("attach.clipboardNotImage", { types: "PNG, JPEG, GIF, WebP" }) };
		// Checked before anything is written: a refused image leaves no file behind.
		const name = clipboardName(mime);
		const refused = refusal({ name, path: "", size: bytes.length, mime });
		if (refused) return { refused };
		const file = { name, path: saveCopy(sessionFile, name, bytes), size: bytes.length, mime };
		return { file, discard: () => rmSync(file.path, { force: true }) };
	};
}

let last = { stamp: "", count: 0 };

/**
 * `clipboard-20261204-181502.png`: when it was pasted; a second paste in the same second `…-181502-2.png`, so each file
 * the model is told of has a name of its own.
 */
export function clipboardName(mime: string): string {
	const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
	last = { stamp, count: stamp === last.stamp ? last.count + 1 : 1 };
	const again = last.count > 1 ? `-${last.count}` : "";
	return `clipboard-${stamp.slice(0, 8)}-${stamp.slice(8)}${again}.${extensionOf(mime) ?? "img"}`;
}
