/**
 * The thin impure shell around the state machine: a pi-tui Component that
 * turns keys into actions, owns the Editor, caches its render, reports
 * progress and the outcome. Kept here and nowhere else:
 * - `onDone` is called once: `closed` is set first, and every entry point
 *   returns early once it is set;
 * - an exception while handling a key or rendering ends the form as "error"
 *   (answers so far kept) instead of taking pi down;
 * - the form is never taller than the terminal allows (formHeight) and the
 *   editor's lines never wider than the width.
 */

import {
	type Component,
	Editor,
	type EditorTheme,
	type Focusable,
	type KeybindingsManager,
	type KeyId,
	type MarkdownTheme,
	type TUI,
} from "@mariozechner/pi-tui";
import { truncateToWidth, visibleWidth } from "@mariozechner/pi-tui";
import { collect, reportProgress } from "../machine/collect.ts";
import { editorPrefill, type FormState, onTypeRow } from "../machine/model.ts";
import { restoredState, savedAnswers } from "../machine/saved.ts";
import { type Action, initialState, update } from "../machine/update.ts";
import { type AskForm, type AskOptions, type AskStatus, type Collected, errorText, phrase } from "../core/types.ts";
import { type FormFrameInput, renderForm } from "./form-view.ts";
import { ENGLISH } from "../i18n/texts.ts";
import { completion, type EditorHost, editorKey } from "./editor-keys.ts";
import { formatTimeLeft } from "./time-left.ts";
import { formHeight } from "./height.ts";
import {
	type Command,
	isTyped,
	type KeyHelp,
	type KeyMode,
	keyModeOf,
	keyName,
	keyNames,
	keyReader,
	keyTable,
	usableSlots,
} from "./keymap.ts";
import type { ViewContext } from "./layout.ts";
import { TextFitter } from "./text-fit.ts";
import { Warmer } from "./warm.ts";
import type { FormTheme } from "./theme.ts";

/**
 * What the form takes besides the ask's options: pi's interrupt key, and when the time to answer runs out (epoch ms,
 * for the countdown).
 */
export type FormOptions = AskOptions & { onInterrupt?(): void; deadline?: number };

/**
 * `onDone`: called exactly once, with whatever was collected (`dropped`: pi disposed the form unclosed);
 * `markdownTheme`: pi's markdown styles, for previews that read as markdown (else plain text).
 */
export type AskFormComponentOptions = FormOptions & {
	tui: TUI;
	theme: FormTheme;
	keybindings: KeybindingsManager;
	form: AskForm;
	onDone: (collected: Collected, dropped?: boolean) => void;
	markdownTheme?: MarkdownTheme;
};

export class AskFormComponent implements Component, Focusable {
	private state: FormState;
	/**
	 * The Editor of the last opening, kept after it closes until the next one
	 * (read it through openEditor): with none alive, V8 drops the object shapes
	 * the Editor's code was optimised for and optimises it anew after every
	 * collection, and the heap grows with the code.
	 */
	private editor: Editor | undefined;
	/**
	 * Renewed by invalidate() (a new theme): what the views keep per context (layout.ts `recall`) and the fitted text,
	 * markdown previews styled, are made again.
	 */
	private ctx: ViewContext;
	private readonly table: KeyHelp[];
	private readonly editorTheme: EditorTheme;
	private cache: { width: number; rows: number; timeLeft: string | undefined; lines: string[] } | undefined;
	/** Redraws the countdown once a second while there is a deadline. */
	private ticker: ReturnType<typeof setInterval> | undefined;
	private lastWidth: number | undefined;
	/** What the last frame was drawn from: the warmer draws the next keys' frames from it. */
	private lastInput: FormFrameInput | undefined;
	private readonly warmer = new Warmer((state) => {
		if (this.lastInput) renderForm({ ...this.lastInput, state }, this.ctx);
	});
	private closed = false;
	private dropped = false;
	private hasFocus = false;
	private readonly commandFor: (data: string, mode: KeyMode) => Command | undefined;

	constructor(private readonly options: AskFormComponentOptions) {
		const texts = options.texts ?? ENGLISH;
		const { slots, taken } = usableSlots(
			options.keybindings,
			options.peekKey === undefined ? undefined : { peek: options.peekKey as KeyId },
		);
		this.commandFor = keyReader(options.keybindings, slots);
		this.ctx = {
			theme: options.theme,
			fit: new TextFitter(options.markdownTheme),
			keys: keyNames(options.keybindings, texts, slots),
			texts,
		};
		this.table = keyTable(options.keybindings, texts, slots);
		// Read at each call: refresh() puts a new theme's styles in place.
		const live = (style: Exclude<keyof FormTheme, "refresh">) => (s: string) => options.theme[style](s);
		const selectList = {
			selectedPrefix: live("accent"),
			selectedText: live("accent"),
			description: live("muted"),
			scrollInfo: live("dim"),
			noMatch: live("warning"),
		};
		this.editorTheme = { borderColor: live("border"), selectList };
		const restored = options.keep?.restored;
		this.state =
			(restored && restoredState(options.form, restored.answers, options)) ?? initialState(options.form, options);
		if (restored) this.state = update(this.state, { type: "notice", tone: "warning", text: restored.notice });
		// A peek key the user's keybindings take for something else: say which key folds the form instead.
		if (taken.length > 0) {
			const text = phrase("form.peekKeyTaken", { key: keyName(options.peekKey ?? ""), fallback: keyName(slots.peek) });
			this.state = update(this.state, { type: "notice", tone: "warning", text });
		}
		// A text-only first question opens in the editor.
		this.editor = this.editorFor(this.state);
		if (options.deadline !== undefined) {
			this.ticker = setInterval(() => options.tui.requestRender(), 1000);
			this.ticker.unref?.();
		}
		reportProgress(options.onProgress, this.state);
		options.keep?.changed(this.answers);
	}

	/** What the keeper saves: the state's answers and the open editor's text. */
	private readonly answers = () => savedAnswers(this.state, this.openEditor?.getExpandedText());

	/** Set by the TUI; passed on to the Editor so it emits CURSOR_MARKER and an IME window sits at the cursor. */
	get focused(): boolean {
		return this.hasFocus;
	}

	set focused(value: boolean) {
		this.hasFocus = value;
		if (this.editor) this.editor.focused = value;
		this.cache = undefined;
	}

	/**
	 * pi 1.x's fullscreen TUI keeps PageUp/PageDown (its viewport keys) for the
	 * transcript unless the focused component claims them. The form claims them
	 * while it has something to scroll or its editor is open, and leaves them
	 * to pi otherwise, so the conversation above stays readable.
	 */
	get capturesViewportInput(): boolean {
		return this.openEditor !== undefined || this.state.viewport.ports.some((port) => port.max > port.min);
	}

	/** The state as it is now, read-only: tests check what a key did here without reading it off the screen. */
	get currentState(): FormState {
		return this.state;
	}

	handleInput(data: string): void {
		if (this.closed) return;
		try {
			const mode = keyModeOf(this.state);
			// On "Type something…" typing writes: a printable key (Space toggles) opens the editor with it, whatever it does
			// elsewhere.
			const typed = mode === "form" && onTypeRow(this.state) && isTyped(data);
			const command = typed ? ({ type: "editorInput" } as const) : this.commandFor(data, mode);
			// Keys can arrive faster than frames: update judges a key by the layout the user sees, so draw the last key's
			// frame first. Not for text typed into the open editor, which needs no layout: a burst of it (a paste without
			// bracketed paste) would draw the whole frame, the editor's text wrapped anew, once per character.
			const intoEditor = command?.type === "editorInput" && !typed;
			if (!intoEditor && !this.cache && this.lastWidth !== undefined) this.render(this.lastWidth);
			if (typed) this.dispatch({ type: "write" });
			if (command) this.run(command, data);
		} catch (error) {
			this.fail(error);
		}
	}

	render(width: number): string[] {
		const rows = this.options.tui.terminal.rows;
		const cache = this.cache;
		const timeLeft =
			this.options.deadline === undefined
				? undefined
				: formatTimeLeft(this.options.deadline - Date.now(), this.ctx.texts);
		if (cache && cache.width === width && (this.closed || (cache.rows === rows && cache.timeLeft === timeLeft)))
			return cache.lines;
		if (this.closed) return [];
		this.lastWidth = width;
		try {
			// pi-tui's Editor recurses without end when a wide character meets a width under 3:
			// render it at 3 at least, and cut its lines to the real width.
			const rendered = this.openEditor?.render(Math.max(EDITOR_MIN_WIDTH, width));
			const editorLines =
				width < EDITOR_MIN_WIDTH
					? rendered?.map((line) => (visibleWidth(line) > width ? truncateToWidth(line, width, "") : line))
					: rendered;
			const input: FormFrameInput = {
				state: this.state,
				width,
				height: formHeight(rows),
				table: this.table,
				asker: this.options.asker,
				task: this.options.task,
				link: this.options.link,
				editorLines,
				timeLeft,
			};
			const frame = renderForm(input, this.ctx);
			// Layout facts change no line of this frame: the cache stays.
			this.state = update(this.state, { type: "viewport", ports: frame.ports, focusHidden: frame.focusHidden });
			this.cache = { width, rows, timeLeft, lines: frame.lines };
			this.lastInput = input;
			this.warmer.drawn(input.state, width, input.height);
			return frame.lines;
		} catch (error) {
			this.fail(error);
			return [];
		}
	}

	invalidate(): void {
		this.cache = undefined;
		this.warmer.stop();
		this.options.theme.refresh?.();
		this.ctx = { ...this.ctx, fit: new TextFitter(this.options.markdownTheme) };
		this.editor?.invalidate();
	}

	/** The agent run was aborted: close at once, keeping the answers and what the open editor holds. */
	abort(): void {
		if (!this.closed) this.dispatch({ type: "abort", editorText: this.openEditor?.getExpandedText() });
	}

	dispose(): void {
		// pi drops a form it never closed (/reload, a session switch) without done(): it ends as aborted, what was typed
		// kept.
		this.dropped = !this.closed;
		this.abort();
		this.closed = true;
		clearInterval(this.ticker);
		this.warmer.stop();
		this.editor = undefined;
	}

	// ── Input ──────────────────────────────────────────────────────────────

	private run(command: Command, data: string): void {
		switch (command.type) {
			case "interrupt":
				this.options.onInterrupt?.();
				return this.abort();
			case "editorInput":
			case "editorDetach":
			case "editorPasteImage":
			case "editorSubmit":
			case "externalEditor":
			case "editorCancel":
				return editorKey(this.editorHost, command.type, data);
			default:
				this.dispatch(command);
		}
	}

	/** The form as its editor's keys see it (editor-keys.ts). */
	private readonly editorHost: EditorHost = ((form: AskFormComponent): EditorHost => ({
		get state() {
			return form.state;
		},
		get closed() {
			return form.closed;
		},
		get editor() {
			return form.openEditor;
		},
		get options() {
			return form.options;
		},
		dispatch: (action) => form.dispatch(action),
		changed: () => form.changed(),
	}))(this);

	private dispatch(action: Action): void {
		const before = this.state;
		const after = update(before, action);
		if (after === before) return;
		this.state = after;
		// A new Editor for each opening, so undo history never crosses from one answer or note to another.
		if (after.overlay !== before.overlay) this.editor = this.editorFor(after) ?? this.editor;
		reportProgress(this.options.onProgress, after, before);
		this.changed();
		if (after.outcome !== undefined) this.finish(after.outcome);
	}

	/** The TUI as the Editor sees it: what it draws on its own (completions found, after a key) is drawn anew. */
	private readonly editorTui = ((form: AskFormComponent) =>
		({
			get terminal() {
				return form.options.tui.terminal;
			},
			requestRender(force?: boolean) {
				form.cache = undefined;
				form.options.tui.requestRender(force);
			},
		}) as TUI)(this);

	private get openEditor(): Editor | undefined {
		return this.state.overlay.kind === "editor" ? this.editor : undefined;
	}

	private editorFor(state: FormState): Editor | undefined {
		if (state.overlay.kind !== "editor") return undefined;
		const editor = new Editor(this.editorTui, this.editorTheme, { paddingX: 0 });
		editor.disableSubmit = true;
		editor.setAutocompleteProvider(completion(this.editorHost));
		editor.setText(editorPrefill(state, state.overlay.target));
		editor.focused = this.hasFocus;
		return editor;
	}

	private changed(): void {
		this.cache = undefined;
		this.options.tui.requestRender();
		this.options.keep?.changed(this.answers);
	}

	// ── The outcome ────────────────────────────────────────────────────────

	private finish(status: AskStatus, error?: string): void {
		if (this.closed) return;
		this.closed = true;
		clearInterval(this.ticker);
		this.warmer.stop();
		const collected = collect(this.state, status);
		if (error !== undefined) collected.error = error;
		this.options.keep?.changed(this.answers);
		this.editor = undefined;
		this.options.onDone(collected, this.dropped);
	}

	private fail(error: unknown): void {
		try {
			this.state = update(this.state, { type: "abort", editorText: this.openEditor?.getExpandedText() });
		} catch {
			// The state as it was is still worth returning.
		}
		this.finish("error", `The form failed: ${errorText(error)}`);
	}
}

const EDITOR_MIN_WIDTH = 3;
