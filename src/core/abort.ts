/** A dialog raced against the abort signal: no RPC dialog can be withdrawn, so an abort settles it at once. */

type Raced<T> = { aborted: true } | { aborted: false; value: T };

export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<Raced<T>> {
	if (signal?.aborted) return Promise.resolve({ aborted: true });
	return new Promise((resolve, reject) => {
		const onAbort = () => resolve({ aborted: true });
		signal?.addEventListener("abort", onAbort, { once: true });
		promise
			.then((value) => resolve({ aborted: false, value }), reject)
			.finally(() => signal?.removeEventListener("abort", onAbort));
	});
}
