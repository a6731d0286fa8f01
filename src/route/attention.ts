/**
 * The bytes that get the user's attention when a form waits (waiting.ts writes them). Nothing from the model reaches
 * them but printable text: no C0, DEL or C1 that could end or inject a sequence, and no ';' (OSC 777's separator).
 */

import { clip } from "../core/sanitize.ts";
import type { AttentionMode } from "../settings/table.ts";

/** `reminderMs`: ring again after this long with no key pressed; undefined: never. */
export type AttentionSetting = { mode: AttentionMode; reminderMs?: number };

type Env = Readonly<Record<string, string | undefined>>;

/** As terminals announce themselves (inside tmux, only the variables that survive into it). */
function notifyProtocol(env: Env): "osc777" | "osc99" | "osc9" | "bell" {
	const program = env["TERM_PROGRAM"] ?? "";
	const term = env["TERM"] ?? "";
	if (env["KITTY_WINDOW_ID"] || term === "xterm-kitty") return "osc99";
	if (env["WT_SESSION"] || program === "iTerm.app" || env["LC_TERMINAL"] === "iTerm2") return "osc9";
	if (
		/^(WezTerm|ghostty)$/i.test(program) ||
		env["WEZTERM_PANE"] ||
		env["GHOSTTY_RESOURCES_DIR"] ||
		/^(foot|rxvt-unicode|xterm-ghostty)/.test(term)
	)
		return "osc777";
	return "bell";
}

export const BEL = "\x07";
/** A notification's body, at most, in characters. */
export const NOTIFICATION_MAX = 120;
const ESC = "\x1b";
const ST = `${ESC}\\`;

/** Printable, one line, at most `max` characters. */
function notificationText(text: string, max: number): string {
	const clean = text
		.replace(/[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]+/g, " ")
		.replace(/;/g, ",")
		.replace(/\s+/g, " ")
		.trim();
	return clip(clean, max);
}

/**
 * "desktop": the terminal's notification, then a BEL, which marks the tab and passes tmux whatever its passthrough
 * setting.
 */
export function attentionBytes(mode: AttentionMode, env: Env, title: string, body: string): string {
	if (mode === "off") return "";
	const protocol = notifyProtocol(env);
	if (mode === "bell" || protocol === "bell") return BEL;
	const sequence = DESKTOP[protocol](notificationText(title, 40), notificationText(body, NOTIFICATION_MAX));
	// tmux's DCS passthrough: every ESC inside doubled.
	return (env["TMUX"] ? `${ESC}Ptmux;${sequence.replaceAll(ESC, ESC + ESC)}${ST}` : sequence) + BEL;
}

const DESKTOP: Record<"osc777" | "osc99" | "osc9", (title: string, body: string) => string> = {
	osc777: (title, body) => `${ESC}]777;notify;${title};${body}${BEL}`,
	osc99: (title, body) => `${ESC}]99;i=pi-ask-user:d=0;${title}${ST}${ESC}]99;i=pi-ask-user:p=body;${body}${ST}`,
	osc9: (title, body) => `${ESC}]9;${title}: ${body}${BEL}`,
};
