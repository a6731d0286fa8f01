/**
 * The ask_user tool: its definition and the execute flow, in this order —
 * normalise → validate (throw with the fix) → abort check → the router
 * (router.ts) → result.
 */

import type { AgentToolResult, ToolDefinition } from "@mariozechner/pi-coding-agent";
import { Text } from "@mariozechner/pi-tui";
import { buildDetails, emptyCollected, formatProgressText, formatResultText, progressDetails } from "./result.ts";
import { ENGLISH, type Texts } from "./i18n/texts.ts";
import { normalizeArguments } from "./normalize.ts";
import { PROMPT_GUIDELINES, PROMPT_SNIPPET, TOOL_DESCRIPTION, TOOL_LABEL, TOOL_NAME } from "./prompt.ts";
import { renderCallText, renderResultText } from "./transcript.ts";
import type { Keeper } from "./kept.ts";
import type { Session } from "./router.ts";
import { sanitizeText } from "./sanitize.ts";
import { AskParamsSchema } from "./schema.ts";
import { type AskOptions, type AskDetails, type AskForm, type AskParams, type Collected, type ProgressListener, errorText } from "./types.ts";
import { AskUserInputError, validateParams } from "./validate.ts";

/** Where prepareArguments leaves the normalisation notices for execute: pi's schema check ignores unknown keys and hands the object on. */
const NOTICES = "__askUserNotices";

type PreparedParams = AskParams & { [NOTICES]?: string[] };

/** The parts of pi's extension API the tool needs, and the router. */
export interface ToolHost {
	getActiveTools(): string[];
	setActiveTools(names: string[]): void;
	/** How this session's forms reach the user (router.ts). */
	ask(session: Session, form: AskForm, options: AskOptions): Promise<Collected>;
	/** The user dismissed the form: the rest of this tool batch must not run. */
	onDismissed?(): void;
	/** Keeps this call's form on disk while the user works (restore.ts); none without a session file. */
	keep?(session: Session, toolCallId: string, form: AskForm): Keeper | undefined;
	/** No form could be shown: the tool took itself out of the active tools. */
	onNoUI?(): void;
	/** The user's language, for the transcript; default English. */
	texts?(): Texts;
	/** The user's own steering text (the settings file), in place of ours. */
	steering?: { description?: string; promptSnippet?: string; promptGuidelines?: string[] };
}

/**
 * normalise → validate; throws AskUserInputError naming every problem and its
 * fix. `carried`: the notices prepareArguments left on its output (a model
 * cannot send its own: normalisation drops the key).
 */
export function prepareForm(raw: unknown, carried: readonly string[] = []): { form: AskForm; notices: string[] } {
	const { params, notices, problems = [] } = normalizeArguments(raw);
	const allNotices = [...carried, ...notices];
	const result = validateParams(params);
	// What normalisation could not keep the meaning of comes first: it matters most.
	if (!result.ok || problems.length > 0) throw new AskUserInputError([...problems, ...(result.ok ? [] : result.issues)], allNotices);
	return { form: result.form, notices: allNotices };
}

/** One call shaped as models shape them (a marked recommendation, an Other row, context lines), off the user's clock: the first real call finds the normaliser and the validator warm. */
export function warmUpArguments(): void {
	const options = [{ label: "Keep it (Recommended)", description: "As it is" }, { label: "Change it", description: "Édité 世界 👩‍💻" }, { label: "Other" }];
	prepareForm({ questions: [{ header: "Warm-up header", question: "Some context.\nKeep it?", multiSelect: false, options }] });
}

export function toolResult(form: AskForm, collected: Collected, notices: string[]): AgentToolResult<AskDetails> & { terminate?: boolean } {
	return {
		content: [{ type: "text", text: formatResultText(form, collected, { notices }) }],
		details: buildDetails(form, collected, { notices }),
		// A dismissal means the user wants the floor: end the turn instead of letting the model guess on.
		// Not for a form another session showed: this session's model must end its task and say so.
		...(collected.status === "dismissed" && !collected.shownElsewhere ? { terminate: true } : {}),
	};
}

export function createAskUserTool(host: ToolHost): ToolDefinition<typeof AskParamsSchema, AskDetails> {
	return {
		name: TOOL_NAME,
		label: TOOL_LABEL,
		description: host.steering?.description ?? TOOL_DESCRIPTION,
		promptSnippet: host.steering?.promptSnippet ?? PROMPT_SNIPPET,
		promptGuidelines: host.steering?.promptGuidelines ?? PROMPT_GUIDELINES,
		parameters: AskParamsSchema,
		// Two forms never overlap, and no later call of the same batch runs before the user has answered.
		executionMode: "sequential",
		// pi 1.x: declared to the model, never callable from another tool's script (codemode) — only a model asks the user.
		exposure: "model-only",
		// pi 1.x: asking changes nothing and reaches nothing outside the session, so permission extensions need not confirm it.
		annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },

		prepareArguments(raw: unknown): PreparedParams {
			const { form, notices } = prepareForm(raw);
			return notices.length ? { ...form, [NOTICES]: notices } : form;
		},

		async execute(toolCallId, params, signal, onUpdate, ctx) {
			const { form, notices } = prepareForm(params, carriedNotices(params));
			if (signal?.aborted) return toolResult(form, emptyCollected("aborted"), notices);

			const onProgress: ProgressListener = (progress, partial) =>
				onUpdate?.({ content: [{ type: "text", text: formatProgressText(progress) }], details: progressDetails(form, progress, partial) });
			const keep = host.keep?.(ctx, toolCallId, form);
			let collected: Collected;
			try {
				collected = await host.ask(ctx, form, { ...(signal && { signal }), onProgress, ...(keep && { keep }) });
			} catch (error) {
				collected = emptyCollected("error", errorText(error));
			}
			keep?.end(collected.status);
			if (collected.status === "no_ui") {
				// No form can be shown in this session: take the tool away so the model stops trying.
				host.setActiveTools(host.getActiveTools().filter((name) => name !== TOOL_NAME));
				host.onNoUI?.();
			}
			if (collected.status === "dismissed" && !collected.shownElsewhere) host.onDismissed?.();
			return toolResult(form, collected, notices);
		},

		renderCall(args, theme, context) {
			return textOf(context.lastComponent, renderCallText(args, theme));
		},

		renderResult(result, { expanded }, theme, context) {
			const details = result.details as AskDetails | undefined;
			if (details && Array.isArray(details.questions)) return textOf(context.lastComponent, renderResultText(details, expanded, theme, host.texts?.()));
			// A thrown error (e.g. invalid arguments) has no details: show what the model was told.
			const first = result.content[0];
			return textOf(context.lastComponent, theme.fg("error", sanitizeText(first?.type === "text" ? first.text : (host.texts?.() ?? ENGLISH).t("transcript.failed"))));
		},
	};
}

/** pi's Text, reused from the last render when there is one. */
function textOf(last: unknown, content: string): Text {
	const text = (last as Text | undefined) ?? new Text("", 0, 0);
	text.setText(content);
	return text;
}

function carriedNotices(params: unknown): string[] {
	try {
		const carried = (params as PreparedParams | null)?.[NOTICES];
		return Array.isArray(carried) ? carried.filter((notice): notice is string => typeof notice === "string") : [];
	} catch {
		// An exotic object (a throwing getter, a revoked Proxy): normalisation will say what is wrong.
		return [];
	}
}

export { AskUserInputError };
