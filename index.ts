/**
 * pi-ask-user: registers the `ask_user` tool.
 *
 *   pi -e ./index.ts            (or `pi install npm:pi-ask-user`)
 *
 * See README.md for the parameters and the result, ARCHITECTURE.md for how the
 * pieces fit together.
 */

import { basename } from "node:path";
import { type ExtensionAPI, type ExtensionContext, getAgentDir } from "@mariozechner/pi-coding-agent";
import { parseAttentionMode, parseReminder } from "./src/attention.ts";
import { decodeChannelAddress } from "./src/codec/channel.ts";
import { TOOL_NAME } from "./src/prompt.ts";
import { readSettings, settingsFiles } from "./src/settings.ts";
import { takeUpstream } from "./src/relay/environment.ts";
import { ASK_CHANNEL, formQueue, getChannel, registerChannel } from "./src/relay/registry.ts";
import type { AskSurface, SurfaceContext } from "./src/surface.ts";
import { createAskUserTool, parseTimeout, timeoutProblem } from "./src/tool.ts";
import type { AttentionHost } from "./src/waiting.ts";

/** How long after a session starts the UI modules load in the background. */
export const PRELOAD_DELAY_MS = 300;

export default function askUserExtension(pi: ExtensionAPI): void {
	// One terminal, one form at a time: this session's asks and its subagents' share the process's queue.
	const queue = formQueue();
	const upstream = takeUpstream();
	// The UIs (the form, the dialog walker, the relay client) load on the first ask, not during pi's start-up.
	const ui = () => import("./src/surface.ts");
	const watcher = () => import("./src/waiting.ts");
	// ... and, so that the first form shows at once, in the background a moment after a session that may
	// ask starts: never during pi's start-up, never keeping the process alive, and a failure stays quiet
	// until a real ask meets it again and reports it.
	let preloading = false;
	const preload = () => {
		if (preloading) return;
		preloading = true;
		setTimeout(() => void Promise.all([ui().then((loaded) => loaded.warmUpForm()), watcher()]).catch(() => {}), PRELOAD_DELAY_MS).unref();
	};
	// Settings: a flag wins over its environment variable, which wins over the files, which win over the default.
	const { settings: file, warnings: fileWarnings } = readSettings(settingsFiles(getAgentDir(), process.cwd()));
	const setting = (flag: string, variable: string, fromFile: unknown) => pi.getFlag(flag) ?? process.env[variable] ?? (fromFile === undefined ? undefined : String(fromFile));
	const attentionMode = () => parseAttentionMode(setting("ask-user-attention", "PI_ASK_USER_ATTENTION", file.attention));
	const reminder = () => parseReminder(setting("ask-user-remind", "PI_ASK_USER_REMIND", file.remindSeconds));
	// Every form of the session, its own and its subagents', is watched: events, answers from elsewhere, attention.
	const surface = (ctx: SurfaceContext): AskSurface =>
		async (form, options) =>
			(await watcher()).watchForms(async (...ask) => (await ui()).createSurface(ctx, queue, upstream)(...ask), {
				emit: (event, payload) => pi.events.emit(event, payload),
				attention: terminalAttention(ctx, () => ({ mode: attentionMode().mode, ...reminder() })),
			})(form, options);
	let unregister: (() => void) | undefined;
	let stopListening: (() => Promise<void>) | undefined;

	const timeoutSetting = () => setting("ask-user-timeout", "PI_ASK_USER_TIMEOUT", file.timeoutSeconds === 0 ? undefined : file.timeoutSeconds);
	pi.on("session_start", (_event, ctx) => {
		if (ctx.hasUI || upstream.channel !== undefined) preload();
		const problems = [...fileWarnings.splice(0), timeoutProblem(timeoutSetting()), attentionMode().problem, reminder().problem];
		for (const problem of problems) {
			if (!problem) continue;
			// Without a UI (print, JSON), where a person running pi still reads stderr.
			if (ctx.hasUI) ctx.ui.notify(problem, "warning");
			else process.stderr.write(`${problem}\n`);
		}
		unregister?.();
		// Only a session that can show a form offers to ask for others (subagents, headless sessions).
		unregister = ctx.hasUI
			? registerChannel(ASK_CHANNEL, async (request, options) => (await ui()).createAskChannel(surface(ctx))(request, options))
			: undefined;
		// The top session with a UI listens for the processes it starts (runners' children, pi from bash);
		// one that inherited an ancestor's channel leaves it, so its children reach the top.
		if (ctx.hasUI && upstream.channel === undefined && !stopListening) {
			// Loaded here, not at start-up: the socket is needed only once a child can exist.
			const listening = import("./src/relay/channel-server.ts").then((server) =>
				server.shareLocalChannel(
					() => getChannel(ASK_CHANNEL),
					(message) => ctx.ui.notify(message, "warning"),
				),
			);
			stopListening = async () => (await listening)();
		}
	});
	// No offer that cannot be kept: before every run, a session that has no UI and nobody to ask through
	// (no session with a UI in this process, no reachable ancestor) does not offer ask_user; it is offered
	// again once there is. Only what this extension took away is given back.
	let withheld = false;
	pi.on("before_agent_start", async (_event, ctx) => {
		const canAsk = ctx.hasUI || getChannel(ASK_CHANNEL) !== undefined || (await inheritedChannelReachable(upstream.channel));
		const active = pi.getActiveTools();
		if (!canAsk && active.includes(TOOL_NAME)) {
			pi.setActiveTools(active.filter((name) => name !== TOOL_NAME));
			withheld = true;
		} else if (canAsk && withheld && !active.includes(TOOL_NAME)) {
			pi.setActiveTools([...active, TOOL_NAME]);
			withheld = false;
		}
	});

	pi.on("session_shutdown", async () => {
		unregister?.();
		unregister = undefined;
		const stop = stopListening;
		stopListening = undefined;
		await stop?.();
	});

	// A dismissal means the user wants the floor. Its result terminates, but pi still runs the calls
	// the model batched after ask_user, and, as not every result of that batch terminated, calls the
	// model once more. Every tool call is refused until the user speaks again: a user message enters
	// the conversation (a new prompt, or one steered in or queued during the run). Not agent_start:
	// pi also starts a run on its own, to retry after an error or a compaction.
	let waitingForUser = false;
	pi.on("message_start", (event) => {
		if (event.message.role === "user") waitingForUser = false;
	});
	pi.on("tool_call", () =>
		waitingForUser
			? { block: true, reason: "Not run: the user dismissed ask_user and wants to speak. Reply in plain text, run nothing, and wait for the user." }
			: undefined,
	);

	pi.registerFlag("ask-user-timeout", {
		description: "Seconds the user has to answer ask_user before it returns timed_out (default: no limit)",
		type: "string",
	});
	pi.registerFlag("ask-user-attention", {
		description: "How a waiting ask_user form gets your attention: bell (default), desktop (a terminal notification), or off",
		type: "string",
	});
	pi.registerFlag("ask-user-remind", {
		description: "Ring again after this many seconds with no key pressed while an ask_user form waits (default: never)",
		type: "string",
	});
	pi.registerTool(
		createAskUserTool({
			getActiveTools: () => pi.getActiveTools(),
			setActiveTools: (names) => pi.setActiveTools(names),
			timeoutMs: () => parseTimeout(timeoutSetting()),
			surface,
			inheritedChannel: upstream.channel,
			steering: { description: file.description, promptSnippet: file.promptSnippet, promptGuidelines: file.promptGuidelines },
			onNoUI: () => {
				withheld = true;
			},
			onDismissed: () => {
				waitingForUser = true;
			},
		}),
	);
}

async function inheritedChannelReachable(channel: string | undefined): Promise<boolean> {
	const decoded = decodeChannelAddress(channel);
	if (!decoded.ok) return false;
	return (await import("./src/relay/channel-client.ts")).channelReachable(decoded.address);
}

/** The terminal of a TUI session: the bell and notifications go to it, its title shows a waiting form. */
function terminalAttention(ctx: SurfaceContext & Partial<Pick<ExtensionContext, "cwd">>, setting: AttentionHost["setting"]): AttentionHost {
	return {
		setting,
		// RPC and print write JSON to stdout: only a terminal gets bells and titles.
		isTerminal: () => process.stdout.isTTY === true,
		write: (bytes) => {
			if (bytes !== "") process.stdout.write(bytes);
		},
		env: process.env,
		setTitle: (title) => ctx.ui.setTitle(title),
		piTitle: () => piTitle(ctx),
		onInput: (listener) =>
			ctx.ui.onTerminalInput(() => {
				listener();
				return undefined;
			}),
	};
}

/** The title pi itself sets (interactive mode's updateTerminalTitle), to put back when a form closes. */
function piTitle(ctx: SurfaceContext & Partial<Pick<ExtensionContext, "cwd">>): string {
	const cwd = basename(ctx.cwd ?? process.cwd());
	let name: string | undefined;
	try {
		name = (ctx.sessionManager as { getSessionName?(): string | undefined } | undefined)?.getSessionName?.();
	} catch {
		name = undefined;
	}
	return name ? `π - ${name} - ${cwd}` : `π - ${cwd}`;
}
