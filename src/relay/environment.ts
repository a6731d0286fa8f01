/**
 * Whether this process runs under a relay-aware parent: `PI_ASK_USER_RELAY=1`,
 * set by the relay API when it spawns a child. A leaf: imports nothing.
 */

export const RELAY_ENV = "PI_ASK_USER_RELAY";

export interface RelayEnvironment {
	/** The parent is relay-aware: send whole forms up instead of walking dialogs. */
	relay: boolean;
}

export function relayEnvironmentOf(env: NodeJS.ProcessEnv): RelayEnvironment {
	return { relay: env[RELAY_ENV] === "1" };
}

const TAKEN = Symbol.for("pi-ask-user/relay-environment");

/**
 * This process's relay environment, read once. The variable is then removed
 * from process.env: it speaks of this process's parent, and must not reach the
 * processes this one starts (a `pi --mode rpc` run from the bash tool under a
 * plain client would send it relay requests). Runners set it explicitly for
 * their own children. Kept on globalThis so a reload or a second copy of the
 * package reads the same answer.
 */
export function takeRelayEnvironment(): RelayEnvironment {
	const holder = globalThis as { [TAKEN]?: RelayEnvironment };
	const taken = holder[TAKEN] ?? relayEnvironmentOf(process.env);
	holder[TAKEN] = taken;
	delete process.env[RELAY_ENV];
	return taken;
}
