/**
 * A paste in the open editor read as a file: terminals paste a dropped file as its path (core/pasted-file.ts reads
 * it); what is refused stays typed, with its reason.
 */

import { homedir } from "node:os";
import { readPastedFile } from "../core/pasted-file.ts";
import { type AskOptions, type ClipboardPaste, errorText, type Phrase, phrase } from "../core/types.ts";
import type { Action } from "../machine/action.ts";
import { attachable, attachmentsOf, attachRefusal } from "../machine/attach.ts";
import type { FormState } from "../machine/model.ts";

/** What the editor's file keys need of the form: its state, the open Editor's cursor, and a way to act. */
export interface FileKeysHost {
	readonly state: FormState;
	readonly cursor: { line: number; col: number } | undefined;
	readonly cwd: string;
	readonly pasteImage: AskOptions["pasteImage"];
	/** The form has ended (an awaited clipboard read may end after it). */
	readonly closed: boolean;
	dispatch(action: Action): void;
	/** Give the key to the Editor, as typed. */
	type(data: string): void;
}

/**
 * The editor's keys that concern files. `editorInput`: a paste that is one file's path attaches it (a refused one is
 * typed, with why); any other key is typed. `editorDetach`: Backspace at the very start of the text lets go of the last
 * attached file, anywhere else it deletes. `editorPasteImage`: pi's paste-image key attaches the clipboard's image.
 */
export function fileKey(
	host: FileKeysHost,
	command: "editorInput" | "editorDetach" | "editorPasteImage",
	data: string,
) {
	const { state } = host;
	// Whatever goes wrong in an awaited read is said in the form, never thrown at pi.
	if (command === "editorPasteImage")
		return void pasteClipboardImage(host).catch((error: unknown) =>
			host.closed ? undefined : host.dispatch(notice(phrase("attach.clipboardFailed", { reason: errorText(error) }))),
		);
	if (command === "editorDetach" && state.overlay.kind === "editor" && host.cursor) {
		const { line, col } = host.cursor;
		if (line === 0 && col === 0 && attachmentsOf(state, state.overlay.target).length > 0)
			return host.dispatch({ type: "detach" });
	}
	const { action, typed } = pasteInEditor(state, data, host.cwd);
	if (action) host.dispatch(action);
	if (typed) host.type(data);
}

/**
 * The clipboard's image, read by pi's own reader (pi-tui 1.x), checked against the limits, then saved beside the
 * session and attached to the open editor's target — if the form is still open on that target when the read ends;
 * otherwise the saved copy is removed again. Without a reader, or when the clipboard holds no image, the form says why.
 */
async function pasteClipboardImage(host: FileKeysHost): Promise<void> {
	const before = host.state.overlay;
	if (before.kind !== "editor" || !attachable(before.target)) return host.dispatch(notice(phrase("attach.notHere")));
	if (!host.pasteImage) return host.dispatch(notice(phrase("attach.noClipboard")));
	let read: ClipboardPaste;
	try {
		read = await host.pasteImage((file) => attachRefusal(host.state, before.target, file));
	} catch (error) {
		read = { refused: phrase("attach.clipboardFailed", { reason: errorText(error) }) };
	}
	const gone = host.closed || host.state.overlay !== before;
	if ("refused" in read) return gone ? undefined : host.dispatch(notice(read.refused));
	// Checked again: the editor's other keys may have attached files meanwhile.
	const refusal = gone ? undefined : attachRefusal(host.state, before.target, read.file);
	if (gone || refusal) read.discard();
	if (refusal) host.dispatch(notice(refusal));
	else if (!gone) host.dispatch({ type: "attach", attachment: read.file });
}

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** What the editor does with a key: `action` for the state, and whether the Editor still gets the key as typed. */
export type EditorPaste = { action?: Action; typed: boolean };

/**
 * A bracketed paste that is exactly one file's path attaches that file to the open editor's target; one that names a
 * path that cannot be attached is typed, and the form says why; anything else is just typed.
 */
export function pasteInEditor(state: FormState, data: string, cwd: string, home = homedir()): EditorPaste {
	if (state.overlay.kind !== "editor" || !attachable(state.overlay.target)) return { typed: true };
	if (!data.startsWith(PASTE_START) || !data.endsWith(PASTE_END)) return { typed: true };
	// Only a paste written as a path (as terminals paste a dropped file): a pasted bare word is a word, even where it is
	// a file's name.
	const read = readPastedFile(data.slice(PASTE_START.length, -PASTE_END.length), cwd, home, { explicitOnly: true });
	if (read === undefined) return { typed: true };
	if ("refused" in read) return { action: notice(read.refused), typed: true };
	const refusal = attachRefusal(state, state.overlay.target, read.file);
	if (refusal) return { action: notice(refusal), typed: true };
	return { action: { type: "attach", attachment: read.file }, typed: false };
}

const notice = (text: Phrase): Action => ({ type: "notice", tone: "warning", text });
