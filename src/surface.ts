/**
 * How a session with a UI reaches its user: the route (route.ts) decides; this
 * runs it — the inline form, the whole form up to a relay-aware parent or an
 * ancestor's local channel, or the dialog walker — and, for sessions without
 * a UI, the ways to ask through another session (tool.ts picks them by the
 * same table).
 *
 * Every ask waits in the process's FIFO queue, so the session's own forms and
 * the ones relayed from subagents never overlap on screen.
 */

import type { NumberKeys } from "./machine/model.ts";
import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import { collectedToReply, decodeRelayReply, emptyCollected, encodeRelayReply, replyToCollected } from "./codec.ts";
import { collectWithDialogs, type DialogHost } from "./dialogs.ts";
import { showAskForm } from "./form/index.ts";
import type { KeySlots } from "./form/key-table.ts";
import type { Texts } from "./i18n/texts.ts";

export { warmUpForm } from "./form/index.ts";
import { decodeChannelAddress } from "./codec/channel.ts";
import { DEFAULT_ASKER, firstUserText, joinAskers, selfAsker } from "./relay/asker.ts";
import { collectViaChannel } from "./relay/channel-client.ts";
import { collectViaRelay } from "./relay/child.ts";
import type { Upstream } from "./relay/environment.ts";
import type { FormQueue } from "./relay/queue.ts";
import type { ChannelHandler } from "./relay/registry.ts";
import { modeOf, type Route, routeOf, rpcRoute } from "./route.ts";
import { type AskForm, type AskProgress, type Collected, type ProgressListener, RELAY_VERSION, type RelayRequest } from "./types.ts";

export interface SurfaceContext {
	/** pi's mode ("tui", "rpc", …); absent on a pi that does not say (0.73). */
	mode?: string;
	hasUI: boolean;
	ui: ExtensionUIContext;
	/** Aborts the session's agent run (the user's interrupt key inside the form). */
	abort(): void;
	/** The session's entries: its first user message labels the forms it sends to an ancestor. */
	sessionManager?: { getEntries(): readonly unknown[] };
	/** The session's system prompt: a runner may name the agent at its top (relay/asker.ts). */
	getSystemPrompt?(): string;
}

export interface AskOptions {
	signal?: AbortSignal;
	/** Who asked, for relayed forms: shown above the form. */
	asker?: string;
	onProgress?: ProgressListener;
	/** How long the user has, counted from when the form is shown (not while it waits its turn). */
	timeoutMs?: number;
	/** What a number key does on the inline form (the numberKeys setting). */
	numberKeys?: NumberKeys;
	/** The user's language, for the form and the dialog walker; default English. */
	texts?: Texts;
	/** The keys the user chose for the inline form (the peekKey setting). */
	keySlots?: KeySlots;
}

export type AskSurface = (form: AskForm, options: AskOptions) => Promise<Collected>;

/** `host`: what the dialog walker knows of an RPC host, kept across the session's forms. */
export function createSurface(ctx: SurfaceContext, queue: FormQueue, upstream: Upstream, host?: DialogHost): AskSurface {
	return (form, options) =>
		queue.run(() => collectInTime(ctx, upstream, form, options, host), options.signal, () => emptyCollected("aborted"));
}

/** The UIs know one signal: the run's abort or the timeout, whichever comes first. */
function collectInTime(ctx: SurfaceContext, upstream: Upstream, form: AskForm, options: AskOptions, host?: DialogHost): Promise<Collected> {
	const endsAt = options.timeoutMs ? Date.now() + options.timeoutMs : undefined;
	return inTime(options, (signal) => collectHere(ctx, upstream, form, { ...options, signal }, endsAt, host));
}

/** Runs `ask` with the run's signal cut short by the timeout; an abort by the clock is "timed_out". */
async function inTime(options: AskOptions, ask: (signal: AbortSignal | undefined) => Promise<Collected>): Promise<Collected> {
	const deadline = withTimeout(options.signal, options.timeoutMs);
	try {
		const collected = await ask(deadline.signal);
		return collected.status === "aborted" && deadline.timedOut() ? { ...collected, status: "timed_out" } : collected;
	} finally {
		deadline.clear();
	}
}

function withTimeout(signal: AbortSignal | undefined, timeoutMs: number | undefined) {
	if (!timeoutMs || timeoutMs <= 0) return { signal, timedOut: () => false, clear: () => {} };
	const controller = new AbortController();
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		controller.abort();
	}, timeoutMs);
	const onAbort = () => controller.abort();
	if (signal?.aborted) controller.abort();
	else signal?.addEventListener("abort", onAbort, { once: true });
	return {
		signal: controller.signal,
		timedOut: () => timedOut && !signal?.aborted,
		clear: () => {
			clearTimeout(timer);
			signal?.removeEventListener("abort", onAbort);
		},
	};
}


/** `endsAt`: when the time to answer runs out (epoch ms), for the form's countdown. */
async function collectHere(ctx: SurfaceContext, upstream: Upstream, form: AskForm, options: AskOptions, endsAt?: number, host?: DialogHost): Promise<Collected> {
	const route = routeOf({ mode: modeOf(ctx), hasUI: ctx.hasUI, upstream, inProcess: undefined });
	if (route.kind !== "form" && route.kind !== "probe") return collectByRoute(route, ctx, form, options, host);
	const { signal, asker, onProgress, numberKeys, texts, keySlots } = options;
	const fromForm = await showAskForm(ctx.ui, form, { signal, asker, onProgress, onInterrupt: () => ctx.abort(), deadline: endsAt, numberKeys, texts, keySlots });
	// custom() showed nothing: an RPC host (a pi that does not say its mode).
	return fromForm ?? collectByRoute(rpcRoute(upstream), ctx, form, options, host);
}

function collectByRoute(route: Route, ctx: SurfaceContext, form: AskForm, options: AskOptions, host?: DialogHost): Promise<Collected> {
	const { signal, asker, onProgress, texts } = options;
	switch (route.kind) {
		case "relay":
			return collectThroughParent(ctx, form, options);
		case "ancestor": {
			const labelled = { ...options, asker: joinAskers(selfLabel(ctx), asker) };
			return askedElsewhere(form, onProgress, () => askThroughLocalChannel(route.address, form, labelled));
		}
		case "walker":
			return collectWithDialogs(ctx.ui, form, { signal, asker, onProgress, ...(host && { host }), ...(texts && { texts }) });
		default:
			// A session with a UI has no other route (route.ts).
			return Promise.resolve(emptyCollected("no_ui"));
	}
}

/** A relayed RPC child: its parent shows the form. */
function collectThroughParent(ctx: SurfaceContext, form: AskForm, { signal, asker, onProgress }: AskOptions): Promise<Collected> {
	return askedElsewhere(form, onProgress, () => collectViaRelay(ctx.ui, form, { signal, asker }));
}

/** How this session is labelled in the ancestor session that shows its forms. */
export function selfLabel(ctx: Pick<SurfaceContext, "sessionManager" | "getSystemPrompt">): string {
	let entries: readonly unknown[] = [];
	let systemPrompt: string | undefined;
	try {
		entries = ctx.sessionManager?.getEntries() ?? [];
		systemPrompt = ctx.getSystemPrompt?.();
	} catch {
		// No session to read: the label falls back to "subagent".
	}
	return selfAsker(process.env, firstUserText(entries), systemPrompt);
}

async function askThroughLocalChannel(channel: string, form: AskForm, options: AskOptions): Promise<Collected> {
	const decoded = decodeChannelAddress(channel);
	if (!decoded.ok) return emptyCollected("no_ui", decoded.error);
	return collectViaChannel(decoded.address, form, { signal: options.signal, asker: options.asker });
}

/**
 * A session without UI whose process inherited an ancestor's local channel
 * (a runner's `pi -p` child, a `pi` run from the bash tool) asks there, with
 * its timeout counted from the request, and reports `opened` and how the form
 * came back. A parent that is gone is "no_ui", with the reason.
 */
export function collectThroughLocalChannel(channel: string, form: AskForm, options: AskOptions): Promise<Collected> {
	return inTime(options, (signal) => askedElsewhere(form, options.onProgress, () => askThroughLocalChannel(channel, form, { ...options, signal })));
}

/**
 * A session without UI (a subagent session made through pi's SDK) asks through
 * the channel of this process's session that has one. It runs outside the
 * form queue — the channel's own surface queues it — and its timeout counts
 * from the request. The reply crosses a package boundary (the handler may
 * belong to another copy or version), so it is checked like one that crossed
 * a process boundary.
 */
export function collectThroughChannel(channel: ChannelHandler, form: AskForm, options: AskOptions): Promise<Collected> {
	return inTime(options, (signal) =>
		askedElsewhere(form, options.onProgress, async () => {
			const asker = options.asker ?? DEFAULT_ASKER;
			const request: RelayRequest = { v: RELAY_VERSION, asker, questions: form.questions, metadata: form.metadata };
			const reply = await channel(request, { signal });
			const decoded = decodeRelayReply(encodeRelayReply(reply), { questions: form.questions });
			return decoded.ok ? replyToCollected(decoded.reply) : emptyCollected("error", decoded.error);
		}),
	);
}

/**
 * A form shown somewhere else (a parent process, another session): all this
 * side can report is that it went up, and how it came back (answered or
 * dismissed; the other statuses end the tool without a last word, as they do
 * for a local form).
 */
async function askedElsewhere(form: AskForm, onProgress: AskOptions["onProgress"], ask: () => Promise<Collected>): Promise<Collected> {
	const total = form.questions.length;
	onProgress?.({ phase: "opened", answered: 0, total }, emptyCollected("answered"));
	const collected = { ...(await ask()), shownElsewhere: true };
	if (collected.status === "answered" || collected.status === "dismissed") {
		const phase = collected.status === "answered" ? "submitted" : "dismissed";
		onProgress?.({ phase, answered: Object.keys(collected.answers).length, total }, collected);
	}
	return collected;
}

/** The "ask_user" channel of this session: relayed requests are asked here, in turn with everything else. */
export function createAskChannel(surface: AskSurface): ChannelHandler {
	return async (request, { signal }) => {
		const collected = await surface({ questions: request.questions, metadata: request.metadata }, { signal, asker: request.asker });
		return collectedToReply(collected, request.rid);
	};
}
