/**
 * The settings' flags, all that pi must see of the settings at load: pi parses its command line only after extensions
 * registered their flags. Their rules and everything else of the settings (table.ts, read.ts) load with the first
 * session start. `boolean`: a switch (pi's switches can only say true).
 */

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { LOCALES } from "../i18n/locale.ts";

type Flag = { readonly flag: string; readonly help: string; readonly boolean?: true };

export const FLAGS = {
	locale: {
		flag: "ask-user-locale",
		help:
			`The language of ask_user's form and of everything else it shows you (not what the model reads): ` +
			`${LOCALES.join(", ")}; another region of one of these languages takes that language (fr-CA: fr). Default: ` +
			`from LC_ALL, LC_MESSAGES or LANG, else en.`,
	},
	attention: {
		flag: "ask-user-attention",
		help:
			"How a waiting ask_user form gets your attention: bell (the default), desktop (a notification through the " +
			"terminal, and a bell), or off.",
	},
	reminderMs: {
		flag: "ask-user-remind",
		help:
			"Ring again after this many seconds with no key pressed while an ask_user form waits; 0: never (the " +
			"default).",
	},
	timeoutMs: {
		flag: "ask-user-timeout",
		help:
			"Seconds the user has to answer an ask_user form, counted from when it is shown, before it returns " +
			"timed_out; 0: no limit (the default).",
	},
	choiceOnly: {
		flag: "ask-user-choice-only",
		boolean: true,
		help:
			"RPC hosts that show no text dialogs (an ACP adapter such as pi-acp): the dialog walker offers ask_user's " +
			"options only, no rows for typed answers or notes. Unset, the walker learns it when a host cancels two text " +
			"dialogs at once; set to false (in a settings file, or PI_ASK_USER_CHOICE_ONLY=0), never.",
	},
	web: {
		flag: "ask-user-web",
		boolean: true,
		help:
			"Also serve a waiting ask_user form as a page to answer in your browser (a phone too): its link shows on " +
			"the form. Off by default; nothing listens while no form waits.",
	},
	webAddress: {
		flag: "ask-user-web-address",
		help:
			"The address the browser page listens on: 127.0.0.1 (this machine only, the default), or an address of " +
			"this machine on your LAN or tailnet, for a phone.",
	},
	webPort: {
		flag: "ask-user-web-port",
		help: "The port of the browser page; 0: any free port (the default).",
	},
} as const satisfies Record<string, Flag>;

export function registerSettingFlags(pi: Pick<ExtensionAPI, "registerFlag">): void {
	for (const { flag, help, boolean } of Object.values(FLAGS) as Flag[])
		pi.registerFlag(flag, { description: help, type: boolean ? "boolean" : "string" });
}
