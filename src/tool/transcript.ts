/** An ask_user call in the transcript: the call line, and the result rebuilt from `details` alone, as on resume. */

import type { Theme } from "@mariozechner/pi-coding-agent";
import { draftsOn, questionOutcome } from "./result.ts";
import { own } from "../core/json.ts";
import { ENGLISH, type Texts } from "../i18n/texts.ts";
import { normalizeArguments } from "../input/normalize.ts";
import { sanitizeLine, sanitizeText } from "../core/sanitize.ts";
import { ASK_STATUSES, type AskDetails, type AskQuestion } from "../core/types.ts";

export type RenderTheme = Pick<Theme, "fg" | "bold">;

/** `ask_user  Database · Features` — from the raw arguments, which may still be partial while streaming. */
export function renderCallText(args: unknown, theme: RenderTheme): string {
	const title = theme.fg("toolTitle", theme.bold("ask_user"));
	const headers = callHeaders(args);
	return headers.length ? `${title} ${theme.fg("muted", headers.join(" · "))}` : title;
}

function callHeaders(args: unknown): string[] {
	const { params } = normalizeArguments(args);
	const questions = (params as { questions?: unknown } | null | undefined)?.questions;
	if (!Array.isArray(questions)) return [];
	return questions.slice(0, 4).map((q, i) => {
		const header = (q as { header?: unknown } | null)?.header;
		// Cut by code points, never inside a surrogate pair; the Text component wraps the rest.
		return typeof header === "string" && header.trim()
			? Array.from(sanitizeLine(header.trim())).slice(0, 24).join("")
			: `Q${i + 1}`;
	});
}

/** Compact `✓ Header: answer` lines, or expanded every option marked ●/○, with notes and drafts. */
export function renderResultText(
	details: AskDetails,
	expanded: boolean,
	theme: RenderTheme,
	texts: Texts = ENGLISH,
): string {
	const { t } = texts;
	const lines: string[] = [];
	const answered = details.questions.filter((q) => own(details.answers, q.id)).length;
	if (details.status !== "answered") {
		const count = t("form.answeredCount", { answered, total: details.questions.length });
		const color = STATUS_COLOR[details.status] ?? "warning";
		const why = details.error ? ` — ${sanitizeLine(details.error)}` : "";
		lines.push(theme.fg(color, `${statusText(details.status, texts)} · ${count}${why}`));
	}
	if (typeof details.answeredBy === "string")
		lines.push(theme.fg("warning", t("transcript.answeredElsewhere", { source: sanitizeLine(details.answeredBy) })));
	// While the form is open it shows the questions itself; the transcript only keeps count.
	if (details.status === "pending") return lines.join("\n");
	for (const question of details.questions) {
		lines.push(
			...(expanded
				? expandedQuestion(details, question, theme, texts)
				: [compactQuestion(details, question, theme, texts)]),
		);
	}
	// Read back from a session file: only a string is shown; 0.2.0 kept these texts in fields of their own.
	const earlier = details as AskDetails & { formNote?: unknown; formNoteDraft?: unknown; chatDraft?: unknown };
	const note = wholeForm(details.notes) ?? text(earlier.formNote);
	const noteDraft = wholeForm(details.drafts, "note") ?? text(earlier.formNoteDraft);
	const chatDraft = wholeForm(details.drafts, "chat") ?? text(earlier.chatDraft);
	if (note !== undefined) lines.push(theme.fg("muted", t("transcript.formNote", { text: sanitizeLine(note) })));
	if (text(details.chatMessage) !== undefined)
		lines.push(theme.fg("accent", `💬 ${sanitizeLine(details.chatMessage as string)}`));
	if (chatDraft !== undefined)
		lines.push(theme.fg("warning", t("transcript.chatDraft", { text: sanitizeLine(chatDraft) })));
	if (noteDraft !== undefined)
		lines.push(theme.fg("warning", t("transcript.formNoteDraft", { text: sanitizeLine(noteDraft) })));
	return lines.join("\n");
}

const STATUS_COLOR: Partial<Record<AskDetails["status"], "error" | "muted">> = { error: "error", pending: "muted" };

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** The text of the first note or draft (of `kind`) on the whole form: the one without a questionId. */
function wholeForm(
	list: readonly { questionId?: string; kind?: string; text: string }[] | undefined,
	kind?: string,
): string | undefined {
	if (!Array.isArray(list)) return undefined;
	return text(
		list.find(
			(x) =>
				typeof x === "object" && x !== null && x.questionId === undefined && (kind === undefined || x.kind === kind),
		)?.text,
	);
}

/** A status in words; one this version does not know (read back from a newer session file) as it is. */
function statusText(status: unknown, { t }: Texts): string {
	if (status === "pending" || (ASK_STATUSES as readonly unknown[]).includes(status))
		return t(`status.${status as AskDetails["status"]}`);
	return sanitizeLine(String(status));
}

function compactQuestion(details: AskDetails, question: AskQuestion, theme: RenderTheme, { t }: Texts): string {
	const header = theme.fg("accent", sanitizeLine(question.header));
	const answer = own(details.answers, question.id);
	const drafted =
		draftsOn(details.drafts, question.id).length > 0 ? theme.fg("warning", ` ${t("transcript.draftMark")}`) : "";
	if (answer) {
		const shown = answer.selections
			.map((s) => (s.custom ? `“${sanitizeLine(s.label)}”` : sanitizeLine(s.label)))
			.join(", ");
		const noted = details.notes.some((n) => n.questionId === question.id)
			? theme.fg("dim", ` ${t("transcript.noteMark")}`)
			: "";
		return `${theme.fg("success", "✓")} ${header}: ${shown}${noted}${drafted}`;
	}
	const outcome = questionOutcome(details, question.id);
	return (
		`${theme.fg("dim", OPEN_MARKS[outcome] ?? "·")} ${header}: ` +
		`${theme.fg("dim", t(`outcome.${outcome}`))}${drafted}`
	);
}

const OPEN_MARKS: Record<string, string> = { delegated: "↪", skipped: "–" };

function expandedQuestion(details: AskDetails, question: AskQuestion, theme: RenderTheme, { t }: Texts): string[] {
	const answer = own(details.answers, question.id);
	const chosen = new Set(answer?.selections.filter((s) => !s.custom).map((s) => s.value));
	const drafts = draftsOn(details.drafts, question.id);
	// The notes and note drafts on an option (or, undefined, on the question), `at` deep, their further lines `hang`
	// deep.
	const notesOn = (option: string | undefined, at: string, hang: string) => [
		...details.notes
			.filter((n) => n.questionId === question.id && n.option === option)
			.map((n) => theme.fg("dim", `${at}${t("transcript.notePrefix")}${indent(sanitizeText(n.text), hang)}`)),
		...drafts
			.filter((d) => d.kind === "note" && d.option === option)
			.map((d) => theme.fg("warning", `${at}${t("transcript.noteDraftPrefix")}${indent(sanitizeText(d.text), hang)}`)),
	];
	const lines = [`${theme.fg("accent", sanitizeLine(question.header))}  ${sanitizeLine(question.question)}`];
	for (const option of question.options) {
		const on = chosen.has(option.value);
		const mark = on ? theme.fg("success", "●") : theme.fg("dim", "○");
		lines.push(
			`  ${mark} ${on ? sanitizeLine(option.label) : theme.fg("muted", sanitizeLine(option.label))}`,
			...notesOn(option.label, "      ", "      "),
		);
	}
	for (const selection of answer?.selections.filter((s) => s.custom) ?? []) {
		lines.push(
			`  ${theme.fg("success", "●")} ${theme.fg("muted", t("transcript.wrote"))} ` +
				`${indent(sanitizeText(selection.label), "    ")}`,
		);
	}
	if (!answer) lines.push(`  ${theme.fg("dim", t(`outcome.${questionOutcome(details, question.id)}`))}`);
	for (const draft of drafts.filter((d) => d.kind === "answer")) {
		lines.push(theme.fg("warning", `  ${t("transcript.draftPrefix")}${indent(sanitizeText(draft.text), "    ")}`));
	}
	return [...lines, ...notesOn(undefined, "  ", "    ")];
}

const indent = (text: string, by: string): string => text.replace(/\n/g, `\n${by}`);
