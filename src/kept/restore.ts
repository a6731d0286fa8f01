/**
 * A question outlives pi: every form of a session with a session file is kept as the user works (store.ts). When a
 * session starts and its newest kept form was on screen when pi stopped (a crash, `kill -9`, a closed terminal, a
 * quit), it comes back by itself; `/ask-user` lists every kept form and reopens one, `/ask-user drop` drops one.
 *
 * Such a form answers a call that has already ended: its answer reaches the model as a message that names the call,
 * carries the same answer text, and starts a turn. An answered form is kept as it was submitted: `/ask-user` lists it
 * after the others and reopens it for a revision, whose answer reaches the model as steering when a run is going.
 * Only this session's own calls are kept: a subagent's form shown here ends with its child.
 */

import { existsSync } from "node:fs";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { Texts } from "../i18n/texts.ts";
import type { Issue } from "../core/schema.ts";
import {
	createKeeper,
	dropKept,
	fingerprint,
	heldByAnotherPi,
	type KeptForm,
	type KeptKey,
	readKept,
} from "./store.ts";
import { callModule } from "../tool/tool.ts";
import { sessionBranch } from "../route/offer.ts";
import {
	type Keeper,
	type AskForm,
	type AskOptions,
	type Collected,
	emptyCollected,
	errorText,
	phrase,
	keptDir,
	keptDirOf,
	TOOL_NAME,
	loaded,
	type Session,
} from "../core/types.ts";

const resultModule = loaded(() => import("../tool/result.ts"));
/** What a revision tells the model, and the order forms are listed in (revision.ts), loaded with the command. */
const revisionModule = loaded(() => import("./revision.ts"));

/** The custom message that carries an answer given after its call ended. */
export const LATE_ANSWER = "ask-user-answer";
/** How long after a session starts an interrupted form comes back (pi draws its screen first). */
const RESTORE_DELAY_MS = 50;

/**
 * What index.ts hands on from pi: this module loads at the first session start with a UI, or with the first form to
 * keep.
 */
export interface Restore {
	sessionStarted(ctx: ExtensionContext): Promise<void>;
	sessionEnded(): void;
	command(args: string, ctx: ExtensionContext): Promise<void>;
	/** A keeper for this call's form; none without a session file. */
	keeper(ctx: ExtensionContext, id: string, form: AskForm): Promise<Keeper | undefined>;
}

type Ask = (session: Session, form: AskForm, options: AskOptions) => Promise<Collected>;

interface Found {
	kept: KeptForm;
	form: AskForm;
}

export function keepForms(pi: Pick<ExtensionAPI, "sendMessage">, ask: Ask, texts: () => Promise<Texts>): Restore {
	let closing = false;
	/** Forms on screen in this process, with their call ids. */
	const live = new Map<Keeper, string>();
	let stop = new AbortController();
	let restoring: ReturnType<typeof setTimeout> | undefined;

	const keeper = async (
		ctx: ExtensionContext,
		dir: string,
		id: string,
		key: () => KeptKey,
		form: AskForm,
		restored?: Keeper["restored"],
	): Promise<Keeper> => {
		const inner = createKeeper(dir, key, form, {
			...(restored && { restored }),
			closing: () => closing,
			// One warning per form, naming the file: what is typed stays in the form, not beyond pi.
			failed: (file, reason) =>
				void texts()
					.then(({ t }) => ctx.ui.notify(t("warning.keptNotSaved", { file, reason }), "warning"))
					.catch(() => {}),
		});
		live.set(inner, id);
		return { ...inner, end: (status, collected) => (live.delete(inner), inner.end(status, collected)) };
	};

	const found = (ctx: ExtensionContext, dir: string) => findKept(ctx, dir, [...live.values()], texts);

	const reopen = async (ctx: ExtensionContext, dir: string, { kept, form }: Found): Promise<void> => {
		const revising = kept.status === "answered";
		const notice = phrase(cutShort(kept) ? "form.restored" : "form.reopened");
		const restored = revising ? undefined : { answers: kept.answers, notice };
		const file = await keeper(ctx, dir, kept.id, () => kept, form, restored);
		const keep = revising ? revisionKeeper(kept, file) : file;
		const files = (await callModule()).fileOptions(ctx);
		const collected = await ask(ctx, form, { keep, timeoutMs: 0, signal: stop.signal, ...files }).catch(
			(error: unknown) => emptyCollected("error", errorText(error)),
		);
		if (collected.status !== "answered" && collected.status !== "chat") return keep.end(collected.status);
		await sendAnswer(pi, ctx, { kept, form }, collected, keep, texts);
	};

	return {
		async sessionStarted(ctx) {
			closing = false;
			stop = new AbortController();
			const dir = keptDirOf(ctx);
			if (!dir || !ctx.hasUI) return;
			// The session's last ask, left without an answer and not moved on from: shown again (dismissed, timed out or left
			// for the chat: by /ask-user).
			const { forms, pending } = await found(ctx, dir);
			const interrupted = forms.find(
				({ kept }) => kept.id === pending?.id && (kept.entry ?? pending.entry) === pending.entry && cutShort(kept),
			);
			const signal = stop.signal;
			if (interrupted)
				restoring = setTimeout(
					() => signal.aborted || void reopen(ctx, dir, interrupted).catch(() => {}),
					RESTORE_DELAY_MS,
				);
		},
		sessionEnded() {
			clearTimeout(restoring);
			closing = true;
			for (const kept of live.keys()) kept.flush();
			stop.abort();
		},
		command: keptCommand(texts, found, reopen),
		async keeper(ctx, id, form) {
			const dir = keptDirOf(ctx);
			return dir ? keeper(ctx, dir, id, () => ({ id, entry: entryOf(ctx, id) }), form) : undefined;
		},
	};
}

/**
 * The kept forms of this session that can be shown here, each with its form read again from the session; the rest said
 * in one warning.
 */
async function findKept(
	ctx: ExtensionContext,
	dir: string,
	shownHere: readonly string[],
	texts: () => Promise<Texts>,
): Promise<{ forms: Found[]; pending: KeptKey | undefined }> {
	if (!existsSync(dir)) return { forms: [], pending: undefined };
	const { forms, problems } = readKept(dir);
	if (forms.length === 0 && problems.length === 0) return { forms: [], pending: undefined };
	const [{ readSaved }, { prepareForm }] = await Promise.all([import("../machine/saved.ts"), callModule()]);
	const { calls, onBranch, pending } = askCalls(ctx);
	const usable = forms.flatMap((kept): Found[] => {
		// Shown elsewhere now, or on another branch (/tree): kept for later, not listed.
		const call = callKey(kept);
		// An answered form is on screen nowhere: whoever wrote it last does not hold it.
		const held = kept.status !== "answered" && heldByAnotherPi(kept);
		if (shownHere.includes(kept.id) || held || (calls.has(call) && !onBranch.has(call))) return [];
		let form: AskForm | undefined;
		try {
			form = prepareForm(calls.get(call)).form;
		} catch {
			// Not a call any form can show, or none: said below.
		}
		const read = form && fingerprint(form) === kept.fingerprint ? readSaved(form, kept.answers) : undefined;
		if (form && read && "state" in read) return [{ kept, form }];
		let problem = "its questions are not in this session as they were";
		if (read && "issues" in read) problem = `its answers do not fit its questions (${issuesText(read.issues)})`;
		else if (kept.status === "answered") problem = "it cannot be revised: its questions no longer match its call";
		problems.push(`${kept.id}: ${problem}`);
		dropKept(dir, kept);
		return [];
	});
	if (problems.length > 0)
		ctx.ui.notify((await texts()).t("warning.keptDropped", { reason: problems.join("; ") }), "warning");
	return { forms: usable, pending };
}

/** The first few problems, each by its path: `questions[0].chosen[1] must be below 2, …`. */
function issuesText(issues: readonly Issue[]): string {
	const listed = issues.slice(0, 3).map(({ path, message }) => `${path} ${message}`.trim());
	return issues.length > 3 ? `${listed.join(", ")}, and ${issues.length - 3} more` : listed.join(", ");
}

/**
 * The answer to a call that had ended, its files delivered, as a message that starts a turn once the model is done; a
 * revision's, what changed (nothing changed: nothing is sent), before the model's next call when a run is going
 * (steering). Sent first, kept after: an answer that could not be sent is still kept as it was.
 */
async function sendAnswer(
	pi: Pick<ExtensionAPI, "sendMessage">,
	ctx: ExtensionContext,
	{ kept, form }: Found,
	answered: Collected,
	keep: Keeper,
	texts: () => Promise<Texts>,
): Promise<void> {
	const revision = kept.status === "answered" && { ...(await revisionModule()), before: await submitted(form, kept) };
	if (
		revision &&
		answered.status === "answered" &&
		revision.whatChanged(form, revision.before, answered).length === 0
	) {
		keep.end("no_ui");
		return ctx.ui.notify((await texts()).t("kept.unchanged"), "info");
	}
	const { collected, images } = await (await callModule()).deliverFiles(answered, ctx);
	const text = revision
		? revision.revisedAnswerText(kept.id, form, revision.before, collected)
		: lateAnswerText(kept, (await resultModule()).formatResultText(form, collected));
	const content = images.length > 0 ? [{ type: "text" as const, text }, ...images] : text;
	const details = { toolCallId: kept.id, status: collected.status, ...(revision && { revised: true }) };
	const deliverAs = revision ? "steer" : "followUp";
	pi.sendMessage({ customType: LATE_ANSWER, content, display: true, details }, { triggerTurn: true, deliverAs });
	keep.end(revision ? answered.status : "answered", answered);
}

/**
 * An answered form reopened as it was submitted: its keeper writes only a new submit (dismissed or left, it stays as it
 * was, and nothing is sent).
 */
function revisionKeeper(kept: KeptForm, file: Keeper): Keeper {
	return {
		restored: { answers: kept.answers, notice: phrase("form.revising") },
		changed: () => {},
		flush: () => {},
		end: (status, collected) => file.end(status === "answered" ? status : "no_ui", collected),
	};
}

/** What the user submitted on an answered form, as the tool collected it. */
async function submitted(form: AskForm, kept: KeptForm): Promise<Collected> {
	const [{ restoredState }, { collect }] = await Promise.all([
		import("../machine/saved.ts"),
		import("../machine/collect.ts"),
	]);
	const state = restoredState(form, kept.answers);
	return state ? collect(state, "answered") : emptyCollected("answered");
}

/** The form ended without the user deciding anything: pi went away ("open") or the run was stopped. */
const cutShort = ({ status }: KeptForm) => status === "open" || status === "aborted";

/**
 * `/ask-user` lists the session's kept forms, the answered ones last (Enter takes the first), and reopens one;
 * `/ask-user drop` drops one.
 */
function keptCommand(
	texts: () => Promise<Texts>,
	found: (ctx: ExtensionContext, dir: string) => Promise<{ forms: Found[] }>,
	reopen: (ctx: ExtensionContext, dir: string, item: Found) => Promise<void>,
): Restore["command"] {
	return async (args, ctx) => {
		const dir = keptDirOf(ctx);
		const forms = dir ? (await found(ctx, dir)).forms : [];
		const { t } = await texts();
		if (!dir || forms.length === 0) return ctx.ui.notify(t("kept.none"), "info");
		const drop = args.trim() === "drop";
		const { listOrder, answeredWhen } = await revisionModule();
		const listed = listOrder(forms);
		const now = Date.now();
		const labels = listed.map(({ form, kept: { status, savedAt } }, i) => {
			const how =
				status === "answered" ? t("kept.answered", { when: answeredWhen(savedAt, now) }) : t(`kept.${status}`);
			return `${i + 1}. ${form.questions.map((q) => q.header).join(" · ")} — ${how}`;
		});
		const choice = await ctx.ui.select(drop ? t("kept.dropTitle") : t("kept.title", { key: "Enter" }), labels);
		const item = choice === undefined ? undefined : listed[labels.indexOf(choice)];
		if (!item) return;
		if (drop) return dropKept(dir, item.kept);
		await reopen(ctx, dir, item);
	};
}

export { keptDir };

/**
 * A call in the session's maps: by its entry, or, for a file from before entries were kept, by its id alone (the last
 * call with it).
 */
const callKey = ({ id, entry }: KeptKey) => JSON.stringify([id, entry ?? null]);

/**
 * The ask_user calls in the session (their arguments as sent), and the current branch's last one if nobody has
 * spoken since: an ask pi left without an answer (killed, the terminal closed, the run stopped) and not moved on from.
 */
function askCalls(ctx: ExtensionContext): {
	calls: Map<string, unknown>;
	onBranch: Set<string>;
	pending: KeptKey | undefined;
} {
	const calls = new Map<string, unknown>();
	for (const ask of asksIn(ctx.sessionManager.getEntries()))
		calls.set(callKey(ask), ask.args).set(callKey({ id: ask.id }), ask.args);
	// The current branch's asks: a form on another branch (/tree) is kept for when the user goes back there.
	const onBranch = new Set<string>();
	let pending: KeptKey | undefined;
	for (const ask of asksIn(sessionBranch(ctx))) {
		if (!ask.user) onBranch.add(callKey(ask)).add(callKey({ id: ask.id }));
		pending = ask.user ? undefined : ask;
	}
	return { calls, onBranch, pending };
}

/** The entry (the assistant message) of the current branch that holds call `id`: the last, the one being run. */
function entryOf(ctx: ExtensionContext, id: string): string | undefined {
	let entry: string | undefined;
	for (const ask of asksIn(sessionBranch(ctx))) if (ask.id === id) entry = ask.entry;
	return entry;
}

/** The ask_user calls among `entries`, in order, each with its entry's id; a user message as `{ user: true }`. */
function* asksIn(entries: readonly unknown[]): Generator<KeptKey & { args?: unknown; user?: true }> {
	for (const item of entries) {
		const { id: entry, message } = item as { id?: unknown; message?: { role?: string; content?: unknown } };
		if (message?.role === "user") yield { id: "", user: true };
		if (message?.role !== "assistant" || !Array.isArray(message.content)) continue;
		for (const part of message.content as Array<{ type?: string; id?: string; name?: string; arguments?: unknown }>) {
			if (part?.type === "toolCall" && part.name === TOOL_NAME && typeof part.id === "string")
				yield { id: part.id, ...(typeof entry === "string" && { entry }), args: part.arguments };
		}
	}
}

/** The text the model reads: which call, why it comes now, and the answer as the tool would have given it. */
export function lateAnswerText(kept: KeptForm, answer: string): string {
	const why =
		kept.status === "open"
			? "pi stopped while the form was open, so the call got no answer"
			: `the call had ended (${kept.status}) before this answer`;
	return `Late answer to ask_user call ${JSON.stringify(kept.id)}: ${why}. The user has answered it now:\n${answer}`;
}
