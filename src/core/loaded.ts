/** What loads on first use: one module at a time, loaded once. */

/**
 * A module loaded once: an import() through pi's loader resolves its path again on every call. A failed load is tried
 * again.
 */
export interface Loaded<T> {
	(): Promise<T>;
	/** The module, once it has loaded. */
	now(): T | undefined;
}

export function loaded<T>(load: () => Promise<T>): Loaded<T> {
	let module: Promise<T> | undefined;
	let ready: T | undefined;
	const get = () =>
		(module ??= load().then(
			(value) => (ready = value),
			(error: unknown) => {
				module = undefined;
				throw error;
			},
		));
	return Object.assign(get, { now: () => ready });
}
