/**
 * The extensions a test file loaded (support/extension.ts), kept on globalThis so that the unit suite's setup
 * (isolate-setup.ts), which outlives the file's own copy of the modules, can end their sessions when the file ends.
 */

type Quit = () => Promise<unknown>;

const OPEN = Symbol.for("pi-ask-user/test-open-extensions");

function open(): Set<Quit> {
	const holder = globalThis as { [OPEN]?: Set<Quit> };
	holder[OPEN] ??= new Set();
	return holder[OPEN];
}

export const rememberOpenExtension = (quit: Quit): void => void open().add(quit);

/** Ends every remembered extension's session as pi does when it quits; a failure there is the file's own business. */
export async function quitOpenExtensions(): Promise<void> {
	for (const quit of open()) await quit().catch(() => undefined);
	open().clear();
}
