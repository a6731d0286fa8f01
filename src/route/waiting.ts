/**
 * Forms while they wait, wrapping every form the session shows: the events on pi.events (`ask_user:waiting`,
 * `:progress`, `:closed`), answers from elsewhere (the waiting event's `answer`, checked like a relayed reply, first
 * one wins), attention once it is on screen.
 */

import { randomUUID } from "node:crypto";
import { basename } from "node:path";
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { WebPageSetup } from "../web/server.ts";
import type { PageAnswer } from "../web/submit.ts";
import type { AskAttached } from "../core/attachment.ts";
import { attentionBytes, type AttentionSetting, NOTIFICATION_MAX } from "./attention.ts";
import { buildDetails } from "../tool/result.ts";
import { decodeRelayReply, replyToCollected } from "../relay/envelope.ts";
import { ENGLISH, type Texts } from "../i18n/texts.ts";
import { clip, sanitizeLine, sanitizeText } from "../core/sanitize.ts";
import { delegable, type FormSetup } from "../machine/model.ts";
import {
	type AskOptions,
	type AskDetails,
	errorText,
	type AskForm,
	type AskProgress,
	type AskQuestion,
	type Collected,
	emptyCollected,
	type Ask,
	ALREADY_CLOSED,
	type AnswerOutcome,
	type OutsideAnswer,
	type Session,
} from "../core/types.ts";

export const WAITING_EVENT = "ask_user:waiting";
export const PROGRESS_EVENT = "ask_user:progress";
export const CLOSED_EVENT = "ask_user:closed";

interface AskIdentity {
	/** Unique per ask. */
	id: string;
	/** Who asked, for a relayed form ("planner › scout"), and its task. */
	asker?: string;
	task?: string;
	/** The model's one line on why it asks (the call's `reason`). */
	reason?: string;
	/** Every text sanitised. */
	questions: AskQuestion[];
}

export interface WaitingEvent extends AskIdentity {
	/** The browser page where it can be answered, when the web setting is on. */
	url?: string;
	/** Answers the form from elsewhere. `source` names the answerer ("phone bridge"); it reaches the model. */
	answer(reply: OutsideAnswer, source: string): AnswerOutcome;
}

export type ProgressEvent = AskIdentity & { progress: AskProgress; details: AskDetails };

/** `details`: the same record as the tool result's. */
export type ClosedEvent = AskIdentity & { details: AskDetails };

/** Where attention goes: the terminal, when there is one. */
export interface AttentionHost {
	setting(): AttentionSetting;
	/** Is the form shown in a terminal (the TUI)? Nothing is written or retitled otherwise. */
	isTerminal(): boolean;
	write(bytes: string): void;
	env: Readonly<Record<string, string | undefined>>;
	setTitle?(title: string): void;
	/** pi's own title, to put back when the form closes. */
	piTitle?(): string;
	/** Returns the unsubscribe. */
	onInput?(listener: () => void): () => void;
	/** Default English. */
	texts?(): Texts;
}

/** `web()`: where the browser page listens, when the web setting is on; read per form. */
export type WaitingHost = {
	emit(event: string, payload: unknown): void;
	attention?: AttentionHost;
	web?(): WebSetting | undefined;
};

/** Where the page listens, in what words and colours, beside which file its files are saved; `warn`: why it cannot. */
type WebSetting = Pick<WebPageSetup, "address" | "port" | "texts" | "theme" | "sessionFile"> & {
	warn(text: string): void;
};
/**
 * What the page shows, sanitised: the questions, who asks a form from another session and its task, the reason; what
 * the model may decide.
 */
type PageSetup = Pick<WebPageSetup, "form" | "questions" | "asker" | "task" | "reason" | "options">;

export function watchForms(surface: Ask, host: WaitingHost): Ask {
	const emit = (event: string, payload: ProgressEvent | WaitingEvent | ClosedEvent) => {
		try {
			host.emit(event, payload);
		} catch {
			// Another extension's bug must not break the user's form.
		}
	};
	return async (form, options) => {
		const { asker, task } = options;
		const { reason } = form;
		const known = {
			id: randomUUID(),
			...(asker && { asker: sanitizeLine(asker) }),
			...(task && { task: sanitizeLine(task) }),
			...(reason && { reason: sanitizeLine(reason) }),
		};
		// The questions are sanitised when a listener first reads them: most forms have none, and previews are long.
		let questions: AskQuestion[] | undefined;
		const sanitized = () => (questions ??= sanitizedQuestions(form.questions));
		const identity = (): AskIdentity =>
			Object.defineProperty({ ...known }, "questions", { enumerable: true, get: sanitized }) as AskIdentity;
		const outside = outsideAnswers(form, options);
		const signal = options.signal ? AbortSignal.any([options.signal, outside.signal]) : outside.signal;
		let stopAttention: (() => void) | undefined;
		const onProgress: AskOptions["onProgress"] = (progress, partial) => {
			if (progress.phase === "opened" && host.attention && !stopAttention)
				stopAttention = startAttention(host.attention, form, known, page?.url);
			emit(
				PROGRESS_EVENT,
				Object.assign(identity(), {
					progress: { ...progress },
					details: buildDetails(form, { status: "answered", ...partial }),
				}),
			);
			options.onProgress?.(progress, partial);
		};
		// Without the web setting nothing is awaited: the waiting event goes out at once.
		const web = host.web?.();
		const page = web && (await openPage(web, { ...known, form, questions: sanitized(), options }, outside.answer));
		// Another extension answers with the reply's fields only: files reach a form through the page.
		const answer: WaitingEvent["answer"] = (reply, source) => outside.answer(reply, source);
		emit(WAITING_EVENT, Object.assign(identity(), { ...(page && { url: page.url }), answer }));
		let collected: Collected | undefined;
		try {
			collected = outside.closed(await surface(form, { ...options, signal, onProgress, ...(page && { link: page }) }));
			return collected;
		} finally {
			await page?.close();
			stopAttention?.();
			emit(
				CLOSED_EVENT,
				Object.assign(identity(), { details: buildDetails(form, collected ?? emptyCollected("error")) }),
			);
		}
	};
}

const NO_FILES =
	"attachments: an answer from elsewhere carries no files; the user attaches them in the form or on its browser page";

/** An answer from elsewhere has a reply v3's shape (docs/events.md): the whole form's note is `formNote`. */
const OUTSIDE_REPLY_VERSION = 3;

/** The answers another extension may give: checked like a relayed reply and as the form takes them; first wins. */
function outsideAnswers(form: AskForm, setup: FormSetup) {
	const controller = new AbortController();
	let given: Collected | undefined;
	let closed = false;
	return {
		signal: controller.signal,
		/** `files`: saved by the page's server (web/submit.ts), never from the event's `answer`. */
		answer(reply: OutsideAnswer, source: string, files?: readonly AskAttached[]): AnswerOutcome {
			if (closed || given) return { ok: false, error: ALREADY_CLOSED };
			const who = typeof source === "string" ? sanitizeLine(source).trim() : "";
			if (!who) return { ok: false, error: 'source: name who answers (e.g. "phone bridge"); the model is told' };
			const status = (reply as Partial<OutsideAnswer> | null)?.status ?? "answered";
			if (status !== "answered" && status !== "dismissed")
				return { ok: false, error: `status: must be "answered" or "dismissed" (found ${JSON.stringify(status)})` };
			// A reply v3 may carry files' bytes; an answer from elsewhere may not (the page's come saved, as `files`).
			if (typeof reply === "object" && reply !== null && Object.hasOwn(reply, "attachments"))
				return { ok: false, error: NO_FILES };
			const decoded = decodeRelayReply(
				JSON.stringify({ skipped: [], notes: [], ...(reply as object), v: OUTSIDE_REPLY_VERSION, status }),
				{ questions: form.questions },
			);
			if (!decoded.ok) return { ok: false, error: decoded.error };
			const rows = delegable(form, setup);
			const offered = (id: string) => rows[form.questions.findIndex((q) => q.id === id)] === true;
			const refused = decoded.reply.delegated?.find((id) => !offered(id));
			if (refused !== undefined)
				return { ok: false, error: `delegated: this form offers no "You decide" on ${JSON.stringify(refused)}` };
			given = { ...replyToCollected(decoded.reply), answeredBy: who };
			if (files && files.length > 0) given.attachments = files.map((file) => ({ ...file }));
			controller.abort();
			return { ok: true };
		},
		closed(fromForm: Collected): Collected {
			closed = true;
			return given && fromForm.status === "aborted" ? given : fromForm;
		},
	};
}

/** The browser page for this form, when the web setting is on; a page that cannot listen leaves the form as it is. */
async function openPage(web: WebSetting, shown: PageSetup, answer: PageAnswer) {
	try {
		return await (await import("../web/server.ts")).openWebPage({ ...web, ...shown, answer });
	} catch (error) {
		// A port in use, an address not of this machine: the form goes on in the terminal, and the user is told why.
		web.warn(
			web.texts.t("warning.webCannotListen", { address: web.address, port: web.port, reason: errorText(error) }),
		);
		return undefined;
	}
}

/** The notification says who asks, its task and why, cut so that the page's URL stays whole. */
function startAttention(
	host: AttentionHost,
	form: AskForm,
	{ asker, task, reason }: Omit<AskIdentity, "questions">,
	url: string | undefined,
): () => void {
	const { mode, reminderMs } = host.setting();
	if (mode === "off" || !host.isTerminal()) return () => {};
	const { t } = host.texts?.() ?? ENGLISH;
	const count = form.questions.length;
	const said = asker ? t("attention.waitingAskedBy", { count, asker }) : t("attention.waiting", { count });
	const text = [said, task, reason].filter(Boolean).join(" · ");
	const body = url === undefined ? text : `${clip(text, Math.max(40, NOTIFICATION_MAX - 1 - url.length))} ${url}`;
	const ring = () => host.write(attentionBytes(mode, host.env, "pi", body));
	ring();
	const piTitle = host.piTitle?.();
	if (piTitle !== undefined) host.setTitle?.(t("attention.title", { count, title: piTitle }));
	// The reminder rings every reminderMs without a key pressed: a key starts the count again.
	let reminder: ReturnType<typeof setInterval> | undefined;
	const rearm = () => {
		clearInterval(reminder);
		if (reminderMs !== undefined) reminder = setInterval(ring, reminderMs);
		reminder?.unref?.();
	};
	rearm();
	const stopListening = host.onInput?.(rearm);
	return () => {
		clearInterval(reminder);
		stopListening?.();
		if (piTitle !== undefined) host.setTitle?.(piTitle);
	};
}

function sanitizedQuestions(questions: readonly AskQuestion[]): AskQuestion[] {
	return questions.map((q) => ({
		...q,
		header: sanitizeLine(q.header),
		question: sanitizeText(q.question),
		...(q.context !== undefined && { context: sanitizeText(q.context) }),
		options: q.options.map((o) => ({
			...o,
			label: sanitizeLine(o.label),
			value: sanitizeText(o.value),
			...(o.description !== undefined && { description: sanitizeText(o.description) }),
			...(o.preview !== undefined && { preview: sanitizeText(o.preview) }),
		})),
	}));
}

type TerminalSession = Session & Partial<Pick<ExtensionContext, "cwd">>;

/** The terminal of a TUI session: the bell and notifications go to it, its title shows a waiting form. */
export function terminalAttention(
	ctx: TerminalSession,
	setting: AttentionHost["setting"],
	texts?: AttentionHost["texts"],
): AttentionHost {
	return {
		setting,
		...(texts && { texts }),
		// RPC and print write JSON to stdout: only a terminal gets bells and titles.
		isTerminal: () => process.stdout.isTTY === true,
		write: (bytes) => void process.stdout.write(bytes),
		env: process.env,
		setTitle: (title) => ctx.ui.setTitle(title),
		piTitle: () => piTitle(ctx),
		onInput: (listener) => ctx.ui.onTerminalInput(() => void listener()),
	};
}

/** The title pi itself sets (interactive mode's updateTerminalTitle), to put back when a form closes. */
function piTitle(ctx: TerminalSession): string {
	const cwd = basename(ctx.cwd ?? process.cwd());
	let name: string | undefined;
	try {
		name = (ctx.sessionManager as { getSessionName?(): string | undefined } | undefined)?.getSessionName?.();
	} catch {
		name = undefined;
	}
	return name ? `π - ${name} - ${cwd}` : `π - ${cwd}`;
}
