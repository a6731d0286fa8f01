/**
 * The one place that decides how a form reaches its user, from what pi says
 * of the session (its mode, whether it has a UI) and what this process knows
 * of who can answer for it:
 *
 * | session                                   | route                                        |
 * |-------------------------------------------|----------------------------------------------|
 * | pi's TUI (`mode: "tui"`)                   | `form`: the inline form                      |
 * | RPC under a relay-aware runner             | `relay`: the whole form to the parent        |
 * | RPC in a process with an ancestor's channel| `ancestor`: the whole form to that session   |
 * | plain RPC                                  | `walker`: standard dialogs any client shows  |
 * | no UI, another session here has one (SDK)  | `inProcess`: through that session            |
 * | no UI, an ancestor's channel               | `ancestor`                                   |
 * | no UI, nobody to ask                       | `none`: status no_ui                         |
 * | UI, but pi does not say its mode (0.73)    | `probe`: the form; if pi shows nothing, RPC  |
 *
 * pi 1.x gives `ctx.mode`; pi 0.73 does not, and its `hasUI` is true in RPC
 * too, so there the form is tried and a `custom()` that shows nothing means
 * RPC (`rpcRoute`).
 */

import type { Upstream } from "./relay/environment.ts";
import type { ChannelHandler } from "./relay/registry.ts";

export type Route =
	| { kind: "form" }
	| { kind: "probe" }
	| { kind: "relay" }
	| { kind: "ancestor"; address: string }
	| { kind: "walker" }
	| { kind: "inProcess"; channel: ChannelHandler }
	| { kind: "none" };

export interface RouteFacts {
	/** pi's `ctx.mode` ("tui", "rpc", "json", "print"); undefined on a pi that does not say (0.73). */
	mode: string | undefined;
	hasUI: boolean;
	upstream: Upstream;
	/** The ask_user channel of this process's session with a UI, if there is one. */
	inProcess: ChannelHandler | undefined;
}

export function routeOf({ mode, hasUI, upstream, inProcess }: RouteFacts): Route {
	if (!hasUI) {
		if (inProcess) return { kind: "inProcess", channel: inProcess };
		if (upstream.channel !== undefined) return { kind: "ancestor", address: upstream.channel };
		return { kind: "none" };
	}
	if (mode === "tui") return { kind: "form" };
	if (mode === undefined) return { kind: "probe" };
	// "rpc", or a mode this code does not know: dialogs are what a host with a UI and no TUI can show.
	return rpcRoute(upstream);
}

/** A session whose dialogs go to an RPC client. */
export function rpcRoute(upstream: Upstream): Route {
	if (upstream.relay) return { kind: "relay" };
	if (upstream.channel !== undefined) return { kind: "ancestor", address: upstream.channel };
	return { kind: "walker" };
}

/** Routes that show the form in another session: its dismissal ends this session's task, not the user's say. */
export function asksElsewhere(route: Route): boolean {
	return route.kind === "relay" || route.kind === "ancestor" || route.kind === "inProcess";
}

/** pi's mode where it says it (1.x); undefined on a pi that does not (0.73). */
export function modeOf(ctx: object): string | undefined {
	const mode = (ctx as { mode?: unknown }).mode;
	return typeof mode === "string" ? mode : undefined;
}
