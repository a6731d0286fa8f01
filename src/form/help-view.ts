/**
 * The `?` screen: every key of the key table (the same table the hint line
 * picks from), the keys in a column, what they do wrapped beside them.
 */

import type { KeyHelp } from "./keymap.ts";
import { LineBuffer, type ScrollPort, type ViewContext, windowLines } from "./layout.ts";

const KEY_COLUMN_MAX = 22;
/** Below this width the keys and their action are stacked instead of side by side. */
const COLUMNS_MIN_WIDTH = 36;

export interface HelpViewResult {
	lines: string[];
	body: ScrollPort;
}

export function renderHelpView(table: readonly KeyHelp[], scroll: number, width: number, height: number, ctx: ViewContext): HelpViewResult {
	const { theme, fit } = ctx;
	const body = new LineBuffer();
	const title = fit.line(ctx.texts.t("help.title"), width);
	body.push(theme.bold(title.text), title.width);
	const columns = width >= COLUMNS_MIN_WIDTH;
	let keyColumn = 0;
	if (columns) for (const entry of table) keyColumn = Math.max(keyColumn, fit.measure(entry.keys));
	keyColumn = Math.min(keyColumn, KEY_COLUMN_MAX);
	for (const entry of table) {
		if (columns) {
			const keys = fit.wrap(entry.keys, keyColumn);
			const action = fit.wrap(entry.action, width - keyColumn - 2);
			const rows = Math.max(keys.lines.length, action.lines.length);
			for (let i = 0; i < rows; i++) {
				const keyText = keys.lines[i] ?? "";
				const keyWidth = keys.widths[i] ?? 0;
				const actionText = action.lines[i] ?? "";
				body.push(
					theme.accent(keyText) + fit.spaces(keyColumn - keyWidth + 2) + theme.text(actionText),
					keyColumn + 2 + (action.widths[i] ?? 0),
				);
			}
		} else {
			const keys = fit.wrap(entry.keys, width);
			keys.lines.forEach((line, i) => body.push(theme.accent(line), keys.widths[i] ?? 0));
			const indent = width > 4 ? 2 : 0;
			const action = fit.wrap(entry.action, width - indent);
			action.lines.forEach((line, i) => body.push(fit.spaces(indent) + theme.text(line), indent + (action.widths[i] ?? 0)));
		}
	}
	const visible = windowLines(body.lines, height, scroll, undefined, "help", width, ctx);
	return { lines: visible.lines, body: visible.port };
}
