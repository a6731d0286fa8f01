/**
 * Racing a dialog against the abort signal. pi's RPC `editor` dialog takes no
 * signal and no dialog can be withdrawn from an RPC client, so the tool stops
 * waiting instead: an abort settles the race at once, whatever the dialog does.
 * A leaf: imports nothing.
 */

export type Raced<T> = { aborted: true } | { aborted: false; value: T };

export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<Raced<T>> {
	if (signal?.aborted) return Promise.resolve({ aborted: true });
	return new Promise((resolve, reject) => {
		const onAbort = () => resolve({ aborted: true });
		signal?.addEventListener("abort", onAbort, { once: true });
		promise.then(
			(value) => {
				signal?.removeEventListener("abort", onAbort);
				resolve({ aborted: false, value });
			},
			(error: unknown) => {
				signal?.removeEventListener("abort", onAbort);
				reject(error);
			},
		);
	});
}

/** The message of anything thrown, for a result or a reply. */
export function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
