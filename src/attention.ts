/**
 * Getting the user's attention when a form starts waiting: the terminal's
 * notification protocol (read from the variables terminals set) and the bytes
 * to write. A pure leaf: the writing and the timers live in src/waiting.ts.
 *
 * Nothing from the model reaches these sequences unescaped: the text is cut to
 * printable characters (no C0, DEL, C1 — so no ESC, BEL or ST that could end
 * or inject a sequence) and the field separator ';' of OSC 777 is replaced.
 */

import { ENGLISH, type Texts } from "./i18n/texts.ts";

export type AttentionMode = "off" | "bell" | "desktop";

export const ATTENTION_MODES: readonly AttentionMode[] = ["off", "bell", "desktop"];

export interface AttentionSetting {
	mode: AttentionMode;
	/** Ring again after this long with no key pressed; undefined: never. */
	reminderMs?: number;
}

/** How a terminal shows a desktop notification; "bell" when it can't be told. */
export type NotifyProtocol = "osc777" | "osc99" | "osc9" | "bell";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The protocol of the terminal pi runs in, as terminals announce themselves:
 * kitty (KITTY_WINDOW_ID, TERM xterm-kitty) → OSC 99; Windows Terminal
 * (WT_SESSION) and iTerm2 (TERM_PROGRAM iTerm.app, LC_TERMINAL iTerm2) →
 * OSC 9; Ghostty, WezTerm, foot, urxvt → OSC 777. Inside tmux TERM_PROGRAM
 * names tmux, so only the variables that survive into it count there.
 */
export function notifyProtocol(env: Env): NotifyProtocol {
	const program = env["TERM_PROGRAM"] ?? "";
	const term = env["TERM"] ?? "";
	if (env["KITTY_WINDOW_ID"] || term === "xterm-kitty") return "osc99";
	if (env["WT_SESSION"] || program === "iTerm.app" || env["LC_TERMINAL"] === "iTerm2") return "osc9";
	if (/^(WezTerm|ghostty)$/i.test(program) || env["WEZTERM_PANE"] || env["GHOSTTY_RESOURCES_DIR"] || /^(foot|rxvt-unicode|xterm-ghostty)/.test(term)) {
		return "osc777";
	}
	return "bell";
}

export const BEL = "\x07";
const ESC = "\x1b";
const ST = `${ESC}\\`;

/** Printable text only, one line, at most `max` characters; `;` becomes `,` (OSC 777 splits fields on it). */
export function notificationText(text: string, max = 120): string {
	const clean = text
		.replace(/[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]+/g, " ")
		.replace(/;/g, ",")
		.replace(/\s+/g, " ")
		.trim();
	const chars = [...clean];
	return chars.length <= max ? clean : `${chars.slice(0, max - 1).join("")}…`;
}

/**
 * The bytes that ring the terminal for a waiting form. "bell": one BEL.
 * "desktop": the terminal's notification, then a BEL (the bell also marks the
 * window or tab, and tmux passes it on whatever its passthrough setting);
 * inside tmux the notification is wrapped for passthrough (tmux ≥ 3.3 drops it
 * unless `allow-passthrough` is on, which is why the bell follows).
 */
export function attentionBytes(mode: AttentionMode, env: Env, title: string, body: string): string {
	if (mode === "off") return "";
	if (mode === "bell") return BEL;
	const protocol = notifyProtocol(env);
	const sequence = desktopSequence(protocol, notificationText(title, 40), notificationText(body));
	if (sequence === "") return BEL;
	return (env["TMUX"] ? tmuxPassthrough(sequence) : sequence) + BEL;
}

function desktopSequence(protocol: NotifyProtocol, title: string, body: string): string {
	switch (protocol) {
		case "osc777":
			return `${ESC}]777;notify;${title};${body}${BEL}`;
		case "osc99":
			return `${ESC}]99;i=pi-ask-user:d=0;${title}${ST}${ESC}]99;i=pi-ask-user:p=body;${body}${ST}`;
		case "osc9":
			return `${ESC}]9;${title}: ${body}${BEL}`;
		case "bell":
			return "";
	}
}

/** tmux's DCS passthrough: every ESC inside doubled. */
export function tmuxPassthrough(sequence: string): string {
	return `${ESC}Ptmux;${sequence.replaceAll(ESC, ESC + ESC)}${ST}`;
}

/** The notification's body: "2 questions waiting — asked by scout". */
export function waitingBody(questions: number, asker?: string, { t }: Texts = ENGLISH): string {
	return asker ? t("attention.waitingAskedBy", { count: questions, asker }) : t("attention.waiting", { count: questions });
}

/** The terminal title while a form waits, before pi's own. */
export function waitingTitle(piTitle: string, questions: number, { t }: Texts = ENGLISH): string {
	return t("attention.title", { count: questions, title: piTitle });
}
