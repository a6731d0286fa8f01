/** `@` completion in the form's editor (form/complete.ts) and where fd is found (tool/fd.ts). */

import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileCompletion } from "../src/form/complete.ts";
import { completion, type EditorHost } from "../src/form/editor-keys.ts";
import { attachmentsOf } from "../src/machine/attach.ts";
import type { FormState } from "../src/machine/model.ts";
import { type Action, initialState, update } from "../src/machine/update.ts";
import { formOf, question } from "./form/support.ts";
import { solidPng } from "./support/images.ts";
import { findFd } from "../src/tool/fd.ts";

/** Applies one completion to `line` with the cursor at its end; what `attach` was given. */
function complete(line: string, prefix: string, item: { value: string; label: string }, attaches = true) {
	const given: string[] = [];
	const provider = fileCompletion("/work", undefined, (path) => {
		given.push(path);
		return attaches;
	});
	const result = provider.applyCompletion([line], 0, line.length, item, prefix);
	return { given, line: result.lines[0], col: result.cursorCol };
}

describe("@ completion", () => {
	it("a file is attached by its path from the session's folder, and its @… leaves the text with the space before it", () => {
		const done = complete("like this @lay", "@lay", { value: "@shots/layout.png", label: "layout.png" });
		expect(done).toEqual({ given: ["/work/shots/layout.png"], line: "like this", col: 9 });
		// Any name: quotes of its own, a leading ~, a path out of the folder, one under the home folder.
		expect(complete("@d", "@d", { value: "@don't.png", label: "don't.png" }).given).toEqual(["/work/don't.png"]);
		expect(complete("@n", "@n", { value: "@~notes.txt", label: "~notes.txt" }).given).toEqual(["/work/~notes.txt"]);
		expect(complete("@u", "@u", { value: "@../up.png", label: "up.png" }).given).toEqual(["/up.png"]);
		expect(complete("@h", "@h", { value: "@~/h.png", label: "h.png" }).given).toEqual([join(homedir(), "h.png")]);
	});

	it("a quoted name is read without its quotes; text after the cursor stays", () => {
		const given: string[] = [];
		const provider = fileCompletion("/work", undefined, (path) => given.push(path) > 0);
		const item = { value: '@"layout shot.png"', label: "layout shot.png" };
		const result = provider.applyCompletion(["see @lay and more"], 0, 8, item, "@lay");
		expect(result).toEqual({ lines: ["see and more"], cursorLine: 0, cursorCol: 3 });
		expect(given).toEqual(["/work/layout shot.png"]);
	});

	it("in a quoted folder the closing quote after the cursor goes with the @…", () => {
		const provider = fileCompletion("/work", undefined, () => true);
		const item = { value: '@"my dir/a.png"', label: "a.png" };
		const result = provider.applyCompletion(['see @"my dir/a"'], 0, 14, item, '@"my dir/a');
		expect(result).toEqual({ lines: ["see"], cursorLine: 0, cursorCol: 3 });
	});

	it("a folder is written, to go on completing, and nothing is attached", () => {
		const done = complete("@sh", "@sh", { value: "@shots/", label: "shots/" });
		expect(done.given).toEqual([]);
		expect(done.line).toBe("@shots/");
	});

	it("a file that is refused is written as pi writes it, so nothing typed is lost", () => {
		const done = complete("x @big", "@big", { value: "@big.log", label: "big.log" }, false);
		expect(done.given).toEqual(["/work/big.log"]);
		expect(done.line).toBe("x @big.log ");
	});
});

describe("@ completion in the form", () => {
	const dir = mkdtempSync(join(tmpdir(), "ask-user-complete-"));
	writeFileSync(join(dir, "shot.png"), solidPng(2, 2, [0, 0, 255]));
	/** A form's editor host over the real state machine; `actions`: what it was given. */
	function host(first: Action) {
		const actions: Action[] = [];
		const live = {
			state: update(initialState(formOf(question("db"))), first),
			closed: false,
			editor: undefined,
			options: { cwd: dir, tui: {} as EditorHost["options"]["tui"] },
			dispatch(action: Action) {
				actions.push(action);
				live.state = update(live.state, action);
			},
			changed() {},
		};
		return { live: live as EditorHost & { state: FormState }, actions };
	}
	const shot = { value: "@shot.png", label: "shot.png" };

	it("attaches to the editor it was chosen in, and only while that one is open", () => {
		const { live } = host({ type: "openQuestionNote" });
		const note = live.state.overlay.kind === "editor" ? live.state.overlay.target : undefined;
		const provider = completion(live);
		expect(provider.applyCompletion(["@sh"], 0, 3, shot, "@sh").lines).toEqual([""]);
		expect(note && attachmentsOf(live.state, note).map((file) => file.name)).toEqual(["shot.png"]);
		// Closed and another opened before fd answered: the late choice is written, not attached there.
		live.dispatch({ type: "editorCancelled", draft: "" });
		live.dispatch({ type: "openQuestionNote" });
		expect(provider.applyCompletion(["@sh"], 0, 3, shot, "@sh").lines).toEqual(["@shot.png "]);
		expect(note && attachmentsOf(live.state, note)).toHaveLength(1);
	});

	it("in the chat message, where files are not taken, @file is text as in pi, with no warning", () => {
		const { live, actions } = host({ type: "openChat" });
		expect(completion(live).applyCompletion(["@sh"], 0, 3, shot, "@sh").lines).toEqual(["@shot.png "]);
		expect(actions).toEqual([]);
	});
});

describe("findFd", () => {
	const root = mkdtempSync(join(tmpdir(), "ask-user-fd-"));
	const tool = (path: string, executable = true) => {
		mkdirSync(join(path, ".."), { recursive: true });
		writeFileSync(path, "#!/bin/sh\n");
		chmodSync(path, executable ? 0o755 : 0o644);
		return path;
	};
	const debian = tool(join(root, "usr", "fdfind"));
	tool(join(root, "other", "fd"), false);

	it("finds Debian's fdfind on PATH, passing over a file that is not executable", () => {
		expect(findFd(join(root, "agent"), [join(root, "other"), join(root, "usr")].join(delimiter))).toBe(debian);
	});

	it("prefers pi's own copy in the agent folder; finds none where there is none", () => {
		const own = tool(join(root, "agent", "bin", "fd"));
		expect(findFd(join(root, "agent"), join(root, "usr"))).toBe(own);
		expect(findFd(join(root, "nowhere"), join(root, "other"))).toBeUndefined();
	});
});
