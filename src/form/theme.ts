/**
 * The form's colours, as plain functions. Built once from pi's Theme in the
 * component; the views only ever see these functions, never pi's Theme, so
 * they stay pure and render with identity functions in tests.
 *
 * Every function must add escape codes only, never visible characters: the
 * views compute line widths from the unstyled pieces.
 */

import type { Theme } from "@mariozechner/pi-coding-agent";

export interface FormTheme {
	text(s: string): string;
	accent(s: string): string;
	muted(s: string): string;
	dim(s: string): string;
	success(s: string): string;
	warning(s: string): string;
	error(s: string): string;
	bold(s: string): string;
	/** The focused tab and the focused row's label. */
	selected(s: string): string;
	border(s: string): string;
}

const identity = (s: string): string => s;

/** No colours at all: what the view tests render with. */
export const plainTheme: FormTheme = {
	text: identity,
	accent: identity,
	muted: identity,
	dim: identity,
	success: identity,
	warning: identity,
	error: identity,
	bold: identity,
	selected: identity,
	border: identity,
};

/**
 * pi's theme object is a live proxy (a theme switch swaps what it points to),
 * so these closures pick up a new theme on the next render after invalidate().
 */
export function formThemeFrom(theme: Pick<Theme, "fg" | "bg" | "bold">): FormTheme {
	return {
		text: (s) => theme.fg("text", s),
		accent: (s) => theme.fg("accent", s),
		muted: (s) => theme.fg("muted", s),
		dim: (s) => theme.fg("dim", s),
		success: (s) => theme.fg("success", s),
		warning: (s) => theme.fg("warning", s),
		error: (s) => theme.fg("error", s),
		bold: (s) => theme.bold(s),
		selected: (s) => theme.bg("selectedBg", theme.fg("text", s)),
		border: (s) => theme.fg("borderMuted", s),
	};
}
