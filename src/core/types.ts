/**
 * The shared vocabulary, a leaf of the import graph: the form, the dialog walker and the relay speak it without
 * importing each other.
 */

import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import type { Phrase, Texts } from "../i18n/phrase.ts";
import type { AskAttached, AskAttachment } from "./attachment.ts";

export type { Phrase } from "../i18n/phrase.ts";

import type { AskForm, AskQuestion } from "./params.ts";

export {
	type AskForm,
	type AskMetadata,
	type AskOption,
	type AskOptionParams,
	type AskParams,
	AskParamsSchema,
	type AskQuestion,
	type AskQuestionParams,
	LIMITS,
	MetadataSchema,
	QuestionSchema,
	TOOL_NAME,
} from "./params.ts";
export { type Loaded, loaded } from "./loaded.ts";
export { phrase } from "../i18n/phrase.ts";

// ── Answers ────────────────────────────────────────────────────────────────

/** One chosen option, or the user's own text (`custom: true`, value = label = the text). */
export type AskSelection = { value: string; label: string; custom?: true };

export interface AskAnswer {
	kind: "single" | "multi";
	/** Exactly one for "single"; one or more for "multi". */
	selections: AskSelection[];
	/** In details: the user's note on the question as a whole (UIs record notes in Collected.notes). */
	note?: string;
}

/**
 * A note the user wrote: on the whole form (no questionId), on a question, or on one of its options (`option`: its
 * label).
 */
export type AskNote = { questionId?: string; option?: string; text: string };

/**
 * Text typed and never confirmed, reported apart from the answers and never cut: a free answer, a note (scoped as
 * AskNote), the chat message. Never blank.
 */
export type AskDraft = AskNote & { kind: "answer" | "note" | "chat" };

/** How the call ended, in the order the docs list them (each in words: result.ts). */
export const ASK_STATUSES = ["answered", "dismissed", "aborted", "no_ui", "timed_out", "error", "chat"] as const;
export type AskStatus = (typeof ASK_STATUSES)[number];

/** What a UI hands back (the form, the dialog walker, the relay): answers are kept on every status. */
export interface Collected {
	status: AskStatus;
	/** Keyed by question id; only questions with an answer. */
	answers: Record<string, AskAnswer>;
	skipped: string[];
	/** Left to the model ("You decide"), in neither `answers` nor `skipped`. Present only when there is some. */
	delegated?: string[];
	notes: AskNote[];
	/** Present only when there is some. A submitted form has none (the user chose). */
	drafts?: AskDraft[];
	/** Files with the answers and notes (core/attachment.ts); present only when there is some. */
	attachments?: AskAttached[];
	/** For status "chat": the user's message, their words to the model instead of the form. Never blank. */
	chatMessage?: string;
	/** What went wrong, for status "error" (errorText of what was thrown). */
	error?: string;
	/** Who answered, when another extension did (see src/route/waiting.ts); absent when the user did. */
	answeredBy?: string;
	/** Another session showed the form: a dismissal there ends this session's task, not its turn. Never on the wire. */
	shownElsewhere?: boolean;
	/**
	 * Questions answered where no preview is shown (an RPC client's dialogs, an ACP form), each one with previews: by id,
	 * present only when there is one.
	 */
	previewsUnseen?: string[];
}

/** A UI's result when nothing was collected: the run was aborted first, no UI, a failure. */
export const emptyCollected = (status: AskStatus, error?: string): Collected => ({
	status,
	answers: {},
	skipped: [],
	notes: [],
	...(error !== undefined && { error }),
});

/** Some option of the question has a preview. */
export const hasPreview = (question: AskQuestion): boolean =>
	question.options.some((option) => option.preview !== undefined);

/**
 * What a host that shows no previews (dialogs, an ACP form) collected without them, by id: the questions with previews
 * answered, but for a kept form reopened those it came back with as they were (`before`), unless they had been answered
 * without them then too (`unseenBefore`).
 */
export const answeredWithoutPreviews = (
	form: AskForm,
	answers: Readonly<Record<string, AskAnswer>>,
	before: Readonly<Record<string, AskAnswer>> = {},
	unseenBefore: readonly string[] = [],
): string[] =>
	form.questions
		.filter(hasPreview)
		.filter(({ id }) => Object.hasOwn(answers, id))
		.filter(({ id }) => unseenBefore.includes(id) || JSON.stringify(answers[id]) !== JSON.stringify(before[id]))
		.map(({ id }) => id);

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** What a number key does on the form: choose that option (as Claude Code does), or only focus it. */
export type NumberKeys = "choose" | "focus";

/** The clipboard's image, saved (`discard` removes the copy again, if it is not attached after all), or why not. */
export type ClipboardPaste = { file: AskAttachment; discard(): void } | { refused: Phrase };

/** Everything a form's shell takes, passed along whole from the tool to the view. */
export interface AskOptions {
	signal?: AbortSignal;
	/** Who asks, for a form shown for another session: "planner › scout". */
	asker?: string;
	/** What the asker was given to do (its task), cleaned to one line: shown beside who asks. */
	task?: string;
	onProgress?: ProgressListener;
	/** Where a pasted relative path starts (the session's working directory); default: the process's. */
	cwd?: string;
	/**
	 * The clipboard's image, saved as a file to attach (pi's paste-image key in the editor); absent where pi exports no
	 * clipboard reader (tool/clipboard.ts).
	 */
	pasteImage?: (refusal: (file: AskAttachment) => Phrase | undefined) => Promise<ClipboardPaste>;
	/** fd (tool/fd.ts): `@` in the editor completes a file to attach, as in pi's editor; without it `@` finds none. */
	fd?: string;
	/** How long the user has, from when the form is shown. */
	timeoutMs?: number;
	numberKeys?: NumberKeys;
	/** The "You decide" row on every question; false: on none (the youDecide setting). */
	youDecide?: boolean;
	/** A form from another session: the newest relay reply its asker reads (1 can only skip, see machine `delegable`). */
	replyVersion?: number;
	/** The key that folds the form to peek at the conversation (the peekKey setting). */
	peekKey?: string;
	texts?: Texts;
	/**
	 * Where else the form can be answered (the browser page, src/web): the form shows its URL, and its help screen the QR
	 * code.
	 */
	link?: WebLink;
	/** Keeps what the user does on disk, so it outlives pi (src/kept/store.ts); only the inline form reports to it. */
	keep?: FormKeep;
}

/**
 * `qr`: the URL as a QR code in block characters, one string per row; absent when the optional uqr is not installed,
 * and on loopback. `loopback`: the page listens on this machine only (no phone can open its link).
 */
export type WebLink = { url: string; qr?: readonly string[]; loopback?: boolean };

/**
 * What the inline form tells its keeper: every change, as a function that reads the answers to save (called off the
 * keystroke).
 */
export interface FormKeep {
	/** Answers saved before (SavedAnswers, already checked against the form), and what the form says of them. */
	restored?: { answers: unknown; notice: Phrase };
	changed(answers: () => unknown): void;
}

/** What keeps a form on disk while the user works (kept/store.ts): the form reports to it, the call ends it. */
export interface Keeper extends FormKeep {
	/**
	 * The ask ended: its answers are kept with how it ended ("open" when pi is going away; an answer as `collected`
	 * holds it, for a revision); no_ui leaves the file as it was.
	 */
	end(status: AskStatus, collected?: Collected): void;
	/** Writes what is pending now (pi is going away). */
	flush(): void;
}

/** What is known while the questions are still open: the answers so far. */
export type PartialAnswers = Pick<Collected, "answers" | "skipped" | "notes" | "delegated">;

/** Told of each step while the questions are open; a listener that throws must not break the questions. */
export type ProgressListener = (progress: AskProgress, partial: PartialAnswers) => void;

/**
 * Progress reported through onUpdate while the form is open; `questionId`: the question just answered, for phase
 * "answered".
 */
export type AskProgress = {
	phase: "opened" | "answered" | "review" | "submitted" | "dismissed";
	answered: number;
	total: number;
	questionId?: string;
};

/** The tool result's `details`: the transcript is rebuilt from it alone (older ones have no `drafts`). */
export interface AskDetails extends Omit<Collected, "status" | "shownElsewhere">, AskForm {
	/** "pending" only on progress updates while the form is open. */
	status: AskStatus | "pending";
	/** What normalisation changed in the call. */
	notices?: string[];
	progress?: AskProgress;
}

// ── Subagent relay envelopes ──────────────────────────────────────────

/** The request's version, 1 since the first release: a newer child says in `replyVersion` which replies it reads. */
export const RELAY_VERSION = 1;
/**
 * The newest reply: 2 adds `delegated`, 3 the files' bytes (`attachments`), 4 the whole form's note and the drafts in
 * the lists, as a result holds them. A child that names no replyVersion reads 1 (there: a skip with a note, and a file
 * a note with its path).
 */
export const RELAY_REPLY_VERSION = 4;

/** A child's whole form, sent to its parent as one dialog request. */
export interface RelayRequest extends AskForm {
	v: typeof RELAY_VERSION;
	/** Correlates a later cancel notice with this request. */
	rid?: string;
	/** Outermost first: "planner › scout". */
	asker?: string;
	/** The asker's task, one line (relay/elsewhere.ts `whoAsks`). */
	task?: string;
	/** The newest reply version the child reads; absent: 1. */
	replyVersion?: number;
}

/** The parent's answer to a RelayRequest: what its UI collected, versioned and tied to the request. */
export type RelayReply = { v: 1 | 2 | 3 | typeof RELAY_REPLY_VERSION; rid?: string } & Collected;

// ── What the router, the relay and the tool share ─────────────────────────────

/** Set by a relay-aware runner for its children (see relay/api.ts `relayEnvironment`). */
export const RELAY_ENV = "PI_ASK_USER_RELAY";
/**
 * Where a session with a UI publishes its local channel's address for the processes it starts (relay/channel/wire.ts).
 */
export const CHANNEL_ENV = "PI_ASK_USER_CHANNEL";
/** Where a session's forms are kept (kept/): beside its file. */
export const keptDir = (sessionFile: string): string => `${sessionFile}.ask-user`;
/** The folder of a session's kept forms; none without a session file. */
export function keptDirOf(session: Pick<Session, "sessionManager">): string | undefined {
	const file = sessionFileOf(session);
	return file === undefined ? undefined : keptDir(file);
}
/** The session's file; none in a session kept nowhere, or a host whose session manager throws. */
export function sessionFileOf(session: Pick<Session, "sessionManager">): string | undefined {
	try {
		const file = session.sessionManager?.getSessionFile?.();
		return typeof file === "string" ? file : undefined;
	} catch {
		return undefined;
	}
}
/** The key of the handler in the process record's `channels` (version 1's name for that map, kept for older copies). */
export const HANDLER_KEY = "ask_user";

/**
 * Shows another session's form to this user (in turn with every other form) and resolves with the reply; `pid`: the
 * asking process's id, where it is known (the local channel's hello), for the label of a form that gives no name;
 * `carriesFiles`: the way back takes the files' bytes (the local channel, the relay API, this process), else a file is
 * a note with its path.
 */
export type AskHandler = (
	request: RelayRequest,
	options: { signal?: AbortSignal; pid?: number; carriesFiles?: boolean },
) => Promise<RelayReply>;

/**
 * Who shows this process's forms when it cannot: a relay-aware runner, or an ancestor's local channel
 * (PI_ASK_USER_CHANNEL as this process found it, not the one it publishes).
 */
export type Upstream = { relay: boolean; channel: string | undefined };

/** A session as the router reads it: pi's context, of whichever pi. */
export interface Session {
	mode?: string;
	hasUI: boolean;
	ui: ExtensionUIContext;
	/** Aborts the session's run (pi's interrupt key inside the form). */
	abort(): void;
	/** Its first user message labels the forms it sends elsewhere; its file, where the files of its forms go. */
	sessionManager?: { getEntries(): readonly unknown[]; getSessionFile?(): string | undefined };
	/** Where a relative path pasted into its forms starts. */
	cwd?: string;
	/** A runner may name the agent in it (relay/elsewhere.ts `askerOf`). */
	getSystemPrompt?(): string;
}

export type Ask = (form: AskForm, options: AskOptions) => Promise<Collected>;

/**
 * What another extension may send as an answer: a relay reply's fields (see docs/events.md, "Answering from
 * elsewhere").
 */
export type OutsideAnswer = {
	status?: "answered" | "dismissed";
	answers: unknown;
	skipped?: unknown;
	notes?: unknown;
	/** The note on the whole form. */
	formNote?: unknown;
	delegated?: unknown;
	/** Ids of questions with previews answered where they were not shown. */
	previewsUnseen?: unknown;
};

export type AnswerOutcome = { ok: true } | { ok: false; error: string };
/** The error of an answer that comes after the first. */
export const ALREADY_CLOSED = "this form is already closed: it was answered, dismissed or aborted";
