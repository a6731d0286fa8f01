/**
 * What the next key may show, drawn off screen while the user reads: the question in view with the focus on each other
 * row (its detail pane, a long preview wrapped), then each other question. A key onto one finds its lines kept (the
 * views' `recall`, the fitter's memo), as a second visit does, instead of making them then: milliseconds for a long
 * preview. Only after WARM_AFTER_MS without a new frame, one drawing per turn of the event loop (a key waits behind one
 * at most), and never once the form is closed.
 */

import { currentQuestion, type FormState, rowCount } from "../machine/model.ts";
import { update } from "../machine/update.ts";

/** A pause longer than a burst of keys, shorter than reading a row. */
export const WARM_AFTER_MS = 150;
/**
 * The rows drawn ahead, nearest first: with the frame shown, seven per question, within what the views keep of each
 * (layout.ts `recall`: eight), so the frame of the nearest row is not pushed out by a farther one.
 */
const MAX_ROWS = 6;

export class Warmer {
	private timer: ReturnType<typeof setTimeout> | undefined;
	/** The last frame's state, its size, and when it was drawn: a key costs no more than noting them. */
	private latest: FormState | undefined;
	private width = 0;
	private height = 0;
	private drawnAt = 0;
	/** What the queue was made from: a frame of the same (a clock's tick) goes on with it, or makes none again. */
	private warmed: readonly unknown[] = [];
	private queue: FormState[] = [];

	/** `draw`: one frame of `state`, its lines dropped; it must not change anything the user sees. */
	constructor(private readonly draw: (state: FormState) => void) {}

	/** A frame of `state` was drawn at `width` × `height`: after a pause, what its next keys may show. */
	drawn(state: FormState, width: number, height: number): void {
		this.latest = state;
		this.width = width;
		this.height = height;
		this.drawnAt = Date.now();
		if (this.timer === undefined) this.arm(WARM_AFTER_MS);
	}

	stop(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
		this.latest = undefined;
		this.queue = [];
		this.warmed = [];
	}

	private arm(delay: number): void {
		this.timer = setTimeout(() => this.tick(), delay);
		this.timer.unref?.();
	}

	private tick(): void {
		this.timer = undefined;
		const state = this.latest;
		if (state === undefined) return;
		const quiet = Date.now() - this.drawnAt;
		if (quiet < WARM_AFTER_MS) return this.arm(WARM_AFTER_MS - quiet);
		try {
			const { questions, tab, notes, drafts, overlay, peeking } = state;
			const facts = [questions, tab, notes, drafts, overlay, peeking, this.width, this.height];
			if (!facts.every((fact, i) => fact === this.warmed[i])) {
				this.warmed = facts;
				this.queue = nextStates(state);
			}
			const next = this.queue.shift();
			if (next) this.draw(next);
		} catch {
			// Only time was to be saved: the keys draw it themselves.
			this.queue = [];
		}
		if (this.queue.length > 0) this.arm(0);
	}
}

/**
 * The states one key away that show something new, made by the keys' own actions: each other row focused (the nearest
 * first, below before above), then the next question and the one before.
 */
function nextStates(state: FormState): FormState[] {
	if (state.overlay.kind !== "none" || state.peeking || state.outcome !== undefined) return [];
	const at = currentQuestion(state);
	const rows = at ? rowCount(state, at.index) : 0;
	const focus = at?.qs.focus ?? 0;
	const near: number[] = [];
	for (let step = 1; step < rows && near.length < MAX_ROWS; step++)
		for (const row of [focus + step, focus - step])
			if (row >= 0 && row < rows && near.length < MAX_ROWS) near.push(row);
	const states = [
		...near.map((row) => update(state, { type: "focus", row })),
		update(state, { type: "switchTab", delta: 1 }),
		update(state, { type: "switchTab", delta: -1 }),
	];
	// Only frames of the form's own rows: a tab that opens the editor (a question without options) is left to its key.
	return states.filter((next) => next !== state && next.overlay.kind === "none");
}
