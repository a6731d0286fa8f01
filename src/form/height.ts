/** How many lines the inline form may take on a terminal of `rows` rows, beside pi's own chrome. */

/**
 * pi draws its footer under the form: two lines (the working directory, the
 * usage), a third only when an extension sets a status; pi-tui shows the
 * last `rows` lines of everything.
 */
export const PI_FOOTER_ROWS = 2;
/** On a normal terminal the form also leaves pi's working indicator above it in sight. */
const HOST_CHROME_ROWS = PI_FOOTER_ROWS + 2;
/** A short terminal gives the form every row above the footer, up to this many. */
const SMALL_TERMINAL_ROWS = 5;

/**
 * The most lines the form may take on `rows` rows: never more than the rows
 * above pi's footer, so its last line (the views keep the focused row or the
 * editor's cursor line in what they render) is on screen. A third footer line
 * pushes the form's first line off instead.
 */
export function formHeight(rows: number): number {
	return Math.max(1, Math.min(rows - PI_FOOTER_ROWS, SMALL_TERMINAL_ROWS), rows - HOST_CHROME_ROWS);
}
