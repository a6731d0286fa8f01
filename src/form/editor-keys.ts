/**
 * What the keys of the form's editor do besides typing: Enter saves, the external editor, Esc keeps a draft, a pasted
 * path attaches its file, Backspace at the start lets go of one, pi's paste-image key attaches the clipboard's image.
 */

import type { AutocompleteProvider, Editor } from "@mariozechner/pi-tui";
import { homedir } from "node:os";
import { readFileAt, readPastedFile } from "../core/pasted-file.ts";
import { type AskOptions, type ClipboardPaste, errorText, type Phrase, phrase } from "../core/types.ts";
import type { Action } from "../machine/action.ts";
import { attachable, attachmentsOf, attachRefusal, pastedAction } from "../machine/attach.ts";
import type { FormState } from "../machine/model.ts";
import { fileCompletion } from "./complete.ts";
import { editExternally } from "./external-editor.ts";
import type { EditorCommand } from "./key-table.ts";

/** The form as its editor's keys see it, read live: the state changes under an awaited read. */
export interface EditorHost {
	readonly state: FormState;
	readonly closed: boolean;
	/** The Editor while the state has one open. */
	readonly editor: Editor | undefined;
	readonly options: Pick<AskOptions, "cwd" | "pasteImage" | "fd"> & { tui: Parameters<typeof editExternally>[0] };
	dispatch(action: Action): void;
	/** The Editor's text changed: draw and keep it. */
	changed(): void;
}

export function editorKey(host: EditorHost, command: EditorCommand, data: string): void {
	const { editor } = host;
	if (command === "editorPasteImage")
		// Whatever goes wrong in an awaited read is said in the form, never thrown at pi.
		return void pasteClipboardImage(host).catch((error: unknown) =>
			host.closed ? undefined : host.dispatch(notice(phrase("attach.clipboardFailed", { reason: errorText(error) }))),
		);
	if (!editor) return;
	// While its completion menu is open, Enter takes a completion and Esc closes the menu (the other keys go to the
	// Editor anyway, a dropped file's path attaching as ever).
	if (editor.isShowingAutocomplete() && (command === "editorSubmit" || command === "editorCancel")) {
		editor.handleInput(data);
		return host.changed();
	}
	if (command === "editorSubmit") return submit(host, editor, data);
	if (command === "editorCancel") return host.dispatch({ type: "editorCancelled", draft: editor.getExpandedText() });
	if (command === "externalEditor") {
		const edited = editExternally(host.options.tui, editor.getExpandedText());
		if (!edited.ok) return host.dispatch(notice(edited.problem));
		return changeText(host, editor, () => editor.setText(edited.text));
	}
	return fileKey(host, editor, command, data);
}

/**
 * Enter saves the text exactly as typed; the Editor's own submit would trim it and clear itself, so it stays disabled.
 * The Editor sees the key first: a new-line variant of Enter changes its text, a plain Enter does not and means save.
 * pi's "backslash then Enter = new line" habit is kept by letting the Editor handle that one case with submit enabled.
 */
function submit(host: EditorHost, editor: Editor, data: string): void {
	const text = editor.getExpandedText();
	const { line, col } = editor.getCursor();
	changeText(host, editor, () => editor.handleInput(data));
	const moved = editor.getCursor();
	if (editor.getExpandedText() !== text || moved.line !== line || moved.col !== col) return;
	if (col > 0 && editor.getLines()[line]?.[col - 1] === "\\") {
		editor.disableSubmit = false;
		changeText(host, editor, () => editor.handleInput(data));
		editor.disableSubmit = true;
		return;
	}
	host.dispatch({ type: "editorSubmitted", text });
	// Refused (too long): a large paste sits in the Editor as one "[paste #1 …]" marker that
	// Backspace would delete whole. Spell it out so the user can shorten it where needed.
	if (host.state.overlay.kind === "editor" && editor.getText() !== text) editor.setText(text);
}

/**
 * A paste that is one file's path attaches it (a refused one is typed, with why); any other key is typed. Backspace at
 * the very start of the text lets go of the last attached file, anywhere else it deletes.
 */
function fileKey(host: EditorHost, editor: Editor, command: "editorInput" | "editorDetach", data: string): void {
	const { state } = host;
	if (state.overlay.kind !== "editor") return;
	const { target } = state.overlay;
	const cursor = editor.getCursor();
	if (command === "editorDetach" && cursor.line === 0 && cursor.col === 0 && attachmentsOf(state, target).length > 0)
		return host.dispatch({ type: "detach" });
	// Only a bracketed paste written as a path (as terminals paste a dropped file): a pasted bare word is a word.
	const path = /^\x1b\[200~([^]*)\x1b\[201~$/.exec(data)?.[1];
	const cwd = host.options.cwd ?? process.cwd();
	const read = path !== undefined && attachable(target) ? readPastedFile(path, cwd, homedir()) : undefined;
	const action = pastedAction(state, read);
	if (action) host.dispatch(action);
	if (action?.type === "attach") return;
	// The key's own refusal stays.
	if (action) {
		editor.handleInput(data);
		return host.changed();
	}
	changeText(host, editor, () => editor.handleInput(data));
}

/**
 * A change to the Editor's text, drawn and kept: a message on the text as it was (too long, a refused path) is old news
 * once the text changes — unless the change itself said something new (an `@` completion's file refused).
 */
function changeText(host: EditorHost, editor: Editor, change: () => void): void {
	const { message } = host.state;
	const before = message ? editor.getText() : undefined;
	change();
	const stale = before !== undefined && host.state.message === message && editor.getText() !== before;
	if (stale) host.dispatch({ type: "otherKey" });
	else host.changed();
}

/**
 * `@` completion in the editor (complete.ts): a chosen file is read and attached as a pasted path would be — only while
 * the editor it was chosen in is open (a Tab's one match is taken after fd answers, when the user may have moved on).
 */
export function completion(host: EditorHost): AutocompleteProvider {
	const cwd = host.options.cwd ?? process.cwd();
	const opened = host.state.overlay;
	return fileCompletion(cwd, host.options.fd, (path) => {
		if (host.closed || host.state.overlay !== opened || opened.kind !== "editor" || !attachable(opened.target))
			return false;
		const action = pastedAction(host.state, readFileAt(path));
		if (action) host.dispatch(action);
		return action?.type === "attach";
	});
}

/**
 * The clipboard's image, read by pi's own reader (pi-tui 1.x), checked against the limits, then saved beside the
 * session and attached to the open editor's target — if the form is still open on that target when the read ends;
 * otherwise the saved copy is removed again. Without a reader, or when the clipboard holds no image, the form says why.
 */
async function pasteClipboardImage(host: EditorHost): Promise<void> {
	const before = host.state.overlay;
	if (before.kind !== "editor" || !attachable(before.target)) return host.dispatch(notice(phrase("attach.notHere")));
	const { pasteImage } = host.options;
	if (!pasteImage) return host.dispatch(notice(phrase("attach.noClipboard")));
	let read: ClipboardPaste;
	try {
		read = await pasteImage((file) => attachRefusal(host.state, before.target, file));
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

const notice = (text: Phrase): Action => ({ type: "notice", tone: "warning", text });
