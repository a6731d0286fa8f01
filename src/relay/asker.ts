/** Who asked a relayed form: the chain of subagents, outermost first. */

import { RELAY_ASKER_MAX as ASKER_MAX } from "./envelope-schema.ts";

/** "planner" + "scout" → "planner › scout", on one line and within the envelope's limit (the innermost end is kept). */
export function joinAskers(outer: string | undefined, inner: string | undefined): string | undefined {
	const joined = [outer, inner]
		.map((part) => part?.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]+/g, " ").trim())
		.filter((part): part is string => Boolean(part))
		.join(" › ");
	if (!joined) return undefined;
	if (joined.length <= ASKER_MAX) return joined;
	const tail = joined.slice(joined.length - ASKER_MAX + 1).replace(/^[\udc00-\udfff]/, "");
	return `…${tail}`;
}

/** Ours, then the names runners use for their agent, in the environment the child was started with. */
const ASKER_ENV_NAMES = ["PI_ASK_USER_ASKER", "PI_SUBAGENT_NAME", "PI_AGENT_NAME"] as const;
export const DEFAULT_ASKER = "subagent";
/** How much of a child's task labels its forms. */
const TASK_LABEL_MAX = 60;

/**
 * How a session that asks through another one is labelled there: a runner's
 * name for it (its environment, or the agent its system prompt names), else
 * the start of its task (its first user message), else "subagent".
 */
export function selfAsker(env: Readonly<Record<string, string | undefined>>, task: string | undefined, systemPrompt?: string): string {
	for (const name of [...ASKER_ENV_NAMES.map((variable) => env[variable]), activeAgentOf(systemPrompt)]) {
		const label = joinAskers(undefined, name);
		if (label) return label;
	}
	const words = task?.replace(/\s+/g, " ").trim();
	if (!words) return DEFAULT_ASKER;
	const label = words.length <= TASK_LABEL_MAX ? words : `${words.slice(0, TASK_LABEL_MAX - 1).replace(/[\ud800-\udbff]$/, "").trimEnd()}…`;
	return joinAskers(undefined, label) ?? DEFAULT_ASKER;
}

/**
 * pi-subagents (0.67) puts `<active_agent name="scout"/>` on a line of its
 * own before the agent's prompt; its in-process children share the parent's
 * environment, so this is where such a child learns its name.
 */
function activeAgentOf(systemPrompt: string | undefined): string | undefined {
	// The last such line: pi's part of the prompt comes first and holds the project's context files, which anyone can write.
	const name = [...(systemPrompt ?? "").matchAll(/(?:^|\n)\s*<active_agent name="([^"\n]{1,200})"\s*\/>/g)].at(-1)?.[1];
	return name?.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

type Loose = { [key: string]: unknown } | null | undefined;

/** The text of the first user message among pi's session entries, read loosely. */
export function firstUserText(entries: readonly unknown[]): string | undefined {
	for (const entry of entries as readonly Loose[]) {
		const message = entry?.["type"] === "message" ? (entry["message"] as Loose) : undefined;
		if (message?.["role"] !== "user") continue;
		const content = message["content"];
		if (typeof content === "string") return content;
		if (!Array.isArray(content)) return undefined;
		return (content as Loose[])
			.filter((part) => part?.["type"] === "text" && typeof part["text"] === "string")
			.map((part) => part?.["text"] as string)
			.join(" ");
	}
	return undefined;
}
