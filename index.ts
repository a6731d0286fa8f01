/**
 * pi-ask-user: registers the `ask_user` tool.
 *
 *   pi -e ./index.ts            (or `pi install npm:pi-ask-user`)
 *
 * See docs/tool.md for the parameters and the result, ARCHITECTURE.md for how the
 * pieces fit together.
 */

import * as piPackage from "@mariozechner/pi-coding-agent";
import { type ExtensionAPI, type ExtensionContext, getAgentDir } from "@mariozechner/pi-coding-agent";
import { type Ask, errorText, loaded, type Phrase, TOOL_NAME } from "./src/core/types.ts";
import type { Texts } from "./src/i18n/texts.ts";
import { createRouter, type Router, waitingModule } from "./src/route/router.ts";
import { projectTrustedByUser, readSettingsFiles, resolveSettings } from "./src/settings/read.ts";
import { registerSettingFlags, type Steering } from "./src/settings/table.ts";
import type { ToolHost } from "./src/tool/call.ts";
import { callModule, createAskUserTool } from "./src/tool/tool.ts";

export default function askUserExtension(pi: ExtensionAPI): void {
	const files = readSettingsFiles(getAgentDir(), process.cwd());
	// Until the first session starts, without the flags (pi has not parsed them) and the project's steering texts and timeout (not yet trusted).
	let { settings } = resolveSettings(files, { env: process.env });
	// The user's language, in words: loaded when the first session starts (with the flags read), not during pi's start-up.
	let texts: Texts | undefined;
	let starting: Promise<Texts> | undefined;
	const english = () => import("./src/i18n/texts.ts").then((module) => module.ENGLISH);
	// What runs before any session started (a bench, an SDK host that starts none) speaks English.
	const wordsNow = (): Promise<Texts> => starting ?? english();
	// What the dialog walker learns of an RPC host (it shows no text dialogs) holds for every form after.
	const walker = { choiceOnly: false };
	const dismissal = holdToolsAfterDismissal(pi);
	const router = createRouter({
		walker,
		warm: async () => (await callModule()).warmUpArguments(),
		// A subagent's form the user dismissed here stops this session's run too: the child ends its task, this one waits.
		onDismissedForOther: dismissal.dismissed,
		preferences: () => ({
			timeoutMs: settings.timeoutMs,
			numberKeys: settings.numberKeys,
			youDecide: settings.youDecide,
			peekKey: settings.peekKey,
			...(texts && { texts }),
		}),
		// Every form a session with a UI shows, its own and its subagents', is watched: events, answers from elsewhere, attention.
		watch:
			(session, ask): Ask =>
			async (form, options) => {
				const [{ terminalAttention, watchForms }, words] = await Promise.all([waitingModule(), wordsNow()]);
				const setting = () => ({ mode: settings.attention, reminderMs: settings.reminderMs });
				const warn = (text: string) => session.ui.notify(text, "warning");
				const web = () =>
					settings.web ? { address: settings.webAddress, port: settings.webPort, texts: words, warn } : undefined;
				const host = {
					emit: (event: string, payload: unknown) => pi.events.emit(event, payload),
					attention: terminalAttention(session, setting, () => words),
					web,
				};
				return watchForms(ask, host)(form, options);
			},
	});

	// Read, and their warnings said, at the first session start (pi parses the flags only after extensions registered them),
	// in the session's folder: pi 1.x resumes a session of another project in that project, and reads its settings there.
	const start = async (ctx: ExtensionContext): Promise<Texts> => {
		const cwd = typeof ctx.cwd === "string" ? ctx.cwd : process.cwd();
		// What pi asks trust for, by pi's own test where it exports one (1.6; not 0.73, which has no trust).
		const trusted = () =>
			projectTrustedByUser(
				cwd,
				ctx.isProjectTrusted?.bind(ctx),
				(piPackage as Partial<typeof piPackage>).hasTrustRequiringProjectResources,
			);
		const read = cwd === process.cwd() ? files : readSettingsFiles(getAgentDir(), cwd);
		const reading = resolveSettings(read, { flag: (name) => pi.getFlag(name), env: process.env, trusted });
		settings = reading.settings;
		walker.choiceOnly ||= settings.choiceOnly;
		const problems: Array<Phrase | string> = reading.warnings;
		const { locale } = settings;
		// A catalogue that cannot be loaded (a broken install) can only be reported in English.
		const broken = (error: unknown) =>
			problems.push(`ask_user: the ${locale} catalogue could not be loaded (${errorText(error)}): English is used.`);
		const words = (texts = await (await import("./src/i18n/load.ts")).loadTexts(locale, broken));
		// The project's steering texts, in place of the global ones, once the user trusted the project.
		if (reading.projectSteering) registerTool(settings);
		warn(ctx, words, problems);
		return words;
	};
	pi.on("session_start", async (_event, ctx) => {
		// A first start that fails (a broken install) is said once; the forms still work, in English, with the defaults.
		starting ??= start(ctx).catch((error: unknown) => {
			warn(ctx, undefined, [
				`ask_user: its settings or texts could not be loaded (${errorText(error)}): the defaults and English are used.`,
			]);
			return english();
		});
		router.sessionStarted(
			ctx,
			(reason) => void wordsNow().then((words) => ctx.ui.notify(words.t("warning.noChannel", { reason }), "warning")),
		);
		await starting;
	});
	pi.on("session_shutdown", (event) => router.sessionEnded(event.reason));
	// What a call runs loads after start-up; before a run, it must be in: pi calls prepareArguments synchronously.
	// A module that cannot load stays quiet here: the call's execute meets it again and reports it.
	pi.on("before_agent_start", () =>
		callModule().then(
			() => undefined,
			() => undefined,
		),
	);
	const keep = keepFormsOnDemand(pi, router, wordsNow);
	const offer = offerOnlyWhereAnswerable(pi, router);
	registerSettingFlags(pi);
	const registerTool = (steering: Steering) =>
		pi.registerTool(
			createAskUserTool({
				getActiveTools: () => pi.getActiveTools(),
				setActiveTools: (names) => pi.setActiveTools(names),
				ask: router.ask,
				keep,
				texts: () => texts,
				steering,
				onNoUI: offer.withheld,
				onDismissed: dismissal.dismissed,
			}),
		);
	registerTool(settings);
}

/**
 * Kept forms (restore.ts) load at the first session start with a UI, with the first form to keep, or with
 * `/ask-user`. Once asked for, every session start and end reaches them, even one that comes while they load.
 * A module that cannot load (a broken install) is said once, at a session start, and not tried again there:
 * the forms still work, unkept; `/ask-user` still says what is wrong.
 */
function keepFormsOnDemand(
	pi: ExtensionAPI,
	router: Router,
	words: () => Promise<Texts>,
): NonNullable<ToolHost["keep"]> {
	let restoring = false;
	let broken = false;
	const restore = loaded(async () => {
		restoring = true;
		return (await import("./src/kept/restore.ts")).keepForms(pi, router.ask, words);
	});
	const kept = async (ctx?: ExtensionContext) => {
		if (broken) return undefined;
		try {
			return await restore();
		} catch (error) {
			broken = true;
			if (ctx)
				warn(ctx, undefined, [
					`ask_user: forms cannot be kept past pi here (${errorText(error)}): they work, but one left unanswered ends with pi.`,
				]);
			return undefined;
		}
	};
	pi.on("session_start", async (_event, ctx) => {
		if (ctx.hasUI || restoring) await (await kept(ctx))?.sessionStarted(ctx);
	});
	pi.on("session_shutdown", async () => {
		if (restoring) (await kept())?.sessionEnded();
	});
	pi.registerCommand("ask-user", {
		description: 'Reopen a form of this session that got no answer ("drop": drop one)',
		handler: async (args, ctx) => (await restore()).command(args, ctx),
	});
	return async (ctx, id, form) => (await kept())?.keeper(ctx, id, form);
}

/** Start-up warnings: on screen, or, without a UI (print, JSON), on stderr, where a person running pi still reads them. */
function warn(ctx: ExtensionContext, texts: Texts | undefined, problems: Array<Phrase | string | undefined>): void {
	for (const problem of problems) {
		if (!problem) continue;
		const text = typeof problem === "string" ? problem : (texts?.say(problem) ?? problem.key);
		if (ctx.hasUI) ctx.ui.notify(text, "warning");
		else process.stderr.write(`${text}\n`);
	}
}

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
function offerOnlyWhereAnswerable(pi: ExtensionAPI, router: Router): { withheld(): void } {
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
	pi.on("session_start", (_event, ctx) => {
		leftOutByUser = userLeftOut(process.argv, defaultToolsOf(pi));
		readRecord(ctx);
	});
	// pi restores the tools of the branch it moves to: so is the record.
	pi.on("session_tree", (_event, ctx) => readRecord(ctx));
	pi.on("before_agent_start", async (_event, ctx) => {
		const canAsk = await router.canAsk(ctx);
		const active = pi.getActiveTools();
		if (!canAsk && active.includes(TOOL_NAME)) {
			pi.setActiveTools(active.filter((name) => name !== TOOL_NAME));
			record(true);
		} else if (canAsk && withheld && !leftOutByUser && !active.includes(TOOL_NAME)) {
			pi.setActiveTools([...active, TOOL_NAME]);
			record(false);
		}
	});
	return { withheld: () => record(true) };
}

/** The session entry that says whether ask_user was taken away by this extension. */
export const OFFER_ENTRY = "ask-user-offer";

interface OfferRecord {
	withheld: boolean;
}

/** The entries of the session's current branch (all of them on a pi without branches to read). */
function sessionBranch(ctx: ExtensionContext): readonly unknown[] {
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
function defaultToolsOf(pi: ExtensionAPI): unknown {
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
function holdToolsAfterDismissal(pi: ExtensionAPI): { dismissed(): void } {
	let waitingForUser = false;
	pi.on("message_start", (event) => {
		if (event.message.role === "user") waitingForUser = false;
	});
	// terminate (pi 1.x): the blocked calls end the batch without another model call; pi 0.73 ignores it.
	pi.on("tool_call", () =>
		waitingForUser
			? {
					block: true,
					terminate: true,
					reason:
						"Not run: the user dismissed ask_user and wants to speak. Reply in plain text, run nothing, and wait for the user.",
				}
			: undefined,
	);
	return {
		dismissed: () => {
			waitingForUser = true;
		},
	};
}
