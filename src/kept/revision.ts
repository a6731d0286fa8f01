/**
 * A revision: a form answered before, reopened by `/ask-user` and submitted again. What the model reads of it (what
 * changed, question by question, then the answers as the tool gives them), and the order `/ask-user` lists the kept
 * forms in. Pure; loaded with the command.
 */

import type { AskForm, Collected } from "../core/types.ts";
import { filesOf, formatResultText, questionKey, questionText, quoteExact } from "../tool/result.ts";
import type { KeptForm } from "./store.ts";

/** The custom message's opening: the model reads it as the answer that now stands for call `id`. */
export const REVISED = "Revised answer to ask_user call";

/** One message: which call, what changed, and the compact text the tool returns, from the answers as they now stand. */
export function revisedAnswerText(id: string, form: AskForm, before: Collected, after: Collected): string {
	return [
		`${REVISED} ${JSON.stringify(id)}: the user changed their answers after submitting them. From now on act on ` +
			`these, not the earlier ones; where what you did since rests on an earlier answer, say so and adjust.`,
		"What changed (before → now):",
		...whatChanged(form, before, after),
		"The answers as they now stand:",
		formatResultText(form, after),
	].join("\n");
}

/** A line per question whose result line changed, then the whole form's note: `db: "SQLite" → "Postgres"`. */
export function whatChanged(form: AskForm, before: Collected, after: Collected): string[] {
	const lines: string[] = [];
	for (const question of form.questions) {
		const was = questionText(question, before);
		const now = questionText(question, after);
		if (was !== now) lines.push(`${questionKey(question.id)}: ${was} → ${now}`);
	}
	const [was, now] = [formNote(before), formNote(after)];
	if (was !== now) lines.push(`Note on the whole form: ${was ?? "none"} → ${now ?? "none"}`);
	return lines;
}

/** The whole form's note as the result says it, with its files: a file added to it alone is a change too. */
const formNote = (collected: Collected) => {
	const note = collected.notes.find((n) => n.questionId === undefined);
	return note && quoteExact(note.text) + filesOf(collected, { kind: "note" });
};

/** As `/ask-user` lists them: the forms without an answer, newest first, then the answered ones, newest first. */
export function listOrder<T extends { kept: Pick<KeptForm, "status" | "savedAt"> }>(forms: readonly T[]): T[] {
	const newest = [...forms].sort((a, b) => b.kept.savedAt - a.kept.savedAt);
	const answered = (item: T) => item.kept.status === "answered";
	return [...newest.filter((item) => !answered(item)), ...newest.filter(answered)];
}

/** When a form was answered, in local time: `14:32` on the day, else `2026-12-03 14:32`. */
export function answeredWhen(at: number, now: number): string {
	const date = new Date(at);
	const two = (n: number) => String(n).padStart(2, "0");
	const day = `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
	const time = `${two(date.getHours())}:${two(date.getMinutes())}`;
	const today = new Date(now);
	const sameDay =
		date.getFullYear() === today.getFullYear() &&
		date.getMonth() === today.getMonth() &&
		date.getDate() === today.getDate();
	return sameDay ? time : `${day} ${time}`;
}
