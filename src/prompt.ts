/**
 * The steering text the model reads on every turn, paid for on every turn:
 * the same thing at three lengths. Each guideline names the tool, because pi
 * appends guidelines flat to the system prompt.
 */

export const TOOL_NAME = "ask_user";

export const TOOL_LABEL = "Ask user";

export const TOOL_DESCRIPTION =
	"Ask the user 1-4 multiple-choice questions in one form and wait for answers. " +
	"Use it only when several reasonable paths exist, context is gathered and a wrong guess costs real work; batch related decisions. " +
	'A free-text row is automatic: never add an "Other" option. Put the recommended option first (recommended: true).';

export const PROMPT_SNIPPET = "Ask the user 1-4 batched multiple-choice questions when a decision is genuinely ambiguous; recommended option first, no Other option";

export const PROMPT_GUIDELINES: string[] = [
	"Use ask_user only when several reasonable paths exist, context is gathered and a wrong guess would cost real work; otherwise decide and state your assumption.",
	'Batch related decisions into one ask_user call; never add an "Other" option; put the recommended option first.',
];
