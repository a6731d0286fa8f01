/** The types of node22.mjs, for its TypeScript callers. Keep this file in step with it. */

/** A node binary ≥ 22.19: the running one if new enough, else the registry's, installed on first use. */
export declare function ensureNode22(): Promise<string>;
/** Whether a dotted version is at least `min` ([major, minor, …]). */
export declare function atLeast(version: string, min: readonly number[]): boolean;
