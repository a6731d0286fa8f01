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
/** A pi to run: its command line up to pi's own arguments, its version, and the node that runs it. */
export interface PiCommand {
	/** E.g. `[".../node_modules/.bin/pi"]`, or `["/path/to/node", "/path/to/cli.js"]`. */
	readonly argv: readonly string[];
	/** Its version: the settings are written for it (it stops the changelog screen). */
	readonly version: string;
	/** The directory of the node that runs it: first on PATH, so whatever pi starts with `node` gets it too. */
	readonly nodeDir: string;
}
/** This checkout's pi (1.x, the dev dependency), run by the node running us. */
export declare const THIS_PI: PiCommand;
/** How to run the pi whose package directory is `packageDir` (its bin, by the node running us). */
export declare function piCommandAt(packageDir: string): PiCommand;
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
	 * The isolation variables: PATH (pi's node first), HOME, PI_CODING_AGENT_DIR,
	 * PI_OFFLINE, PI_TELEMETRY. Callers spread it and add their own.
	 */
	readonly env: Readonly<Record<string, string>>;
	/** Removes the throwaway directory. Safe to call twice. */
	cleanup(): void;
}

/** Makes the throwaway directory (named `<prefix>XXXXXX`, under TMPDIR) with the settings of `pi` (default THIS_PI) written. */
export declare function createIsolatedPi(prefix: string, pi?: PiCommand): IsolatedPi;
/** The same layout in `root`, a directory the caller made; what pi left there before (its sessions) stays. */
export declare function isolatedPiIn(root: string, pi?: PiCommand): IsolatedPi;
