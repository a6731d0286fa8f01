/**
 * What this process learned from its environment about who shows its forms:
 * a relay-aware parent (`PI_ASK_USER_RELAY=1`, set by the relay API when it
 * spawns a child), and an ancestor session's local channel
 * (`PI_ASK_USER_CHANNEL`). Each is read once per process.
 */

import { CHANNEL_ENV } from "../codec/channel.ts";

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

const CHANNEL_TAKEN = Symbol.for("pi-ask-user/channel-environment");

export interface ChannelEnvironment {
	/**
	 * PI_ASK_USER_CHANNEL as this process found it: the address of an
	 * ancestor session that shows forms. Undefined when this process is the
	 * top (it may then publish its own).
	 */
	inherited: string | undefined;
}

/**
 * The channel variable as it was when this process started, read once and
 * kept on globalThis: once this process publishes its own channel, a reload
 * or a second copy of the package must not take it for an ancestor's. Unlike
 * the relay variable it stays in process.env, so grandchildren reach the top.
 */
export function takeChannelEnvironment(env: NodeJS.ProcessEnv = process.env): ChannelEnvironment {
	const holder = globalThis as { [CHANNEL_TAKEN]?: ChannelEnvironment };
	const taken = holder[CHANNEL_TAKEN] ?? { inherited: env[CHANNEL_ENV] || undefined };
	holder[CHANNEL_TAKEN] = taken;
	return taken;
}

/** Who shows this process's forms when it can't: a relay-aware runner, or an ancestor's local channel. */
export interface Upstream extends RelayEnvironment {
	/** The inherited PI_ASK_USER_CHANNEL (see ChannelEnvironment). */
	channel: string | undefined;
}

/** This process's upstream, read once (see takeRelayEnvironment and takeChannelEnvironment). */
export function takeUpstream(): Upstream {
	return { ...takeRelayEnvironment(), channel: takeChannelEnvironment().inherited };
}
