/**
 * Scrolling: PageUp/PageDown resolved against the viewport the view last
 * drew, and the offsets each region asks for. Reading (FormState.reading)
 * starts here; update ends it on the next other key.
 */

import { type FormState, isSubmitTab, type ScrollPort, type ScrollTarget, type Viewport } from "./model.ts";
import { whenOnQuestion, withQuestion } from "./patch.ts";

/**
 * PageUp/PageDown against the ports as last drawn. Down scrolls the page
 * first, then the detail pane inside it; up the other way round — like nested
 * scrolling. Scrolling a body starts reading (see FormState.reading).
 */
export function page(state: FormState, direction: 1 | -1, byLine: boolean): FormState {
	const ports = state.viewport.ports;
	const order = direction > 0 ? ports : [...ports].reverse();
	for (const port of order) {
		const top = Math.min(Math.max(port.top + direction * (byLine ? 1 : port.page), port.min), port.max);
		if (top === port.top) continue;
		// The port moves now, so a second key before the next frame goes on from here.
		const moved = ports.map((p): ScrollPort => (p === port ? { ...p, top } : p));
		const scrolled = scrollTo(state, port.target, top);
		return { ...scrolled, reading: scrolled.reading || port.target === "body", viewport: { ...state.viewport, ports: moved } };
	}
	return state;
}

export function withViewport(state: FormState, viewport: Viewport): FormState {
	const now = state.viewport;
	if (now.focusHidden === viewport.focusHidden && samePorts(now.ports, viewport.ports)) return state;
	return { ...state, viewport: { ports: viewport.ports, focusHidden: viewport.focusHidden } };
}

function samePorts(a: readonly ScrollPort[], b: readonly ScrollPort[]): boolean {
	if (a.length !== b.length) return false;
	return a.every((p, i) => {
		const q = b[i];
		return q !== undefined && p.target === q.target && p.top === q.top && p.min === q.min && p.max === q.max && p.page === q.page;
	});
}

export function scrollTo(state: FormState, target: ScrollTarget, top: number): FormState {
	if (target === "help") return state.helpScroll === top ? state : { ...state, helpScroll: top };
	if (isSubmitTab(state)) {
		if (target !== "body" || state.review.scroll === top) return state;
		return { ...state, review: { ...state.review, scroll: top } };
	}
	return whenOnQuestion(state, (index, _question, qs) => {
		if (target === "body") return qs.scroll === top ? state : withQuestion(state, index, { scroll: top });
		return qs.detailScroll === top ? state : withQuestion(state, index, { detailScroll: top });
	});
}
