/**
 * The form's colours as plain functions, built from pi's Theme: the views
 * never see pi's Theme. Each adds the same escape codes whatever the text, and
 * never visible characters: the views measure the unstyled pieces.
 */

import type { Theme } from "@mariozechner/pi-coding-agent";

/** `selected`: the focused tab and the focused row's label. */
type Styles = Record<
	"text" | "accent" | "muted" | "dim" | "success" | "warning" | "error" | "bold" | "selected" | "border",
	(s: string) => string
>;

/** `refresh`: reads the host's theme again (the component's invalidate(): pi calls it after a theme switch). */
export type FormTheme = Styles & { refresh?(): void };

const identity = (s: string): string => s;

/** Stands for the text while a style's codes are read; the sanitiser keeps it out of every piece. */
const MARK = "\u0000";

/**
 * pi's theme is a live proxy, costly many times a frame: each style's codes are read once, around a mark, and again on
 * refresh().
 */
export function formThemeFrom(theme: Pick<Theme, "fg" | "bg" | "bold">): FormTheme {
	const styles: FormTheme = { ...stylesOf(theme), refresh: () => void Object.assign(styles, stylesOf(theme)) };
	return styles;
}

function stylesOf(theme: Pick<Theme, "fg" | "bg" | "bold">): Styles {
	const fg = (color: Parameters<Theme["fg"]>[0]) => around(theme.fg(color, MARK));
	return {
		text: fg("text"),
		accent: fg("accent"),
		muted: fg("muted"),
		dim: fg("dim"),
		success: fg("success"),
		warning: fg("warning"),
		error: fg("error"),
		bold: around(theme.bold(MARK)),
		selected: around(theme.bg("selectedBg", theme.fg("text", MARK))),
		border: fg("borderMuted"),
	};
}

function around(styled: string): (s: string) => string {
	const at = styled.indexOf(MARK);
	if (at < 0) return identity;
	const open = styled.slice(0, at);
	const close = styled.slice(at + MARK.length);
	return open === "" && close === "" ? identity : (s) => open + s + close;
}
