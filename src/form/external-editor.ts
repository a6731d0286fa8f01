/**
 * pi's `app.editor.external` key in the form's editor: as pi's own
 * ExtensionEditorComponent does, stop the TUI, run `$VISUAL` / `$EDITOR` on a
 * temporary file, start the TUI again and force a full render.
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TUI } from "@mariozechner/pi-tui";
import { errorText, type Phrase, phrase } from "../core/types.ts";

type TerminalOwner = Pick<TUI, "stop" | "start" | "requestRender">;

export type ExternalEdit = { ok: true; text: string } | { ok: false; problem: Phrase };

/** The editor command as the user set it; undefined when none is. */
export function externalEditorCommand(env: NodeJS.ProcessEnv = process.env): string | undefined {
	return (env["VISUAL"] ?? "").trim() || (env["EDITOR"] ?? "").trim() || undefined;
}

/** The text as the file was saved, less the trailing newline editors add; a failed run leaves it as it was. */
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
		if (run.error)
			return { ok: false, problem: phrase("editor.externalCouldNotRun", { program, reason: run.error.message }) };
		if (run.status !== 0)
			return { ok: false, problem: phrase("editor.externalExited", { program, status: String(run.status) }) };
		return { ok: true, text: readFileSync(file, "utf8").replace(/\r?\n$/, "") };
	} catch (error) {
		return { ok: false, problem: phrase("editor.externalFailed", { reason: errorText(error) }) };
	} finally {
		if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
		if (stopped) {
			tui.start();
			tui.requestRender(true);
		}
	}
}
