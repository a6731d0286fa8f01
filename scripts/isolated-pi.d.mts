/**
 * The types of isolated-pi.mjs (an isolated, offline pi for the demo, the
 * benchmark and the tests), for its TypeScript callers. The module is plain
 * JavaScript so the demo needs no build; keep this file in step with it.
 */

/** This checkout's root. */
export declare const REPO_ROOT: string;
/** This checkout's pi binary (node_modules/.bin/pi). */
export declare const PI_BIN: string;
/** The pi version the settings are written for (it stops the changelog screen). */
export declare const PI_VERSION: string;
/** pi's flags for an offline run that reads nothing of the user's; extensions given with `-e path` still load. */
export declare const ISOLATION_FLAGS: readonly string[];

export interface IsolatedPi {
	/** The throwaway directory; everything pi touches is inside. */
	readonly root: string;
	/** pi's agent dir (PI_CODING_AGENT_DIR), its settings.json already written. */
	readonly agentDir: string;
	/** pi's HOME. */
	readonly home: string;
	/** A working directory for pi, empty. */
	readonly cwd: string;
	/**
	 * The isolation variables: PATH (this node first), HOME, PI_CODING_AGENT_DIR,
	 * PI_OFFLINE, PI_TELEMETRY. Callers spread it and add their own.
	 */
	readonly env: Readonly<Record<string, string>>;
	/** Removes the throwaway directory. Safe to call twice. */
	cleanup(): void;
}

/** Makes the throwaway directory (named `<prefix>XXXXXX`, under TMPDIR) with pi's settings written. */
export declare function createIsolatedPi(prefix: string): IsolatedPi;
