/**
 * A Terminal for pi-tui's TUI that is only memory: a size the test sets, the
 * bytes written, and a way to type. Enough for the real Editor, which reads
 * `tui.terminal.rows` and calls `tui.requestRender()`.
 */

import * as piTui from "@mariozechner/pi-tui";
import type { Terminal, TUI } from "@mariozechner/pi-tui";

export class FakeTerminal implements Terminal {
	written = "";
	private onInput: ((data: string) => void) | undefined;

	constructor(
		public width = 100,
		public height = 40,
	) {}

	start(onInput: (data: string) => void, _onResize: () => void): void {
		this.onInput = onInput;
	}
	stop(): void {
		this.onInput = undefined;
	}
	async drainInput(): Promise<void> {}
	write(data: string): void {
		this.written += data;
	}
	get columns(): number {
		return this.width;
	}
	get rows(): number {
		return this.height;
	}
	get kittyProtocolActive(): boolean {
		return false;
	}
	moveBy(_lines: number): void {}
	hideCursor(): void {}
	showCursor(): void {}
	clearLine(): void {}
	clearFromCursor(): void {}
	clearScreen(): void {}
	setTitle(_title: string): void {}
	setProgress(_active: boolean): void {}
	setProgramStatus(): void {}

	/** Types into whatever the TUI has focused. */
	type(data: string): void {
		this.onInput?.(data);
	}
}

/**
 * pi's inline TUI over a FakeTerminal that never draws: renders are requested,
 * not run. pi-tui 1.x names it TuiMainScreen; 0.73's was the TUI class (the
 * benchmark runs these in both).
 */
export function quietTui(width = 100, height = 40): { tui: TUI; terminal: FakeTerminal } {
	const terminal = new FakeTerminal(width, height);
	const exported = piTui as unknown as { TuiMainScreen?: InlineTui; TUI?: InlineTui };
	const Inline = exported.TuiMainScreen ?? exported.TUI;
	if (!Inline) throw new Error("pi-tui exports neither TuiMainScreen nor TUI");
	const tui = new Inline(terminal);
	tui.requestRender = () => {};
	return { tui, terminal };
}

type InlineTui = new (terminal: Terminal) => TUI;
