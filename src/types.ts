/** The shared vocabulary, a leaf of the import graph: the form, the dialog walker and the relay speak it without importing each other. */

import type { MessageKey } from "./i18n/en.ts";
import type { ArgsOf, Params, Phrase, Texts } from "./i18n/phrase.ts";

export type { Phrase } from "./i18n/phrase.ts";

/** The limits of the input. Counted in UTF-16 code units unless noted. */
export const LIMITS = {
	minQuestions: 1,
	maxQuestions: 4,
	minOptions: 2,
	maxOptions: 8,
	/** Tab label, counted in characters (code points). */
	header: 12,
	question: 1000,
	context: 2000,
	label: 60,
	/** An answer key, and an option's value: they appear on every result line. */
	id: 64,
	value: 200,
	description: 300,
	preview: 4000,
	/** Free text and notes typed by the user. */
	freeText: 4000,
} as const;

// ── The normalised form: what every UI renders ─────────────────────────────

export interface AskOption {
	label: string;
	/** Returned to the model; the label when the model gave none. */
	value: string;
	description?: string;
	/** Plain multi-line text shown in the detail pane (single-select only). */
	preview?: string;
	recommended: boolean;
}

export interface AskQuestion {
	id: string;
	/** Tab label; "Q1".."Q4" when the model gave none. */
	header: string;
	question: string;
	context?: string;
	/** Empty for a text-only question: its answer is the user's text (allowOther is then true). */
	options: AskOption[];
	multiSelect: boolean;
	/** A "Type something…" row is offered after the options. */
	allowOther: boolean;
	required: boolean;
}

export type AskMetadata = { source?: string; flowId?: string; tags?: string[] };

/** A validated call: every default filled in, every input rule holds. */
export type AskForm = { questions: AskQuestion[]; metadata?: AskMetadata };

// ── Canonical parameters: the schema the model sees (tool.ts) ──────────────

export type AskOptionParams = Omit<AskOption, "value" | "recommended"> & { value?: string; recommended?: boolean };

/** Without options: a text-only question. */
export type AskQuestionParams = Pick<AskQuestion, "question" | "context"> &
	Partial<Omit<AskQuestion, "question" | "context" | "options">> & { options?: AskOptionParams[] };

export type AskParams = { questions: AskQuestionParams[]; metadata?: AskMetadata };

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

/** A note the user wrote: on the whole form (no questionId), on a question, or on one of its options (`option`: its label). */
export type AskNote = { questionId?: string; option?: string; text: string };

/** Text typed and never confirmed, reported apart from the answers and never cut: a free answer, a note (scoped as AskNote), the chat message. Never blank. */
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
	notes: AskNote[];
	/** Present only when there is some. A submitted form has none (the user chose). */
	drafts?: AskDraft[];
	/** For status "chat": the user's message, their words to the model instead of the form. Never blank. */
	chatMessage?: string;
	/** What went wrong, for status "error" (errorText of what was thrown). */
	error?: string;
	/** Who answered, when another extension did (see src/waiting.ts); absent when the user did. */
	answeredBy?: string;
	/** Another session showed the form: a dismissal there ends this session's task, not its turn. Never on the wire. */
	shownElsewhere?: boolean;
}

/** A UI's result when nothing was collected: the run was aborted first, no UI, a failure. */
export const emptyCollected = (status: AskStatus, error?: string): Collected => ({
	status,
	answers: {},
	skipped: [],
	notes: [],
	...(error !== undefined && { error }),
});

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** What a number key does on the form: choose that option (as Claude Code does), or only focus it. */
export type NumberKeys = "choose" | "focus";

/** How a waiting form gets the user's attention (attention.ts). */
export const ATTENTION_MODES = ["off", "bell", "desktop"] as const;
export type AttentionMode = (typeof ATTENTION_MODES)[number];

/** Everything a form's shell takes, passed along whole from the tool to the view. */
export interface AskOptions {
	signal?: AbortSignal;
	/** Who asks, for a form shown for another session: "planner › scout". */
	asker?: string;
	onProgress?: ProgressListener;
	/** How long the user has, from when the form is shown. */
	timeoutMs?: number;
	numberKeys?: NumberKeys;
	/** The key that folds the form to peek at the conversation (the peekKey setting). */
	peekKey?: string;
	texts?: Texts;
	/** Where else the form can be answered (the browser page, src/web): the form shows its URL, and its help screen the QR code. */
	link?: WebLink;
	/** Keeps what the user does on disk, so it outlives pi (src/kept.ts); only the inline form reports to it. */
	keep?: FormKeep;
}

/** `qr`: the URL as a QR code in block characters, one string per row; absent when the optional uqr is not installed. */
export type WebLink = { url: string; qr?: readonly string[] };

/** What the inline form tells its keeper: every change, as a function that reads the answers to save (called off the keystroke). */
export interface FormKeep {
	/** Answers saved before (SavedAnswers, already checked against the form), and what the form says of them. */
	restored?: { answers: unknown; notice: Phrase };
	changed(answers: () => unknown): void;
}

/** What is known while the questions are still open: the answers so far. */
export type PartialAnswers = Pick<Collected, "answers" | "skipped" | "notes">;

/** Told of each step while the questions are open; a listener that throws must not break the questions. */
export type ProgressListener = (progress: AskProgress, partial: PartialAnswers) => void;

/** Progress reported through onUpdate while the form is open; `questionId`: the question just answered, for phase "answered". */
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

export const RELAY_VERSION = 1;

/** A child's whole form, sent to its parent as one dialog request. */
export interface RelayRequest extends AskForm {
	v: typeof RELAY_VERSION;
	/** Correlates a later cancel notice with this request. */
	rid?: string;
	/** Outermost first: "planner › scout". */
	asker?: string;
}

/** The parent's answer to a RelayRequest: what its UI collected, versioned and tied to the request. */
export type RelayReply = { v: typeof RELAY_VERSION; rid?: string } & Collected;

export function phrase<K extends MessageKey>(key: K, ...args: ArgsOf<K>): Phrase {
	const [params] = args as [Params?];
	return params === undefined ? { key } : { key, params };
}
