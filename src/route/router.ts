/**
 * The router: how a form reaches its user (`routeOf`; the table is in ARCHITECTURE.md, "The router"), and the one
 * record this process keeps for every session and every copy of this package in it. pi 1.x says its mode
 * (`ctx.mode`); pi 0.73's `hasUI` is true in RPC too, so there a `custom()` that shows nothing is what tells RPC.
 *
 * Every form a session with a UI shows — its own, and those it shows for others — waits its turn in the process's
 * queue (one terminal, one form), and its timeout counts from when it is shown.
 */

import type { DialogHost } from "../walker/walker.ts";
import { currentHandler, processRecord, registerHandler, upstream } from "./record.ts";
import {
	type Ask,
	type AskForm,
	type AskHandler,
	type AskOptions,
	CHANNEL_ENV,
	type Collected,
	emptyCollected,
	errorText,
	loaded,
	type Session,
	type Upstream,
} from "../core/types.ts";

/**
 * Publishes this process's local channel (once, shared by its sessions with a UI) for the processes it starts; each
 * share's `release` lets go, and the last one out closes it when pi quits. `onError` hears why it could not listen.
 */
export function shareLocalChannel(onError: (reason: string) => void): SharedChannel {
	const record = processRecord();
	const listener = (record.listener ??= {
		users: 0,
		opening: Promise.all([import("../relay/channel/server.ts"), wireModule()])
			.then(async ([server, wire]) => {
				const channel = await server.openLocalChannel({ handler: currentHandler });
				process.env[CHANNEL_ENV] = wire.encodeChannelAddress(channel.address);
				return channel;
			})
			.catch((error: unknown) => {
				onError(errorText(error));
				return undefined;
			}),
	});
	listener.users += 1;
	// The last share let go while not `closing` (a session switch) leaves the channel open, for the next session to take.
	const release = async (closing: boolean) => {
		if (--listener.users > 0 || !closing) return;
		if (record.listener === listener) delete record.listener;
		const channel = await listener.opening;
		if (!channel) return;
		if (process.env[CHANNEL_ENV] === (await wireModule()).encodeChannelAddress(channel.address))
			delete process.env[CHANNEL_ENV];
		await channel.close();
	};
	return { opened: listener.opening.then(() => undefined), release };
}

/** A share of the local channel: `opened` once it listens (or could not), `release` to let go. */
export type SharedChannel = { opened: Promise<void>; release(closing: boolean): Promise<void> };

// ── The route ──────────────────────────────────────────────────────────────

export type Route =
	| { kind: "form" }
	| { kind: "probe" }
	| { kind: "relay" }
	| { kind: "channel"; address: string }
	| { kind: "walker" }
	| { kind: "inProcess"; handler: AskHandler }
	| { kind: "none" };

export interface RouteFacts {
	/** pi's `ctx.mode`; undefined on a pi that does not say (0.73). */
	mode: string | undefined;
	hasUI: boolean;
	upstream: Upstream;
	/** The handler of this process's session with a UI, if there is one. */
	handler: AskHandler | undefined;
}

export function routeOf({ mode, hasUI, upstream, handler }: RouteFacts): Route {
	if (!hasUI) {
		if (handler) return { kind: "inProcess", handler };
		if (upstream.channel !== undefined) return { kind: "channel", address: upstream.channel };
		return { kind: "none" };
	}
	if (mode === "tui") return { kind: "form" };
	if (mode === undefined) return { kind: "probe" };
	// "rpc", or a mode this code does not know: dialogs are what a host with a UI and no TUI can show.
	return rpcRoute(upstream);
}

function rpcRoute(upstream: Upstream): Route {
	if (upstream.relay) return { kind: "relay" };
	if (upstream.channel !== undefined) return { kind: "channel", address: upstream.channel };
	return { kind: "walker" };
}

// ── Asking ─────────────────────────────────────────────────────────────────

export interface RouterSetup {
	/** What every form takes from the settings (the timeout, the keys, the language); read per ask. */
	preferences(): AskOptions | Promise<AskOptions>;
	/** Wraps the asks a session with a UI shows (its own and others'): events, answers from elsewhere, attention. */
	watch?(session: Session, ask: Ask): Ask;
	/** Warms what the first call runs before any UI (the normaliser, the validator), in the background preload. */
	warm?(): Promise<void>;
	/**
	 * The user dismissed, here, a form another session asked through this one's handler (a subagent's): the user
	 * wants the floor from this session too, as after a dismissal of its own form. Not for one this session passed on
	 * to be shown elsewhere.
	 */
	onDismissedForOther?(): void;
	/** What the dialog walker learns of an RPC host; kept for every form after. */
	walker?: DialogHost;
	/** Tests: this upstream instead of the process's. */
	upstream?: Upstream;
}

export interface Router {
	/** One call of this session's model. */
	ask(session: Session, form: AskForm, options: AskOptions): Promise<Collected>;
	/**
	 * At session_start a session with a UI takes others' forms: SDK sessions and the relay API through its handler, and
	 * at the top the processes it starts through the local channel (one that inherited an ancestor's leaves it as it is).
	 */
	sessionStarted(session: Session, cannotListen: (reason: string) => void): void;
	/**
	 * Before a run (which may start processes): the local channel is open and its address published. Without a run it
	 * opens with the background preload, a moment after the session started, never during pi's start-up.
	 */
	beforeRun(): Promise<void>;
	/**
	 * At session_shutdown: /new, /resume, /fork and /reload keep the local channel for the next session (children keep
	 * its address); quitting closes it.
	 */
	sessionEnded(reason: string | undefined): Promise<void>;
	/** Whether anyone can answer this session's forms now. */
	canAsk(session: Session): Promise<boolean>;
}

export function createRouter(setup: RouterSetup): Router {
	const up = setup.upstream ?? upstream();
	const walker = setup.walker ?? { choiceOnly: false };
	const { queue } = processRecord();
	const withPreferences = async (options: AskOptions): Promise<AskOptions> => ({
		...(await setup.preferences()),
		...options,
	});
	const shown = (session: Session): Ask => {
		const inner: Ask = (form, options) =>
			queue.run(
				() => inTime(options, (deadline) => showHere(session, up, walker, form, deadline)),
				options.signal,
				() => emptyCollected("aborted"),
			);
		return setup.watch ? setup.watch(session, inner) : inner;
	};
	const handlerFor = (session: Session): AskHandler =>
		relayHandler(
			(form, options) => shown(session)(form, options),
			setup,
			async (given) => ({
				...(await withPreferences(given)),
				// The files of a form shown here are this session's: its folder for a relative path, its clipboard reader.
				...(await import("../tool/call.ts")).fileOptions(session),
			}),
		);
	let unregister: (() => void) | undefined;
	const channel = channelUse(up);
	let warming: ReturnType<typeof setTimeout> | undefined;
	return {
		async ask(session, form, given) {
			const options = await withPreferences(given);
			if (session.hasUI) return shown(session)(form, options);
			const route = routeOf({ mode: modeOf(session), hasUI: false, upstream: up, handler: currentHandler() });
			return route.kind === "none"
				? emptyCollected("no_ui")
				: inTime(options, (deadline) => showRemote(route, session, walker, form, deadline));
		},
		sessionStarted(session, cannotListen) {
			// The first ask should find its modules compiled and its code warm: loaded a moment after start-up, never during
			// it.
			const kind = warmKind(session, up);
			unregister?.();
			unregister = session.hasUI ? registerHandler(handlerFor(session)) : undefined;
			channel.started(session, cannotListen);
			const preload = () => {
				channel.take();
				if (kind) void warmUp(kind, setup).catch(() => {});
			};
			if (!warming && kind) warming = setTimeout(preload, PRELOAD_DELAY_MS).unref();
		},
		async beforeRun() {
			await channel.take()?.opened;
		},
		async sessionEnded(reason) {
			unregister?.();
			unregister = undefined;
			await channel.ended(reason);
		},
		async canAsk(session) {
			if (session.hasUI || currentHandler() !== undefined) return true;
			if (up.channel === undefined) return false;
			const [{ decodeChannelAddress }, { channelReachable }] = await Promise.all([wireModule(), clientModule()]);
			const address = decodeChannelAddress(up.channel);
			return address.ok && channelReachable(address.address);
		},
	};
}

/** Another session's form (a relay request) shown here through `shown`, and the reply for the child that reads it. */
function relayHandler(
	shown: Ask,
	setup: RouterSetup,
	withPreferences: (options: AskOptions) => Promise<AskOptions>,
): AskHandler {
	return async (request, { signal, pid, carriesFiles }) => {
		const [codec, { askerLabel, cleanTask }] = await Promise.all([
			import("../relay/envelope.ts"),
			import("../relay/asker.ts"),
		]);
		const { v, rid, asker: given, task, replyVersion = 1, ...form } = request;
		// A relayed form has no clock here: the child's own timeout governs it.
		const { timeoutMs: _theirs, ...options } = await withPreferences(signal ? { signal } : {});
		const texts = options.texts ?? (await import("../i18n/texts.ts")).ENGLISH;
		// Never shown as this session's own: every form from another session names who asks.
		const asker = askerLabel(given, pid, texts);
		const about = cleanTask(task);
		// What the child reads decides what can be left to its model (relay v1: only a skip with a note).
		const shownFor = { ...options, asker, replyVersion, ...(about && { task: about }) };
		const collected = await shown(form, shownFor);
		if (collected.status === "dismissed" && !collected.shownElsewhere) setup.onDismissedForOther?.();
		const sent = carriesFiles ? await withBytes(collected, replyVersion) : collected;
		return codec.collectedToReply(sent, rid, { questions: form.questions, replyVersion });
	};
}

/**
 * For a way back that takes the files' bytes, to a child that reads them, of a form the user sent: each file's, read
 * now (the reply is all the child will see of it).
 */
async function withBytes(collected: Collected, replyVersion: number): Promise<Collected> {
	if (!collected.attachments?.length) return collected;
	const files = await import("../relay/files.ts");
	if (replyVersion < files.FILES_REPLY_VERSION || !files.sendsFiles(collected.status)) return collected;
	return { ...collected, attachments: files.withBytes(collected.attachments) };
}

/**
 * A session's part in the local channel: one with a UI at the top (that inherited no channel) takes a share, at its
 * first run or with the background preload, and lets go at its end.
 */
function channelUse(up: Upstream) {
	let taken: SharedChannel | undefined;
	let take: (() => SharedChannel) | undefined;
	return {
		/** At session_start: a session with a UI at the top takes a share. */
		started(session: Session, cannotListen: (reason: string) => void): void {
			take = session.hasUI && up.channel === undefined ? () => (taken ??= shareLocalChannel(cannotListen)) : undefined;
		},
		/** The share, taken now if it was not; none where this session takes none. */
		take: (): SharedChannel | undefined => take?.(),
		async ended(reason: string | undefined): Promise<void> {
			// pi 1.x runs a fresh copy of this extension for the next session: its router takes the channel up. Quitting
			// before it did closes the one an earlier session left open.
			const closing = reason === undefined || reason === "quit";
			const stop = taken ?? (closing && processRecord().listener ? take?.() : undefined);
			taken = undefined;
			take = undefined;
			await stop?.release(closing);
		},
	};
}

const formModule = loaded(() => import("../form/show.ts"));
const walkerModule = loaded(() => import("../walker/walker.ts"));
const elsewhereModule = loaded(() => import("../relay/elsewhere.ts"));
export const waitingModule = loaded(() => import("./waiting.ts"));
const wireModule = loaded(() => import("../relay/channel/wire.ts"));
const clientModule = loaded(() => import("../relay/channel/client.ts"));

/** How long after a session starts the modules its first ask needs load, in the background. */
export const PRELOAD_DELAY_MS = 300;

/**
 * Loads what the first ask will need; a failure stays quiet (the real ask meets it again and reports it). It may run
 * after pi ended the session, so it reads nothing of it.
 */
async function warmUp(kind: "form" | "dialogs" | "elsewhere", { preferences, warm }: RouterSetup): Promise<void> {
	await warm?.();
	if (kind === "elsewhere") await elsewhereModule();
	else if (kind === "dialogs") await Promise.all([walkerModule(), elsewhereModule(), waitingModule()]);
	else {
		const [form, { texts }] = await Promise.all([formModule(), preferences(), waitingModule()]);
		await form.warmUpForm(texts);
	}
}

/** A form shown in this session, by its route. */
async function showHere(
	session: Session,
	up: Upstream,
	walker: DialogHost,
	form: AskForm,
	deadline: Deadline,
): Promise<Collected> {
	const route = routeOf({ mode: modeOf(session), hasUI: true, upstream: up, handler: undefined });
	if (route.kind === "form" || route.kind === "probe") {
		const { showAskForm } = await formModule();
		const collected = await showAskForm(session.ui, form, {
			...deadline.options,
			onInterrupt: () => session.abort(),
			deadline: deadline.endsAt,
		});
		// custom() showed nothing: an RPC host (a pi that does not say its mode).
		return collected ?? showRemote(rpcRoute(up), session, walker, form, deadline);
	}
	return showRemote(route, session, walker, form, deadline);
}

/** A form shown by pi's dialogs or by another session, labelled with who asks. */
async function showRemote(
	route: Route,
	session: Session,
	walker: DialogHost,
	form: AskForm,
	{ options, endsAt }: Deadline,
): Promise<Collected> {
	if (route.kind === "walker")
		return (await walkerModule()).collectWithDialogs(session.ui, form, { ...options, host: walker, deadline: endsAt });
	const elsewhere = await elsewhereModule();
	// A form passed on keeps its asker's task; this session's own goes with its own.
	const own = elsewhere.whoAsks(session);
	const task = options.task ?? own.task;
	const withTask = { ...options, ...(task && { task }) };
	if (route.kind === "relay") return elsewhere.throughRelay(session.ui, form, withTask);
	const asker = elsewhere.joinAskers(own.asker, options.asker);
	const labelled = { ...withTask, ...(asker && { asker }) };
	if (route.kind === "inProcess") return elsewhere.throughHandler(route.handler, form, labelled);
	if (route.kind === "channel") return elsewhere.throughChannel(route.address, form, labelled);
	// "form" and "probe" are shown here, "none" never gets this far.
	return emptyCollected("no_ui");
}

/** The run's signal cut short by the timeout, and when it runs out (for the form's countdown). */
type Deadline = { options: AskOptions; endsAt: number | undefined };

/**
 * Runs `ask` against one signal: the run's abort or the timeout, whichever comes first; an abort by the clock is
 * "timed_out".
 */
async function inTime(options: AskOptions, ask: (deadline: Deadline) => Promise<Collected>): Promise<Collected> {
	const { timeoutMs, signal } = options;
	if (!timeoutMs || timeoutMs <= 0) return ask({ options, endsAt: undefined });
	const clock = new AbortController();
	const timer = setTimeout(() => clock.abort(), timeoutMs);
	try {
		const joined = signal ? AbortSignal.any([signal, clock.signal]) : clock.signal;
		const collected = await ask({ options: { ...options, signal: joined }, endsAt: Date.now() + timeoutMs });
		return collected.status === "aborted" && clock.signal.aborted && !signal?.aborted
			? { ...collected, status: "timed_out" }
			: collected;
	} finally {
		clearTimeout(timer);
	}
}

/**
 * What a session's first ask will need warm: the form, the walker's dialogs, or the way upstream; nothing without one.
 */
function warmKind(session: Session, up: Upstream): "dialogs" | "form" | "elsewhere" | undefined {
	if (session.hasUI) return modeOf(session) === "rpc" ? "dialogs" : "form";
	return up.channel !== undefined ? "elsewhere" : undefined;
}

/** pi's mode where it says it (1.x); undefined on a pi that does not (0.73). */
export function modeOf(session: object): string | undefined {
	const mode = (session as { mode?: unknown }).mode;
	return typeof mode === "string" ? mode : undefined;
}
