/**
 * `@` in the form's editor completes a file's path as pi's own editor does (pi-tui's provider, fd for the search), and
 * choosing a file attaches it instead of writing its path; a folder is written, to go on completing. Tab completes a
 * path as text, as in pi.
 */

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type AutocompleteProvider, CombinedAutocompleteProvider } from "@mariozechner/pi-tui";

/**
 * pi-tui's provider, its `@` file completions handed to `attach` (the file's absolute path); one attached leaves the
 * `@…` out of the text, one not (refused, or where files are not taken) is written as pi writes it.
 */
export function fileCompletion(
	cwd: string,
	fd: string | undefined,
	attach: (path: string) => boolean,
): AutocompleteProvider {
	const pi = new CombinedAutocompleteProvider([], cwd, fd ?? null);
	return {
		getSuggestions: (lines, line, col, options) => pi.getSuggestions(lines, line, col, options),
		shouldTriggerFileCompletion: (lines, line, col) => pi.shouldTriggerFileCompletion(lines, line, col),
		applyCompletion(lines, line, col, item, prefix) {
			// pi writes `@path`, quoted when it has a space: `@"a b.png"`; relative to the session's folder, or `~/…`.
			const value = item.value.replace(/^@"?|"$/g, "");
			const path = value.startsWith("~/") ? join(homedir(), value.slice(2)) : resolve(cwd, value);
			if (!prefix.startsWith("@") || item.label.endsWith("/") || !attach(path))
				return pi.applyCompletion(lines, line, col, item, prefix);
			const text = lines[line] ?? "";
			// In a quoted folder the closing quote is after the cursor: it goes too.
			const rest = text.slice(col).slice(prefix.startsWith('@"') && text[col] === '"' ? 1 : 0);
			let start = Math.max(0, col - prefix.length);
			// The space typed before the "@" goes with it: "like this @shot" → "like this".
			if (text[start - 1] === " " && /^(\s|$)/.test(rest)) start -= 1;
			const next = [...lines];
			next[line] = text.slice(0, start) + rest;
			return { lines: next, cursorLine: line, cursorCol: start };
		},
	};
}
