/**
 * ask_user calls the e2e tests share, and the one helper that reads back what
 * the model received from ask_user.
 */

import type { AskDetails, AskQuestion } from "../../src/core/types.ts";
import { callTool, type ModelScript, QUOTE_PREFIX, quoteLastToolResult, scriptOf } from "./model-script.ts";
import { type PiEnv, WAIT_MS } from "./pi-env.ts";
import type { TmuxPi } from "./tmux.ts";

/** One question as validation leaves it (every default filled): for tests below the tool. */
export const DB_QUESTION: AskQuestion = {
	id: "db",
	header: "Database",
	question: "Which database?",
	options: [
		{ label: "Postgres", value: "pg", recommended: true },
		{ label: "SQLite", value: "SQLite", recommended: false },
	],
	multiSelect: false,
	allowOther: true,
	required: true,
};

/** Two one-question forms a subagent asks in the e2e tests. */
export const DB_FORM = {
	questions: [
		{
			id: "db",
			header: "Database",
			question: "Which database should the service use?",
			options: [{ label: "Postgres" }, { label: "SQLite" }],
		},
	],
};
export const LICENSE_FORM = {
	questions: [
		{
			id: "license",
			header: "License",
			question: "Which license should the code carry?",
			options: [{ label: "MIT" }, { label: "Apache-2.0" }],
		},
	],
};

/** Two required single-select questions. */
export const TWO_QUESTIONS = {
	questions: [
		{
			id: "db",
			header: "Database",
			question: "Which database should the service use?",
			options: [
				{ label: "Postgres", description: "Already runs in production", recommended: true },
				{ label: "SQLite", description: "One file, no server" },
			],
		},
		{
			id: "cli",
			header: "CLI name",
			question: "What should the command be called?",
			options: [{ label: "ship" }, { label: "launch", value: "launch-cli" }],
		},
	],
};

/** A required question, then an optional one. */
export const REQUIRED_THEN_OPTIONAL = {
	questions: [
		{
			id: "style",
			header: "Style",
			question: "Tabs or spaces?",
			options: [{ label: "Tabs" }, { label: "Spaces" }],
		},
		{
			id: "license",
			header: "License",
			question: "Which license header should new files carry?",
			required: false,
			options: [{ label: "MIT" }, { label: "Apache-2.0" }],
		},
	],
};

/** One multi-select question. */
export const MULTI_SELECT = {
	questions: [
		{
			id: "targets",
			header: "Targets",
			question: "Which platforms should the build produce?",
			multiSelect: true,
			options: [{ label: "Linux" }, { label: "macOS" }, { label: "Windows" }],
		},
	],
};

/** Claude Code's AskUserQuestion parameters, as a model trained on it sends them. */
export const CLAUDE_CODE_SHAPE = {
	questions: [
		{
			question: "Which test runner should the project use?",
			header: "Runner",
			multiSelect: false,
			options: [
				{ label: "Vitest (Recommended)", description: "Fast, ESM-native" },
				{ label: "Jest", description: "The team knows it" },
				{ label: "Other", description: "Something else" },
			],
		},
	],
};

/** The message that makes the model call ask_user (see askScript). */
export const ASK = "ask me";
/** The message that makes the model quote the last tool result again (see askScript). */
export const WHAT_NOW = "what now?";

/**
 * On ASK: call ask_user with `args`, then quote the result. On WHAT_NOW:
 * quote the last result again — how a test reads a result the model was not
 * called with on its own (after a dismissal or an abort ended the turn).
 */
export function askScript(args: unknown): ModelScript {
	return scriptOf(
		{ user: ASK, replies: [callTool("ask_user", args), quoteLastToolResult] },
		{ user: WHAT_NOW, replies: [quoteLastToolResult] },
	);
}

export interface AskResultSeen {
	text: string;
	isError: boolean;
	details: AskDetails;
}

/** The ask_user results the model received, in order. */
export function askResults(piEnv: PiEnv): AskResultSeen[] {
	return piEnv.toolResults("ask_user").map((entry) => ({
		text: entry.text,
		isError: entry.isError,
		details: entry.details as AskDetails,
	}));
}

/** The one ask_user result the model received; fails when there is not exactly one. */
export function onlyAskResult(piEnv: PiEnv): AskResultSeen {
	const results = askResults(piEnv);
	if (results.length !== 1) {
		throw new Error(
			`Expected the model to receive one ask_user result, it received ${results.length}: ${JSON.stringify(results, null, 2)}`,
		);
	}
	return results[0] as AskResultSeen;
}

/**
 * TWO_QUESTIONS from its first question: Enter there (choosing, or saving the open editor), "launch" for the second,
 * the review submitted; until the model's reply quotes what it received.
 */
export async function submitTwoQuestions(screen: TmuxPi): Promise<void> {
	await screen.send("Enter");
	await screen.waitFor("What should the command");
	await screen.send("2");
	await screen.waitFor("Review your answers");
	await screen.send("Enter");
	await screen.waitFor(QUOTE_PREFIX);
}

/** Esc, the warning, Esc again: the open form is dismissed. */
export async function dismissWithEscEsc(screen: TmuxPi): Promise<void> {
	await screen.send("Escape");
	await screen.waitFor("esc again");
	await screen.send("Escape");
}

/** On TWO_QUESTIONS' open form: the first option of each, the review, Submit; waits for the model's quote. */
export async function submitFirstOptions(screen: TmuxPi, timeoutMs = WAIT_MS): Promise<void> {
	await screen.send("Enter");
	await screen.waitFor("What should the command");
	await screen.send("Enter");
	await screen.waitFor("Review your answers");
	await screen.send("Enter");
	await screen.waitFor(QUOTE_PREFIX, timeoutMs);
}
