/**
 * The rules of files in an answer, pure: which editors take them, the limits (per answer, per form, per file, in all),
 * and what a target's attachments need (its text: a file goes with the words it illustrates). update.ts applies them.
 */

import {
	ATTACHMENT_LIMITS,
	type AskAttached,
	type AskAttachment,
	isImageMime,
	megabytes as mb,
} from "../core/attachment.ts";
import type { PastedFile } from "../core/pasted-file.ts";
import { type Phrase, phrase } from "../core/types.ts";
import type { Action } from "./action.ts";
import { draftKey, type EditorTarget, type FormState, formTargets, placeOf, savedText } from "./model.ts";

/** A free answer and every note take files; the chat message does not. */
export const attachable = (target: EditorTarget): boolean => target.kind !== "chat";

export function attachmentsOf(state: FormState, target: EditorTarget): readonly AskAttachment[] {
	const key = draftKey(target);
	return Object.hasOwn(state.attachments, key) ? (state.attachments[key] ?? []) : [];
}

/** Why `attachment` cannot join `target` now, or undefined when it can. */
export function attachRefusal(state: FormState, target: EditorTarget, attachment: AskAttachment): Phrase | undefined {
	const { name, size, mime } = attachment;
	if (!attachable(target)) return phrase("attach.notHere");
	const limit = isImageMime(mime) ? ATTACHMENT_LIMITS.imageBytes : ATTACHMENT_LIMITS.fileBytes;
	if (size > limit) return phrase("attach.tooLarge", { name, size: mb(size), limit: mb(limit) });
	if (attachmentsOf(state, target).length >= ATTACHMENT_LIMITS.perAnswer)
		return phrase("attach.answerFull", { limit: ATTACHMENT_LIMITS.perAnswer });
	const all = Object.values(state.attachments).flat();
	if (all.length >= ATTACHMENT_LIMITS.perForm) return phrase("attach.formFull", { limit: ATTACHMENT_LIMITS.perForm });
	const total = all.reduce((sum, a) => sum + a.size, 0) + size;
	if (total > ATTACHMENT_LIMITS.totalBytes)
		return phrase("attach.totalTooLarge", { name, limit: mb(ATTACHMENT_LIMITS.totalBytes) });
	return undefined;
}

/**
 * What a path given in the open editor asks (`read`: core/pasted-file.ts's look at the disk): attach its file, or say
 * why not; undefined when it names no file.
 */
export function pastedAction(state: FormState, read: PastedFile | undefined): Action | undefined {
	if (read === undefined || state.overlay.kind !== "editor") return undefined;
	const refusal = "refused" in read ? read.refused : attachRefusal(state, state.overlay.target, read.file);
	if (refusal) return { type: "notice", tone: "warning", text: refusal };
	return "file" in read ? { type: "attach", attachment: read.file } : undefined;
}

/** The open editor's target takes the file, or the state says why not (and the shell keeps the path as text). */
export function attach(state: FormState, attachment: AskAttachment): FormState {
	if (state.overlay.kind !== "editor") return state;
	const target = state.overlay.target;
	// The same file again (pasted or completed twice, or brought back by an undo) is there once.
	if (attachmentsOf(state, target).some((file) => file.path === attachment.path)) return state;
	const refusal = attachRefusal(state, target, attachment);
	if (refusal) return { ...state, message: { tone: "warning", text: refusal } };
	const key = draftKey(target);
	return { ...state, attachments: { ...state.attachments, [key]: [...attachmentsOf(state, target), attachment] } };
}

/** The open editor's target lets go of its last file. */
export function detach(state: FormState): FormState {
	if (state.overlay.kind !== "editor") return state;
	const target = state.overlay.target;
	const kept = attachmentsOf(state, target).slice(0, -1);
	if (kept.length === attachmentsOf(state, target).length) return state;
	const attachments: Record<string, readonly AskAttachment[]> = { ...state.attachments };
	if (kept.length === 0) delete attachments[draftKey(target)];
	else attachments[draftKey(target)] = kept;
	return { ...state, attachments };
}

/**
 * What a shell collects of the files: each with what it belongs to, where that has saved text (a free answer only while
 * it is chosen); a file whose words were never saved stays with the kept form, not the result.
 */
export function collectAttachments(state: FormState): AskAttached[] {
	return formTargets(state.form).flatMap((target) => {
		const said = target.kind === "custom" ? state.questions[target.question]?.customChosen : savedText(state, target);
		if (!said) return [];
		// The chat takes no files: every other place is an answer's or a note's.
		const place = placeOf(state.form, target) as Omit<AskAttached, keyof AskAttachment>;
		return attachmentsOf(state, target).map((file) => ({ ...file, ...place }));
	});
}
