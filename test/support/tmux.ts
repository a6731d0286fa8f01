/**
 * The real pi TUI in a detached tmux session, driven by keys and read back by
 * capturing the pane. Each session runs on its own tmux server (`tmux -L`), so
 * a test never touches the user's tmux, and `kill()` takes the server and pi
 * down with it.
 *
 * Keys follow pi-facts: Escape is sent alone and followed by a pause (pi reads
 * a lone Escape only when nothing follows within a few ms), Shift+Enter as its
 * raw CSI-u sequence (tmux 3.3 has no name for it).
 */

import { execFile, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { READY_ENV } from "./model-script.ts";
import { type PiEnv, WAIT_MS } from "./pi-env.ts";

const execFileAsync = promisify(execFile);

/** Shift+Enter as pi-tui understands it (kitty CSI-u). */
export const SHIFT_ENTER = "\x1b[13;2u";
/** How long after a lone Escape before the next key (pi-facts: ~150 ms). */
const ESCAPE_PAUSE_MS = 150;
const POLL_MS = 50;

export type ScreenMatcher = string | RegExp | ((screen: string) => boolean);

/** A key for `send`: a tmux key name ("Enter", "Up", "C-c", "Escape"), or `{ text }` typed literally. */
export type Key = string | { text: string };

export interface TmuxOptions {
	cols?: number;
	rows?: number;
	/** Arguments after the env's own (e.g. nothing, for the interactive TUI). */
	extraArgs?: string[];
}

export interface RunOptions {
	cwd: string;
	/** The whole environment of the command (TERM defaults to xterm-256color). */
	env: Record<string, string>;
	/** Where tmux's config file goes (removed by the caller). */
	scratchDir: string;
	cols?: number;
	rows?: number;
}

export function requireTmux(): void {
	try {
		execFileSync("tmux", ["-V"], { stdio: "ignore" });
	} catch {
		throw new Error(
			"tmux is not installed, and the TUI end-to-end tests drive pi through it. " +
				"Install it (Debian/Ubuntu: `apt-get install -y tmux`) and run the tests again.",
		);
	}
}

export class TmuxPi {
	private killed = false;

	private constructor(
		private readonly socket: string,
		/** The server's socket file: tmux leaves it behind when the server exits. */
		private readonly socketPath: string,
		/** The command's process id (tmux runs `env`, which becomes the command). */
		readonly pid: number,
		/** Where the scripted model says its pi is ready (READY_ENV), when the command's environment names one. */
		private readonly readyFile: string | undefined,
	) {}

	/** Starts pi's interactive TUI for `piEnv` in a detached session of `cols`×`rows`. */
	static start(piEnv: PiEnv, options: TmuxOptions = {}): Promise<TmuxPi> {
		return TmuxPi.run([...piEnv.command, ...(options.extraArgs ?? [])], {
			cwd: piEnv.cwd,
			env: piEnv.env,
			scratchDir: piEnv.root,
			...options,
		});
	}

	/** Runs any command (e.g. the demo) the same way: only `env` in its environment. */
	static async run(command: string[], options: RunOptions): Promise<TmuxPi> {
		requireTmux();
		const socket = `pi-ask-user-${process.pid}-${randomBytes(4).toString("hex")}`;
		// Our own config: no status line (the pane gets every row), keep a dead pane to read its last screen.
		const config = join(options.scratchDir, "tmux.conf");
		const settings = [
			"set -g status off",
			"set -g remain-on-exit on",
			"set -g history-limit 5000",
			// Let an OSC 52 from the pane set a tmux buffer, so a test can see it (clipboard()).
			"set -g set-clipboard on",
		];
		writeFileSync(config, `${settings.join("\n")}\n`);
		const envArgs = Object.entries({ TERM: "xterm-256color", ...options.env }).map(([key, value]) => `${key}=${value}`);
		execFileSync("tmux", [
			"-L",
			socket,
			"-f",
			config,
			"new-session",
			"-d",
			"-s",
			"pi",
			"-x",
			String(options.cols ?? 100),
			"-y",
			String(options.rows ?? 40),
			"-c",
			options.cwd,
			// Several arguments: tmux runs the command directly, no shell quoting involved.
			"env",
			"-i",
			...envArgs,
			...command,
		]);
		const [pid, socketPath] = execFileSync(
			"tmux",
			["-L", socket, "display-message", "-p", "-t", "pi", "#{pane_pid} #{socket_path}"],
			{
				encoding: "utf8",
			},
		)
			.trim()
			.split(" ");
		return new TmuxPi(socket, socketPath ?? "", Number(pid), options.env[READY_ENV]);
	}

	/** The visible screen, trailing blank lines removed. */
	async capture(): Promise<string> {
		const { stdout } = await execFileAsync("tmux", ["-L", this.socket, "capture-pane", "-p", "-t", "pi"]);
		return stdout.replace(/\s+$/, "");
	}

	/**
	 * Polls the screen until it matches; returns that screen. Fails after
	 * `timeoutMs` with the last screen in the message.
	 */
	async waitFor(matcher: ScreenMatcher, timeoutMs = WAIT_MS): Promise<string> {
		const matches = toPredicate(matcher);
		const deadline = Date.now() + timeoutMs;
		let screen = "";
		for (;;) {
			screen = await this.capture();
			if (matches(screen)) return screen;
			if (Date.now() > deadline) break;
			await sleep(POLL_MS);
		}
		throw new Error(`Timed out after ${timeoutMs} ms waiting for ${describe(matcher)}. Last screen:\n${frame(screen)}`);
	}

	/**
	 * Waits until pi has started: its session bound, so a prompt typed now is sent on Enter (pi 1.6 keeps one typed
	 * during start-up in the editor and says "Startup is still in progress"). The scripted model says so in READY_ENV's
	 * file, with the pid of its pi and of that pi's parent: the command itself, or a pi it started (the demo).
	 */
	async waitForReady(timeoutMs = WAIT_MS): Promise<void> {
		const file = this.readyFile;
		if (file === undefined) throw new Error(`waitForReady needs ${READY_ENV} in the command's environment`);
		const started = () =>
			(existsSync(file) ? readFileSync(file, "utf8") : "")
				.split("\n")
				.some((line) => line.split(" ").includes(String(this.pid)));
		const deadline = Date.now() + timeoutMs;
		while (!started()) {
			if (Date.now() > deadline) {
				throw new Error(`pi did not start within ${timeoutMs} ms. Last screen:\n${frame(await this.capture())}`);
			}
			await sleep(POLL_MS);
		}
	}

	/** Polls until the matcher no longer matches (e.g. a form closed). */
	async waitForGone(matcher: ScreenMatcher, timeoutMs = WAIT_MS): Promise<string> {
		const matches = toPredicate(matcher);
		return this.waitFor((screen) => !matches(screen), timeoutMs).catch((error: unknown) => {
			throw new Error(`Still on screen: ${describe(matcher)}\n${error instanceof Error ? error.message : ""}`);
		});
	}

	/** Sends keys in order. A lone Escape is followed by a pause, so it is read as Escape. */
	async send(...keys: Key[]): Promise<void> {
		for (const key of keys) {
			if (typeof key === "string") {
				await this.tmux("send-keys", "-t", "pi", key);
				if (key === "Escape") await sleep(ESCAPE_PAUSE_MS);
			} else {
				await this.tmux("send-keys", "-t", "pi", "-l", key.text);
			}
		}
	}

	/**
	 * Pastes text as a terminal does (bracketed, when the program asked for it): how a dropped file arrives, as its
	 * path.
	 */
	async paste(text: string): Promise<void> {
		await this.tmux("set-buffer", "-b", "paste", "--", text);
		await this.tmux("paste-buffer", "-p", "-d", "-b", "paste", "-t", "pi");
	}

	/** Types text literally (no key names). */
	async type(text: string): Promise<void> {
		await this.send({ text });
	}

	/** Shift+Enter: a newline in pi's editors. */
	async shiftEnter(): Promise<void> {
		await this.send({ text: SHIFT_ENTER });
	}

	async resize(cols: number, rows: number): Promise<void> {
		await this.tmux("resize-window", "-t", "pi", "-x", String(cols), "-y", String(rows));
	}

	/**
	 * What the program put on the clipboard with OSC 52 (tmux keeps it as a
	 * buffer), or undefined when nothing did.
	 */
	async clipboard(): Promise<string | undefined> {
		try {
			const { stdout } = await execFileAsync("tmux", ["-L", this.socket, "show-buffer"]);
			return stdout;
		} catch {
			return undefined;
		}
	}

	/** From now on, every byte the program writes is appended to `file` (tmux's pipe-pane): the raw output, escapes and all. */
	async recordOutput(file: string): Promise<void> {
		await this.tmux("pipe-pane", "-O", "-t", "pi", `cat >> '${file.replaceAll("'", "'\\''")}'`);
	}

	/** True while pi is running (the pane is not dead). */
	async isRunning(): Promise<boolean> {
		const { stdout } = await execFileAsync("tmux", [
			"-L",
			this.socket,
			"display-message",
			"-p",
			"-t",
			"pi",
			"#{pane_dead}",
		]);
		return stdout.trim() === "0";
	}

	/** Waits until the command has exited (its pane is dead); fails with the last screen. */
	async waitForExit(timeoutMs = WAIT_MS): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (await this.isRunning()) {
			if (Date.now() > deadline) {
				throw new Error(`Still running after ${timeoutMs} ms. Last screen:\n${frame(await this.capture())}`);
			}
			await sleep(POLL_MS);
		}
	}

	/** Ends the tmux server and the command with it, and waits until it is gone. Idempotent; never throws. */
	async kill(): Promise<void> {
		if (this.killed) return;
		this.killed = true;
		try {
			execFileSync("tmux", ["-L", this.socket, "kill-server"], { stdio: "ignore" });
		} catch {
			// The server already went away with its last session.
		}
		if (this.socketPath.endsWith(`/${this.socket}`)) rmSync(this.socketPath, { force: true });
		// The server's SIGHUP normally ends the command; give it a second, then make sure.
		if (await exitsWithin(this.pid, 1_000)) return;
		try {
			process.kill(this.pid, "SIGKILL");
		} catch {
			// Gone meanwhile.
		}
		await exitsWithin(this.pid, 2_000);
	}

	private async tmux(...args: string[]): Promise<void> {
		await execFileAsync("tmux", ["-L", this.socket, ...args]);
	}
}

/** True while `pid` is a live process (a zombie awaiting its reaper counts as ended). */
export function isRunningProcess(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
	} catch {
		return true;
	}
}

async function exitsWithin(pid: number, timeoutMs: number): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	while (isRunningProcess(pid)) {
		if (Date.now() > deadline) return false;
		await sleep(POLL_MS);
	}
	return true;
}

function toPredicate(matcher: ScreenMatcher): (screen: string) => boolean {
	if (typeof matcher === "string") return (screen) => screen.includes(matcher);
	if (matcher instanceof RegExp) return (screen) => matcher.test(screen);
	return matcher;
}

function describe(matcher: ScreenMatcher): string {
	if (typeof matcher === "string") return JSON.stringify(matcher);
	if (matcher instanceof RegExp) return String(matcher);
	return matcher.name === "" ? "a screen predicate" : matcher.name;
}

function frame(screen: string): string {
	return `┌${"─".repeat(20)}\n${screen
		.split("\n")
		.map((line) => `│${line}`)
		.join("\n")}\n└${"─".repeat(20)}`;
}
