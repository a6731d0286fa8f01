import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { ENGLISH } from "../../src/i18n/texts.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { editExternally, externalEditorCommand } from "../../src/form/external-editor.ts";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A one-line "editor": a shell script that does `body` to the file it is given ($1). */
function scriptEditor(body: string): string {
	const dir = mkdtempSync(join(tmpdir(), "ask-editor-test-"));
	dirs.push(dir);
	const path = join(dir, "editor.sh");
	writeFileSync(path, `#!/bin/sh\n${body}\n`);
	chmodSync(path, 0o755);
	return path;
}

function terminal() {
	const calls: string[] = [];
	return {
		calls,
		stop: () => calls.push("stop"),
		start: () => calls.push("start"),
		requestRender: (force?: boolean) => calls.push(`render:${force}`),
	};
}

describe("the external editor ($VISUAL / $EDITOR)", () => {
	test("takes the text through the editor and back; the TUI stops, starts and fully redraws around it", () => {
		const editor = scriptEditor(`printf 'written in the editor\\n' >> "$1"`);
		const tui = terminal();
		expect(editExternally(tui, "typed first\n", { EDITOR: editor })).toEqual({
			ok: true,
			text: "typed first\nwritten in the editor",
		});
		expect(tui.calls).toEqual(["stop", "start", "render:true"]);
	});

	test("$VISUAL wins over $EDITOR; none set is a clear message and the terminal is left alone", () => {
		expect(externalEditorCommand({ VISUAL: "code -w", EDITOR: "vim" })).toBe("code -w");
		expect(externalEditorCommand({ VISUAL: " ", EDITOR: "vim" })).toBe("vim");
		const tui = terminal();
		const result = editExternally(tui, "text", {});
		expect(result.ok).toBe(false);
		if (!result.ok) expect(ENGLISH.say(result.problem)).toContain("set $VISUAL or $EDITOR");
		expect(tui.calls).toEqual([]);
	});

	test("an editor that fails leaves the text unchanged and says so", () => {
		const editor = scriptEditor("exit 3");
		const result = editExternally(terminal(), "text", { EDITOR: editor });
		expect(result.ok).toBe(false);
		if (!result.ok) expect(ENGLISH.say(result.problem)).toContain("status 3");
	});
});
