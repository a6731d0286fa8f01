/**
 * The channel registry: one per process, on `globalThis` under a
 * `Symbol.for` key, so that every copy of this package that is loaded — the
 * ask_user extension itself, a subagent runner that bundles its own copy, a
 * second version — finds the same one, whichever loaded first.
 *
 * The ask_user extension registers the "ask_user" channel at session_start,
 * bound to that session's UI, and replaces it on every new session. The relay
 * API and headless in-process sessions look it up to reach the user.
 *
 * It also holds the process's form queue: one terminal, one form at a time,
 * whichever copy of the package is asking — the extension's own forms, the
 * forms relayed from subagents, and the dialogs forwarded from them.
 *
 * Compatibility rule: the shape below is version 1. A later version may add
 * fields but keeps `channels` holding v1 handlers and `queue` keeping the
 * FormQueue contract, so older copies keep working.
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
	readonly channels: Map<string, ChannelHandler>;
	readonly queue: FormQueue;
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

/** Registers (or replaces) a channel's handler; the returned function removes it, unless it was replaced since. */
export function registerChannel(name: string, handler: ChannelHandler): () => void {
	const { channels } = channelRegistry();
	channels.set(name, handler);
	return () => {
		if (channels.get(name) === handler) channels.delete(name);
	};
}

export function getChannel(name: string): ChannelHandler | undefined {
	return channelRegistry().channels.get(name);
}

/** The process's one form queue. */
export function formQueue(): FormQueue {
	return channelRegistry().queue;
}
