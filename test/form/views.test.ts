/**
 * The pure views, rendered with the plain theme (identity colours): what they
 * show, and that every line keeps to the width.
 */

import { visibleWidth } from "@mariozechner/pi-tui";
import { describe, expect, test } from "vitest";
import { renderForm } from "../../src/form/form-view.ts";
import { renderHelpView } from "../../src/form/help-view.ts";
import { fitHintLine, hintIds } from "../../src/form/hint-line.ts";
import { draftKey, type FormState, type QuestionState } from "../../src/machine/model.ts";
import { renderQuestionView, SIDE_BY_SIDE_MIN_WIDTH } from "../../src/form/question-view.ts";
import { initialState } from "../../src/machine/update.ts";
import { renderSubmitView } from "../../src/form/submit-view.ts";
import { renderTabBar } from "../../src/form/tab-bar.ts";
import { drive, formOf, KEY, option, plainContext, plainTable, question, SCOPE_AND_TARGETS, type } from "./support.ts";

const ctx = plainContext();
const table = plainTable();

function expectFits(lines: readonly string[], width: number): void {
	for (const line of lines) expect(visibleWidth(line), JSON.stringify(line)).toBeLessThanOrEqual(width);
}

function questionLines(state: FormState, width: number, height = 60): string[] {
	const lines = renderQuestionView(state, state.tab, width, height, ctx).lines;
	expectFits(lines, width);
	return lines;
}

const LONG_QUESTION =
	"Which of the storage engines should the billing service use for invoices, given the write volume and the team's experience?";

const DESCRIBED = formOf(
	question("db", {
		header: "Database",
		question: LONG_QUESTION,
		context: "Writes: ~50 rows/s.\nReads: by customer id.",
		options: [
			option("Postgres", {
				recommended: true,
				description: "Already in production.",
				preview: "CREATE TABLE invoices (\n    id bigserial\n);",
			}),
			option("SQLite", { description: "One file, no server." }),
		],
	}),
);

describe("the question view", () => {
	test("wraps the question and never cuts it", () => {
		const lines = questionLines(initialState(DESCRIBED), 30);
		const shown = lines.slice(0, lines.indexOf("")).join(" ");
		expect(shown).toContain(LONG_QUESTION.split(" ").slice(0, 3).join(" "));
		for (const word of LONG_QUESTION.split(" ")) expect(shown).toContain(word);
	});

	test("shows the context under the question", () => {
		const lines = questionLines(initialState(DESCRIBED), 80);
		expect(lines).toContain("Writes: ~50 rows/s.");
		expect(lines).toContain("Reads: by customer id.");
	});

	test("numbers the options, marks the recommended one, then Type something… and You decide", () => {
		const lines = questionLines(initialState(SCOPE_AND_TARGETS), 60);
		expect(lines).toEqual([
			"Which scope?",
			"",
			"❯ ○ 1. Small",
			"  ○ 2. Medium (recommended)",
			"  ○ 3. Large",
			"  ○ 4. Type something…",
			"  ○ 5. You decide",
		]);
		// The setting turns the row off.
		expect(questionLines(initialState(SCOPE_AND_TARGETS, { youDecide: false }), 60).at(-1)).toBe(
			"  ○ 4. Type something…",
		);
	});

	test("multi-select rows carry ☐/☑ marks; You decide stands alone, a radio mark", () => {
		const { state } = drive(SCOPE_AND_TARGETS, [KEY.tab, KEY.down, KEY.space]);
		expect(questionLines(state, 60).slice(2)).toEqual([
			"  ☐ 1. Linux",
			"❯ ☑ 2. macOS",
			"  ☐ 3. Windows",
			"  ☐ 4. Type something…",
			"  ○ 5. You decide",
		]);
		const { state: left } = drive(SCOPE_AND_TARGETS, [KEY.tab, KEY.down, KEY.space, "5", KEY.space]);
		expect(questionLines(left, 60).slice(2)).toEqual([
			"  ☐ 1. Linux",
			"  ☐ 2. macOS",
			"  ☐ 3. Windows",
			"  ☐ 4. Type something…",
			"❯ ● 5. You decide",
		]);
	});

	test("side by side, the You decide row's pane says what it does and names the model's recommendation", () => {
		const { state } = drive(DESCRIBED, [KEY.up]);
		const lines = questionLines(state, 100);
		expect(lines).toContain("❯ ○ 4. You decide");
		expect(
			lines.some((line) => line.endsWith("│ Leave this to the model: it chooses, says which in its reply, and")),
		).toBe(true);
		expect(lines.some((line) => line.endsWith("│ It recommended: Postgres"))).toBe(true);
	});

	test("side by side, the Type something… row's pane shows the saved answer and, apart, the unsaved draft", () => {
		// Save "mine", reopen, add to it, Esc: the row is marked, and the pane says which text is which.
		const twoQuestions = formOf(...DESCRIBED.questions, question("other"));
		const { state } = drive(twoQuestions, [
			"3",
			KEY.enter,
			...type("mine"),
			KEY.enter,
			KEY.left,
			"3",
			KEY.enter,
			...type(" and more"),
			KEY.escape,
		]);
		const text = questionLines({ ...state, tab: 0 }, 120).join("\n");
		expect(text).toContain("(draft)");
		expect(text).toMatch(/│ Your answer:/);
		expect(text).toMatch(/│ mine\b/);
		expect(text).toMatch(/│ Your draft, not saved:/);
		expect(text).toMatch(/│ mine and more/);
	});

	test("the Type something… row shows the saved free answer, on one line", () => {
		const { state } = drive(SCOPE_AND_TARGETS, [
			"4",
			KEY.enter,
			...type("first line"),
			KEY.shiftEnter,
			...type("second"),
			KEY.enter,
			KEY.left,
		]);
		expect(questionLines(state, 60)).toContain("❯ ● 4. “first line second”");
	});

	test("a draft and notes are marked", () => {
		const { state } = drive(SCOPE_AND_TARGETS, [
			"n",
			...type("why"),
			KEY.enter,
			"4",
			KEY.enter,
			...type("unsaved"),
			KEY.escape,
			"N",
			...type("about it"),
			KEY.enter,
		]);
		const lines = questionLines(state, 60);
		expect(lines).toContain("  ○ 1. Small ✎");
		expect(lines).toContain("       ✎ why");
		expect(lines).toContain("❯ ○ 4. Type something… (draft)");
		expect(lines).toContain("✎ Your note on this question:");
		expect(lines).toContain("  about it");
	});

	test("drafts of notes are marked too: on the option, and under the question", () => {
		const { state } = drive(SCOPE_AND_TARGETS, [
			"n",
			...type("why"),
			KEY.escape,
			KEY.down,
			"n",
			...type("new"),
			KEY.enter,
			"n",
			...type(" not saved"),
			KEY.escape,
			"N",
			...type("about"),
			KEY.escape,
		]);
		const lines = questionLines(state, 60);
		expect(lines).toContain("  ○ 1. Small ✎ (draft)");
		// A saved note with an unsaved change: the draft mark, and the saved note under it.
		expect(lines).toContain("❯ ○ 2. Medium (recommended) ✎ (draft)");
		expect(lines).toContain("       ✎ new");
		expect(lines).toContain("✎ Note on this question (draft): N to open it");
	});

	test(`from ${SIDE_BY_SIDE_MIN_WIDTH} columns the detail pane stands beside the list`, () => {
		const lines = questionLines(initialState(DESCRIBED), SIDE_BY_SIDE_MIN_WIDTH);
		const row = lines.find((line) => line.startsWith("❯"));
		expect(row).toMatch(/^❯ ○ 1\. Postgres \(recommended\) +│ Postgres$/);
		expect(lines.some((line) => line.endsWith("│ Already in production."))).toBe(true);
		expect(lines.some((line) => line.endsWith("│     id bigserial"))).toBe(true);
	});

	test("narrower, descriptions sit under their labels and the preview stacks below", () => {
		const lines = questionLines(initialState(DESCRIBED), SIDE_BY_SIDE_MIN_WIDTH - 1);
		expect(lines.some((line) => line.includes("│"))).toBe(false);
		const row = lines.indexOf("❯ ○ 1. Postgres (recommended)");
		expect(lines[row + 1]).toBe("       Already in production.");
		expect(lines.slice(-4)).toEqual(["Preview:", "CREATE TABLE invoices (", "    id bigserial", ");"]);
	});

	test("a question without descriptions or previews gets no pane even when wide", () => {
		const lines = questionLines(initialState(SCOPE_AND_TARGETS), 160);
		expect(lines.some((line) => line.includes("│"))).toBe(false);
	});

	test("a long preview scrolls inside its pane, with its position shown", () => {
		const preview = Array.from({ length: 80 }, (_, i) => `line ${i + 1}`).join("\n");
		const form = formOf(question("q", { options: [option("A", { preview }), option("B")] }));
		const view = renderQuestionView(initialState(form), 0, 100, 20, ctx);
		expect(view.lines.length).toBeLessThanOrEqual(20);
		expect(view.detail).toMatchObject({ target: "detail", top: 0, max: expect.any(Number) });
		expect(view.lines.some((line) => /lines 1–\d+ of 82/.test(line))).toBe(true);
		const state = { ...initialState(form), questions: [{ ...initialState(form).questions[0]!, detailScroll: 30 }] };
		const scrolled = renderQuestionView(state, 0, 100, 20, ctx);
		expect(scrolled.lines.some((line) => line.endsWith("│ line 30"))).toBe(true);
	});

	test("within a small height budget the focused row stays visible, with markers for what is hidden", () => {
		const { state } = drive(DESCRIBED, [KEY.down]);
		const lines = renderQuestionView(state, 0, 40, 6, ctx).lines;
		expect(lines).toHaveLength(6);
		expect(lines.some((line) => line.startsWith("❯ ○ 2. SQLite"))).toBe(true);
		expect(lines[0]).toMatch(/^↑ \d+ more · pgup$/);
	});

	test("what the views keep from frame to frame is made again when the width, a note or a draft changes", () => {
		const kept = plainContext();
		const form = formOf(...DESCRIBED.questions, question("other"));
		// Each from the same state, so only what the name says differs.
		const base = initialState(form);
		const [first, second] = base.questions as [QuestionState, QuestionState];
		const noted = { ...base, notes: { [draftKey({ kind: "optionNote", question: 0, option: 0 })]: "a note" } };
		const answered = { ...base, questions: [{ ...first, customText: "a free answer ".repeat(60).trim() }, second] };
		const aboutIt = { ...base, notes: { [draftKey({ kind: "questionNote", question: 0 })]: "a note on the question" } };
		const drafted = { ...base, drafts: { [draftKey({ kind: "optionNote", question: 0, option: 0 })]: "unsaved" } };
		const states = [base, noted, answered, aboutIt, drafted, { ...noted, tab: 1 }, base];
		for (const [width, height] of [
			[120, 30],
			[90, 30],
			[60, 30],
			[120, 16],
			[90, 30],
			[60, 16],
		] as const) {
			for (const state of states) {
				const frame = (viewCtx: typeof ctx) => renderForm({ state, width, height, table }, viewCtx).lines;
				expect(frame(kept), `${width}×${height}`).toEqual(frame(plainContext()));
			}
		}
	});

	test("model text cannot reach the terminal as escape sequences", () => {
		const form = formOf(
			question("q", {
				question: "Pick\x1b]52;c;SGVsbG8=\x07 one\x1b[2J",
				context: "ctx \u202eevil\u202c",
				options: [option("A\x1b[31m"), option("B", { description: "\x9b31m desc" })],
			}),
		);
		for (const width of [20, 60, 120]) {
			const lines = renderForm(
				{ state: initialState(form), width, height: 40, table, asker: "child\x1b[1m" },
				ctx,
			).lines;
			const text = lines.join("\n");
			expect(text).not.toMatch(/[\x1b\x9b\u202e]/);
			expect(text).toContain("Pick one");
		}
	});
});

describe("the submit view", () => {
	test("reviews every answer and note, says what is missing, and offers Submit and Cancel", () => {
		const { state } = drive(SCOPE_AND_TARGETS, [
			KEY.down,
			"n",
			...type("cheaper"),
			KEY.enter,
			KEY.enter,
			KEY.left,
			KEY.left,
		]);
		const lines = renderSubmitView(state, 60, 40, ctx).lines;
		expectFits(lines, 60);
		expect(lines).toEqual([
			"Review your answers",
			"",
			"  ■ Scope    Medium",
			"             ✎ Medium: cheaper",
			"  □ Targets  not answered yet (required)",
			"",
			"n: add a note on the whole form",
			"",
			"Still missing: Targets",
			"❯ Submit",
			"  Cancel (dismiss the form)",
		]);
	});

	test("shows free answers quoted and skipped questions as skipped", () => {
		const form = formOf(question("a", { header: "A" }), question("b", { header: "B", required: false }));
		const { state } = drive(form, ["4", KEY.enter, ...type("own words"), KEY.enter, "s"]);
		const lines = renderSubmitView(state, 60, 40, ctx).lines;
		expect(lines).toContain("  ■ A  “own words”");
		expect(lines).toContain("  – B  skipped");
		expect(lines).toContain("Ready to submit.");
	});

	test("lists the unsaved drafts a submit would drop, under their questions, and says so above Submit", () => {
		const form = formOf(question("a", { header: "A" }), question("b", { header: "B", required: false }));
		const { state } = drive(form, [
			KEY.enter,
			"4",
			KEY.enter,
			...type("important"),
			KEY.escape,
			KEY.up,
			"n",
			...type("hmm"),
			KEY.escape,
			KEY.tab,
		]);
		const lines = renderSubmitView(state, 80, 40, ctx).lines;
		expectFits(lines, 80);
		expect(lines).toEqual([
			"Review your answers",
			"",
			"  ■ A  Alpha",
			"  □ B  not answered (optional: will be reported as skipped)",
			"       ✎ unsaved draft: important",
			"       ✎ unsaved note draft on Gamma: hmm",
			"",
			"n: add a note on the whole form",
			"",
			"Ready to submit, but 2 unsaved drafts would be dropped: save them on their",
			"questions to keep them.",
			"❯ Submit",
			"  Cancel (dismiss the form)",
		]);
		for (let width = 1; width <= 80; width++) expectFits(renderSubmitView(state, width, 40, ctx).lines, width);
	});

	test("after the form auto-advances to the review, Submit is the focused row", () => {
		const { state } = drive(SCOPE_AND_TARGETS, [KEY.enter, KEY.enter]);
		const lines = renderSubmitView(state, 60, 40, ctx).lines;
		expect(lines).toContain("❯ Submit");
		expect(lines.filter((line) => line.startsWith("❯"))).toHaveLength(1);
	});

	test("the armed Cancel and the armed Submit say what the next Enter does", () => {
		const cancel = drive(SCOPE_AND_TARGETS, [KEY.enter, KEY.enter, KEY.down, KEY.enter]).state;
		expect(renderForm({ state: cancel, width: 60, height: 40, table }, ctx).lines).toContain(
			"Press enter again to dismiss the form",
		);
		const form = formOf(question("a", { header: "A" }), question("b", { header: "B", required: false }));
		const submit = drive(form, [KEY.enter, "4", KEY.enter, ...type("important"), KEY.escape, KEY.tab, KEY.enter]).state;
		expect(renderForm({ state: submit, width: 60, height: 40, table }, ctx).lines).toContain(
			"1 unsaved draft — press enter again to submit without it",
		);
	});
});

describe("a question left to the model", () => {
	test("the review says so with its mark, and so does the tab", () => {
		const { state } = drive(SCOPE_AND_TARGETS, ["5", KEY.enter]);
		const lines = renderSubmitView({ ...state, tab: 2 }, 60, 40, ctx).lines;
		expect(lines).toContain("  ↪ Scope    left to the model");
		expect(renderTabBar({ ...state, tab: 2 }, 80, ctx)).toBe(" ↪ Scope  □ Targets  Submit ");
	});
});

describe("the tab bar", () => {
	test("marks answered questions and ends with Submit, unmarked until the form can be submitted", () => {
		const { state } = drive(SCOPE_AND_TARGETS, [KEY.enter]);
		expect(renderTabBar(state, 80, ctx)).toBe(" ■ Scope  □ Targets  Submit ");
		const ready = drive(SCOPE_AND_TARGETS, [KEY.enter, KEY.enter]).state;
		expect(renderTabBar(ready, 80, ctx)).toBe(" ■ Scope  ■ Targets  ✓ Submit ");
	});

	test("says (optional) after an optional question's header, and the question says it too", () => {
		const form = formOf(question("a", { header: "Scope" }), question("b", { header: "Changelog", required: false }));
		const state = initialState(form);
		expect(renderTabBar(state, 80, ctx)).toBe(" □ Scope  □ Changelog (optional)  Submit ");
		const optional = { ...state, tab: 1 };
		expect(renderQuestionView(optional, 1, 80, 20, ctx).lines[0]).toMatch(/ \(optional\)$/);
		expect(renderQuestionView(state, 0, 80, 20, ctx).lines[0]).not.toContain("(optional)");
	});

	test("elides labels before it scrolls, and fits every width", () => {
		const form = formOf(
			question("a", { header: "Architecture" }),
			question("b", { header: "Backend製品" }),
			question("c", { header: "Continuous" }),
			question("d", { header: "Deployment" }),
		);
		const state = { ...initialState(form), tab: 2 };
		expect(renderTabBar(state, 44, ctx)).toBe(" □ Arch…  □ Back…  □ Cont…  □ Depl…  Subm… ");
		for (let width = 1; width <= 80; width++) {
			const bar = renderTabBar(state, width, ctx);
			expect(visibleWidth(bar), `width ${width}: ${bar}`).toBeLessThanOrEqual(width);
			if (width >= 12) expect(bar).toContain("□ C");
		}
		expect(renderTabBar(state, 13, ctx)).toMatch(/^‹.*□ C.*›$/);
	});

	test("narrow, wide-character labels keep a character each: the bar scrolls rather than show empty tabs", () => {
		const form = formOf(
			question("a", { header: "数据库" }),
			question("b", { header: "认证" }),
			question("c", { header: "部署" }),
			question("d", { header: "日志" }),
		);
		for (const width of [20, 25, 30]) {
			const bar = renderTabBar({ ...initialState(form), tab: 1 }, width, ctx);
			expect(visibleWidth(bar)).toBeLessThanOrEqual(width);
			expect(bar, `width ${width}: ${bar}`).toContain("□ 认");
			// No tab is a bare mark with nothing after it.
			expect(bar, `width ${width}: ${bar}`).not.toMatch(/[□■] {2}/);
		}
	});
});

describe("the help and the hint", () => {
	test("the help lists every key of the table", () => {
		// Wide enough that no action wraps.
		const lines = renderHelpView(table, 0, 300, 100, ctx).lines.join("\n");
		for (const entry of table) expect(lines).toContain(entry.action);
		expect(lines).toContain("↑/k ↓/j");
		// Where letters are typed, not obeyed, it says so; it never claims a key there that typing takes.
		expect(lines).toContain("On “Type something…” every letter, digit and symbol you type writes your answer");
		expect(lines).not.toMatch(/note[^\n]*on “Type something…”/);
	});

	test("the hint offers s only on an optional question", () => {
		const form = formOf(question("a"), question("b", { required: false }));
		expect(hintIds(initialState(form))).not.toContain("skip");
		expect(hintIds({ ...initialState(form), tab: 1 })).toContain("skip");
		expect(fitHintLine({ ...initialState(form), tab: 1 }, table, 200, ctx).line).toContain("s skip");
	});

	test("the hint follows the situation: multi-select, the Type something row, the editor", () => {
		// With nothing ticked, Enter chooses the focused option; once something is, it finishes.
		const multi = drive(SCOPE_AND_TARGETS, [KEY.tab]).state;
		expect(fitHintLine(multi, table, 200, ctx).line).toBe(
			"↑↓ move · space toggle · enter choose · ←→ questions · n note · c reply in chat · p peek · esc dismiss · ? help",
		);
		const ticked = drive(SCOPE_AND_TARGETS, [KEY.tab, KEY.space]).state;
		expect(fitHintLine(ticked, table, 200, ctx).line).toBe(
			"↑↓ move · space toggle · enter done · ←→ questions · n note · c reply in chat · p peek · esc dismiss · ? help",
		);
		const typeRow = drive(SCOPE_AND_TARGETS, ["4"]).state;
		expect(fitHintLine(typeRow, table, 200, ctx).line).toContain("enter write");
		const editing = drive(SCOPE_AND_TARGETS, ["4", KEY.enter]).state;
		expect(fitHintLine(editing, table, 200, ctx).line).toBe(
			"enter save · shift+enter new line · esc back · ctrl+g external editor",
		);
		// The message for the chat is sent, not saved: Enter ends the form.
		const message = drive(SCOPE_AND_TARGETS, ["c"]).state;
		expect(message.overlay).toMatchObject({ kind: "editor", target: { kind: "chat" } });
		expect(fitHintLine(message, table, 200, ctx).line).toBe(
			"enter send · shift+enter new line · esc back · ctrl+g external editor",
		);
	});

	test("the hint drops items that do not fit but keeps the help key", () => {
		const state = initialState(SCOPE_AND_TARGETS);
		const line = fitHintLine(state, table, 32, ctx).line;
		expect(line).toBe("↑↓ move · enter choose · ? help");
		for (let width = 1; width < 100; width++)
			expect(visibleWidth(fitHintLine(state, table, width, ctx).line)).toBeLessThanOrEqual(width);
	});
});

describe("the whole form", () => {
	test("one question: no tab bar", () => {
		const lines = renderForm(
			{ state: initialState(formOf(question("scope"))), width: 60, height: 40, table },
			ctx,
		).lines;
		expect(lines.some((line) => line.includes("Submit"))).toBe(false);
		expect(lines[1]).toBe("Which scope?");
	});

	test("shows the asker, the message and the Esc warning", () => {
		const armed = drive(SCOPE_AND_TARGETS, [KEY.escape]).state;
		const lines = renderForm({ state: armed, width: 60, height: 40, table, asker: "planner › scout" }, ctx).lines;
		expect(lines[1]).toBe("Asked by planner › scout");
		expect(lines).toContain("Press esc again to dismiss the form");
		const blocked = drive(SCOPE_AND_TARGETS, [KEY.left, KEY.enter]).state;
		expect(renderForm({ state: blocked, width: 60, height: 40, table }, ctx).lines).toContain(
			"Answer Scope and Targets first",
		);
	});

	test("the editor view shows the question, what is being written and the editor's lines", () => {
		const { state } = drive(SCOPE_AND_TARGETS, [KEY.down, "n"]);
		const lines = renderForm({ state, width: 60, height: 40, table, editorLines: ["──", "typed", "──"] }, ctx).lines;
		expect(lines.slice(3)).toEqual([
			"Which scope?",
			"Your note on “Medium”:",
			"──",
			"typed",
			"──",
			"enter save · shift+enter new line · esc back",
		]);
	});

	test("who asks a form from elsewhere stays in sight on a short terminal, as long as the focused row has a line too", () => {
		for (let height = 2; height <= 12; height++) {
			const lines = renderForm(
				{ state: initialState(SCOPE_AND_TARGETS), width: 40, height, table, asker: "scout" },
				ctx,
			).lines;
			expect(lines, `height ${height}`).toContain("Asked by scout");
			expect(
				lines.some((line) => line.startsWith("❯")),
				`height ${height}`,
			).toBe(true);
		}
	});

	test("never taller than the height budget, down to one line; an armed Esc's warning always shows, the focused row from two lines", () => {
		const state = drive(SCOPE_AND_TARGETS, [KEY.escape]).state;
		for (let height = 1; height <= 30; height++) {
			const lines = renderForm({ state, width: 40, height, table, asker: "x" }, ctx).lines;
			expect(lines.length, `height ${height}`).toBeLessThanOrEqual(height);
			expect(lines.join("\n"), `height ${height}`).toContain("again to dismiss");
			// One line: the warning (the next key ends the form or disarms it, bringing the row back).
			if (height >= 2)
				expect(
					lines.some((line) => line.startsWith("❯")),
					`height ${height}`,
				).toBe(true);
		}
		const calm = renderForm(
			{ state: initialState(SCOPE_AND_TARGETS), width: 40, height: 1, table, asker: "x" },
			ctx,
		).lines;
		expect(calm).toEqual([expect.stringMatching(/^❯/)]);
	});
});

describe("who asks, its task, and why", () => {
	const TASK = "pick a database for the invoices service, then write the migration and its rollback";
	const REASON = "The schema depends on it: I write the migration next, and a wrong engine means writing it twice.";
	const WHY = { ...SCOPE_AND_TARGETS, reason: REASON };
	const frame = (state: FormState, width: number, height = 40, task: string | null = TASK) => {
		const lines = renderForm({ state, width, height, table, asker: "scout", task: task ?? undefined }, ctx).lines;
		expectFits(lines, width);
		expect(lines.length).toBeLessThanOrEqual(height);
		return lines;
	};

	test("one line above the questions: who asks and the start of its task, cut to the width", () => {
		expect(frame(initialState(SCOPE_AND_TARGETS), 200)[1]).toBe(`Asked by scout · ${TASK}`);
		expect(frame(initialState(SCOPE_AND_TARGETS), 40)[1]).toBe("Asked by scout · pick a database for th…");
		expect(frame(initialState(SCOPE_AND_TARGETS), 40, 40, null)[1]).toBe("Asked by scout");
		for (const width of [1, 2, 5, 17, 18, 19])
			expect(frame(initialState(SCOPE_AND_TARGETS), width).some((line) => line.startsWith("A"))).toBe(true);
	});

	test("the model's reason above the tabs, wrapped to two lines at most, the second cut with …", () => {
		const wide = frame(initialState(WHY), 120);
		expect(wide.slice(1, 4)).toEqual([`Asked by scout · ${TASK}`, `Why: ${REASON}`, expect.stringContaining("Scope")]);
		const narrow = frame(initialState(WHY), 40);
		expect(narrow.slice(2, 4)).toEqual([
			"Why: The schema depends on it: I write",
			"the migration next, and a wrong engine …",
		]);
		expect(narrow[4]).toContain("Scope");
		// A form of this session's own model: no one else asks, the reason still shows; one question: above it.
		const own = renderForm(
			{
				state: initialState({ ...formOf(SCOPE_AND_TARGETS.questions[0]!), reason: "Short." }),
				width: 60,
				height: 40,
				table,
			},
			ctx,
		).lines;
		expect(own.slice(1, 3)).toEqual(["Why: Short.", "Which scope?"]);
	});

	test("on a short terminal the reason gives way before the tabs, who asks stays last, the focused row keeps a line", () => {
		const seen = (height: number) => frame(initialState(WHY), 40, height).join("\n");
		for (let height = 1; height <= 16; height++) {
			const lines = frame(initialState(WHY), 40, height);
			const shown = lines.join("\n");
			if (height >= 2) expect(shown, `height ${height}`).toContain("Asked by scout");
			if (shown.includes("Why:")) expect(shown, `height ${height}`).toContain("□ Scope");
			expect(
				lines.some((line) => line.startsWith("❯")),
				`height ${height}`,
			).toBe(true);
		}
		expect(seen(5)).not.toContain("Why:");
		expect(seen(6)).toContain("Why: The schema depends on it: I write\n");
		expect(seen(30)).toContain("a wrong engine …");
	});

	test("? shows the task and the reason whole, wrapped, above the keys", () => {
		const help = drive(WHY, ["?"]).state;
		const lines = frame(help, 40, 60);
		const above = lines.slice(0, lines.indexOf("Keys")).join(" ");
		expect(above).toContain(`Task: ${TASK}`);
		expect(above).toContain(`Why: ${REASON}`);
		for (const width of [1, 3, 12, 35, 36, 80]) {
			const { lines: shown } = renderHelpView(table, 0, width, 80, ctx, undefined, [`Task: ${TASK}`]);
			expectFits(shown, width);
		}
	});
});
