/**
 * Scrolling, for update.ts: PageUp/PageDown and the scroll bar move the ports the view last drew (the body, the detail
 * pane, the help screen), and the layout facts a view computes come back as a `viewport` action. Pure.
 */

import {
	type FormState,
	isSubmitTab,
	type ScrollPort,
	type ScrollTarget,
	type Viewport,
	withQuestion,
} from "./model.ts";

/**
 * PageUp/PageDown against the ports as last drawn: down the page first, then the detail pane in it; up the other way
 * round. A body scrolled starts reading.
 */
export function page(state: FormState, direction: 1 | -1, byLine: boolean): FormState {
	const ports = state.viewport.ports;
	for (const port of direction > 0 ? ports : [...ports].reverse()) {
		const top = Math.min(Math.max(port.top + direction * (byLine ? 1 : port.page), port.min), port.max);
		if (top === port.top) continue;
		// The port moves now, so a second key before the next frame goes on from here.
		const moved = ports.map((p): ScrollPort => (p === port ? { ...p, top } : p));
		const scrolled = scrollTo(state, port.target, top);
		return {
			...scrolled,
			reading: scrolled.reading || port.target === "body",
			viewport: { ...state.viewport, ports: moved },
		};
	}
	return state;
}

export function scrollTo(state: FormState, target: ScrollTarget, top: number): FormState {
	if (target === "help") return state.helpScroll === top ? state : { ...state, helpScroll: top };
	if (isSubmitTab(state))
		return target !== "body" || state.review.scroll === top
			? state
			: { ...state, review: { ...state.review, scroll: top } };
	const field = target === "body" ? "scroll" : "detailScroll";
	return state.questions[state.tab]?.[field] === top ? state : withQuestion(state, state.tab, { [field]: top });
}

export function withViewport(state: FormState, { ports, focusHidden }: Viewport): FormState {
	const now = state.viewport;
	const same = (p: ScrollPort, q: ScrollPort | undefined) =>
		q !== undefined &&
		p.target === q.target &&
		p.top === q.top &&
		p.min === q.min &&
		p.max === q.max &&
		p.page === q.page;
	if (
		now.focusHidden === focusHidden &&
		now.ports.length === ports.length &&
		now.ports.every((p, i) => same(p, ports[i]))
	)
		return state;
	return { ...state, viewport: { ports, focusHidden } };
}
