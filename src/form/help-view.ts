/** The `?` screen: every key of the key table in a column, what they do wrapped beside them. */

import { visibleWidth } from "@mariozechner/pi-tui";
import type { WebLink } from "../core/types.ts";
import { SETTINGS } from "../settings/table.ts";
import type { KeyHelp } from "./keymap.ts";
import { type ViewContext, type Window, widestLine, windowLines } from "./layout.ts";

const KEY_COLUMN_MAX = 22;
/** Below this width the keys and their action are stacked instead of side by side. */
const COLUMNS_MIN_WIDTH = 36;

/**
 * `about`: the asker's task and the call's reason, whole, above the keys (the form cuts them); `link`: the browser
 * page, its QR code under the keys where it fits, for a phone to scan (without uqr, a line says so); on loopback, no
 * code (no phone could open it) but how to reach the page from a phone.
 */
export function renderHelpView(
	table: readonly KeyHelp[],
	scroll: number,
	width: number,
	height: number,
	ctx: ViewContext,
	link?: WebLink,
	about: readonly string[] = [],
): Window {
	const { theme, fit } = ctx;
	const body = about.flatMap((text) => fit.wrap(text, width).map((line) => theme.text(line)));
	if (body.length > 0) body.push("");
	body.push(theme.bold(fit.line(ctx.texts.t("help.title"), width)));
	const columns = width >= COLUMNS_MIN_WIDTH;
	const rows = table.filter((entry) => !entry.folded);
	const keys = rows.map((entry) => entry.keys);
	const keyColumn = columns ? Math.min(widestLine(keys, ctx), KEY_COLUMN_MAX) : 0;
	for (const entry of rows) {
		if (columns) {
			const keys = fit.wrap(entry.keys, keyColumn);
			const action = fit.wrap(entry.action, width - keyColumn - 2);
			for (let i = 0; i < Math.max(keys.length, action.length); i++) {
				const key = keys[i] ?? "";
				body.push(theme.accent(key) + " ".repeat(keyColumn - visibleWidth(key) + 2) + theme.text(action[i] ?? ""));
			}
		} else {
			const indent = width > 4 ? 2 : 0;
			for (const line of fit.wrap(entry.keys, width)) body.push(theme.accent(line));
			for (const line of fit.wrap(entry.action, width - indent)) body.push(" ".repeat(indent) + theme.text(line));
		}
	}
	// The one place keys are not obeyed: typing on "Type something…" writes.
	body.push("", ...fit.wrap(ctx.texts.t("help.typing"), width).map((line) => theme.muted(line)));
	const qr = link?.qr;
	if (link?.loopback) body.push("", ...fit.wrap(loopbackHint(ctx), width).map((line) => theme.muted(line)));
	else if (link !== undefined && qr === undefined)
		body.push("", theme.muted(fit.line(ctx.texts.t("web.qrMissing"), width)));
	else if (qr && qr.every((row) => visibleWidth(row) <= width))
		body.push("", theme.text(fit.line(ctx.texts.t("web.qr"), width)), ...qr);
	return windowLines(body, height, scroll, undefined, "help", width, ctx);
}

/** How to reach a page that listens on loopback from a phone: the setting, by its name in the file and as a flag. */
const loopbackHint = (ctx: ViewContext) =>
	ctx.texts.t("web.loopback", {
		setting: SETTINGS.webAddress.key,
		file: "ask-user.json",
		flag: `--${SETTINGS.webAddress.flag}`,
	});
