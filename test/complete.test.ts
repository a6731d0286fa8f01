/** `@` completion in the form's editor (form/complete.ts) and where fd is found (tool/fd.ts). */

import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileCompletion } from "../src/form/complete.ts";
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
	it("a file is attached, written as a path from the session's folder, and its @… leaves the text with the space before it", () => {
		const done = complete("like this @lay", "@lay", { value: "@shots/layout.png", label: "layout.png" });
		expect(done).toEqual({ given: ["./shots/layout.png"], line: "like this", col: 9 });
	});

	it("a quoted name stays quoted; text after the cursor stays", () => {
		const provider = fileCompletion("/work", undefined, () => true);
		const item = { value: '@"layout shot.png"', label: "layout shot.png" };
		const result = provider.applyCompletion(["see @lay and more"], 0, 8, item, "@lay");
		expect(result).toEqual({ lines: ["see and more"], cursorLine: 0, cursorCol: 3 });
	});

	it("a folder is written, to go on completing, and nothing is attached", () => {
		const done = complete("@sh", "@sh", { value: "@shots/", label: "shots/" });
		expect(done.given).toEqual([]);
		expect(done.line).toBe("@shots/");
	});

	it("a file that is refused is written as pi writes it, so nothing typed is lost", () => {
		const done = complete("x @big", "@big", { value: "@big.log", label: "big.log" }, false);
		expect(done.given).toEqual(["./big.log"]);
		expect(done.line).toBe("x @big.log ");
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
