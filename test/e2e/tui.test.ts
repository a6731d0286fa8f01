/**
 * ask_user in pi's real TUI, driven through tmux: keys in, screen fragments
 * out (pi wraps long lines, so only short fragments are asserted), and every
 * test ends by checking what the scripted model received.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
	ASK,
	askResults,
	askScript,
	CLAUDE_CODE_SHAPE,
	dismissWithEscEsc,
	MULTI_SELECT,
	onlyAskResult,
	submitFirstOptions,
	TWO_QUESTIONS,
	WHAT_NOW,
	submitTwoQuestions,
} from "../support/ask-fixtures.ts";
import { answerDemoBatch, DEMO_BATCH, expectDemoBatchAnswered } from "../support/demo-batch.ts";
import { QUOTE_PREFIX } from "../support/model-script.ts";
import { createPiEnv, type PiEnv } from "../support/pi-env.ts";
import { until } from "../support/harness.ts";
import { TmuxPi } from "../support/tmux.ts";
import { endPiTest } from "../support/harness.ts";

let piEnv: PiEnv | undefined;
let tui: TmuxPi | undefined;

afterEach(async () => {
	const started = { tui, piEnv };
	tui = undefined;
	piEnv = undefined;
	await endPiTest(started);
});

interface StartOptions {
	env?: Record<string, string>;
	extraArgs?: string[];
}

/** Starts pi (whose model asks `args` on ASK) in a `cols`×`rows` terminal and waits for its start-up screen. */
async function startPi(args: unknown, size = { cols: 100, rows: 40 }, options: StartOptions = {}) {
	piEnv = createPiEnv({ script: askScript(args), ...(options.env ? { env: options.env } : {}) });
	tui = await TmuxPi.start(piEnv, { ...size, ...(options.extraArgs ? { extraArgs: options.extraArgs } : {}) });
	await tui.waitForReady();
	return { env: piEnv, screen: tui };
}

/** startPi, then says ASK and waits for the form to show `firstQuestion`. */
async function openForm(
	args: unknown,
	firstQuestion: string,
	size = { cols: 100, rows: 40 },
	options: StartOptions = {},
) {
	const { env, screen } = await startPi(args, size, options);
	await screen.type(ASK);
	await screen.send("Enter");
	const form = await screen.waitFor(firstQuestion);
	return { env, screen, form };
}

/** TWO_QUESTIONS is open: takes the first option of each, submits from the review, waits for the model's quote. */
/** pi has redrawn for `cols` columns (its editor border spans the width) and `text` is still there. */
function renderedAtWidth(cols: number, text: string): (screen: string) => boolean {
	return function renderedAtWidth(screen) {
		return screen.includes(text) && screen.split("\n").includes("─".repeat(cols));
	};
}

/** Says WHAT_NOW so the model runs again and logs the result it was not called with. */
async function askWhatNow(screen: TmuxPi): Promise<void> {
	await screen.type(WHAT_NOW);
	await screen.send("Enter");
	await screen.waitFor(QUOTE_PREFIX);
}

describe("a three-question batch at 40 columns, keyboard only", () => {
	const narrow = { cols: 40, rows: 40 };

	it("answers all three, adds a note, reviews and submits; the model gets every answer and the note", async () => {
		const { env, screen } = await openForm(DEMO_BATCH, "How should", narrow);
		await answerDemoBatch(screen);

		expect(await screen.isRunning()).toBe(true);
		expectDemoBatchAnswered(onlyAskResult(env));
	});

	it("the same batch dismissed with Esc Esc reports the answers given so far", async () => {
		const { env, screen } = await openForm(DEMO_BATCH, "How should", narrow);

		await screen.send("Enter");
		await screen.waitFor("Which requests");
		await screen.send("Escape");
		await screen.waitFor("again to");
		await screen.send("Escape");
		await screen.waitForGone("Which requests");
		await askWhatNow(screen);

		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("dismissed");
		expect(seen.details.answers["errors"]?.selections).toEqual([{ value: "result", label: "Result value" }]);
		expect(seen.details.answers["retries"]).toBeUndefined();
	});
});

describe("ask_user in the TUI", () => {
	it("answers two questions with the keyboard and submits from the review", async () => {
		const { env, screen } = await openForm(TWO_QUESTIONS, "Which database");
		expect(await screen.capture()).toContain("Postgres (recommended)");

		await submitTwoQuestions(screen);

		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "Postgres", label: "Postgres" }]);
		expect(seen.details.answers["cli"]?.selections).toEqual([{ value: "launch-cli", label: "launch" }]);
	});

	it("the call's reason shows above the tabs, and whole on the help screen; the model gets it back in details", async () => {
		const reason =
			"The schema depends on both choices, and I write the migration next, so a wrong guess costs a rewrite.";
		const { env, screen, form } = await openForm({ ...TWO_QUESTIONS, reason }, "Which database", {
			cols: 60,
			rows: 40,
		});
		const lines = form.split("\n");
		const why = lines.findIndex((line) => line.includes("Why: The schema depends on both"));
		expect(why).toBeGreaterThan(0);
		expect(lines[why + 1]).toContain("wrong guess costs a rewrite.");
		expect(lines[why + 2]).toMatch(/□ Database +□ CLI/);
		await screen.send("?");
		await screen.waitFor("Keys");
		await screen.send("Escape");
		await screen.waitForGone("Keys");
		await submitFirstOptions(screen);
		expect(onlyAskResult(env).details.reason).toBe(reason);
	});

	it("takes a multi-line free answer in pi's editor, kept exactly as typed", async () => {
		const { env, screen } = await openForm(TWO_QUESTIONS, "Which database");

		await screen.send("3");
		await screen.waitFor("Your answer");
		await screen.type("Postgres 16, but");
		await screen.shiftEnter();
		await screen.type("  SQLite in tests 🎉");
		await screen.waitFor("SQLite in tests");
		await screen.send("Enter");
		await screen.waitFor("What should the command");
		await screen.send("Enter");
		await screen.waitFor("Review your answers");
		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);

		const typed = "Postgres 16, but\n  SQLite in tests 🎉";
		const seen = onlyAskResult(env);
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: typed, label: typed, custom: true }]);
		expect(seen.text).toContain(JSON.stringify(typed));
	});

	it("toggles options of a multi-select question with Space and finishes with Enter", async () => {
		const { env, screen } = await openForm(MULTI_SELECT, "Which platforms");

		await screen.send("Space", "3");
		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);

		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.answers["targets"]).toMatchObject({
			kind: "multi",
			selections: [
				{ value: "Linux", label: "Linux" },
				{ value: "Windows", label: "Windows" },
			],
		});
	});

	it("writes a note on the focused option and one on the question", async () => {
		const { env, screen } = await openForm(TWO_QUESTIONS, "Which database");

		await screen.send("Down", "n");
		await screen.waitFor("Your note on “SQLite”");
		await screen.type("only for the demo");
		await screen.send("Enter");
		await screen.waitForGone("Your note on");
		await screen.send("N");
		await screen.waitFor("Your note on");
		await screen.type("ask ops first");
		await screen.send("Enter");
		await screen.waitFor("ask ops first");
		await screen.send("2");
		await screen.waitFor("What should the command");
		await screen.send("Enter");
		await screen.waitFor("Review your answers");
		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);

		const seen = onlyAskResult(env);
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "SQLite", label: "SQLite" }]);
		expect(seen.details.notes).toEqual(
			expect.arrayContaining([
				{ questionId: "db", option: "SQLite", text: "only for the demo" },
				{ questionId: "db", text: "ask ops first" },
			]),
		);
		expect(seen.text).toContain('"only for the demo"');
		expect(seen.text).toContain('"ask ops first"');
	});

	it("Esc twice dismisses, keeps the answers given, and ends the turn", async () => {
		const { env, screen } = await openForm(TWO_QUESTIONS, "Which database");

		await screen.send("2");
		await screen.waitFor("What should the command");
		await dismissWithEscEsc(screen);
		await screen.waitForGone("What should the command");

		// terminate: the model is not called again until the user speaks.
		expect(env.log().filter((e) => e.kind === "call")).toHaveLength(1);
		await askWhatNow(screen);
		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("dismissed");
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "SQLite", label: "SQLite" }]);
		expect(seen.details.answers["cli"]).toBeUndefined();
	});

	it("Ctrl+C while the form is open aborts the run; the model sees aborted with the answers so far", async () => {
		const { env, screen } = await openForm(TWO_QUESTIONS, "Which database");

		await screen.send("Enter");
		await screen.waitFor("What should the command");
		await screen.send("C-c");
		await screen.waitForGone("What should the command");

		await askWhatNow(screen);
		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("aborted");
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "Postgres", label: "Postgres" }]);
		expect(await screen.isRunning()).toBe(true);
	});

	it("PageDown and PageUp scroll a long preview in pi's fullscreen TUI (pi keeps them for its transcript unless the form claims them)", async () => {
		const preview = Array.from({ length: 80 }, (_, i) => `preview line ${i + 1}`).join("\n");
		const form = {
			questions: [
				{ id: "pick", question: "Which layout?", options: [{ label: "Wide", preview }, { label: "Narrow" }] },
			],
		};
		const { env, screen } = await openForm(form, "Which layout", { cols: 100, rows: 30 });
		expect(await screen.capture()).toMatch(/preview line 1$/m);
		await screen.send("PageDown", "PageDown");
		// The pane's own marker says which lines show; the first is gone, later ones came.
		const scrolled = await screen.waitFor(
			(now) => !/preview line 1$/m.test(now) && /lines (?!1–)\d+–\d+ of 82/.test(now),
		);
		expect(scrolled).toMatch(/preview line [3-9]\d$/m);
		expect(scrolled).toContain("Which layout");
		await screen.send("PageUp", "PageUp", "PageUp");
		await screen.waitFor(/preview line 1$/m);
		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);
		expect(onlyAskResult(env).details.answers["pick"]?.selections[0]?.label).toBe("Wide");
	});

	it("while the form waits, pi reports the session blocked on a question (program status, OSC 7501), and working again once it is answered", async () => {
		const { env, screen } = await startPi(TWO_QUESTIONS, { cols: 100, rows: 40 }, { env: { PI_PROGRAM_STATUS: "1" } });
		const output = join(env.root, "terminal-output.txt");
		await screen.recordOutput(output);
		await screen.type(ASK);
		await screen.send("Enter");
		await screen.waitFor("Which database");
		const reports = () =>
			[...readFileSync(output, "utf8").matchAll(/\x1b\]7501;([^\x07\x1b]*)/g)].map((match) => match[1] ?? "");
		await until(
			() => reports().some((report) => /blocked/.test(report) && /question/.test(report)),
			"a blocked report",
		);
		const blocked = reports().find((report) => /blocked/.test(report)) ?? "";
		expect(blocked).toMatch(/^state=blocked:.*kind=question/);
		// The message field is base64: the tool and the count, never the model's question.
		const message = Buffer.from(/msg=([A-Za-z0-9+/=]*)/.exec(blocked)?.[1] ?? "", "base64").toString("utf8");
		expect(message).toBe("ask_user · 2 questions");
		await submitFirstOptions(screen);
		expect(onlyAskResult(env).details.status).toBe("answered");
		const after = reports().slice(reports().indexOf(blocked) + 1);
		expect(after.some((report) => !/blocked/.test(report))).toBe(true);
	});

	it("keeps answers and typed text across a resize mid-form", async () => {
		const { env, screen } = await openForm(TWO_QUESTIONS, "Which database", { cols: 110, rows: 40 });

		await screen.send("2");
		await screen.waitFor("What should the command");
		await screen.send("3");
		await screen.waitFor("Your answer");
		await screen.type("deploy");
		await screen.resize(50, 30);
		await screen.waitFor(renderedAtWidth(50, "deploy"));
		await screen.resize(90, 35);
		await screen.waitFor(renderedAtWidth(90, "deploy"));
		await screen.send("Enter");
		await screen.waitFor("Review your answers");
		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);

		expect(await screen.isRunning()).toBe(true);
		const seen = onlyAskResult(env);
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "SQLite", label: "SQLite" }]);
		expect(seen.details.answers["cli"]?.selections).toEqual([{ value: "deploy", label: "deploy", custom: true }]);
	});

	it("works in a 40-column terminal", async () => {
		const { env, screen } = await openForm(TWO_QUESTIONS, "Which", { cols: 40, rows: 40 });
		expect(await screen.capture()).toContain("Postgres");

		await screen.send("Enter");
		await screen.waitFor("What should");
		await screen.send("Enter");
		await screen.waitFor("Review your");
		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);

		expect(await screen.isRunning()).toBe(true);
		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.answers["cli"]?.selections).toEqual([{ value: "ship", label: "ship" }]);
	});

	it("text from the model cannot drive the terminal: an OSC 52 in context, description and preview sets no clipboard", async () => {
		const osc52 = "\u001b]52;c;UFdORUQ=\u0007";
		const { env, screen } = await openForm(
			{
				questions: [
					{
						question: "Which branch should the fix land on?",
						context: `The context ${osc52}goes on here.`,
						options: [
							{
								label: "main",
								description: `The description ${osc52}too.`,
								preview: `git switch main${osc52}\n\u001b[2Jgit pull`,
							},
							{ label: "release" },
						],
					},
				],
			},
			"Which branch",
		);
		const form = await screen.waitFor("git pull");
		expect(form).toContain("The context");
		expect(form).not.toContain("]52;");
		expect(await screen.clipboard()).toBeUndefined();

		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);
		expect(await screen.clipboard()).toBeUndefined();
		expect(onlyAskResult(env).details.answers["q1"]?.selections).toEqual([{ value: "main", label: "main" }]);
	});

	it("accepts Claude Code's AskUserQuestion shape: Recommended marker read, Other dropped and explained", async () => {
		const { env, screen } = await openForm(CLAUDE_CODE_SHAPE, "Which test runner");
		const form = await screen.capture();
		expect(form).toContain("Vitest (recommended)");
		expect(form).not.toContain("Something else");

		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);

		const [seen] = askResults(env);
		expect(seen?.isError).toBe(false);
		expect(seen?.details.status).toBe("answered");
		expect(Object.values(seen?.details.answers ?? {})).toEqual([
			{ kind: "single", selections: [{ value: "Vitest", label: "Vitest" }] },
		]);
		expect(seen?.details.questions[0]?.options.map((o) => o.label)).toEqual(["Vitest", "Jest"]);
		expect(seen?.details.notices?.join(" ")).toMatch(/Other/);
	});
});

describe("You decide", () => {
	it("its number leaves a question to the model; the tab and the review say so; the model is told, with its recommendation", async () => {
		const { env, screen, form } = await openForm(TWO_QUESTIONS, "Which database");
		expect(form).toContain("4. You decide");
		await screen.send("4");
		await screen.waitFor("What should the command");
		expect(await screen.capture()).toContain("↪ Database");
		await screen.send("1");
		await screen.waitFor("left to the model");
		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);

		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.delegated).toEqual(["db"]);
		expect(seen.details.answers["db"]).toBeUndefined();
		expect(seen.text).toContain('db: left to you — you recommended "Postgres"');
		expect(seen.text).toContain("(1 of 2 answered, 1 left to you)");
	});

	it("the youDecide setting turns the row off", async () => {
		const { env, screen, form } = await openForm(TWO_QUESTIONS, "Which database", undefined, {
			env: { PI_ASK_USER_YOU_DECIDE: "0" },
		});
		expect(form).toContain("3. Type something");
		expect(form).not.toContain("You decide");
		await submitFirstOptions(screen);
		expect(onlyAskResult(env).details).not.toHaveProperty("delegated");
	});
});

describe("settings", () => {
	it("with a time limit, the form counts down in its hint line", async () => {
		const wide = { cols: 120, rows: 40 };
		const { env, screen, form } = await openForm(TWO_QUESTIONS, "Which database", wide, {
			env: { PI_ASK_USER_TIMEOUT: "90" },
		});
		const timeLeft = (text: string) => /⏱ (\d+:\d\d) left · /.exec(text)?.[1];
		const first = timeLeft(form);
		expect(first).toMatch(/^1:[0-3]\d$/);
		await screen.waitFor(function countedDown(text) {
			const now = timeLeft(text);
			return now !== undefined && now < (first ?? "");
		});
		await submitFirstOptions(screen);
		expect(onlyAskResult(env).details.status).toBe("answered");
	});

	it("a timeout that can't be used is named in a warning at start-up, and the form then waits without a limit", async () => {
		const { env, screen } = await startPi(
			TWO_QUESTIONS,
			{ cols: 120, rows: 40 },
			{ extraArgs: ["--ask-user-timeout", "soon"] },
		);
		const start = await screen.waitFor((text) => text.replace(/\s+/g, " ").includes('(found "soon"); it is ignored'));
		expect(start.replace(/\s+/g, " ")).toContain("ask_user settings: --ask-user-timeout must be");
		await screen.type(ASK);
		await screen.send("Enter");
		await screen.waitFor("Which database");
		await submitFirstOptions(screen);
		expect(onlyAskResult(env).details.status).toBe("answered");
	});
});
