/** Who asks a relayed form, and their task, as the user reads them: cleaned, joined, within the wire's limits. */

import type { Texts } from "../i18n/texts.ts";
import { cleanName, readsAsSelf } from "../core/sanitize.ts";
import { RELAY_ASKER_MAX } from "./envelope-schema.ts";

/**
 * Who asked a relayed form, outermost first: "planner" + "scout" → "planner › scout", each name cleaned (sanitize.ts
 * `cleanName`), within the envelope's limit (the innermost end is kept).
 */
export function joinAskers(outer: string | undefined, inner: string | undefined): string | undefined {
	const joined = [outer, inner]
		.map((part) => (part === undefined ? "" : cleanName(part)))
		.filter(Boolean)
		.join(" › ");
	if (!joined) return undefined;
	if (joined.length <= RELAY_ASKER_MAX) return joined;
	return `…${joined.slice(joined.length - RELAY_ASKER_MAX + 1).replace(/^[\udc00-\udfff]/, "")}`;
}

/**
 * Who asks a form from elsewhere, as this user reads it: the name it came with, cleaned; with none, or one that reads
 * as this session, an unnamed subagent and its process id where known.
 */
export function askerLabel(asker: string | undefined, pid: number | undefined, texts: Texts): string {
	const name = joinAskers(undefined, asker);
	if (name !== undefined && !readsAsSelf(name)) return name;
	return pid === undefined ? texts.t("form.unnamedAsker") : texts.t("form.unnamedAskerPid", { pid });
}

/** The longest task shown, in code points; a longer one is cut with "…". */
export const TASK_MAX = 1000;

/** A task as it may be shown: cleaned to one line (sanitize.ts `cleanName`) and cut; undefined when nothing is left. */
export const cleanTask = (task: string | undefined): string | undefined =>
	(task !== undefined && cleanName(task, TASK_MAX)) || undefined;
