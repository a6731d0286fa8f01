/**
 * A paste in the open editor read as a file: terminals paste a dropped file as its path (core/pasted-file.ts reads
 * it); what is refused stays typed, with its reason.
 */

import { homedir } from "node:os";
import { readPastedFile } from "../core/pasted-file.ts";
import type { Phrase } from "../core/types.ts";
import type { Action } from "../machine/action.ts";
import { attachable, attachRefusal } from "../machine/attach.ts";
import type { FormState } from "../machine/model.ts";

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
	const read = readPastedFile(data.slice(PASTE_START.length, -PASTE_END.length), cwd, home);
	if (read === undefined) return { typed: true };
	if ("refused" in read) return { action: notice(read.refused), typed: true };
	const refusal = attachRefusal(state, state.overlay.target, read.file);
	if (refusal) return { action: notice(refusal), typed: true };
	return { action: { type: "attach", attachment: read.file }, typed: false };
}

const notice = (text: Phrase): Action => ({ type: "notice", tone: "warning", text });
