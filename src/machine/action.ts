/** Everything that can happen to the state: what a key, a dialog answer or the host asks of update.ts. */

import type { ScrollTarget, Viewport } from "./model.ts";
import type { Phrase } from "../core/types.ts";
import type { AskAttachment } from "../core/attachment.ts";

export type Action =
	/** ↑/↓: focus the previous/next row, wrapping. */
	| { type: "move"; delta: 1 | -1 }
	/** Focus that row (0-based here): the walker, before it chooses. */
	| { type: "focus"; row: number }
	/** 1–9, 0 (0-based here): choose that row (toggle it in a multi-select), or with numberKeys "focus" focus it. */
	| { type: "number"; row: number }
	/** Enter: choose the focused row (update.ts, choose). */
	| { type: "choose" }
	/** A printable key on "Type something…": its editor opens (the component hands it the key); on other rows nothing. */
	| { type: "write" }
	/** Space: toggle the focused option of a multi-select question. */
	| { type: "toggle" }
	/** ←/→, Tab/Shift+Tab: previous/next tab, wrapping; the Submit tab included. */
	| { type: "switchTab"; delta: 1 | -1 }
	/** n: note on the focused option (on the "Type something…" row: on the question). */
	| { type: "openNote" }
	/** N: note on the question (on the Submit tab: on the whole form). */
	| { type: "openQuestionNote" }
	/** c: write a message for the chat instead of answering; saving it ends the form ("chat"). */
	| { type: "openChat" }
	| { type: "editorSubmitted"; text: string }
	| { type: "editorCancelled"; draft: string }
	/** A file pasted into the open editor (its path): attached to the editor's target, unless a limit refuses it. */
	| { type: "attach"; attachment: AskAttachment }
	/** The open editor's target lets go of its last attachment. */
	| { type: "detach" }
	/** PageUp/PageDown (and ↑/↓ on the help screen, a line at a time), resolved against the viewport. */
	| { type: "page"; direction: 1 | -1; lines?: "page" | "line" }
	/** Scroll a region to a line, as far as the view lets it go. */
	| { type: "scrollTo"; target: ScrollTarget; top: number }
	/** The view drew the state: the layout facts it found (not a key: it disarms nothing). */
	| ({ type: "viewport" } & Viewport)
	| { type: "toggleHelp" }
	/** p: fold the form to one line to read the conversation above it, or unfold it. */
	| { type: "togglePeek" }
	| { type: "escape" }
	/** s: skip an optional question. */
	| { type: "skip" }
	/** Done with the current question as it stands (the dialog walker's Done and Next rows). */
	| { type: "done" }
	/** The form closes from outside; `editorText`: what the open editor holds, kept as a draft. */
	| { type: "abort"; editorText?: string }
	/** A message from the shell (the external editor failed or is not set): shown until the next action. */
	| { type: "notice"; tone: "warning" | "error"; text: Phrase }
	/** Any key the form does not use: it still clears the message and disarms Esc and Enter. */
	| { type: "otherKey" };
