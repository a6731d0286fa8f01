/** One form at a time, first in, first out, for every ask in the process; an aborted ask leaves the queue at once. */

export interface FormQueue {
	/** Runs `task` once every earlier one has finished; aborted while waiting, resolves with `ifAborted()` and never starts it. */
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
