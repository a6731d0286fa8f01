/**
 * The dialog walker: a second shell over the state machine, with pi's standard dialogs for any RPC client. Each answer
 * becomes the actions the form's keys make: a `select` per question, `editor` for text; a cancelled `select` dismisses,
 * an `editor` returns to the question. A kept form reopened starts from its answers; the walker keeps nothing while it
 * walks (the client holds the dialog), the call keeps what it ends with.
 */

import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import { homedir } from "node:os";
import { raceAbort } from "../core/abort.ts";
import { readPastedFile } from "../core/pasted-file.ts";
import { attachable, pastedAction } from "../machine/attach.ts";
import {
	editorTitle,
	previewsDialog,
	questionDialog,
	reviewRows,
	reviewTitle,
	type Row,
	rowTexts,
	type WalkView,
} from "./views.ts";
import { ENGLISH } from "../i18n/texts.ts";
import { collect, reportProgress } from "../machine/collect.ts";
import { currentQuestion, type EditorTarget, editorPrefill, type FormState, isSubmitTab } from "../machine/model.ts";
import { previewsUnseenIn, restoredState } from "../machine/saved.ts";
import { type Action, initialState, update } from "../machine/update.ts";
import {
	type AskOptions,
	type AskForm,
	type AskAnswer,
	type AskQuestion,
	type Collected,
	answeredWithoutPreviews,
	errorText,
} from "../core/types.ts";

export type DialogUI = Pick<ExtensionUIContext, "select" | "editor"> & Partial<Pick<ExtensionUIContext, "notify">>;

/** `host`: what the walker learnt of its host, kept across forms; `deadline`: when the form times out (epoch ms). */
export type WalkOptions = AskOptions & { host?: DialogHost; deadline?: number };

/**
 * `choiceOnly`: the host shows no text dialogs; set by the user, or learnt from two quick cancels unless `learns` is
 * false (the user's setting says, either way).
 */
export type DialogHost = { choiceOnly: boolean; learns?: boolean };

/** A text dialog cancelled sooner than this was cancelled by the host, not by a person. */
const QUICK_CANCEL_MS = 300;
const QUICK_CANCELS = 2;
/** Answers in a row that match no row, and end the walk as an error. */
const MAX_STRAY_ANSWERS = 3;
/** A select's timeout, as pi hands it to the client, outlasts the form's own: the form's ends it, as a timeout. */
const SELECT_TIMEOUT_GRACE_MS = 1_000;
/** The longest delay setTimeout takes (pi's timer for the select): past it Node fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const collectWithDialogs = (ui: DialogUI, form: AskForm, options: WalkOptions = {}): Promise<Collected> =>
	new DialogWalk(ui, form, options).run();

class DialogWalk {
	private state: FormState;
	private readonly view: WalkView;
	private readonly host: DialogHost;
	private strays = 0;
	private quickCancels = 0;
	/** Said in the next select's title: why it is asked again, or news of the host. */
	private message: string | undefined;
	/** The answers it started from: a kept form's, reopened, were given before (maybe with the previews in view). */
	private readonly before: Readonly<Record<string, AskAnswer>>;
	/** Of those, the ones given without their previews in view, as the kept form says. */
	private readonly unseenBefore: readonly string[];
	/** The questions whose previews the user opened (the previews row). */
	private readonly previewed = new Set<string>();

	constructor(
		private readonly ui: DialogUI,
		form: AskForm,
		private readonly options: WalkOptions,
	) {
		// A kept form reopened (`/ask-user`) starts from its answers, and says why in its first title.
		const restored = options.keep?.restored;
		const back = restored && restoredState(form, restored.answers, options);
		this.state = back ?? initialState(form, options);
		this.before = collect(this.state, "answered").answers;
		this.unseenBefore = back && restored ? previewsUnseenIn(restored.answers) : [];
		this.host = options.host ?? { choiceOnly: false };
		const texts = options.texts ?? ENGLISH;
		this.view = { texts, row: rowTexts(texts), asker: options.asker, task: options.task, host: this.host };
		if (back && restored) this.message = texts.say(restored.notice);
	}

	async run(): Promise<Collected> {
		reportProgress(this.options.onProgress, this.state);
		try {
			while (this.state.outcome === undefined) {
				const { overlay } = this.state;
				if (this.aborted) this.dispatch({ type: "abort" });
				else if (overlay.kind === "editor") await this.edit(overlay.target);
				else if (isSubmitTab(this.state) || this.state.enterArmed === "submit") await this.review();
				else await this.question();
			}
			return this.seen(collect(this.state, this.state.outcome));
		} catch (error) {
			// A dialog that fails (a client gone, a broken UI) ends the walk; what was answered stays.
			return this.seen({ ...collect(this.state, "error"), error: errorText(error) });
		}
	}

	/**
	 * Selects show no previews: the answers given here to questions with some are marked, unless the user opened them
	 * (result.ts tells the model).
	 */
	private seen(collected: Collected): Collected {
		const { before, unseenBefore } = this;
		const unseen = answeredWithoutPreviews(this.state.form, collected.answers, before, unseenBefore).filter(
			(id) => !this.previewed.has(id),
		);
		return unseen.length > 0 ? { ...collected, previewsUnseen: unseen } : collected;
	}

	private get aborted(): boolean {
		return this.options.signal?.aborted === true;
	}

	private async question(): Promise<void> {
		const current = currentQuestion(this.state);
		if (!current) throw new Error(`The walk lost its question (tab ${this.state.tab}).`);
		// Only text can answer it, and the host shows none: an optional question is skipped, a required one ends the walk.
		if (this.host.choiceOnly && current.question.options.length === 0) {
			if (!current.question.required) return this.dispatch({ type: "skip" });
			throw new Error(
				"a required question can only be answered with text, and this host shows no text dialogs (an ACP client " +
					"cancels them): ask the user in plain text instead",
			);
		}
		const dialog = questionDialog(this.state, current.index, this.takeMessage(), this.view);
		const picked = await this.pick(dialog.title, dialog.rows);
		if (picked?.previews) await this.showPreviews(current.question);
	}

	/**
	 * The question's previews in an editor dialog, to read; whatever comes back, the question is asked again. Read, when
	 * a person closed or saved it: answered at once, it was a host (one that shows no text dialogs cancels them), and
	 * anything but text is a client's stray answer.
	 */
	private async showPreviews(question: AskQuestion): Promise<void> {
		const { title, text } = previewsDialog(question, this.view);
		const opened = Date.now();
		const result: unknown = await this.dialog(this.ui.editor(title, text));
		if (this.aborted) return;
		const elapsed = Date.now() - opened;
		if (result === undefined) this.learnFromCancel(elapsed);
		const closed = result === undefined || typeof result === "string";
		if (closed && elapsed >= QUICK_CANCEL_MS) this.previewed.add(question.id);
	}

	/** It also stands for the form's "press Enter again" when a submit would drop a refused text. */
	private async review(): Promise<void> {
		const picked = await this.pick(
			reviewTitle(this.state, this.takeMessage(), this.view),
			reviewRows(this.state, this.view),
		);
		// The review already said what a submit drops: its Submit is the confirming second Enter.
		if (picked?.text === this.view.row.submit && this.state.enterArmed === "submit") this.dispatch({ type: "choose" });
	}

	/**
	 * One select, and the actions of the row chosen; cancelled, the form's Esc, confirmed (but a select cut short by an
	 * abort is no dismissal).
	 */
	private async pick(title: string, rows: Row[]): Promise<Row | undefined> {
		const texts = rows.map((r) => r.text);
		const { signal, deadline } = this.options;
		// The client is told when the select closes by itself, so it can show the time left and close it too.
		const left = deadline === undefined ? undefined : deadline - Date.now() + SELECT_TIMEOUT_GRACE_MS;
		const timeout = left === undefined ? undefined : Math.min(MAX_TIMER_MS, Math.max(1, left));
		const choice = await this.dialog(this.ui.select(title, texts, { signal, ...(timeout && { timeout }) }));
		const row = rows.find((r) => r.text === choice);
		if (choice === undefined) {
			const timedOut = deadline !== undefined && Date.now() >= deadline;
			if (!this.aborted && !timedOut) this.dispatch({ type: "escape" }, { type: "escape" });
		} else if (!row) {
			this.stray(choice);
		} else {
			this.strays = 0;
			this.dispatch(...row.actions);
		}
		return row;
	}

	/**
	 * The editor a row or the machine opened (a text-only question); a text refused for its length comes back intact, the
	 * reason in the title.
	 */
	private async edit(target: EditorTarget): Promise<void> {
		const overlay = this.state.overlay;
		let text = editorPrefill(this.state, target);
		// A host without text dialogs: the question's select says what can be done instead.
		if (this.host.choiceOnly) return this.dispatch({ type: "editorCancelled", draft: text });
		// A path refused as a file, given back as typed: the same answer again is that text.
		let asText: string | undefined;
		// Until this target is saved or cancelled (a save may move on and open the next question's editor).
		while (this.state.overlay === overlay) {
			const opened = Date.now();
			const said = [asText === undefined ? undefined : this.view.texts.t("walker.pathAsText"), this.takeMessage()];
			const title = editorTitle(this.state, target, this.view, said.filter(Boolean).join("\n") || undefined);
			const result: unknown = await this.dialog(this.ui.editor(title, text));
			if (this.aborted) return this.dispatch({ type: "abort", editorText: text });
			if (result === undefined) {
				this.learnFromCancel(Date.now() - opened);
				return this.dispatch({ type: "editorCancelled", draft: text });
			}
			// Not text (a client's null, number or object): asked again, the text as it was.
			if (typeof result !== "string") {
				this.stray(result, "walker.notText");
				continue;
			}
			this.strays = 0;
			// An answer that is one path (quoted, `/…`, `~/…`, `./…`, `file://…`) attaches that file as a paste does in the
			// terminal, or is refused with its reason (no such file, a folder, past a limit); anything else is text.
			const cwd = this.options.cwd ?? process.cwd();
			const file = result === asText || !attachable(target) ? undefined : readPastedFile(result, cwd, homedir());
			const action = pastedAction(this.state, file);
			asText = undefined;
			if (action) this.dispatch(action);
			// Refused, the editor comes back with the path as it was written: nothing typed is lost.
			if (action?.type === "notice") asText = text = result;
			if (action) continue;
			this.dispatch({ type: "editorSubmitted", text: result });
			// A blank save closes the editor with nothing kept for it: the next prompt says so.
			if (result.trim() === "" && this.state.overlay !== overlay) this.message = this.view.texts.t("walker.blank");
			text = result;
		}
	}

	private learnFromCancel(afterMs: number): void {
		if (afterMs >= QUICK_CANCEL_MS || this.host.choiceOnly || this.host.learns === false) return;
		if (++this.quickCancels < QUICK_CANCELS) return;
		this.host.choiceOnly = true;
		this.message = this.view.texts.t("walker.choiceOnly");
	}

	/**
	 * An answer the dialog did not offer — a select's row trimmed or reworded, anything but text from either dialog — is
	 * asked again, never read as a dismissal; a few in a row are an error that names it.
	 */
	private stray(answer: unknown, why: "walker.stray" | "walker.notText" = "walker.stray"): void {
		if (this.aborted) return;
		if (++this.strays < MAX_STRAY_ANSWERS) {
			this.message = this.view.texts.t(why);
			return;
		}
		const kind = answer === null ? "null" : `${/^[aeiou]/.test(typeof answer) ? "an" : "a"} ${typeof answer}`;
		const shown =
			typeof answer !== "string"
				? `${kind}, not text,`
				: `${JSON.stringify(answer.length > 80 ? `${answer.slice(0, 80)}…` : answer)}, which is not one of its rows,`;
		if (why === "walker.notText")
			throw new Error(
				`The RPC client answered an editor with ${shown} ${MAX_STRAY_ANSWERS} times in a row: an editor must return ` +
					`its text as a string, or cancel.`,
			);
		throw new Error(
			`The RPC client answered a select with ${shown} ${MAX_STRAY_ANSWERS} times in a row: a select must return one ` +
				`of its options exactly.`,
		);
	}

	private takeMessage(): string | undefined {
		const message = this.message;
		this.message = undefined;
		return message;
	}

	private dispatch(...actions: Action[]): void {
		for (const action of actions) {
			const before = this.state;
			this.state = update(before, action);
			reportProgress(this.options.onProgress, this.state, before);
		}
	}

	/** Undefined when the signal aborts first: a dialog may not support a signal. */
	private async dialog(promise: Promise<string | undefined>): Promise<string | undefined> {
		const raced = await raceAbort(promise, this.options.signal);
		if (!raced.aborted) return raced.value;
		// No RPC dialog can be withdrawn: the client is told that an answer to the open one will be ignored.
		this.ui.notify?.(this.view.texts.t("walker.closed"), "warning");
		return undefined;
	}
}
