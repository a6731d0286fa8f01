/**
 * The process's record: one object per process, on globalThis, found by every copy of this package whatever the load
 * order — the handler through which others ask this process's user, the queue every form waits in, the upstream.
 */

import { HANDLER_KEY, type AskHandler, CHANNEL_ENV, RELAY_ENV, type Upstream } from "../core/types.ts";
import type { LocalChannel } from "../relay/channel/server.ts";

// ── The queue ──────────────────────────────────────────────────────────────

/** One form at a time, first in, first out, for every ask in the process; an aborted ask leaves the queue at once. */
export interface FormQueue {
	/**
	 * Runs `task` once every earlier one has finished; aborted while waiting, resolves with `ifAborted()` and never
	 * starts it.
	 */
	run<T>(task: () => Promise<T>, signal: AbortSignal | undefined, ifAborted: () => T): Promise<T>;
	/** How many asks wait behind the open one. */
	readonly waiting: number;
}

export function createFormQueue(): FormQueue {
	const waiting: Array<() => void> = [];
	let busy = false;
	const startNext = () => {
		busy = false;
		waiting.shift()?.();
	};
	return {
		run: <T>(task: () => Promise<T>, signal: AbortSignal | undefined, ifAborted: () => T) =>
			new Promise<T>((resolve, reject) => {
				if (signal?.aborted) return resolve(ifAborted());
				const start = () => {
					signal?.removeEventListener("abort", leave);
					busy = true;
					// A task that throws instead of rejecting still lets the next one start.
					new Promise<T>((started) => started(task())).then(resolve, reject).finally(startNext);
				};
				const leave = () => {
					const at = waiting.indexOf(start);
					if (at < 0) return;
					waiting.splice(at, 1);
					resolve(ifAborted());
				};
				if (!busy) return start();
				waiting.push(start);
				signal?.addEventListener("abort", leave, { once: true });
			}),
		get waiting() {
			return waiting.length;
		},
	};
}

// ── The process's record ───────────────────────────────────────────────────

/**
 * One per process, on globalThis, found by every copy of this package whatever the load order. Version 1's `channels`
 * and `queue` keep their meaning (an older copy reads them); later fields are added beside them.
 */
interface ProcessRecord {
	readonly version: number;
	/** The current handler under HANDLER_KEY. */
	readonly channels: Map<string, AskHandler>;
	readonly queue: FormQueue;
	/** The handlers a later one covers, current again once it is removed. */
	covered?: Map<string, AskHandler[]>;
	upstream?: Upstream;
	listener?: { users: number; opening: Promise<LocalChannel | undefined> };
}

const RECORD_KEY: unique symbol = Symbol.for("pi-ask-user/channel-registry");

export function processRecord(): ProcessRecord {
	const holder = globalThis as { [RECORD_KEY]?: Partial<ProcessRecord> };
	const found = holder[RECORD_KEY];
	if (typeof found?.version === "number" && found.channels instanceof Map && typeof found.queue?.run === "function")
		return found as ProcessRecord;
	const record: ProcessRecord = {
		version: 1,
		channels: found?.channels instanceof Map ? found.channels : new Map(),
		queue: createFormQueue(),
	};
	Object.defineProperty(holder, RECORD_KEY, { value: record, configurable: true, writable: true, enumerable: false });
	return record;
}

/**
 * Read once per process. The relay variable then leaves process.env (it speaks of this process's parent, not of the
 * processes it starts); the channel variable stays, so grandchildren reach the top.
 */
export function upstream(): Upstream {
	const record = processRecord();
	record.upstream ??= { relay: process.env[RELAY_ENV] === "1", channel: process.env[CHANNEL_ENV] || undefined };
	delete process.env[RELAY_ENV];
	return record.upstream;
}

/** Makes `handler` the current one; the returned function removes it (the one it covered is current again). */
export function registerHandler(handler: AskHandler): () => void {
	const record = processRecord();
	const covered = (record.covered ??= new Map());
	const below = covered.get(HANDLER_KEY) ?? [];
	const current = record.channels.get(HANDLER_KEY);
	if (current) below.push(current);
	covered.set(HANDLER_KEY, below);
	record.channels.set(HANDLER_KEY, handler);
	return () => {
		if (record.channels.get(HANDLER_KEY) !== handler) {
			const at = below.lastIndexOf(handler);
			if (at >= 0) below.splice(at, 1);
			return;
		}
		const previous = below.pop();
		if (previous) record.channels.set(HANDLER_KEY, previous);
		else record.channels.delete(HANDLER_KEY);
	};
}

export function currentHandler(): AskHandler | undefined {
	return processRecord().channels.get(HANDLER_KEY);
}
