/**
 * The tab bar: a tab per question (□ unanswered, ■ answered, – skipped, ↪ left to the model; an
 * optional one says so after its header) and the Submit tab (✓ only once a
 * submit would go through). Too wide, labels are elided, then the bar
 * scrolls, ‹ › where tabs are hidden.
 */

import { visibleWidth } from "@mariozechner/pi-tui";
import { recall, type ViewContext, widestLine } from "./layout.ts";
import { canSubmit, type FormState, isAnswered, type QuestionState } from "../machine/model.ts";
import type { FormTheme } from "./theme.ts";

/** A question's mark on its tab and in the review: left to the model, answered, skipped, or open. */
export function markOf(qs: QuestionState | undefined): string {
	if (qs?.delegated) return "↪";
	if (qs !== undefined && isAnswered(qs)) return "■";
	return qs?.skipped ? "–" : "□";
}

const MARKS = ["□", "■", "–", "↪"];
const MORE_LEFT = "‹";
const MORE_RIGHT = "›";
/** The narrowest a label is elided to before the bar scrolls instead. */
const MIN_LABEL_WIDTH = 3;

/** `mark`: empty for none. */
type Tab = { mark: string; label: string; style: (s: string) => string };

function tabsOf(state: FormState, theme: FormTheme, submitLabel: string, optional: string): Tab[] {
	const tabs: Tab[] = state.form.questions.map((question, i) => {
		const qs = state.questions[i];
		const answered = qs !== undefined && isAnswered(qs);
		const label = question.required ? question.header : `${question.header} ${optional}`;
		return { mark: markOf(qs), label, style: answered ? theme.success : theme.muted };
	});
	const ready = canSubmit(state);
	tabs.push({ mark: ready ? "✓" : "", label: submitLabel, style: ready ? theme.success : theme.dim });
	return tabs;
}

/** The bar changes only with the form, the width, the current tab and the marks: kept until one of them does. */
export function renderTabBar(state: FormState, width: number, ctx: ViewContext): string {
	// Each tab's mark and colour (answered or not): what a key can change in the bar (the Submit tab's ✓ follows them).
	let marks = 0;
	for (const qs of state.questions) marks = marks * 8 + MARKS.indexOf(markOf(qs)) * 2 + +isAnswered(qs);
	return recall(ctx, renderTabBar, [state.form, width, state.tab, marks], () => {
		const tabs = tabsOf(state, ctx.theme, ctx.texts.t("review.tab"), ctx.texts.t("form.optional"));
		return tabBarLine(tabs, state.tab, width, ctx);
	});
}

function tabBarLine(tabs: readonly Tab[], tab: number, width: number, ctx: ViewContext): string {
	const { theme, fit } = ctx;
	const current = Math.min(tab, tabs.length - 1);
	// The labels whole; elided until the whole bar fits, or they are down to three columns: below that a
	// wide (CJK) first character can't show beside the "…", and the label would be empty.
	const whole = tabs.map((tab) => tab.label);
	const widest = widestLine(whole, ctx);
	let texts: string[] = [];
	let widths: number[] = [];
	for (let cap = widest; ; cap--) {
		const labels = tabs.map((tab) => fit.line(tab.label, cap));
		widths = labels.map((label, i) => visibleWidth(label) + (tabs[i]?.mark ? 4 : 2));
		texts = labels.map((label, i) => (tabs[i]?.mark ? ` ${tabs[i]?.mark} ${label} ` : ` ${label} `));
		if (sum(widths, 0, widths.length) <= width || cap <= Math.min(MIN_LABEL_WIDTH, widest)) break;
	}

	// Still too wide: show a run of tabs around the current one.
	let from = 0;
	let to = tabs.length;
	if (sum(widths, from, to) > width) {
		from = current;
		to = current + 1;
		const fits = (a: number, b: number) => sum(widths, a, b) + (a > 0 ? 1 : 0) + (b < tabs.length ? 1 : 0) <= width;
		for (let grew = true; grew; ) {
			const right = to < tabs.length && fits(from, to + 1);
			if (right) to++;
			const left = from > 0 && fits(from - 1, to);
			if (left) from--;
			grew = right || left;
		}
	}

	const left = from > 0 && width >= 1;
	let line = left ? theme.dim(MORE_LEFT) : "";
	let used = +left;
	for (let i = from; i < to; i++) {
		const room = width - used - (to < tabs.length ? 1 : 0);
		const text = (widths[i] ?? 0) > room ? fit.line(texts[i] ?? "", room) : (texts[i] ?? "");
		line += i === current ? theme.selected(text) : (tabs[i]?.style ?? theme.text)(text);
		used += visibleWidth(text);
	}
	if (to < tabs.length && used + 1 <= width) line += theme.dim(MORE_RIGHT);
	return line;
}

const sum = (values: number[], from: number, to: number): number =>
	values.slice(from, to).reduce((total, value) => total + value, 0);
