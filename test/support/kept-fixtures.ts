/**
 * The form that outlives pi in the tests and the benchmark (test/support/kept-forms.ts, scripts/bench/restore.ts), and
 * where its kept files are: no test runner in here, so the benchmark can take it too.
 */

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { callTool, QUOTE_PREFIX, scriptOf } from "./model-script.ts";
import type { PiEnv } from "./pi-env.ts";

export const TEXT = "zebra-lantern-42";
export const FORM = {
	questions: [
		{
			id: "db",
			header: "Database",
			question: "Which database should the service use?",
			options: [{ label: "Postgres" }, { label: "SQLite" }],
		},
		{ id: "why", header: "Context", question: "Anything else I should know?" },
	],
};
/** How a late answer starts (src/kept/restore.ts). */
export const LATE = "Late answer to ask_user";

/** On "ask", the model asks FORM; a late answer is quoted back. */
export const script = (timeoutReply = false) =>
	scriptOf(
		{ user: LATE, replies: [{ text: `${QUOTE_PREFIX} late answer received` }] },
		{
			user: "ask",
			replies: [callTool("ask_user", FORM), { text: timeoutReply ? `${QUOTE_PREFIX} {{lastToolResult}}` : "(unused)" }],
		},
	);

export function keptFiles(env: PiEnv): string[] {
	const sessions = join(env.root, "agent", "sessions");
	if (!existsSync(sessions)) return [];
	return (readdirSync(sessions, { recursive: true }) as string[])
		.filter((name) => /\.ask-user\/.+\.json$/.test(name))
		.map((name) => join(sessions, name));
}
