/**
 * pi's `app.editor.external` key in the form's editor: the text goes to
 * `$VISUAL` / `$EDITOR` in a temporary file and comes back edited, as in
 * pi's own ExtensionEditorComponent — stop the TUI, run the editor
 * synchronously (it owns the terminal meanwhile), start the TUI again and
 * force a full render (the editor may have used the alternate screen).
 *
 * The one impure corner of the form besides the component: it touches the
 * file system, a child process and the terminal.
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Phrase, phrase } from "../i18n/texts.ts";

/** The part of pi-tui's TUI the editor run needs. */
export interface TerminalOwner {
	stop(): void;
	start(): void;
	requestRender(force?: boolean): void;
}

export type ExternalEdit = { ok: true; text: string } | { ok: false; problem: Phrase };

/** The editor command as the user set it; undefined when none is. */
export function externalEditorCommand(env: NodeJS.ProcessEnv = process.env): string | undefined {
	const command = (env["VISUAL"] ?? "").trim() || (env["EDITOR"] ?? "").trim();
	return command === "" ? undefined : command;
}

/**
 * Runs the user's editor on `text`. The text comes back exactly as the file
 * was saved, less one trailing newline (editors add one); a failed or
 * cancelled run (a non-zero exit) leaves the text as it was.
 */
export function editExternally(tui: TerminalOwner, text: string, env: NodeJS.ProcessEnv = process.env): ExternalEdit {
	const command = externalEditorCommand(env);
	if (command === undefined) return { ok: false, problem: phrase("editor.noExternal") };
	let dir: string | undefined;
	let stopped = false;
	try {
		dir = mkdtempSync(join(tmpdir(), "pi-ask-user-"));
		const file = join(dir, "answer.md");
		writeFileSync(file, text, { encoding: "utf8", mode: 0o600 });
		tui.stop();
		stopped = true;
		const [program = command, ...args] = command.split(" ").filter((part) => part !== "");
		const run = spawnSync(program, [...args, file], { stdio: "inherit", shell: process.platform === "win32", env });
		if (run.error) return { ok: false, problem: phrase("editor.externalCouldNotRun", { program, reason: run.error.message }) };
		if (run.status !== 0) return { ok: false, problem: phrase("editor.externalExited", { program, status: String(run.status) }) };
		return { ok: true, text: readFileSync(file, "utf8").replace(/\r?\n$/, "") };
	} catch (error) {
		return { ok: false, problem: phrase("editor.externalFailed", { reason: error instanceof Error ? error.message : String(error) }) };
	} finally {
		if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
		if (stopped) {
			tui.start();
			tui.requestRender(true);
		}
	}
}
