/**
 * The dialog walker: a second shell over the state machine (src/machine),
 * walking the questions with pi's standard dialogs so any RPC client can
 * answer them. Each dialog answer becomes the actions the form's keys make,
 * and the result is read with the same `collect`.
 *
 * Per question one `select` (dialogs/views.ts); free text and notes go
 * through `editor`. Cancelling a `select` dismisses the form; cancelling an
 * `editor` only returns to the question. RPC's `editor` returns nothing when
 * cancelled, so the walker's only drafts are texts refused for their length.
 */

import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import { errorText, raceAbort } from "./abort.ts";
import { editorTitle, type QuestionRow, questionDialog, reviewRows, reviewTitle, rowTexts, type RowTexts } from "./dialogs/views.ts";
import { ENGLISH, type Texts } from "./i18n/texts.ts";
import { collect, progressSteps, reportProgress } from "./machine/collect.ts";
import { currentQuestion, editorPrefill, type FormState, isSubmitTab, typeRow } from "./machine/model.ts";
import { type Action, initialState, update } from "./machine/update.ts";
import type { AskForm, Collected, ProgressListener } from "./types.ts";

export { ROW } from "./dialogs/views.ts";

export type DialogUI = Pick<ExtensionUIContext, "select" | "editor">;

export interface WalkOptions {
	signal?: AbortSignal;
	/** Who is asking (a subagent), named in every dialog title. */
	asker?: string;
	onProgress?: ProgressListener;
	/** What the walker learnt of its host, kept across forms. */
	host?: DialogHost;
	texts?: Texts;
}

/**
 * `choiceOnly`: the host shows no text dialogs (an ACP adapter such as pi-acp
 * cancels every `editor` at once), so the walker offers no text rows. Set by
 * the user, or learnt: two text dialogs of one form cancelled before anyone
 * could have typed.
 */
export interface DialogHost {
	choiceOnly: boolean;
}

/** A text dialog cancelled sooner than this was cancelled by the host, not by a person. */
export const QUICK_CANCEL_MS = 300;
/** How many such cancels in one form mark the host as choice-only. */
const QUICK_CANCELS = 2;

/** How many answers in a row that match no row end the walk as an error. */
const MAX_STRAY_ANSWERS = 3;

export function collectWithDialogs(ui: DialogUI, form: AskForm, options: WalkOptions = {}): Promise<Collected> {
	return new DialogWalk(ui, form, options).run();
}

class DialogWalk {
	private state: FormState;
	/** Answers in a row that were none of their select's rows. */
	private strays = 0;
	/** Why the next select is shown again (a stray answer), or news of the host: said in its title. */
	private problem: string | undefined;
	/** Text dialogs of this form that the host cancelled at once. */
	private quickCancels = 0;
	private readonly host: DialogHost;
	private readonly texts: Texts;
	private readonly row: RowTexts;

	constructor(
		private readonly ui: DialogUI,
		form: AskForm,
		private readonly options: WalkOptions,
	) {
		this.state = initialState(form);
		this.host = options.host ?? { choiceOnly: false };
		this.texts = options.texts ?? ENGLISH;
		this.row = rowTexts(this.texts);
	}

	async run(): Promise<Collected> {
		reportProgress(this.options.onProgress, this.state, { phase: "opened" });
		try {
			while (this.state.outcome === undefined) {
				if (this.aborted) this.dispatch({ type: "abort" });
				// The machine opened an editor on its own (a text-only question): an `editor` dialog straight away,
				// unless the host shows none (then the question's select says what can be done).
				else if (this.state.overlay.kind === "editor") {
					if (this.host.choiceOnly) this.dispatch({ type: "editorCancelled", draft: editorPrefill(this.state, this.state.overlay.target) });
					else await this.edit();
				}
				else if (isSubmitTab(this.state) || this.state.enterArmed === "submit") await this.review();
				else await this.question();
			}
			return collect(this.state, this.state.outcome);
		} catch (error) {
			// A dialog that fails (a client gone, a broken UI) ends the walk; what was answered stays.
			return { ...collect(this.state, "error"), error: errorText(error) };
		}
	}

	private get aborted(): boolean {
		return this.options.signal?.aborted === true;
	}

	private async question(): Promise<void> {
		const current = currentQuestion(this.state);
		if (!current) throw new Error(`The walk lost its question (tab ${this.state.tab}).`);
		if (this.host.choiceOnly && current.question.options.length === 0) return this.unanswerable(current.question.required);
		const dialog = questionDialog(this.state, current.index, this.options.asker, this.takeProblem(), this.texts, this.host.choiceOnly, this.row);
		const choice = await this.select(dialog.title, dialog.rows.map((r) => r.text));
		if (choice === undefined) return this.dismiss();
		const row = dialog.rows.find((r) => r.text === choice)?.row;
		if (!row) return this.stray(choice);
		this.strays = 0;
		await this.answerRow(row, current.question.multiSelect ? "toggle" : "choose", typeRow(current.question));
	}

	/** A row of the question's select, as the form's keys would do it. */
	private async answerRow(row: QuestionRow, pick: "toggle" | "choose", freeTextRow: number): Promise<void> {
		switch (row.kind) {
			case "option":
				this.dispatch({ type: "focus", row: row.index });
				return this.dispatch({ type: pick });
			case "freeText":
				this.dispatch({ type: "focus", row: freeTextRow });
				this.dispatch({ type: "choose" });
				return this.edit();
			case "note":
				this.dispatch({ type: "openQuestionNote" });
				return this.edit();
			case "skip":
				return this.dispatch({ type: "skip" });
			case "chat":
				this.dispatch({ type: "openChat" });
				return this.edit();
			case "done":
			case "next":
				return this.dispatch({ type: "done" });
			case "back":
				return this.dispatch({ type: "switchTab", delta: -1 });
		}
	}

	/** The open editor target as `editor` dialogs; a text refused for its length comes back intact, the reason in the title. */
	private async edit(): Promise<void> {
		const overlay = this.state.overlay;
		if (overlay.kind !== "editor") return;
		let text = editorPrefill(this.state, overlay.target);
		// Until this target is saved or cancelled (a save may move on and open the next question's editor).
		while (this.state.overlay === overlay) {
			const opened = Date.now();
			const result = await this.dialog(this.ui.editor(editorTitle(this.state, overlay.target, this.options.asker, this.texts), text));
			if (this.aborted) return this.dispatch({ type: "abort", editorText: text });
			if (result === undefined) {
				this.learnFromCancel(Date.now() - opened);
				return this.dispatch({ type: "editorCancelled", draft: text });
			}
			this.dispatch({ type: "editorSubmitted", text: result });
			text = result;
		}
	}

	/** The review; it also stands for the form's "press Enter again" when a submit would drop a refused text. */
	private async review(): Promise<void> {
		const { row } = this;
		const rows = reviewRows(this.state, row, this.host.choiceOnly);
		const choice = await this.select(reviewTitle(this.state, this.options.asker, this.takeProblem(), this.texts), rows);
		if (choice === undefined || choice === row.cancel) return this.dismiss();
		if (!rows.includes(choice)) return this.stray(choice);
		this.strays = 0;
		if (choice === row.back) return this.dispatch({ type: "switchTab", delta: -1 });
		if (choice === row.formNote || choice === row.editFormNote || choice === row.chat) {
			this.dispatch({ type: choice === row.chat ? "openChat" : "openNote" });
			return this.edit();
		}
		this.dispatch({ type: "choose" });
		// The review already said what a submit drops: this Submit is the confirming second Enter.
		if (this.state.enterArmed === "submit") this.dispatch({ type: "choose" });
	}

	/** A text dialog cancelled at once, twice in a form: the host shows none, and the walker stops offering them. */
	private learnFromCancel(afterMs: number): void {
		if (afterMs >= QUICK_CANCEL_MS || this.host.choiceOnly) return;
		this.quickCancels++;
		if (this.quickCancels < QUICK_CANCELS) return;
		this.host.choiceOnly = true;
		this.problem = this.texts.t("walker.choiceOnly");
	}

	/** A question only text can answer, on a host that shows no text: an optional one is skipped, a required one ends the walk. */
	private unanswerable(required: boolean): void {
		if (!required) return this.dispatch({ type: "skip" });
		throw new Error(
			"a required question can only be answered with text, and this host shows no text dialogs (an ACP client cancels them): ask the user in plain text instead",
		);
	}

	/** Cancelling a select is the form's Esc, confirmed; a select cut short by an abort is no dismissal. */
	private dismiss(): void {
		if (this.aborted) return;
		this.dispatch({ type: "escape" });
		this.dispatch({ type: "escape" });
	}

	/** A client that answers with a row it was not offered (trimmed, reworded) is asked again, never read as a dismissal; a few in a row are an error. */
	private stray(choice: string): void {
		if (this.aborted) return;
		this.strays++;
		if (this.strays < MAX_STRAY_ANSWERS) {
			this.problem = this.texts.t("walker.stray");
			return;
		}
		const shown = JSON.stringify(choice.length > 80 ? `${choice.slice(0, 80)}…` : choice);
		throw new Error(
			`The RPC client answered a select with ${shown}, which is not one of its rows, ${MAX_STRAY_ANSWERS} times in a row: a select must return one of its options exactly.`,
		);
	}

	private takeProblem(): string | undefined {
		const problem = this.problem;
		this.problem = undefined;
		return problem;
	}

	private dispatch(action: Action): void {
		const before = this.state;
		this.state = update(before, action);
		for (const step of progressSteps(before, this.state)) reportProgress(this.options.onProgress, this.state, step);
	}

	private select(title: string, rows: string[]): Promise<string | undefined> {
		return this.dialog(this.ui.select(title, rows, { signal: this.options.signal }));
	}

	/** Resolves with undefined when the signal aborts first; the dialog itself may not support a signal. */
	private async dialog(promise: Promise<string | undefined>): Promise<string | undefined> {
		const raced = await raceAbort(promise, this.options.signal);
		return raced.aborted ? undefined : raced.value;
	}
}
