/**
 * What the next key may show, drawn off screen while the user reads: the question in view with the focus on each other
 * row (its detail pane, a long preview wrapped), then each other question. A key onto one finds its lines kept (the
 * views' `recall`, the fitter's memo), as a second visit does, instead of making them then: milliseconds for a long
 * preview. Only after WARM_AFTER_MS without a new frame, one drawing per turn of the event loop (a key waits behind one
 * at most), and never once the form is closed.
 */

import { currentQuestion, type FormState, rowCount, withQuestion } from "../machine/model.ts";

/** A pause longer than a burst of keys, shorter than reading a row. */
export const WARM_AFTER_MS = 150;
/** At most this many drawings a frame asks for: the largest form's other rows (six) and questions (three) fit. */
const MAX_WARM = 12;

export class Warmer {
	private timer: ReturnType<typeof setTimeout> | undefined;
	/** The last frame's state, and when it was drawn: a key costs no more than noting them. */
	private latest: FormState | undefined;
	private drawnAt = 0;
	/** What the queue was made from: a frame of the same (a clock's tick) goes on with it, or makes none again. */
	private warmed: readonly unknown[] = [];
	private queue: FormState[] = [];

	/** `draw`: one frame of `state`, its lines dropped; it must not change anything the user sees. */
	constructor(private readonly draw: (state: FormState) => void) {}

	/** A frame of `state` was drawn: after a pause, what its next keys may show. */
	drawn(state: FormState): void {
		this.latest = state;
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
		const facts = [state.questions, state.tab, state.notes, state.drafts, state.overlay, state.peeking];
		if (!facts.every((fact, i) => fact === this.warmed[i])) {
			this.warmed = facts;
			this.queue = nextStates(state);
		}
		try {
			const next = this.queue.shift();
			if (next) this.draw(next);
		} catch {
			// Only time was to be saved: the keys draw it themselves.
			this.queue = [];
		}
		if (this.queue.length > 0) this.arm(0);
	}
}

/** The states one key away that show something new: each other row focused (below first), each other question. */
function nextStates(state: FormState): FormState[] {
	if (state.overlay.kind !== "none" || state.peeking || state.outcome !== undefined) return [];
	const at = currentQuestion(state);
	const states: FormState[] = [];
	if (at) {
		const rows = rowCount(state, at.index);
		for (let step = 1; step < rows; step++) {
			const row = (at.qs.focus + step) % rows;
			states.push(withQuestion(state, at.index, { focus: row, detailScroll: 0 }));
		}
	}
	state.form.questions.forEach((_, tab) => {
		if (tab !== state.tab) states.push({ ...state, tab });
	});
	return states.slice(0, MAX_WARM);
}
