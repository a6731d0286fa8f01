/**
 * An independent model of what the user's keys choose: what a person reading
 * the contract (§3) and the key table would expect the form to return.
 *
 * Written from the contract, not from src/form: a mutable object, one method
 * per kind of key, its own reading of raw keys, and a plain text buffer
 * standing in for pi-tui's Editor (insert at the end, Backspace deletes the
 * last grapheme, Shift+Enter or a backslash before Enter makes a new line,
 * a bracketed paste is cleaned the way the Editor cleans it). The key
 * sequences that drive it keep the Editor's cursor at the end of its text
 * (no arrows while editing) and its pastes small (no "[paste #1]" markers).
 *
 * It knows answers, skips, notes, drafts, the tab, the focus, the overlay, the
 * armed Esc and Enter and the outcome — nothing about layout or scrolling.
 */

import type {
	AskAnswer,
	AskDraft,
	AskForm,
	AskNote,
	AskSelection,
	AskStatus,
	Collected,
} from "../../../src/core/types.ts";
import { LIMITS } from "../../../src/core/types.ts";
import { KEY } from "../../form/support.ts";

/** Raw input the generators use: the same keys the form's own tests press. */
export const RAW = KEY;

export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";

type Intent =
	| { kind: "move"; delta: 1 | -1 }
	| { kind: "digit"; row: number }
	| { kind: "enter" }
	| { kind: "space" }
	| { kind: "tab"; delta: 1 | -1 }
	| { kind: "note" }
	| { kind: "questionNote" }
	| { kind: "skip" }
	| { kind: "chat" }
	| { kind: "peek" }
	| { kind: "help" }
	| { kind: "escape" }
	| { kind: "scroll" }
	| { kind: "interrupt" }
	| { kind: "other" };

/** What a raw key means on the form (not in the editor), per the contract's key table. */
export function formIntent(raw: string): Intent {
	switch (raw) {
		case RAW.up:
		case "k":
			return { kind: "move", delta: -1 };
		case RAW.down:
		case "j":
			return { kind: "move", delta: 1 };
		case RAW.enter:
			return { kind: "enter" };
		case RAW.space:
			return { kind: "space" };
		case RAW.right:
		case RAW.tab:
			return { kind: "tab", delta: 1 };
		case RAW.left:
		case RAW.shiftTab:
			return { kind: "tab", delta: -1 };
		case "n":
			return { kind: "note" };
		case "N":
			return { kind: "questionNote" };
		case "s":
			return { kind: "skip" };
		case "c":
			return { kind: "chat" };
		case "p":
			return { kind: "peek" };
		case "?":
			return { kind: "help" };
		case RAW.escape:
			return { kind: "escape" };
		case RAW.pageUp:
		case RAW.pageDown:
			return { kind: "scroll" };
		case RAW.ctrlC:
			return { kind: "interrupt" };
	}
	// 0 is the tenth row.
	if (/^[0-9]$/.test(raw)) return { kind: "digit", row: (Number(raw) + 9) % 10 };
	return { kind: "other" };
}

/** Keys that move the Editor's cursor or do more than insert: never sent while the model's editor is open. */
export function isEditorSafe(raw: string): boolean {
	if (raw === RAW.enter || raw === RAW.escape || raw === RAW.backspace || raw === RAW.shiftEnter || raw === RAW.ctrlC)
		return true;
	if (raw.startsWith(PASTE_START)) return true;
	// Printable text only: no escape sequences, no controls (Tab included).
	return raw.length > 0 && !/[\x00-\x1f\x7f]/.test(raw);
}

/** The whole form's targets have `q` = the question count: they sort after every question's target. */
type Target =
	| { kind: "custom"; q: number }
	| { kind: "note"; q: number }
	| { kind: "optionNote"; q: number; o: number }
	| { kind: "formNote"; q: number }
	| { kind: "chat"; q: number };

interface QuestionModel {
	focus: number;
	picked: Set<number>;
	freeText: string | undefined;
	freeTextOn: boolean;
	note: string | undefined;
	optionNotes: Map<number, string>;
	skipped: boolean;
	/** "You decide": left to the model, alone. */
	delegated: boolean;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

export class AnswerModel {
	tab = 0;
	/** The Submit tab has been shown. */
	private reviewed = false;
	reviewFocus: number;
	overlay: "none" | "help" | "editor" = "none";
	/** Folded to one line: p, Esc and Enter bring it back; every other key does nothing. */
	peeking = false;
	target: Target | undefined;
	buffer = "";
	escArmed = false;
	/** Enter asked for a second Enter: a submit that would drop drafts, or the review's Cancel. */
	enterArmed: "submit" | "dismiss" | undefined;
	outcome: "answered" | "dismissed" | "aborted" | "chat" | undefined;
	chatMessage: string | undefined;
	readonly questions: QuestionModel[];
	formNote: string | undefined;
	private readonly drafts = new Map<string, { target: Target; text: string }>();

	constructor(readonly form: AskForm) {
		this.questions = form.questions.map(() => ({
			focus: 0,
			picked: new Set<number>(),
			freeText: undefined,
			freeTextOn: false,
			note: undefined,
			optionNotes: new Map<number, string>(),
			skipped: false,
			delegated: false,
		}));
		this.reviewFocus = form.questions.length;
		// A text-only question opens straight into its editor.
		if (form.questions[0]?.options.length === 0) this.openEditor({ kind: "custom", q: 0 });
	}

	// ── Keys ───────────────────────────────────────────────────────────────

	press(raw: string): void {
		this.pressKey(raw);
		// Once the Submit tab has been shown, answering moves on only to required questions.
		if (this.tab === this.form.questions.length) this.reviewed = true;
	}

	private pressKey(raw: string): void {
		if (this.outcome) return;
		if (raw === RAW.ctrlC) return this.abort();
		if (this.overlay === "editor") return this.editorKey(raw);
		const intent = formIntent(raw);
		if (this.peeking) {
			if (intent.kind === "peek" || intent.kind === "escape" || intent.kind === "enter") {
				this.peeking = false;
				this.escArmed = false;
				this.enterArmed = undefined;
			}
			return;
		}
		if (this.overlay === "help") return this.helpKey(intent);
		if (this.typesHere(raw)) {
			this.escArmed = false;
			this.enterArmed = undefined;
			this.openEditor({ kind: "custom", q: this.tab });
			return this.editorKey(raw);
		}
		if (intent.kind !== "escape") this.escArmed = false;
		const armed = this.enterArmed;
		this.enterArmed = undefined;
		switch (intent.kind) {
			case "move":
				return this.move(intent.delta);
			case "digit":
				// A number key chooses that row (the default numberKeys setting): Space's act in a multi-select, else Enter's.
				if (!this.onQuestion() || intent.row >= this.rows(this.tab)) return;
				this.q().focus = intent.row;
				return this.question().multiSelect ? this.space() : this.enter(undefined);
			case "enter":
				return this.enter(armed);
			case "space":
				return this.space();
			case "tab":
				if (this.tabs() > 1) this.tab = (this.tab + intent.delta + this.tabs()) % this.tabs();
				return;
			case "note":
			case "questionNote":
				if (!this.onQuestion()) return this.openEditor({ kind: "formNote", q: this.form.questions.length });
				if (intent.kind === "questionNote") return this.openEditor({ kind: "note", q: this.tab });
				return this.openEditor(
					this.q().focus < this.question().options.length
						? { kind: "optionNote", q: this.tab, o: this.q().focus }
						: { kind: "note", q: this.tab },
				);
			case "skip":
				return this.skip();
			case "chat":
				return this.openEditor({ kind: "chat", q: this.form.questions.length });
			case "peek":
				this.peeking = true;
				return;
			case "help":
				this.overlay = "help";
				return;
			case "escape":
				if (this.escArmed) this.outcome = "dismissed";
				else this.escArmed = true;
				return;
			case "scroll":
			case "other":
			case "interrupt":
				return;
		}
	}

	/** On "Type something…" (the last row, where a question has it) typing writes: a printable key or a paste, not Space. */
	typesHere(raw: string): boolean {
		if (this.outcome || this.overlay !== "none" || this.peeking || !this.onQuestion()) return false;
		const question = this.question();
		if (!question.allowOther || this.q().focus !== question.options.length) return false;
		return raw.startsWith(PASTE_START) || (raw !== RAW.space && raw.length > 0 && !/[\x00-\x1f\x7f]/.test(raw));
	}

	private helpKey(intent: Intent): void {
		if (intent.kind === "help" || intent.kind === "escape") this.overlay = "none";
	}

	private move(delta: 1 | -1): void {
		if (this.onQuestion()) {
			const rows = this.rows(this.tab);
			this.q().focus = (this.q().focus + delta + rows) % rows;
			return;
		}
		const rows = this.form.questions.length + 2;
		this.reviewFocus = (this.reviewFocus + delta + rows) % rows;
	}

	/** `armed`: what the previous Enter asked; this Enter confirms it, wherever the focus is. */
	private enter(armed: "submit" | "dismiss" | undefined): void {
		const count = this.form.questions.length;
		if (armed === "submit") return this.submit(true);
		if (armed === "dismiss") {
			this.outcome = "dismissed";
			return;
		}
		if (!this.onQuestion()) {
			if (this.reviewFocus === count) this.submit();
			else if (this.reviewFocus === count + 1) this.enterArmed = "dismiss";
			else this.tab = this.reviewFocus;
			return;
		}
		const question = this.question();
		const q = this.q();
		if (q.focus === question.options.length && question.allowOther)
			return this.openEditor({ kind: "custom", q: this.tab });
		if (q.focus === this.decideRow(this.tab)) {
			this.delegate(q);
			return this.next(this.tab);
		}
		if (!question.multiSelect) {
			q.picked = new Set([q.focus]);
			q.freeTextOn = false;
			q.skipped = false;
			q.delegated = false;
			return this.next(this.tab);
		}
		if (!this.answered(this.tab)) {
			q.picked = new Set([q.focus]);
			q.skipped = false;
		}
		this.next(this.tab);
	}

	private space(): void {
		if (!this.onQuestion() || !this.question().multiSelect) return;
		const q = this.q();
		if (q.focus === this.decideRow(this.tab)) {
			if (q.delegated) q.delegated = false;
			else this.delegate(q);
			return;
		}
		if (q.focus === this.question().options.length) {
			if (q.freeText === undefined) return this.openEditor({ kind: "custom", q: this.tab });
			q.freeTextOn = !q.freeTextOn;
		} else if (q.picked.has(q.focus)) q.picked.delete(q.focus);
		else q.picked.add(q.focus);
		q.skipped = false;
		q.delegated = false;
	}

	/** "You decide": nothing else stays chosen. */
	private delegate(q: QuestionModel): void {
		q.picked = new Set();
		q.freeTextOn = false;
		q.skipped = false;
		q.delegated = true;
	}

	private skip(): void {
		if (!this.onQuestion() || this.question().required) return;
		const q = this.q();
		q.picked = new Set();
		q.freeTextOn = false;
		q.skipped = true;
		q.delegated = false;
		this.next(this.tab);
	}

	/** After question `from` was answered or skipped: the next question still to do, else review on Submit (or submit, for one question). */
	private next(from: number): void {
		const count = this.form.questions.length;
		if (count === 1) return this.submit();
		for (let step = 1; step < count; step++) {
			const i = (from + step) % count;
			if (!this.answered(i) && !this.questions[i]!.skipped && (this.form.questions[i]!.required || !this.reviewed)) {
				this.tab = i;
				if (this.form.questions[i]!.options.length === 0) this.openEditor({ kind: "custom", q: i });
				return;
			}
		}
		this.tab = count;
		this.reviewFocus = count;
	}

	/** Unsaved drafts would be lost: that asks for a second Enter unless `confirmed`. */
	private submit(confirmed = false): void {
		const missing = this.form.questions.findIndex((question, i) => question.required && !this.answered(i));
		if (missing !== -1) this.tab = missing;
		else if (!confirmed && this.pendingDrafts().length > 0) this.enterArmed = "submit";
		else this.outcome = "answered";
	}

	// ── The editor ─────────────────────────────────────────────────────────

	private openEditor(target: Target): void {
		this.overlay = "editor";
		this.target = target;
		this.buffer = this.drafts.get(keyOf(target))?.text ?? this.saved(target) ?? "";
	}

	/** Esc in the editor, or the form closing under it: the text stays as a draft unless it is blank or what is saved. */
	private leaveEditor(): void {
		const target = this.target!;
		if (this.buffer.trim() === "" || this.buffer === this.saved(target)) this.drafts.delete(keyOf(target));
		else this.drafts.set(keyOf(target), { target, text: this.buffer });
		this.overlay = "none";
		this.target = undefined;
	}

	private editorKey(raw: string): void {
		if (raw === RAW.escape) return this.leaveEditor();
		if (raw === RAW.enter) {
			if (this.buffer.endsWith("\\")) {
				this.buffer = `${this.buffer.slice(0, -1)}\n`;
				return;
			}
			return this.save();
		}
		if (raw === RAW.backspace) {
			const graphemes = [...segmenter.segment(this.buffer)];
			const last = graphemes[graphemes.length - 1];
			if (last) this.buffer = this.buffer.slice(0, this.buffer.length - last.segment.length);
			return;
		}
		if (raw === RAW.shiftEnter) {
			this.buffer += "\n";
			return;
		}
		if (raw.startsWith(PASTE_START)) {
			const pasted = raw.slice(PASTE_START.length, raw.length - PASTE_END.length);
			this.buffer += [...pasted.replace(/\r\n?/g, "\n").replace(/\t/g, "    ")]
				.filter((c) => c === "\n" || c.charCodeAt(0) >= 32)
				.join("");
			return;
		}
		this.buffer += raw;
	}

	/**
	 * The form closes from outside (the run's abort, a timeout, the interrupt
	 * key): what the open editor holds is kept as a draft, whatever its length
	 * — it was never confirmed, so it replaces no answer.
	 */
	abort(): void {
		if (this.outcome) return;
		if (this.overlay === "editor") this.leaveEditor();
		this.outcome = "aborted";
	}

	/** Enter in the editor: save, or refuse a text over the limit and stay. */
	private save(): void {
		const text = this.buffer;
		if (text.length > LIMITS.freeText) return; // refused: the editor stays open with the text
		const target = this.target!;
		this.drafts.delete(keyOf(target));
		this.overlay = "none";
		this.target = undefined;
		const value = text.trim() === "" ? undefined : text;
		if (target.kind === "formNote") {
			this.formNote = value;
			return;
		}
		if (target.kind === "chat") {
			if (value === undefined) return;
			this.chatMessage = value;
			this.outcome = "chat";
			return;
		}
		const q = this.questions[target.q]!;
		if (target.kind === "note") q.note = value;
		else if (target.kind === "optionNote") {
			if (value === undefined) q.optionNotes.delete(target.o);
			else q.optionNotes.set(target.o, value);
		} else if (value === undefined) {
			q.freeText = undefined;
			q.freeTextOn = false;
		} else {
			q.freeText = value;
			q.freeTextOn = true;
			q.skipped = false;
			q.delegated = false;
			if (!this.form.questions[target.q]!.multiSelect) {
				q.picked = new Set();
				this.next(target.q);
			}
		}
	}

	private saved(target: Target): string | undefined {
		if (target.kind === "formNote") return this.formNote;
		if (target.kind === "chat") return this.chatMessage;
		const q = this.questions[target.q]!;
		if (target.kind === "custom") return q.freeText;
		return target.kind === "note" ? q.note : q.optionNotes.get(target.o);
	}

	/** Drafts that hold something new (not blank, not the saved text): in question order, free answer, note, option notes. */
	private pendingDrafts(): { target: Target; text: string }[] {
		const order: Record<Exclude<Target["kind"], "optionNote">, number> = { custom: 0, note: 1, formNote: 0, chat: 1 };
		const rank = (t: Target) => t.q * 1000 + (t.kind === "optionNote" ? 2 + t.o : order[t.kind]);
		return [...this.drafts.values()]
			.filter(({ target, text }) => text.trim() !== "" && text !== this.saved(target))
			.sort((a, b) => rank(a.target) - rank(b.target));
	}

	// ── What the form should return ────────────────────────────────────────

	/** The answers as the contract words them (§4, src/core/types.ts Collected), for the form's outcome or `status`. */
	expected(status: AskStatus = this.outcome ?? "aborted"): Collected {
		const answers: Record<string, AskAnswer> = {};
		const skipped: string[] = [];
		const delegated: string[] = [];
		const notes: AskNote[] = [];
		this.form.questions.forEach((question, i) => {
			const q = this.questions[i]!;
			if (q.delegated) delegated.push(question.id);
			else if (this.answered(i)) {
				const selections: AskSelection[] = question.options
					.filter((_, o) => q.picked.has(o))
					.map((option) => ({ value: option.value, label: option.label }));
				if (q.freeTextOn && q.freeText !== undefined)
					selections.push({ value: q.freeText, label: q.freeText, custom: true });
				// The question's note goes to `notes` only (types.ts: AskAnswer.note is filled in details, not by a UI).
				answers[question.id] = { kind: question.multiSelect ? "multi" : "single", selections };
			} else if (q.skipped || (status === "answered" && !question.required)) {
				skipped.push(question.id);
			}
			if (q.note !== undefined) notes.push({ questionId: question.id, text: q.note });
			question.options.forEach((option, o) => {
				const text = q.optionNotes.get(o);
				if (text !== undefined) notes.push({ questionId: question.id, option: option.label, text });
			});
		});
		if (this.formNote !== undefined) notes.push({ text: this.formNote });
		const collected: Collected = { status, answers, skipped, notes };
		if (delegated.length > 0) collected.delegated = delegated;
		if (this.chatMessage !== undefined) collected.chatMessage = this.chatMessage;
		// A submit drops the drafts: the user was asked, and chose.
		const pending = status === "answered" ? [] : this.pendingDrafts();
		const drafts: AskDraft[] = pending.map(({ target, text }) => this.draftOf(target, text));
		if (drafts.length > 0) collected.drafts = drafts;
		return collected;
	}

	private draftOf(target: Target, text: string): AskDraft {
		if (target.kind === "formNote") return { kind: "note", text };
		if (target.kind === "chat") return { kind: "chat", text };
		const question = this.form.questions[target.q]!;
		if (target.kind === "custom") return { questionId: question.id, kind: "answer", text };
		if (target.kind === "note") return { questionId: question.id, kind: "note", text };
		return { questionId: question.id, kind: "note", option: question.options[target.o]!.label, text };
	}

	// ── Small readers ──────────────────────────────────────────────────────

	tabs(): number {
		return this.form.questions.length > 1 ? this.form.questions.length + 1 : 1;
	}

	onQuestion(): boolean {
		return this.tab < this.form.questions.length;
	}

	answered(i: number): boolean {
		const q = this.questions[i]!;
		return q.delegated || q.picked.size > 0 || (q.freeTextOn && q.freeText !== undefined);
	}

	/** The options, "Type something…" (allowOther), "You decide" (every question: the setting's default). */
	private rows(i: number): number {
		return this.decideRow(i) + 1;
	}

	private decideRow(i: number): number {
		const question = this.form.questions[i]!;
		return question.options.length + (question.allowOther ? 1 : 0);
	}

	private question() {
		return this.form.questions[this.tab]!;
	}

	private q(): QuestionModel {
		return this.questions[this.tab]!;
	}
}

function keyOf(target: Target): string {
	return target.kind === "optionNote" ? `${target.kind}:${target.q}:${target.o}` : `${target.kind}:${target.q}`;
}
