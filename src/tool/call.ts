/**
 * What an ask_user call runs, loaded after start-up (tool.ts): normalise → validate (throw with the fix) → abort check
 * → the router → result.
 */

import {
	type AgentToolResult,
	type AgentToolUpdateCallback,
	type ExtensionContext,
	getAgentDir,
} from "@mariozechner/pi-coding-agent";
import { randomUUID } from "node:crypto";
import { deliverAttachments, type ImageBlock } from "./attachments.ts";
import { clipboardImageReader } from "./clipboard.ts";
import { findFd } from "./fd.ts";
import { buildDetails, formatProgressText, formatResultText, progressDetails } from "./result.ts";
import { ENGLISH } from "../i18n/texts.ts";
import { normalizeArguments } from "../input/normalize.ts";
import { sanitizeText } from "../core/sanitize.ts";
import type { Texts } from "../i18n/texts.ts";
import { renderCallText, renderResultText, type RenderTheme } from "./transcript.ts";
import {
	type AskDetails,
	type Keeper,
	type AskForm,
	type AskOptions,
	type AskParams,
	type Collected,
	errorText,
	type ProgressListener,
	emptyCollected,
	TOOL_NAME,
	type Session,
} from "../core/types.ts";
import { AskUserInputError, validateParams } from "../input/validate.ts";

/** The parts of pi's extension API the tool needs, and the router. */
export interface ToolHost {
	getActiveTools(): string[];
	setActiveTools(names: string[]): void;
	/** How this session's forms reach the user (router.ts). */
	ask(session: Session, form: AskForm, options: AskOptions): Promise<Collected>;
	/** The user dismissed the form: the rest of this tool batch must not run. */
	onDismissed?(): void;
	/** Keeps this call's form on disk while the user works (restore.ts); none without a session file. */
	keep?(ctx: ExtensionContext, toolCallId: string, form: AskForm): Promise<Keeper | undefined>;
	/** No form could be shown: the tool took itself out of the active tools. */
	onNoUI?(): void;
	/** The user's language, for the transcript, once loaded; default English. */
	texts?(): Texts | undefined;
	/** Loads the user's language: the transcript drawn in English before it is in draws again. */
	words?(): Promise<unknown>;
	/** The user's own steering text (the settings file), in place of ours. */
	steering?: { description?: string; promptSnippet?: string; promptGuidelines?: string[] };
}

export { renderCallText };

/**
 * What prepareArguments leaves on its output for execute (pi's schema check ignores unknown keys and hands a copy on):
 * the notices, and this process's stamp, so execute does not prepare it again. A model cannot know the stamp.
 */
const PREPARED = "__askUserPrepared";
const STAMP = randomUUID();

type PreparedParams = AskParams & { [PREPARED]?: { stamp: string; notices: string[] } };

/** normalise → validate; throws AskUserInputError naming every problem and its fix. */
export function prepareForm(raw: unknown): { form: AskForm; notices: string[] } {
	const { params, notices, problems = [] } = normalizeArguments(raw);
	const result = validateParams(params);
	// What normalisation could not keep the meaning of comes first: it matters most.
	if (!result.ok || problems.length > 0)
		throw new AskUserInputError([...problems, ...(result.ok ? [] : result.issues)], notices);
	return { form: result.form, notices };
}

export function prepareArguments(raw: unknown): AskParams {
	const { form, notices } = prepareForm(raw);
	const prepared: PreparedParams = { ...form, [PREPARED]: { stamp: STAMP, notices } };
	return prepared;
}

/**
 * One call shaped as models shape them (a marked recommendation, an Other row, context lines), off the user's clock:
 * the first real call finds the normaliser and the validator warm.
 */
export function warmUpArguments(): void {
	const options = [
		{ label: "Keep it (Recommended)", description: "As it is" },
		{ label: "Change it", description: "Édité 世界 👩‍💻" },
		{ label: "Other" },
	];
	prepareForm({
		questions: [{ header: "Warm-up header", question: "Some context.\nKeep it?", multiSelect: false, options }],
	});
}

/**
 * What prepareArguments made, checked again: pi hands it to other extensions' tool_call handlers, which may change it
 * in place, and checks nothing after them. Anything else (a pi that does not call prepareArguments) is prepared here.
 */
function preparedForm(params: unknown): { form: AskForm; notices: string[] } {
	let mark: PreparedParams[typeof PREPARED];
	let form: unknown;
	try {
		({ [PREPARED]: mark, ...form } = params as PreparedParams);
	} catch {
		// An exotic object (a throwing getter, a revoked Proxy): normalisation will say what is wrong.
	}
	if (mark?.stamp !== STAMP || !Array.isArray(mark.notices)) return prepareForm(params);
	// Normalised once already: what changed since must meet the contract as it is.
	const result = validateParams(form);
	if (!result.ok) throw new AskUserInputError(result.issues, mark.notices);
	return { form: result.form, notices: mark.notices };
}

export async function runCall(
	host: ToolHost,
	toolCallId: string,
	params: unknown,
	signal: AbortSignal | undefined,
	onUpdate: AgentToolUpdateCallback<AskDetails> | undefined,
	ctx: ExtensionContext,
): Promise<AgentToolResult<AskDetails> & { terminate?: boolean }> {
	const { form, notices } = preparedForm(params);
	if (signal?.aborted) return toolResult(form, emptyCollected("aborted"), notices);

	const onProgress: ProgressListener = (progress, partial) =>
		onUpdate?.({
			content: [{ type: "text", text: formatProgressText(progress) }],
			details: progressDetails(form, progress, partial),
		});
	// A keeper that cannot load (a broken install) costs only what would outlive pi, never the form.
	const keep = await host.keep?.(ctx, toolCallId, form).catch(() => undefined);
	let collected: Collected;
	try {
		collected = await host.ask(ctx, form, {
			...(signal && { signal }),
			onProgress,
			...(keep && { keep }),
			...fileOptions(ctx),
		});
	} catch (error) {
		collected = emptyCollected("error", errorText(error));
	}
	keep?.end(collected.status, collected);
	if (collected.status === "no_ui") {
		// No form can be shown in this session: take the tool away so the model stops trying.
		host.setActiveTools(host.getActiveTools().filter((name) => name !== TOOL_NAME));
		host.onNoUI?.();
	}
	if (collected.status === "dismissed" && !collected.shownElsewhere) host.onDismissed?.();
	const { collected: delivered, images } = await deliverFiles(collected, ctx);
	return toolResult(form, delivered, notices, images);
}

/**
 * What a form needs to take files: where a pasted relative path starts, pi's clipboard reader (tool/clipboard.ts) and
 * fd for `@` completion; for this session's own forms and those it shows for others.
 */
export function fileOptions(
	ctx: Pick<Session, "cwd" | "sessionManager">,
): Pick<AskOptions, "cwd" | "pasteImage" | "fd"> {
	const pasteImage = clipboardImageReader(ctx.sessionManager?.getSessionFile?.());
	const fd = findFd(getAgentDir());
	return {
		...(typeof ctx.cwd === "string" && { cwd: ctx.cwd }),
		...(pasteImage && { pasteImage }),
		...(fd !== undefined && { fd }),
	};
}

/**
 * A form the user sent (submitted, or their chat message) delivers its files; any other ending sends none (a kept form
 * still has them).
 */
export async function deliverFiles(collected: Collected, ctx: ExtensionContext): ReturnType<typeof deliverAttachments> {
	if (collected.attachments === undefined) return { collected, images: [] };
	if (collected.status !== "answered" && collected.status !== "chat") {
		const { attachments: _kept, ...rest } = collected;
		return { collected: rest, images: [] };
	}
	const sessionFile = ctx.sessionManager?.getSessionFile?.();
	const takesImages = ctx.model?.input?.includes("image") ?? false;
	return deliverAttachments(collected, { sessionFile, takesImages });
}

export function toolResult(
	form: AskForm,
	collected: Collected,
	notices: string[],
	images: readonly ImageBlock[] = [],
): AgentToolResult<AskDetails> & { terminate?: boolean } {
	return {
		content: [{ type: "text", text: formatResultText(form, collected, { notices }) }, ...images],
		details: buildDetails(form, collected, { notices }),
		// A dismissal means the user wants the floor: end the turn instead of letting the model guess on.
		// Not for a form another session showed: this session's model must end its task and say so.
		...(collected.status === "dismissed" && !collected.shownElsewhere ? { terminate: true } : {}),
	};
}

/**
 * The result's lines: from `details`, as on resume; a thrown error (e.g. invalid arguments) has none, so what the model
 * was told.
 */
export function resultText(
	result: AgentToolResult<unknown>,
	expanded: boolean,
	theme: RenderTheme,
	host: ToolHost,
): string {
	const details = result.details as AskDetails | undefined;
	const texts = host.texts?.() ?? ENGLISH;
	if (details && Array.isArray(details.questions)) return renderResultText(details, expanded, theme, texts);
	const first = result.content[0];
	return theme.fg("error", sanitizeText(first?.type === "text" ? first.text : texts.t("transcript.failed")));
}
