/**
 * Where ask_user is offered, and when its calls are held: offered only where someone can answer (what the user left
 * out stays out), and no tool runs after a dismissal until the user speaks.
 */

import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { TOOL_NAME } from "../core/types.ts";
import type { Router } from "./router.ts";

/**
 * No offer that cannot be kept: before every run, a session that has no UI
 * and nobody to ask through (no session with a UI in this process, no
 * reachable ancestor) does not offer ask_user; it is offered again once there
 * is. Only what this extension took away (here, or after a no_ui result) is
 * given back.
 *
 * pi 1.x records the active tools in the session, so what was taken away is
 * recorded there too (a custom entry): a session continued in print mode and
 * then resumed with a UI gets ask_user back, while a tool the user turned off
 * stays off.
 */
export interface Offer {
	/** At session_start and session_tree (pi restores the tools of the branch it moves to: so is the record). */
	sessionStarted(ctx: ExtensionContext): void;
	branchMoved(ctx: ExtensionContext): void;
	/** Before every run: offered, or taken away, by whether anyone can answer now. */
	beforeRun(ctx: ExtensionContext): Promise<void>;
	/** No form could be shown: the tool took itself out of the active tools. */
	withheld(): void;
}

export function offerOnlyWhereAnswerable(pi: Offered, router: Pick<Router, "canAsk">): Offer {
	let withheld = false;
	// The user's own word at start-up (--tools, --exclude-tools, the defaultTools setting) outranks the record.
	let leftOutByUser = false;
	const record = (value: boolean) => {
		withheld = value;
		pi.appendEntry<OfferRecord>(OFFER_ENTRY, { withheld: value });
	};
	const readRecord = (ctx: ExtensionContext) => {
		withheld = lastOfferRecord(sessionBranch(ctx))?.withheld ?? false;
	};
	return {
		sessionStarted(ctx) {
			leftOutByUser = userLeftOut(process.argv, defaultToolsOf(pi));
			readRecord(ctx);
		},
		branchMoved: readRecord,
		async beforeRun(ctx) {
			const canAsk = await router.canAsk(ctx);
			const active = pi.getActiveTools();
			if (!canAsk && active.includes(TOOL_NAME)) {
				pi.setActiveTools(active.filter((name) => name !== TOOL_NAME));
				record(true);
			} else if (canAsk && withheld && !leftOutByUser && !active.includes(TOOL_NAME)) {
				pi.setActiveTools([...active, TOOL_NAME]);
				record(false);
			}
		},
		withheld: () => record(true),
	};
}

/** What the offer needs of pi. */
type Offered = Pick<ExtensionAPI, "appendEntry" | "getActiveTools" | "setActiveTools">;

/** The session entry that says whether ask_user was taken away by this extension. */
export const OFFER_ENTRY = "ask-user-offer";

interface OfferRecord {
	withheld: boolean;
}

/** The entries of the session's current branch (all of them on a pi without branches to read). */
export function sessionBranch(ctx: ExtensionContext): readonly unknown[] {
	try {
		const manager = ctx.sessionManager as
			| { getBranch?(): readonly unknown[]; getEntries(): readonly unknown[] }
			| undefined;
		return manager?.getBranch?.() ?? manager?.getEntries() ?? [];
	} catch {
		// No session to read (a host that keeps none): nothing was recorded.
		return [];
	}
}

/** pi 1.x's defaultTools setting, where pi gives its settings to extensions. */
function defaultToolsOf(pi: Offered): unknown {
	try {
		return (pi as { getSettings?(): { defaultTools?: unknown } }).getSettings?.()?.defaultTools;
	} catch {
		return undefined;
	}
}

/**
 * Whether the user left ask_user out at start-up: a `--tools` / `-t` list of
 * plain names without it, a `-ask_user` entry there or in the defaultTools
 * setting, or an `--exclude-tools` pattern that matches it (pi 1.x's tool
 * options). Such a tool is
 * never given back by this extension.
 */
export function userLeftOut(argv: readonly string[], defaultTools: unknown): boolean {
	const lists: string[][] = [];
	const excluded: string[] = [];
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] ?? "";
		const [flag, inline] = arg.includes("=")
			? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
			: [arg, undefined];
		const value = inline ?? argv[i + 1] ?? "";
		if (flag === "--tools" || flag === "-t") lists.push(value.split(",").map((name) => name.trim()));
		if (flag === "--exclude-tools") excluded.push(...value.split(",").map((pattern) => pattern.trim()));
	}
	// A --tools list of plain names is the whole selection; defaultTools' plain names choose built-ins only.
	const leavesOut = (list: string[]) =>
		list.includes(`-${TOOL_NAME}`) ||
		(list.length > 0 && list.every((name) => !/^[+-]/.test(name)) && !list.includes(TOOL_NAME));
	const settingLeavesOut = Array.isArray(defaultTools) && defaultTools.includes(`-${TOOL_NAME}`);
	const matches = (pattern: string) =>
		pattern !== "" &&
		new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`).test(TOOL_NAME);
	return settingLeavesOut || lists.some(leavesOut) || excluded.some(matches);
}

/** The latest OFFER_ENTRY among a session's entries (read loosely: any version may have written them). */
function lastOfferRecord(entries: readonly unknown[]): OfferRecord | undefined {
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i] as { type?: unknown; customType?: unknown; data?: { withheld?: unknown } } | null;
		if (entry?.type !== "custom" || entry.customType !== OFFER_ENTRY) continue;
		if (typeof entry.data?.withheld === "boolean") return { withheld: entry.data.withheld };
	}
	return undefined;
}

/**
 * A dismissal means the user wants the floor. Its result terminates, but pi
 * still runs the calls the model batched after ask_user, and, as not every
 * result of that batch terminated, calls the model once more. Every tool call
 * is refused until the user speaks again: a user message enters the
 * conversation (a new prompt, or one steered in or queued during the run).
 * So too after the user dismissed here a subagent's form: the child ends its
 * task and its runner's result reaches this model, whose next call is refused
 * (pi 1.x: with terminate, so the run ends there).
 * Not agent_start: pi also starts a run on its own, to retry after an error or
 * a compaction.
 */
export function holdToolsAfterDismissal(): Hold {
	let waitingForUser = false;
	return {
		messageStarted(role) {
			if (role === "user") waitingForUser = false;
		},
		// terminate (pi 1.x): the blocked calls end the batch without another model call; pi 0.73 ignores it.
		toolCall: () =>
			waitingForUser
				? {
						block: true,
						terminate: true,
						reason:
							"Not run: the user dismissed ask_user and wants to speak. Reply in plain text, run nothing, and wait " +
							"for the user.",
					}
				: undefined,
		dismissed: () => {
			waitingForUser = true;
		},
	};
}

export interface Hold {
	/** At message_start: a user's message lifts the hold. */
	messageStarted(role: string): void;
	/** At tool_call: the hold's answer, while it holds. */
	toolCall(): { block: true; terminate: true; reason: string } | undefined;
	/** The user dismissed a form: hold every call until they speak. */
	dismissed(): void;
}
