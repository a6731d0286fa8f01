/**
 * The route table (src/route/router.ts): how a form reaches its user, for every kind
 * of session — pi 1.x's modes, a pi that does not say its mode (0.73), and
 * what this process knows of who can answer for it.
 */

import { describe, expect, it } from "vitest";
import { modeOf, type RouteFacts, routeOf } from "../src/route/router.ts";
import type { AskHandler } from "../src/core/types.ts";

const handler: AskHandler = async () => ({ v: 1, status: "dismissed", answers: {}, skipped: [], notes: [] });
const alone = { relay: false, channel: undefined };
const underRelay = { relay: true, channel: undefined };
const withAncestor = { relay: false, channel: "v1:/tmp/s:token" };

const facts = (over: Partial<RouteFacts>): RouteFacts => ({
	mode: undefined,
	hasUI: true,
	upstream: alone,
	handler: undefined,
	...over,
});

describe("the route of a form", () => {
	it("pi 1.x's TUI shows the form inline, whatever the upstream", () => {
		for (const upstream of [alone, underRelay, withAncestor])
			expect(routeOf(facts({ mode: "tui", upstream })).kind).toBe("form");
	});

	it("RPC: the relay-aware parent first, then an ancestor's channel, else the dialog walker; the form is never tried", () => {
		expect(routeOf(facts({ mode: "rpc", upstream: underRelay })).kind).toBe("relay");
		expect(routeOf(facts({ mode: "rpc", upstream: withAncestor }))).toEqual({
			kind: "channel",
			address: withAncestor.channel,
		});
		expect(routeOf(facts({ mode: "rpc" })).kind).toBe("walker");
		// A mode this code does not know, with a UI, gets the dialogs any host with a UI can show.
		expect(routeOf(facts({ mode: "acp" })).kind).toBe("walker");
	});

	it("no UI: this process's session with one, then an ancestor's channel, else no_ui", () => {
		for (const mode of ["print", "json", undefined]) {
			expect(routeOf(facts({ mode, hasUI: false, handler, upstream: withAncestor }))).toEqual({
				kind: "inProcess",
				handler,
			});
			expect(routeOf(facts({ mode, hasUI: false, upstream: withAncestor })).kind).toBe("channel");
			expect(routeOf(facts({ mode, hasUI: false })).kind).toBe("none");
		}
	});

	it("a pi that does not say its mode (0.73) with a UI probes: the form, and RPC's route if nothing was shown", () => {
		expect(routeOf(facts({ upstream: underRelay })).kind).toBe("probe");
	});

	it("the mode is read where pi gives it, and only a string counts", () => {
		expect(modeOf({ mode: "tui" })).toBe("tui");
		expect(modeOf({})).toBeUndefined();
		expect(modeOf({ mode: 1 })).toBeUndefined();
	});
});
