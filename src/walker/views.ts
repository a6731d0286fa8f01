/**
 * The dialog walker's titles and rows, pure functions of the state; model text sanitised (RPC clients show it as it
 * is).
 */

import type { Texts } from "../i18n/texts.ts";
import { collectAnswers } from "../machine/collect.ts";
import type { Action } from "../machine/action.ts";
import {
	decideRow,
	type EditorTarget,
	type FormState,
	isQuestionTarget,
	isSubmitTab,
	pendingDrafts,
	savedText,
	typeRow,
} from "../machine/model.ts";
import { formatSize } from "../core/attachment.ts";
import { attachmentsOf } from "../machine/attach.ts";
import { clip, distinctRows, sanitizeLine, sanitizeText } from "../core/sanitize.ts";
import { type AskAnswer, type AskQuestion, hasPreview, phrase } from "../core/types.ts";

const ROWS = [
	"previews",
	"freeText",
	"youDecide",
	"note",
	"editNote",
	"skip",
	"done",
	"next",
	"back",
	"submit",
	"formNote",
	"editFormNote",
	"chat",
	"cancel",
] as const;

export function rowTexts({ t }: Texts): Readonly<Record<(typeof ROWS)[number], string>> {
	return Object.fromEntries(ROWS.map((row) => [row, t(`walker.${row}`)])) as Record<(typeof ROWS)[number], string>;
}

/**
 * `asker`: who is asking (a subagent), named in every title; `host`: the walker's, as learnt so far (choice-only: no
 * text rows).
 */
export type WalkView = {
	texts: Texts;
	row: ReturnType<typeof rowTexts>;
	asker: string | undefined;
	task?: string | undefined;
	host: { readonly choiceOnly: boolean };
};

/**
 * A row of a select: its text, by which the walker finds it, and the actions the form's keys would make for it;
 * `previews`: the row shows the options' previews instead, and changes nothing.
 */
export type Row = { text: string; actions: Action[]; previews?: true };

/**
 * The review's rows; on the Submit tab (two or more questions) also a note and a reply in chat, where the host shows
 * text dialogs.
 */
export function reviewRows(state: FormState, { row, host }: WalkView): Row[] {
	const rows: Row[] = [{ text: row.submit, actions: [{ type: "choose" }] }];
	if (isSubmitTab(state) && !host.choiceOnly) {
		rows.push({
			text: savedText(state, { kind: "formNote" }) === undefined ? row.formNote : row.editFormNote,
			actions: [{ type: "openNote" }],
		});
		rows.push({ text: row.chat, actions: [{ type: "openChat" }] });
	}
	// Cancel is the form's Esc, confirmed.
	return [
		...rows,
		{ text: row.back, actions: [{ type: "switchTab", delta: -1 }] },
		{ text: row.cancel, actions: [{ type: "escape" }, { type: "escape" }] },
	];
}

/** How much of the asker's task a question's title shows. */
const TASK_IN_TITLE = 200;

/**
 * Read as a host's prompt (an ACP adapter's buttons): the question, where it stands, the options, the recommended first
 * (a host's default). `message`: the walker's own.
 */
export function questionDialog(
	state: FormState,
	index: number,
	message: string | undefined,
	view: WalkView,
): { title: string; rows: Row[] } {
	const { t } = view.texts;
	const question = state.form.questions[index] as AskQuestion;
	const answer = collectAnswers(state, false).answers[question.id];
	const lines = [sanitizeLine(question.question)];
	if (question.context) lines.push(sanitizeText(question.context));
	const { reason } = state.form;
	if (reason) lines.push(sanitizeLine(t("form.reason", { reason })));
	if (view.task) lines.push(sanitizeLine(t("help.task", { task: clip(view.task, TASK_IN_TITLE) })));
	lines.push(heading(state, index, view), ...optionDetails(question, view.texts));
	const delegated = state.questions[index]?.delegated === true;
	const shown = delegated ? t("outcome.delegated") : answer && shownAnswer(answer);
	if (question.multiSelect) lines.push(shown ? t("walker.selected", { answer: shown }) : t("walker.pickThenDone"));
	else if (shown) lines.push(t("walker.yourAnswer", { answer: shown }));
	lines.push(...messages(state, message, view.texts));
	const fixed = fixedRows(state, index, answer, view);
	const fixedTexts = fixed.map((r) => r.text);
	return { title: lines.join("\n"), rows: [...optionRows(question, fixedTexts), ...fixed] };
}

/** The options that say more than their label: a description, the recommended mark. */
function optionDetails(question: AskQuestion, { t }: Texts): string[] {
	if (!question.options.some((o) => o.description !== undefined || o.recommended)) return [];
	const recommended = ` ${t("question.recommended")}`;
	return question.options.map((o) =>
		sanitizeLine(`• ${o.label}${o.recommended ? recommended : ""}${o.description ? ` — ${o.description}` : ""}`),
	);
}

/** The answer's labels, each cut to `max`, the user's own text in quotes. */
function shownAnswer(answer: AskAnswer, max = 40): string {
	return answer.selections
		.map((s) => sanitizeLine(s.custom ? `“${clip(s.label, max)}”` : clip(s.label, max)))
		.join(", ");
}

/** The rows that open a text dialog are offered only where the host shows them; "You decide" needs none. */
function fixedRows(state: FormState, index: number, answer: AskAnswer | undefined, view: WalkView): Row[] {
	const { row, texts } = view;
	const { choiceOnly } = view.host;
	const question = state.form.questions[index] as AskQuestion;
	const qs = state.questions[index];
	const hasNote = savedText(state, { kind: "questionNote", question: index }) !== undefined;
	const rows: Row[] = [];
	const custom = answer?.selections.find((s) => s.custom);
	// No select shows a preview: an editor dialog holds them, for reading.
	if (!choiceOnly && hasPreview(question)) rows.push({ text: row.previews, actions: [], previews: true });
	if (question.allowOther && !choiceOnly) {
		const text = custom
			? texts.t("walker.freeTextYours", { text: sanitizeLine(clip(custom.label, 40)) })
			: row.freeText;
		rows.push({ text, actions: [{ type: "focus", row: typeRow(question) }, { type: "choose" }] });
	}
	const decide = decideRow(state, index);
	if (decide >= 0) rows.push({ text: row.youDecide, actions: [{ type: "focus", row: decide }, { type: "choose" }] });
	if (!choiceOnly) rows.push({ text: hasNote ? row.editNote : row.note, actions: [{ type: "openQuestionNote" }] });
	if (question.multiSelect) rows.push({ text: row.done, actions: [{ type: "done" }] });
	else if (answer || qs?.delegated) rows.push({ text: row.next, actions: [{ type: "done" }] });
	if (!question.required && !question.multiSelect) rows.push({ text: row.skip, actions: [{ type: "skip" }] });
	if (index > 0) rows.push({ text: row.back, actions: [{ type: "switchTab", delta: -1 }] });
	if (!choiceOnly) rows.push({ text: row.chat, actions: [{ type: "openChat" }] });
	return rows;
}

/** Recommended first; each distinct from the fixed rows and from one another; chosen, or toggled in a multi-select. */
function optionRows(question: AskQuestion, fixedTexts: string[]): Row[] {
	const order = question.options
		.map((_, index) => index)
		.sort((a, b) => Number(question.options[b]?.recommended) - Number(question.options[a]?.recommended));
	const labels = order.map((index) => question.options[index]?.label ?? "");
	const texts = distinctRows(labels, fixedTexts);
	const pick = question.multiSelect ? "toggle" : "choose";
	return order.map((index, at) => ({
		text: texts[at] ?? "",
		actions: [{ type: "focus", row: index }, { type: pick }],
	}));
}

/** The editor dialog that shows a question's previews: each under its option's label, model text sanitised. */
export function previewsDialog(question: AskQuestion, { texts, asker }: WalkView): { title: string; text: string } {
	const { t } = texts;
	const title = [
		t("walker.previewsTitle", { question: sanitizeLine(question.question) }),
		t("walker.previewsReadOnly"),
	];
	if (asker) title.push(t("walker.askedBy", { asker: sanitizeLine(asker) }));
	const text = question.options
		.filter((option) => option.preview !== undefined)
		.map((option) => `── ${sanitizeLine(option.label)} ──\n${sanitizeText(option.preview ?? "")}`)
		.join("\n\n");
	return { title: title.join("\n"), text };
}

/**
 * Whose question, what is being written, its files, and why the text came back (too long, a path refused as a file);
 * `message`: the walker's own line under the reason.
 */
export function editorTitle(state: FormState, target: EditorTarget, view: WalkView, message?: string): string {
	const { t } = view.texts;
	let lines: string[];
	if (isQuestionTarget(target)) {
		const question = sanitizeLine((state.form.questions[target.question] as AskQuestion).question);
		lines = [
			t(target.kind === "custom" ? "walker.answerTo" : "walker.noteOn", { question }),
			heading(state, target.question, view),
		];
	} else {
		const what = t(target.kind === "chat" ? "walker.chatTitle" : "walker.formNoteTitle");
		lines = [view.asker ? `${t("walker.asks", { asker: sanitizeLine(view.asker) })} · ${what}` : what];
	}
	const files = attachmentsOf(state, target).map((file) => sanitizeLine(`📎 ${file.name} ${formatSize(file.size)}`));
	return [...lines, ...files, ...messages(state, message, view.texts)].join("\n");
}

/** Every answer, skip and note, and what a submit would drop. */
export function reviewTitle(state: FormState, message: string | undefined, { texts, asker }: WalkView): string {
	const { t } = texts;
	const { answers, skipped, notes, delegated = [] } = collectAnswers(state, false);
	const lines = [
		asker ? `${t("review.title")} · ${t("walker.askedBy", { asker: sanitizeLine(asker) })}` : t("review.title"),
	];
	if (message) lines.push(message);
	for (const question of state.form.questions) {
		const answer = answers[question.id];
		const unanswered = skipped.includes(question.id) ? t("walker.skipped") : t("walker.noAnswer");
		const none = delegated.includes(question.id) ? t("outcome.delegated") : unanswered;
		lines.push(sanitizeLine(`${question.header}: ${answer ? shownAnswer(answer, 60) : none}`));
		for (const note of notes.filter((n) => n.questionId === question.id))
			lines.push(sanitizeLine(`  ${t("walker.noteLine", { text: clip(note.text, 60) })}`));
	}
	const formNote = savedText(state, { kind: "formNote" });
	if (formNote !== undefined) lines.push(sanitizeLine(t("walker.formNoteLine", { text: clip(formNote, 60) })));
	// RPC's editor returns nothing when cancelled: the walker's only drafts are texts refused for their length.
	const unsaved = pendingDrafts(state).length;
	if (unsaved > 0) lines.push(t("walker.unsavedOverLimit", { count: unsaved }));
	return lines.join("\n");
}

/** "Database · 2 of 3 · optional · asked by scout". */
function heading(state: FormState, index: number, { texts, asker }: WalkView): string {
	const questions = state.form.questions;
	const question = questions[index] as AskQuestion;
	const parts = [sanitizeLine(question.header)];
	if (questions.length > 1) parts.push(texts.t("walker.position", { index: index + 1, total: questions.length }));
	if (!question.required) parts.push(texts.t("walker.optional"));
	if (asker) parts.push(texts.t("walker.askedBy", { asker: sanitizeLine(asker) }));
	return parts.join(" · ");
}

/** The state's message (too long, nothing picked, …) and the walker's own (a stray answer). */
function messages(state: FormState, message: string | undefined, texts: Texts): string[] {
	// A file attached here cannot be removed (no RPC dialog lists them to remove): the way out is another one.
	const said = state.message?.text.key === "attach.needsText" ? phrase("walker.needsText") : state.message?.text;
	return [...(said ? [sanitizeLine(`⚠ ${texts.say(said)}`)] : []), ...(message ? [message] : [])];
}
