/**
 * One form at a time: a terminal can show one form (or one dialog), so every
 * ask in the process — the session's own, those relayed from subagents, and
 * the dialogs forwarded from them — waits its turn in a FIFO queue. A waiting
 * ask whose signal aborts leaves the queue at once (it never flashes onto the
 * screen). The process's queue lives in the channel registry.
 */

export interface FormQueue {
	/**
	 * Runs `task` when every earlier one has finished. If `signal` aborts while
	 * waiting, resolves with `ifAborted()` instead and the task never starts.
	 */
	run<T>(task: () => Promise<T>, signal: AbortSignal | undefined, ifAborted: () => T): Promise<T>;
	/** How many asks are waiting behind the open one. */
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
		run<T>(task: () => Promise<T>, signal: AbortSignal | undefined, ifAborted: () => T): Promise<T> {
			return new Promise<T>((resolve, reject) => {
				if (signal?.aborted) {
					resolve(ifAborted());
					return;
				}
				const start = () => {
					signal?.removeEventListener("abort", leave);
					busy = true;
					let running: Promise<T>;
					try {
						running = task();
					} catch (error) {
						running = Promise.reject(error);
					}
					running.then(resolve, reject).finally(startNext);
				};
				const leave = () => {
					const at = waiting.indexOf(start);
					if (at < 0) return;
					waiting.splice(at, 1);
					resolve(ifAborted());
				};
				if (!busy) {
					start();
					return;
				}
				waiting.push(start);
				signal?.addEventListener("abort", leave, { once: true });
			});
		},
		get waiting() {
			return waiting.length;
		},
	};
}
