/**
 * The English catalogue: every string the user reads, and the source every
 * other locale (./locales/) follows key by key. What the model reads (the
 * result text, validation errors, relay errors) is not here: it stays
 * English, the language the tool's steering is written in.
 *
 * A message is a string with `{name}` placeholders, or, where it counts
 * something, one string per plural category of Intl.PluralRules (`other`
 * always; English also `one`). `{count}` picks the category. A placeholder
 * given a list of strings is joined the locale's way ("A, B, and C").
 *
 * Keys ending in `Prefix` are followed directly by the user's text: they end
 * with their own punctuation and space.
 */

export type PluralMessage = { readonly other: string } & Partial<Readonly<Record<Intl.LDMLPluralRule, string>>>;
export type Message = string | PluralMessage;

export const EN = {
	// ── The form's chrome ──────────────────────────────────────────────────
	"form.askedBy": "Asked by {asker}",
	// Who asks and its task, on one line above the questions; the task is cut to the width.
	"form.askedByTask": "Asked by {asker} · {task}",
	// The model's one line on why it asks (the call's `reason`), above the tabs.
	"form.reason": "Why: {reason}",
	// Who asks, for a form from elsewhere that gives no name (or one that reads as this session); {pid}: the child's.
	"form.unnamedAsker": "an unnamed subagent",
	"form.unnamedAskerPid": "an unnamed subagent (pid {pid})",
	"form.timeLeft": "⏱ {time} left",
	"form.peekAsks": "{asker} asks",
	"form.peekWaits": "ask_user waits ({progress})",
	"form.peekShow": "{key} shows the form",
	"form.questionCount": { one: "{count} question", other: "{count} questions" },
	"form.answeredCount": "{answered} of {total} answered",
	"form.optional": "(optional)",
	"form.pressAgainToDismiss": "Press {key} again to dismiss the form",
	"form.pressAgainToSubmit": {
		one: "{count} unsaved draft — press {key} again to submit without it",
		other: "{count} unsaved drafts — press {key} again to submit without them",
	},
	"form.moreAbove": "↑ {count} more · {key}",
	"form.moreBelow": "↓ {count} more · {key}",
	"form.paneLines": "lines {from}–{to} of {total} · {keys}",
	"form.peekKeyTaken": "{key} is taken by your keybindings, so {fallback} folds the form",

	// ── The editor ─────────────────────────────────────────────────────────
	"editor.formNote": "Your note on the whole form (e.g. what to keep in mind with every answer):",
	"editor.chat": "Your message, sent to the chat instead of the form (the answers so far are kept):",
	"editor.custom": "Your answer:",
	"editor.questionNote": "Your note on this question:",
	"editor.optionNote": "Your note on “{option}”:",
	"editor.noExternal": "No external editor: set $VISUAL or $EDITOR (e.g. export EDITOR=vim), then try again.",
	"editor.externalCouldNotRun": "The external editor ({program}) could not run: {reason}. The text is unchanged.",
	"editor.externalExited": "The external editor ({program}) exited with status {status}: the text is unchanged.",
	"editor.externalFailed": "The external editor failed: {reason}. The text is unchanged.",

	// ── What the form says when a key cannot do what it asks ────────────────
	"problem.requiredCannotSkip": "{header} is required and can't be skipped",
	"problem.pickBeforeDone": "Pick at least one option (or type your own) before Done",
	"problem.answerFirst": "Answer {names} first",
	"problem.tooLong": {
		one: "Too long: {count} character, the limit is {limit}. Shorten it, then save again.",
		other: "Too long: {count} characters, the limit is {limit}. Shorten it, then save again.",
	},

	// ── Files in an answer (a pasted path) ──────────────────────────────────
	"attach.notHere": "Files go with a free answer or a note, not with a message for the chat.",
	"attach.tooLarge": "{name} is too large to attach ({size}, the limit is {limit}).",
	"attach.answerFull": "At most {limit} files per answer.",
	"attach.formFull": "At most {limit} files per form.",
	"attach.totalTooLarge": "{name} would take the form's files past {limit}.",
	"attach.needsText": "Write a few words with the attached files, or remove them first.",
	"attach.missing": "No such file: {path}. The path stays as text.",
	"attach.directory": "{path} is a folder, not a file: the path stays as text.",
	"attach.notFile": "{path} is not a regular file: the path stays as text.",
	"attach.unreadable": "{path} cannot be read ({reason}): the path stays as text.",
	"attach.noClipboard":
		"Pasting an image needs pi's clipboard reader (pi 1.x; on Linux, a display): paste or drop the file's path instead.",
	"attach.clipboardEmpty": "The clipboard holds no image: copy one, or paste or drop a file's path.",
	"attach.clipboardFailed": "The clipboard could not be read ({reason}): paste or drop the file's path instead.",
	"attach.clipboardNotImage":
		"The clipboard's image is not one of {types}: save it as one, then paste or drop its path.",

	// ── A question ─────────────────────────────────────────────────────────
	"question.typeSomething": "Type something…",
	"question.recommended": "(recommended)",
	"question.draft": "(draft)",
	"question.yourNoteOnQuestion": "✎ Your note on this question:",
	"question.noteDraft": "✎ Note on this question (draft): {key} to open it",
	"question.writeOwn": "Write your own answer: {key}",
	"question.yourAnswer": "Your answer:",
	"question.yourDraft": "Your draft, not saved:",
	"question.yourNote": "✎ Your note:",
	"question.preview": "Preview:",
	"question.youDecide": "You decide",
	"question.youDecideDetail": "Leave this to the model: it chooses, says which in its reply, and goes on.",
	"question.youDecideRecommended": "It recommended: {label}",

	// ── The Submit tab ─────────────────────────────────────────────────────
	"review.tab": "Submit",
	"review.title": "Review your answers",
	"review.missing": "Still missing: {names}",
	"review.dropsDrafts": {
		one: "Ready to submit, but {count} unsaved draft would be dropped: save it on its question to keep it.",
		other: "Ready to submit, but {count} unsaved drafts would be dropped: save them on their questions to keep them.",
	},
	"review.ready": "Ready to submit.",
	"review.submit": "Submit",
	"review.cancel": "Cancel (dismiss the form)",
	"review.skipped": "skipped",
	"review.requiredUnanswered": "not answered yet (required)",
	"review.optionalUnanswered": "not answered (optional: will be reported as skipped)",
	"review.formNotePrefix": "✎ Note on the whole form: ",
	"review.addFormNote": "{key}: add a note on the whole form",
	"review.noteDraftPrefix": "✎ unsaved note draft: ",
	"review.chatDraftPrefix": "💬 unsent message for the chat: ",
	"review.draftPrefix": "✎ unsaved draft: ",
	"review.optionNoteDraftPrefix": "✎ unsaved note draft on {option}: ",

	// ── Keys: the help screen (`help`) and the hint line (`hint`, short) ────
	"help.title": "Keys",
	// The task of who asks, whole, on the help screen.
	"help.task": "Task: {task}",
	"help.typing":
		"On “Type something…” every letter, digit and symbol you type writes your answer; to use the letter and digit keys above, move off it first.",
	"help.join": "; ",
	"key.unbound": "(unbound)",
	"key.move.help": "move between options (wraps around)",
	"key.move.hint": "move",
	"key.focus.help":
		"choose that option (multi-select: toggle it; “Type something…”: write); with the numberKeys setting “focus”, only focus it",
	"key.focus.hint": "choose",
	"key.choose.help": "choose the focused option; on Submit, submit",
	"key.choose.hint": "choose",
	"key.toggle.help": "multi-select: toggle the focused option",
	"key.toggle.hint": "toggle",
	"key.done.help": "multi-select: done with the selected options",
	"key.done.hint": "done",
	"key.write.help": "on “Type something…”: write your own answer",
	"key.write.hint": "write",
	"key.tabs.help": "previous / next question (Submit included)",
	"key.tabs.hint": "questions",
	"key.note.help": "add a note to the focused option (on Submit: to the whole form)",
	"key.note.hint": "note",
	"key.questionNote.help": "add a note to the question (on Submit: to the whole form)",
	"key.questionNote.hint": "note on question",
	"key.skip.help": "skip an optional question",
	"key.skip.hint": "skip",
	"key.chat.help":
		"reply in chat instead: write a message to the model; the form closes and your answers so far are kept",
	"key.chat.hint": "reply in chat",
	"key.scroll.help": "scroll long text",
	"key.scroll.hint": "scroll",
	"key.help.help": "show this help",
	"key.help.hint": "help",
	"key.peek.help": "peek: fold the form to one line to read the conversation above it (scroll your terminal)",
	"key.peek.hint": "peek",
	"key.unpeek.help": "folded: {keys} bring the form back, every answer, note and draft as it was",
	"key.unpeek.hint": "show the form",
	"key.dismiss.help": "on the form, press it twice to dismiss",
	"key.dismiss.hint": "dismiss",
	"key.interrupt.help": "interrupt: stop the agent run",
	"key.interrupt.hint": "interrupt",
	"key.save.help": "in the editor: save",
	"key.save.hint": "save",
	"key.send.help": "in a chat message: send",
	"key.send.hint": "send",
	"key.newLine.help": "in the editor: new line",
	"key.newLine.hint": "new line",
	"key.external.help": "in the editor: edit the text in your $VISUAL / $EDITOR, as in pi's own editor",
	"key.external.hint": "external editor",
	"key.clearLine.help": "in the editor: delete to the start of the line",
	"key.clearLine.hint": "clear line",
	"key.detach.help":
		"in the editor, at the start of the text: remove the last attached file (paste or drop a file's path to attach it)",
	"key.detach.hint": "remove file",
	"key.pasteImage.help": "in the editor: attach the clipboard's image, as in pi's editor",
	"key.pasteImage.hint": "paste image",
	"key.back.help": "in the editor: back to the options, keeping what you typed as a draft",
	"key.back.hint": "back",
	"key.close.help": "in this help: {keys} close it",
	"key.close.hint": "close",

	// ── The transcript ─────────────────────────────────────────────────────
	"status.answered": "Answered",
	"status.dismissed": "Dismissed",
	"status.aborted": "Aborted",
	"status.no_ui": "No UI to ask in",
	"status.timed_out": "Timed out",
	"status.error": "Failed",
	"status.chat": "Replied in chat instead",
	"status.pending": "Waiting for the user",
	"outcome.answered": "answered",
	"outcome.skipped": "skipped",
	"outcome.unanswered": "unanswered",
	"outcome.delegated": "left to the model",
	"transcript.answeredElsewhere": "Answered elsewhere, through {source}",
	"transcript.noteMark": "(+note)",
	"transcript.draftMark": "(+draft)",
	"transcript.formNote": "✎ Note on the whole form: {text}",
	"transcript.chatDraft": "💬 Message for the chat, draft, not sent: {text}",
	"transcript.formNoteDraft": "✎ Note on the whole form, draft, not saved: {text}",
	"transcript.notePrefix": "note: ",
	"transcript.noteDraftPrefix": "note draft, not saved: ",
	"transcript.wrote": "wrote:",
	"transcript.draftPrefix": "draft, not saved: ",
	"transcript.failed": "ask_user failed",

	// ── The dialog walker (RPC hosts): rows and titles ──────────────────────
	"walker.previews": "👁 Show the options' previews…",
	"walker.freeText": "✎ Type something…",
	"walker.youDecide": "🤖 You decide (leave it to the model)",
	"walker.note": "✎ Add a note…",
	"walker.editNote": "✎ Edit the note…",
	"walker.skip": "↷ Skip",
	"walker.done": "✓ Done",
	"walker.next": "→ Next (keep this answer)",
	"walker.back": "← Back",
	"walker.submit": "✓ Submit",
	"walker.formNote": "✎ Add a note on the whole form…",
	"walker.editFormNote": "✎ Edit the note on the whole form…",
	"walker.chat": "💬 Reply in chat instead…",
	"walker.cancel": "✗ Cancel",
	"walker.freeTextYours": "✎ Type something… (yours: {text})",
	"walker.selected": "Selected: {answer}",
	"walker.pickThenDone": "Pick one or more, then Done.",
	"walker.yourAnswer": "Your answer: {answer}",
	"walker.asks": "{asker} asks",
	"walker.askedBy": "asked by {asker}",
	"walker.chatTitle": "Your message for the chat, instead of the form (your answers so far are kept)",
	"walker.formNoteTitle": "A note on the whole form",
	"walker.answerTo": "Your answer to: {question}",
	"walker.noteOn": "A note on: {question}",
	"walker.previewsTitle": "Previews of the options for: {question}",
	"walker.previewsReadOnly": "Only to read: nothing typed here is kept. Close it to go back to the question.",
	"walker.skipped": "(skipped)",
	"walker.noAnswer": "(no answer)",
	"walker.noteLine": "note: {text}",
	"walker.formNoteLine": "Note on the whole form: {text}",
	"walker.unsavedOverLimit": {
		one: "⚠ {count} text over the limit was not saved; Submit drops it.",
		other: "⚠ {count} texts over the limit were not saved; Submit drops them.",
	},
	"walker.position": "{index} of {total}",
	"walker.optional": "optional",
	"walker.choiceOnly":
		"ⓘ This host shows no text boxes: answer by choosing a row (the rows for your own text, notes and previews are gone).",
	"walker.stray": "⚠ That answer is not one of the rows: pick one of them.",
	"walker.pathAsText": "Submit it unchanged to give it as your answer, as text.",
	"walker.needsText":
		"Write a few words with the attached files; to answer without them, cancel this editor and choose an option.",
	"walker.blank": "ⓘ The text was left blank: nothing is saved for it.",
	"walker.notText": "⚠ That answer was not text: write it again.",
	"walker.closed": "ask_user: these questions are closed; an answer to the open dialog will be ignored.",

	// ── An ACP host's form (pi-ask-user/elicitation) ──
	"elicitation.ownAnswer": "{header}: your own answer",
	"elicitation.addedToChosen": "Added to the options chosen.",
	"elicitation.insteadOfOption": "Instead of choosing an option.",
	"elicitation.note": "{header}: a note",
	"elicitation.asks": {
		one: "{asker} asks {count} question: {questions}",
		other: "{asker} asks {count} questions: {questions}",
	},
	"elicitation.agentAsks": {
		one: "The agent asks {count} question: {questions}",
		other: "The agent asks {count} questions: {questions}",
	},

	// ── Getting the user's attention ───────────────────────────────────────
	"attention.waiting": { one: "{count} question waiting", other: "{count} questions waiting" },
	"attention.waitingAskedBy": {
		one: "{count} question waiting — asked by {asker}",
		other: "{count} questions waiting — asked by {asker}",
	},
	"attention.title": { one: "❓ {count} question · {title}", other: "❓ {count} questions · {title}" },

	// ── Start-up warnings ──────────────────────────────────────────────────
	"warning.settingsNotJson":
		"ask_user settings: {file} is not valid JSON ({reason}): none of it applies. Fix the JSON, or remove the file.",
	"warning.settingsNotObject": "ask_user settings: {file} must hold a JSON object ({example}): none of it applies.",
	"warning.settingsUnreadable": "ask_user settings: {file} could not be read ({reason}): none of it applies.",
	"warning.settingsUnknownKey": "ask_user settings: {file}: unknown key {key} is ignored. Known keys: {keys}.",
	"warning.settingsBadValue": "ask_user settings: {source} must be {takes} (found {found}); it is ignored.",
	"takes.oneOf": "one of {values}",
	"takes.text": "a non-empty string of at most {max} characters",
	"takes.seconds": "0 (none) or a number of seconds from 1 to {max}",
	"takes.boolean": "true or false",
	"takes.lines": "a list of at most {max} non-empty strings",
	"takes.peekKey":
		"a letter, ctrl+ or alt+ and a letter, or f1 to f12, that the form does not use already (not {taken})",
	"warning.projectSteering":
		"ask_user settings: {file} sets {keys}, which go into the model's prompt: they apply only in a project you have trusted, and pi has not trusted this one by your decision. The default text is used. To use them, give the project pi settings of its own (a .pi/settings.json), trust it, and start pi again.",
	"warning.projectEnding":
		"ask_user settings: {file} sets {keys}, which lets a form end before you answer, the model then going on without you: it applies only in a project you have trusted, and pi has not trusted this one by your decision. Your own setting applies. To use it, give the project pi settings of its own (a .pi/settings.json), trust it, and start pi again.",
	"warning.noChannel": "ask_user: subagents cannot ask through this session ({reason})",
	"form.restored": "Restored: your answers from before pi stopped are back; submitting sends them to the model",
	"form.reopened": "Reopened: the call has ended, so submitting sends your answer to the model as a message",
	"kept.title": "Forms of this session — {key} reopens",
	"kept.dropTitle": "Drop which form?",
	"kept.none": "No form of this session is waiting for an answer",
	"kept.open": "interrupted",
	"kept.dismissed": "dismissed",
	"kept.aborted": "stopped",
	"kept.timed_out": "timed out",
	"kept.error": "failed",
	"kept.chat": "answered in chat",
	"kept.answered": "answered {when}",
	"kept.unchanged": "Nothing changed, so the model was not told again",
	"form.revising": "Revising: your answers as you submitted them; submitting again tells the model what changed",
	"warning.keptDropped": "ask_user: a saved form was dropped ({reason})",
	"warning.keptNotSaved":
		"ask_user: this form cannot be saved to {file} ({reason}); it goes on, but what you type will not outlive pi",
	"takes.address": "an IP address of this machine, such as 127.0.0.1 or 192.168.1.20",
	"takes.port": "a port from 0 to 65535 (0: any free port)",
	"warning.projectUserOnly":
		"ask_user settings: {file} sets {keys}, which open this machine to the network: only your own settings file, a flag or a variable may set them. Ignored.",
	"web.link": "🌐 Answer in a browser: {url}",
	"web.answered": "✓ Sent: the agent has your answers. You can close this page.",
	"web.closed": "This form was closed in the terminal: nothing more to answer here.",
	"web.notSent": "Not sent: {error}",
	"web.alreadyAnswered": "This form was already answered or closed: your answers were not sent.",
	"web.qr": "Scan with a phone to answer in its browser:",
	"web.qrMissing": "No QR code: the optional package uqr is missing (run npm install in this extension's folder)",
	"web.loopback":
		"For a phone: this page listens on this machine only. Set {setting} in your {file} to this machine's LAN or tailnet address (or {flag}), and its QR code shows here.",
	"web.needsScript": "This page needs JavaScript to show the form: turn it on, or answer in the terminal.",
	"web.attach": "📎 Add a photo or file",
	"web.removeFile": "Remove {name}",
	"web.fileTooLarge": "{name} is too large to attach ({size}, the limit is {limit}).",
	"web.answerFull": "At most {limit} files per answer.",
	"web.formFull": "At most {limit} files per form.",
	"web.totalTooLarge": "{name} would take the form's files past {limit}.",
	"web.fileUnreadable": "{name} cannot be read: choose it again.",
	"web.submitTooLarge": "Not sent: the files are too large to send, at most {limit} in all.",
	"warning.webCannotListen":
		"ask_user: the browser page could not listen on {address}:{port} ({reason}); answer in the terminal.",
} as const satisfies Record<string, Message>;

export type MessageKey = keyof typeof EN;

/** A locale's catalogue: every key of the English one. */
export type Catalogue = { readonly [K in MessageKey]: (typeof EN)[K] extends string ? string : PluralMessage };
