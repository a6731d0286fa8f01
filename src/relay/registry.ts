/**
 * The channel registry: one per process, on `globalThis` under a
 * `Symbol.for` key, so that every copy of this package that is loaded — the
 * ask_user extension itself, a subagent runner that bundles its own copy, a
 * second version — finds the same one, whichever loaded first.
 *
 * The ask_user extension registers the "ask_user" channel at session_start,
 * bound to that session's UI, and replaces it on every new session. The relay
 * API and headless in-process sessions look it up to reach the user. Handlers
 * stack: when a later session with a UI (an in-process one made through the
 * SDK) removes its handler, the one it covered is current again.
 *
 * It also holds the process's form queue: one terminal, one form at a time,
 * whichever copy of the package is asking — the extension's own forms, the
 * forms relayed from subagents, and the dialogs forwarded from them.
 *
 * Compatibility rule: the shape below is version 1. A later version may add
 * fields but keeps `channels` holding v1 handlers (the current one per name)
 * and `queue` keeping the FormQueue contract, so older copies keep working.
 * `covered` (the handlers under the current one) was added within v1: a copy
 * that doesn't know it just replaces `channels` entries, as it always did.
 */

import type { RelayReply, RelayRequest } from "../types.ts";
import { createFormQueue, type FormQueue } from "./queue.ts";

export const REGISTRY_KEY: unique symbol = Symbol.for("pi-ask-user/channel-registry");
export const REGISTRY_VERSION = 1;
export const ASK_CHANNEL = "ask_user";

/** Shows a relayed form to the user (queued behind any open one) and resolves with the reply. */
export type ChannelHandler = (request: RelayRequest, options: { signal?: AbortSignal }) => Promise<RelayReply>;

export interface ChannelRegistry {
	readonly version: number;
	/** The current handler of each channel. */
	readonly channels: Map<string, ChannelHandler>;
	readonly queue: FormQueue;
	/** Per channel, the handlers registered before the current one and not yet removed, oldest first. */
	covered?: Map<string, ChannelHandler[]>;
}

type WithRegistry = { [REGISTRY_KEY]?: unknown };

function isRegistry(value: unknown): value is ChannelRegistry {
	return (
		typeof value === "object" &&
		value !== null &&
		typeof (value as ChannelRegistry).version === "number" &&
		(value as ChannelRegistry).channels instanceof Map
	);
}

function hasQueue(value: ChannelRegistry): boolean {
	return typeof (value as Partial<ChannelRegistry>).queue?.run === "function";
}

/** The process's registry, created by whichever copy of the package asks first. */
export function channelRegistry(): ChannelRegistry {
	const holder = globalThis as WithRegistry;
	const existing = holder[REGISTRY_KEY];
	if (isRegistry(existing) && hasQueue(existing)) return existing;
	const created: ChannelRegistry = {
		version: REGISTRY_VERSION,
		// A registry without a queue (made by something else under our key) keeps its channels.
		channels: isRegistry(existing) ? existing.channels : new Map(),
		queue: createFormQueue(),
	};
	// Not enumerable: it is plumbing, not a global anyone should stumble on.
	Object.defineProperty(holder, REGISTRY_KEY, { value: created, configurable: true, writable: true, enumerable: false });
	return created;
}

/**
 * Makes `handler` the channel's current one. The returned function removes
 * it: if it is still current, the newest handler it covered (still
 * registered) takes over; if it has been covered since, it just leaves the
 * stack. Safe to call twice.
 */
export function registerChannel(name: string, handler: ChannelHandler): () => void {
	const registry = channelRegistry();
	const { channels } = registry;
	const covered = (registry.covered ??= new Map());
	const stack = covered.get(name) ?? [];
	const current = channels.get(name);
	if (current) stack.push(current);
	covered.set(name, stack);
	channels.set(name, handler);
	return () => {
		const below = covered.get(name) ?? [];
		if (channels.get(name) === handler) {
			const previous = below.pop();
			if (previous) channels.set(name, previous);
			else channels.delete(name);
		} else {
			const at = below.lastIndexOf(handler);
			if (at >= 0) below.splice(at, 1);
		}
	};
}

export function getChannel(name: string): ChannelHandler | undefined {
	return channelRegistry().channels.get(name);
}

/** The process's one form queue. */
export function formQueue(): FormQueue {
	return channelRegistry().queue;
}
