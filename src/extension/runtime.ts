/**
 * ask_user once pi is up. index.ts registers at load only what pi must see then (the tool, the flags, the command, the
 * hooks); each of them reaches this module, which loads with the first session start (or the first ask, in a host that
 * starts none). Here the settings are read, the tool registered again where the user's steering texts replace ours,
 * the forms routed and kept, and the tool offered only where someone can answer. What is not needed at a session start
 * loads on first use: the user's words (the catalogue), the kept forms (only where some are kept), the local channel
 * (before the first run), what a call runs and the form (a moment after the session started, in the background).
 */

import { existsSync } from "node:fs";
import * as piPackage from "@mariozechner/pi-coding-agent";
import { type ExtensionAPI, type ExtensionContext, getAgentDir } from "@mariozechner/pi-coding-agent";
import {
	type Ask,
	type AskForm,
	type AskOptions,
	errorText,
	keptDirOf,
	type Loaded,
	loaded,
	type Phrase,
	type Session,
	sessionFileOf,
} from "../core/types.ts";
import type { Texts } from "../i18n/texts.ts";
import type { Restore } from "../kept/restore.ts";
import type { DialogHost } from "../walker/walker.ts";
import { holdToolsAfterDismissal, offerOnlyWhereAnswerable } from "../route/offer.ts";
import { createRouter, type Router, waitingModule } from "../route/router.ts";
import { projectTrustedByUser, readSettingsFiles, resolveSettings } from "../settings/read.ts";
import type { Settings, Steering } from "../settings/table.ts";
import type { ToolHost } from "../tool/call.ts";
import type { PageTheme } from "../web/theme.ts";
import { callModule } from "../tool/tool.ts";

/** What index.ts's registrations call; `host`: the tool's, but for what pi itself gives (its active tools). */
export interface Runtime {
	host: Required<Pick<ToolHost, "ask" | "keep" | "onNoUI" | "onDismissed">> & { texts(): Texts | undefined };
	/** The user's words, loaded on first use. */
	words(): Promise<Texts>;
	sessionStarted(ctx: ExtensionContext): Promise<void>;
	sessionEnded(reason: string | undefined): Promise<void>;
	branchMoved(ctx: ExtensionContext): void;
	beforeRun(ctx: ExtensionContext): Promise<void>;
	messageStarted(role: string): void;
	toolCall(): ReturnType<ReturnType<typeof holdToolsAfterDismissal>["toolCall"]>;
	command(args: string, ctx: ExtensionContext): Promise<void>;
}

export function startRuntime(pi: ExtensionAPI, registerTool: (steering: Steering) => void): Runtime {
	// Until the first session starts, without the flags (pi has not parsed them) and the project's steering texts and
	// timeout (not yet trusted).
	const files = readSettingsFiles(getAgentDir(), process.cwd());
	let { settings } = resolveSettings(files, { env: process.env });
	let started: ExtensionContext | undefined;
	const words = userWords(
		() => settings,
		() => started,
	);
	// What the dialog walker learns of an RPC host (it shows no text dialogs) holds for every form after.
	const walker: DialogHost = { choiceOnly: false };
	const hold = holdToolsAfterDismissal();
	const router = createRouter({
		walker,
		warm: async () => {
			void kept.preload(started);
			(await callModule()).warmUpArguments();
		},
		// A subagent's form the user dismissed here stops this session's run too: the child ends its task, this one waits.
		onDismissedForOther: hold.dismissed,
		preferences: async () => formPreferences(settings, await words()),
		watch: watching(pi, () => settings, words),
	});
	const offer = offerOnlyWhereAnswerable(pi, router);
	const kept = keptOnDemand(pi, router, words);

	// Read, and their warnings said, at the first session start (pi parses the flags only after extensions registered
	// them).
	const readSettings = async (ctx: ExtensionContext) => {
		const reading = settingsOf(pi, ctx, files);
		settings = reading.settings;
		walker.choiceOnly ||= settings.choiceOnly;
		// Set, either way, it is the user's word: the walker learns nothing of the host.
		if (reading.given.includes("choiceOnly")) walker.learns = false;
		// The user's steering texts (their own file, or a project's they trusted), in place of ours.
		const { description, promptSnippet, promptGuidelines } = settings;
		if (description !== undefined || promptSnippet !== undefined || promptGuidelines !== undefined)
			registerTool(settings);
		if (reading.warnings.length > 0) warn(ctx, await words(), reading.warnings);
	};

	return {
		host: { ask: router.ask, keep: kept.keep, onNoUI: offer.withheld, onDismissed: hold.dismissed, texts: words.now },
		words,
		async sessionStarted(ctx) {
			const first = started === undefined;
			started = ctx;
			// A first start that fails (a broken install) is said once; the forms still work, in English, with the defaults.
			if (first)
				await readSettings(ctx).catch((error: unknown) =>
					warn(ctx, undefined, [
						`ask_user: its settings or texts could not be loaded (${errorText(error)}): the defaults and English are ` +
							`used.`,
					]),
				);
			offer.sessionStarted(ctx);
			router.sessionStarted(
				ctx,
				(reason) => void words().then((said) => ctx.ui.notify(said.t("warning.noChannel", { reason }), "warning")),
			);
			await kept.sessionStarted(ctx);
		},
		async sessionEnded(reason) {
			await Promise.all([router.sessionEnded(reason), kept.sessionEnded()]);
		},
		branchMoved: offer.branchMoved,
		async beforeRun(ctx) {
			// What a call runs, in before a run: pi calls prepareArguments synchronously. A module that cannot load stays
			// quiet here: the call's execute meets it again and reports it.
			await Promise.all([offer.beforeRun(ctx), router.beforeRun(), callModule().catch(() => undefined)]);
		},
		messageStarted: hold.messageStarted,
		toolCall: hold.toolCall,
		command: kept.command,
	};
}

/** What every form takes from the settings, read per ask. */
const formPreferences = ({ timeoutMs, numberKeys, youDecide, peekKey }: Settings, texts: Texts): AskOptions => ({
	timeoutMs,
	numberKeys,
	youDecide,
	peekKey,
	texts,
});

/** The user's words, in the language the settings say as they are when first needed; English where they cannot load. */
function userWords(settings: () => Settings, started: () => ExtensionContext | undefined): Loaded<Texts> {
	return loaded(async () => {
		const { locale } = settings();
		// A catalogue that cannot be loaded (a broken install) can only be reported in English.
		const broken = (error: unknown) => {
			const ctx = started();
			if (ctx)
				warn(ctx, undefined, [
					`ask_user: the ${locale} catalogue could not be loaded (${errorText(error)}): English is used.`,
				]);
		};
		return (await import("../i18n/load.ts")).loadTexts(locale, broken);
	});
}

/**
 * The settings as the first session start reads them: with the flags, in the session's folder (pi 1.x resumes a
 * session of another project in that project, and reads its settings there), a project's own only where its user
 * trusted it.
 */
function settingsOf(pi: ExtensionAPI, ctx: ExtensionContext, files: ReturnType<typeof readSettingsFiles>) {
	const cwd = typeof ctx.cwd === "string" ? ctx.cwd : process.cwd();
	// What pi asks trust for, by pi's own test where it exports one (1.6; not 0.73, which has no trust).
	const trusted = () =>
		projectTrustedByUser(
			cwd,
			ctx.isProjectTrusted?.bind(ctx),
			(piPackage as Partial<typeof piPackage>).hasTrustRequiringProjectResources,
		);
	const read = cwd === process.cwd() ? files : readSettingsFiles(getAgentDir(), cwd);
	return resolveSettings(read, { flag: (name) => pi.getFlag(name), env: process.env, trusted });
}

/**
 * Every form a session with a UI shows, its own and its subagents', is watched: events, answers from elsewhere,
 * attention.
 */
function watching(pi: ExtensionAPI, current: () => Settings, words: () => Promise<Texts>) {
	return (session: Session, ask: Ask): Ask =>
		async (form, options) => {
			const [{ terminalAttention, watchForms }, said] = await Promise.all([waitingModule(), words()]);
			const setting = () => ({ mode: current().attention, reminderMs: current().reminderMs });
			const host = {
				emit: (event: string, payload: unknown) => pi.events.emit(event, payload),
				attention: terminalAttention(session, setting, () => said),
				web: () => (current().web ? webSetting(current(), said, session) : undefined),
			};
			return watchForms(ask, host)(form, options);
		};
}

/**
 * Kept forms (restore.ts) load at a session start with a UI where the session has forms kept, with the first form to
 * keep, or with `/ask-user`. Once asked for, every session start and end reaches them, even one that comes while they
 * load. A module that cannot load (a broken install) is said once, when first needed, and not tried again there: the
 * forms still work, unkept; `/ask-user` still says what is wrong.
 */
function keptOnDemand(pi: ExtensionAPI, router: Router, words: () => Promise<Texts>) {
	let restoring = false;
	let broken = false;
	const restore = loaded(async () => {
		restoring = true;
		return (await import("../kept/restore.ts")).keepForms(pi, router.ask, words);
	});
	const kept = async (ctx?: ExtensionContext): Promise<Restore | undefined> => {
		if (broken) return undefined;
		try {
			return await restore();
		} catch (error) {
			broken = true;
			if (ctx)
				warn(ctx, undefined, [
					`ask_user: forms cannot be kept past pi here (${errorText(error)}): they work, but one left unanswered ` +
						`ends with pi.`,
				]);
			return undefined;
		}
	};
	return {
		async sessionStarted(ctx: ExtensionContext) {
			// Forms kept beside the session: one look at the disk, not the module that reads them.
			const dir = ctx.hasUI ? keptDirOf(ctx) : undefined;
			if (restoring || (dir !== undefined && existsSync(dir))) await (await kept(ctx))?.sessionStarted(ctx);
		},
		async sessionEnded() {
			if (restoring) (await kept())?.sessionEnded();
		},
		/**
		 * In the background, for a session kept in a file: what keeps its forms is in before its first ask needs it. A
		 * module that cannot load stays quiet here, and counts as not asked for: the first form to keep says so.
		 */
		async preload(ctx: ExtensionContext | undefined) {
			if (ctx === undefined || sessionFileOf(ctx) === undefined) return;
			await restore().catch(() => {
				restoring = false;
			});
		},
		command: async (args: string, ctx: ExtensionContext) => (await restore()).command(args, ctx),
		// A session kept nowhere keeps no forms: nothing to load for it.
		async keep(ctx: ExtensionContext, id: string, form: AskForm) {
			return sessionFileOf(ctx) === undefined ? undefined : (await kept(ctx))?.keeper(ctx, id, form);
		},
	};
}

/**
 * Start-up warnings: on screen, or, without a UI (print, JSON), on stderr, where a person running pi still reads them.
 */
function warn(ctx: ExtensionContext, texts: Texts | undefined, problems: Array<Phrase | string | undefined>): void {
	for (const problem of problems) {
		if (!problem) continue;
		const text = typeof problem === "string" ? problem : (texts?.say(problem) ?? problem.key);
		if (ctx.hasUI) ctx.ui.notify(text, "warning");
		else process.stderr.write(`${text}\n`);
	}
}

/** Where the page listens, in the user's words and pi's colours; a page that cannot listen is a warning. */
function webSetting(settings: Pick<Settings, "webAddress" | "webPort">, texts: Texts, session: Session) {
	const warn = (text: string) => session.ui.notify(text, "warning");
	const sessionFile = sessionFileOf(session);
	return { address: settings.webAddress, port: settings.webPort, texts, warn, theme: themeOf(session), sessionFile };
}

/**
 * pi's theme as the form opens (`ctx.ui.theme`, in 1.6 and 0.73), for the page's colours; none where a host has none.
 */
function themeOf(session: Session): PageTheme | undefined {
	try {
		const theme: Partial<PageTheme> | undefined = session.ui.theme;
		return typeof theme?.getFgAnsi === "function" && typeof theme.getBgAnsi === "function"
			? (theme as PageTheme)
			: undefined;
	} catch {
		return undefined;
	}
}
