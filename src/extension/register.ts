/**
 * What pi sees of ask_user at load: the tool, the flags, the `/ask-user` command and the session hooks. index.ts loads
 * this module (from the build in a package from npm, from the source in a checkout); the rest loads on first use.
 */

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { loaded } from "../core/loaded.ts";
import { registerSettingFlags } from "../settings/flags.ts";
import type { Steering } from "../settings/table.ts";
import { createAskUserTool } from "../tool/tool.ts";

/**
 * What pi must see at load, and nothing more: the tool (its name, schema and prompt texts), the flags, the command and
 * the hooks. Each reaches the runtime (runtime.ts), which loads with the first session start.
 */
export default function askUserExtension(pi: ExtensionAPI): void {
	const runtime = loaded(async () => (await import("./runtime.ts")).startRuntime(pi, registerTool));
	const now = runtime.now;
	const registerTool = (steering?: Steering) =>
		pi.registerTool(
			createAskUserTool({
				getActiveTools: () => pi.getActiveTools(),
				setActiveTools: (names) => pi.setActiveTools(names),
				ask: async (session, form, options) => (await runtime()).host.ask(session, form, options),
				keep: async (ctx, id, form) => (await runtime()).host.keep(ctx, id, form),
				texts: () => now()?.host.texts(),
				words: async () => (await runtime()).words(),
				...(steering && { steering }),
				onNoUI: () => now()?.host.onNoUI(),
				onDismissed: () => now()?.host.onDismissed(),
			}),
		);
	registerSettingFlags(pi);
	pi.on("session_start", async (_event, ctx) => (await runtime()).sessionStarted(ctx));
	pi.on("session_shutdown", async (event) => (await runtime()).sessionEnded(event.reason));
	pi.on("session_tree", (_event, ctx) => now()?.branchMoved(ctx));
	pi.on("before_agent_start", async (_event, ctx) => (await runtime()).beforeRun(ctx));
	pi.on("message_start", (event) => now()?.messageStarted(event.message.role));
	pi.on("tool_call", () => now()?.toolCall());
	pi.registerCommand("ask-user", {
		description:
			'Reopen a form of this session: one that got no answer, or an answered one to revise ("drop": drop one)',
		handler: async (args, ctx) => (await runtime()).command(args, ctx),
	});
	registerTool();
}
