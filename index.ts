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
import { type Ask, errorText, loaded, type Phrase } from "./src/core/types.ts";
import type { Texts } from "./src/i18n/texts.ts";
import { createRouter, type Router, waitingModule } from "./src/route/router.ts";
import { projectTrustedByUser, readSettingsFiles, resolveSettings } from "./src/settings/read.ts";
import { registerSettingFlags, type Steering } from "./src/settings/table.ts";
import type { ToolHost } from "./src/tool/call.ts";
import { callModule, createAskUserTool } from "./src/tool/tool.ts";
import { holdToolsAfterDismissal, offerOnlyWhereAnswerable } from "./src/route/offer.ts";

export default function askUserExtension(pi: ExtensionAPI): void {
	const files = readSettingsFiles(getAgentDir(), process.cwd());
	// Until the first session starts, without the flags (pi has not parsed them) and the project's steering texts and
	// timeout (not yet trusted).
	let { settings } = resolveSettings(files, { env: process.env });
	// The user's language, in words: loaded when the first session starts (with the flags read), not during pi's
	// start-up.
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
		// Every form a session with a UI shows, its own and its subagents', is watched: events, answers from elsewhere,
		// attention.
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

	// Read, and their warnings said, at the first session start (pi parses the flags only after extensions registered
	// them), in the session's folder: pi 1.x resumes a session of another project in that project, and reads its settings
	// there.
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
