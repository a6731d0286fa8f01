/**
 * pi-ask-user: registers the `ask_user` tool.
 *
 *   pi -e ./index.ts            (or `pi install npm:pi-ask-user`)
 *
 * See README.md for the parameters and the result, ARCHITECTURE.md for how the
 * pieces fit together.
 */

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { takeUpstream } from "./src/relay/environment.ts";
import { shareLocalChannel } from "./src/relay/channel-server.ts";
import { ASK_CHANNEL, formQueue, getChannel, registerChannel } from "./src/relay/registry.ts";
import type { AskSurface, SurfaceContext } from "./src/surface.ts";
import { createAskUserTool, parseTimeout, timeoutProblem } from "./src/tool.ts";

export default function askUserExtension(pi: ExtensionAPI): void {
	// One terminal, one form at a time: this session's asks and its subagents' share the process's queue.
	const queue = formQueue();
	const upstream = takeUpstream();
	// The UIs (the form, the dialog walker, the relay client) load on the first ask, not during pi's start-up.
	const ui = () => import("./src/surface.ts");
	const surface =
		(ctx: SurfaceContext): AskSurface =>
		async (form, options) =>
			(await ui()).createSurface(ctx, queue, upstream)(form, options);
	let unregister: (() => void) | undefined;
	let stopListening: (() => Promise<void>) | undefined;

	const timeoutSetting = () => pi.getFlag("ask-user-timeout") ?? process.env.PI_ASK_USER_TIMEOUT;
	pi.on("session_start", (_event, ctx) => {
		const problem = timeoutProblem(timeoutSetting());
		if (problem && ctx.hasUI) ctx.ui.notify(problem, "warning");
		unregister?.();
		// Only a session that can show a form offers to ask for others (subagents, headless sessions).
		unregister = ctx.hasUI
			? registerChannel(ASK_CHANNEL, async (request, options) => (await ui()).createAskChannel(surface(ctx))(request, options))
			: undefined;
		// The top session with a UI listens for the processes it starts (runners' children, pi from bash);
		// one that inherited an ancestor's channel leaves it, so its children reach the top.
		if (ctx.hasUI && upstream.channel === undefined && !stopListening) {
			stopListening = shareLocalChannel(
				() => getChannel(ASK_CHANNEL),
				(message) => ctx.ui.notify(message, "warning"),
			);
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
	pi.registerTool(
		createAskUserTool({
			getActiveTools: () => pi.getActiveTools(),
			setActiveTools: (names) => pi.setActiveTools(names),
			timeoutMs: () => parseTimeout(timeoutSetting()),
			surface,
			inheritedChannel: upstream.channel,
			onDismissed: () => {
				waitingForUser = true;
			},
		}),
	);
}
