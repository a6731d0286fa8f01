/**
 * An X display of its own for a test (Xvfb) and a clipboard on it (xclip): where pi's clipboard reader (pi-tui's
 * native one, which needs a display on Linux) finds an image, as on a desktop after a screenshot.
 */

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";

export interface TestDisplay {
	/** For DISPLAY: ":N". */
	readonly display: string;
	/** Puts the file on the clipboard as `mime`, as a screenshot tool does; it stays there until the next call. */
	copyImage(path: string, mime: string): Promise<void>;
	stop(): Promise<void>;
}

/** Fails with what to install when Xvfb or xclip is missing (.ci/run installs both). */
function requireTools(): void {
	for (const tool of ["Xvfb", "xclip"]) {
		try {
			execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
		} catch {
			throw new Error(`${tool} is needed for the clipboard tests: apt-get install -y xvfb xclip`);
		}
	}
}

export async function startDisplay(): Promise<TestDisplay> {
	requireTools();
	// -displayfd: Xvfb picks a free display and writes its number there once it is ready.
	const server = spawn("Xvfb", ["-displayfd", "3", "-screen", "0", "640x480x24", "-nolisten", "tcp"], {
		stdio: ["ignore", "ignore", "ignore", "pipe"],
	});
	const number = await new Promise<string>((resolve, reject) => {
		let text = "";
		server.stdio[3]?.on("data", (chunk: Buffer) => {
			text += chunk.toString();
			if (text.includes("\n")) resolve(text.trim());
		});
		server.once("exit", (code) => reject(new Error(`Xvfb exited (${code}) before it was ready`)));
	});
	const display = `:${number}`;
	let owner: ChildProcess | undefined;
	const stopOwner = async () => {
		if (!owner || owner.exitCode !== null) return;
		const exited = once(owner, "exit");
		owner.kill();
		await exited;
	};
	return {
		display,
		async copyImage(path, mime) {
			await stopOwner();
			// -quiet: xclip stays in the foreground, holding the clipboard, until it is killed.
			owner = spawn("xclip", ["-quiet", "-selection", "clipboard", "-t", mime, "-i", path], {
				env: { ...process.env, DISPLAY: display },
				stdio: "ignore",
			});
			await waitForClipboard(display, mime);
		},
		async stop() {
			await stopOwner();
			const exited = once(server, "exit");
			server.kill();
			await exited;
		},
	};
}

/** Until the clipboard offers `mime` (xclip takes the selection a moment after it starts). */
async function waitForClipboard(display: string, mime: string): Promise<void> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		try {
			const targets = execFileSync("xclip", ["-selection", "clipboard", "-t", "TARGETS", "-o"], {
				env: { ...process.env, DISPLAY: display },
				encoding: "utf8",
				stdio: ["ignore", "pipe", "ignore"],
			});
			if (targets.split("\n").includes(mime)) return;
		} catch {
			// Nobody holds the clipboard yet.
		}
		if (Date.now() > deadline) throw new Error(`the clipboard did not offer ${mime} within 30 s`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}
