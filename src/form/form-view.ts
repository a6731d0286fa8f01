/**
 * The whole form on screen: a rule, who is asking, why, the tab bar, the current
 * view, the message, the hint, cut to the height budget. Pure: the editor's
 * lines come from the component.
 */

import { CURSOR_MARKER } from "@mariozechner/pi-tui";
import type { Texts } from "../i18n/texts.ts";
import { renderHelpView } from "./help-view.ts";
import { fitHintLine } from "./hint-line.ts";
import type { KeyHelp } from "./keymap.ts";
import type { ViewContext } from "./layout.ts";
import {
	answeredCount,
	currentQuestion,
	type EditorTarget,
	enterArmedPhrase,
	type FormState,
	hasTabs,
	isQuestionTarget,
	type ScrollPort,
} from "../machine/model.ts";
import { renderQuestionView } from "./question-view.ts";
import { renderSubmitView } from "./submit-view.ts";
import { renderTabBar } from "./tab-bar.ts";
import { type WebLink, phrase } from "../core/types.ts";
import { formatSize } from "../core/attachment.ts";
import { attachmentsOf } from "../machine/attach.ts";

export interface FormFrameInput {
	state: FormState;
	width: number;
	/** The most lines the form may take. */
	height: number;
	table: readonly KeyHelp[];
	asker?: string | undefined;
	/** The asker's task, beside who asks on one line (whole on the help screen). */
	task?: string | undefined;
	/** Where else the form can be answered (the browser page): a line under the hint. */
	link?: WebLink | undefined;
	/** The Editor's own lines, already at most `width` wide; only used while the editor is open. */
	editorLines?: readonly string[];
	/** The time left to answer, e.g. "⏱ 4:32 left", when the form has a time limit: it leads the hint line. */
	timeLeft?: string;
}

/**
 * `ports`: the scrollable regions as rendered, for PageUp/PageDown; `focusHidden`: the focused option is off screen (a
 * key on it first brings it back).
 */
type FormFrame = { lines: string[]; ports: ScrollPort[]; focusHidden: boolean };

const BODY_MIN_HEIGHT = 3;
/**
 * The Editor's cursor marks: the hardware cursor's, pi 1.x's FAKE_CURSOR_START (0.73 lacks it), 0.73's reverse video.
 */
const EDITOR_CURSOR_MARKS = [CURSOR_MARKER, "\x1b_pi:fc\x07", "\x1b[7m"];

/**
 * Rows go to content before spacing: on a short terminal the chrome gives way,
 * least useful first, so the body keeps three rows (who asks stays while it
 * keeps one); the rule and the blank under the tab bar take only rows the body
 * leaves unused.
 */
export function renderForm(input: FormFrameInput, ctx: ViewContext): FormFrame {
	const { state, width, table } = input;
	const { theme, fit } = ctx;
	const height = Math.max(1, input.height);
	if (state.peeking) return { lines: [peekLine(input, ctx)], ports: [], focusHidden: false };

	const asker =
		input.asker !== undefined ? theme.muted(fit.line(askedBy(ctx.texts, input.asker, input.task), width)) : undefined;
	const { reason } = state.form;
	const why = reason
		? capped(fit.wrap(ctx.texts.t("form.reason", { reason }), width), REASON_MAX_LINES, width, ctx)
		: [];
	const tabBar = hasTabs(state) ? renderTabBar(state, width, ctx) : undefined;
	const message = messageLines(state, width, ctx);
	const hint = fitHintLine(state, table, width, ctx, input.timeLeft).line;
	const link =
		input.link !== undefined
			? theme.muted(fit.line(ctx.texts.t("web.link", { url: input.link.url }), width))
			: undefined;

	const show = {
		asker: asker !== undefined,
		reason: why.length,
		tabBar: tabBar !== undefined,
		hint: true,
		link: link !== undefined,
		message: message.length,
	};
	const chrome = () => +show.asker + show.reason + +show.tabBar + +show.hint + +show.link + show.message;
	const bodyMin = Math.min(BODY_MIN_HEIGHT, height);
	// "Press … again" warns that the next key ends the form: it keeps its line, even at one row.
	const armed = state.escArmed || state.enterArmed !== undefined;
	const giveWay: (() => void)[] = [
		() => (show.link = false),
		() => (show.hint = false),
		() => (show.reason = Math.min(show.reason, 1)),
		() => (show.message = Math.min(show.message, 1)),
		() => (show.reason = 0),
		() => (show.tabBar = false),
		() => (show.message = armed ? Math.min(show.message, 1) : 0),
	];
	for (const drop of giveWay) if (height - chrome() < bodyMin) drop();
	// Without who asks, a form from elsewhere reads as this session's own.
	if (height - chrome() < 1) show.asker = false;

	if (armed && show.message > 0 && chrome() >= height) {
		return { lines: message.slice(0, Math.min(show.message, height)), ports: [], focusHidden: false };
	}
	const bodyHeight = Math.max(1, height - chrome());
	const { lines: body, ports, spare, focusHidden } = renderBody(input, bodyHeight, ctx);
	const showRule = spare >= 1;
	const showBlank = show.tabBar && spare >= 2;

	const top: string[] = [];
	if (showRule) top.push(theme.border("─".repeat(width)));
	if (show.asker && asker !== undefined) top.push(asker);
	top.push(...why.slice(0, show.reason).map((line) => theme.text(line)));
	if (show.tabBar && tabBar !== undefined) top.push(tabBar);
	if (showBlank) top.push("");
	const bottom = message.slice(0, show.message);
	if (show.hint) bottom.push(hint);
	if (show.link && link !== undefined) bottom.push(link);
	return { lines: [...top, ...body, ...bottom], ports, focusHidden };
}

/** "Asked by scout", or with its task: "Asked by scout · look around". */
const askedBy = ({ t }: Texts, asker: string, task: string | undefined): string =>
	task === undefined ? t("form.askedBy", { asker }) : t("form.askedByTask", { asker, task });

/** The folded form: one line that says a form waits, how far it is, and the key that brings it back. */
function peekLine(input: FormFrameInput, ctx: ViewContext): string {
	const { state, width } = input;
	const { theme, fit } = ctx;
	const { t } = ctx.texts;
	const total = state.form.questions.length;
	const progress =
		total === 1
			? t("form.questionCount", { count: 1 })
			: t("form.answeredCount", { answered: answeredCount(state), total });
	const parts = [t("form.peekWaits", { progress }), t("form.peekShow", { key: ctx.keys.peek })];
	if (input.asker !== undefined) parts.unshift(t("form.peekAsks", { asker: input.asker }));
	if (input.timeLeft) parts.push(input.timeLeft);
	return theme.accent(fit.line(`▸ ${parts.join(" · ")}`, width));
}

/** The current view cut to `height`, and the rows of it the view will not need (see QuestionViewResult.spare). */
function renderBody(input: FormFrameInput, height: number, ctx: ViewContext): FormFrame & { spare: number } {
	const { state, width } = input;
	const unused = (lines: readonly string[]) => Math.max(0, height - lines.length);
	if (state.overlay.kind === "help") {
		const { t } = ctx.texts;
		const { task } = input;
		const reason = state.form.reason;
		const about = [...(task ? [t("help.task", { task })] : []), ...(reason ? [t("form.reason", { reason })] : [])];
		const help = renderHelpView(input.table, state.helpScroll, width, height, ctx, input.link, about);
		return { lines: help.lines, ports: [help.port], spare: unused(help.lines), focusHidden: false };
	}
	if (state.overlay.kind === "editor") {
		const lines = editorBody(input, state.overlay.target, height, ctx);
		return { lines, ports: [], spare: unused(lines), focusHidden: false };
	}
	const current = currentQuestion(state);
	if (!current) {
		const review = renderSubmitView(state, width, height, ctx);
		return { lines: review.lines, ports: [review.port], spare: unused(review.lines), focusHidden: review.focusHidden };
	}
	const view = renderQuestionView(state, current.index, width, height, ctx);
	return {
		lines: view.lines,
		ports: view.detail ? [view.body, view.detail] : [view.body],
		spare: view.spare,
		focusHidden: view.focusHidden,
	};
}

/** The question (as much as fits), what is being written, and the editor. */
function editorBody(input: FormFrameInput, target: EditorTarget, height: number, ctx: ViewContext): string[] {
	const { state, width } = input;
	const { theme, fit } = ctx;
	const question = isQuestionTarget(target) ? state.form.questions[target.question] : undefined;
	const files = attachmentsOf(state, target).map((file) =>
		theme.muted(fit.line(`📎 ${file.name} ${formatSize(file.size)}`, width)),
	);
	const editor = keepCursorLine(input.editorLines ?? [], Math.max(1, height - files.length));
	const label = fit.wrap(editorLabel(state, target, ctx.texts), width);
	const room = height - editor.length - label.length - files.length;
	const lines: string[] = [];
	if (question && room > 0) {
		const text = fit.wrap(question.question, width);
		const shown = text.length <= room ? text.length : Math.max(0, room - 1);
		for (let i = 0; i < shown; i++) lines.push(theme.bold(text[i] ?? ""));
		if (shown < text.length) lines.push(theme.dim(fit.line("…", width)));
	}
	if (editor.length + label.length <= height) for (const line of label) lines.push(theme.muted(line));
	lines.push(...editor);
	// Under the text, one line per attached file, as much as the height leaves.
	lines.push(...files.slice(0, Math.max(0, height - lines.length)));
	return lines;
}

function editorLabel(state: FormState, target: EditorTarget, { t }: Texts): string {
	if (target.kind !== "optionNote") return t(`editor.${target.kind}`);
	return t("editor.optionNote", { option: state.form.questions[target.question]?.options[target.option]?.label ?? "" });
}

/** The editor is at least seven lines; on a very short terminal keep the lines around its cursor. */
function keepCursorLine(lines: readonly string[], height: number): string[] {
	if (lines.length <= height) return lines.slice();
	const cursor = Math.max(
		0,
		lines.findIndex((line) => EDITOR_CURSOR_MARKS.some((mark) => line.includes(mark))),
	);
	const start = Math.min(Math.max(0, cursor - Math.floor(height / 2)), lines.length - height);
	return lines.slice(start, start + height);
}

const MESSAGE_MAX_LINES = 3;
const REASON_MAX_LINES = 2;

/** At most `max` of the wrapped lines, the last one ending in "…" when some are left out. */
function capped(wrapped: readonly string[], max: number, width: number, { fit }: ViewContext): string[] {
	const lines = wrapped.slice(0, max);
	if (wrapped.length > max) lines[max - 1] = fit.line(`${wrapped[max - 1]} …`, width);
	return lines;
}

function messageLines(state: FormState, width: number, ctx: ViewContext): string[] {
	const { theme, fit } = ctx;
	if (state.message) {
		const style = state.message.tone === "error" ? theme.error : theme.warning;
		return capped(fit.wrap(ctx.texts.say(state.message.text), width), MESSAGE_MAX_LINES, width, ctx).map(style);
	}
	const armed = state.escArmed
		? phrase("form.pressAgainToDismiss", { key: ctx.keys.escape })
		: enterArmedPhrase(state, ctx.keys.choose);
	if (armed !== undefined) return fit.wrap(ctx.texts.say(armed), width).map((line) => theme.warning(line));
	return [];
}
