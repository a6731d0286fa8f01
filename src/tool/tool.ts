/**
 * The ask_user tool as pi holds it from start-up: its name, prompt texts and schema. What a call runs (call.ts) loads
 * a moment after the session starts (router.ts), and before the agent's first run at the latest (extension/runtime.ts),
 * so that prepareArguments, which pi calls synchronously, finds it.
 *
 * What the model reads on every turn is paid for on every turn: the steering text, the same thing at three lengths
 * (each guideline names the tool: pi appends guidelines flat to the system prompt), and the parameters' schema
 * (params.ts): plain types (some proxies strip unions), terse descriptions, no constraints, so validate.ts, not pi,
 * says what to fix.
 */

import type { ToolDefinition } from "@mariozechner/pi-coding-agent";
import { Text } from "@mariozechner/pi-tui";
import type { ToolHost } from "./call.ts";
import { loaded } from "../core/loaded.ts";
import { type AskParams, AskParamsSchema, TOOL_NAME } from "../core/params.ts";
import type { AskDetails } from "../core/types.ts";

export const TOOL_DESCRIPTION =
	"Ask the user 1-4 multiple-choice questions in one form and wait for answers. " +
	"Use it only when several reasonable paths exist, context is gathered and a wrong guess costs real work; batch " +
	"related decisions. " +
	'A free-text row is automatic: never add an "Other" option. Put the recommended option first (recommended: true).';

export const PROMPT_SNIPPET =
	"Ask the user 1-4 batched multiple-choice questions when a decision is genuinely ambiguous; recommended option " +
	"first, no Other option";

export const PROMPT_GUIDELINES: string[] = [
	"Use ask_user only when several reasonable paths exist, context is gathered and a wrong guess would cost real " +
		"work; otherwise decide and state your assumption.",
	'Batch related decisions into one ask_user call; never add an "Other" option; put the recommended option first. ' +
		'"Left to you": decide and say which.',
];

export const callModule = loaded(() => import("./call.ts"));

export function createAskUserTool(host: ToolHost): ToolDefinition<typeof AskParamsSchema, AskDetails> {
	return {
		name: TOOL_NAME,
		label: "Ask user",
		description: host.steering?.description ?? TOOL_DESCRIPTION,
		promptSnippet: host.steering?.promptSnippet ?? PROMPT_SNIPPET,
		promptGuidelines: host.steering?.promptGuidelines ?? PROMPT_GUIDELINES,
		parameters: AskParamsSchema,
		// Two forms never overlap, and no later call of the same batch runs before the user has answered.
		executionMode: "sequential",
		// pi 1.x: declared to the model, never callable from another tool's script (codemode) — only a model asks the user.
		exposure: "model-only",
		// pi 1.x: asking changes nothing and reaches nothing outside the session, so permission extensions need not confirm
		// it.
		annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },

		// Not yet loaded (a run that did not go through before_agent_start): the arguments as sent; execute prepares them.
		prepareArguments: (raw: unknown): AskParams => callModule.now()?.prepareArguments(raw) ?? (raw as AskParams),

		async execute(toolCallId, params, signal, onUpdate, ctx) {
			return (await callModule()).runCall(host, toolCallId, params, signal, onUpdate, ctx);
		},

		// A transcript drawn before the call module is in (a resumed session) shows the tool's name, then draws again.
		renderCall(args, theme, context) {
			const call = callModule.now() ?? void callModule().then(context.invalidate, () => {});
			return textOf(
				context.lastComponent,
				call ? call.renderCallText(args, theme) : theme.fg("toolTitle", theme.bold(TOOL_NAME)),
			);
		},

		renderResult(result, { expanded }, theme, context) {
			if (!host.texts?.()) void host.words?.().then(context.invalidate, () => {});
			const call = callModule.now() ?? void callModule().then(context.invalidate, () => {});
			return textOf(context.lastComponent, call ? call.resultText(result, expanded, theme, host) : "");
		},
	};
}

/** pi's Text, reused from the last render when there is one. */
function textOf(last: unknown, content: string): Text {
	const text = (last as Text | undefined) ?? new Text("", 0, 0);
	text.setText(content);
	return text;
}
