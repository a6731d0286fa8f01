/**
 * The docs hold together: every relative link in README.md, CONTRIBUTING.md,
 * CHANGELOG.md, ARCHITECTURE.md and docs/*.md names a file that exists, and
 * every `#anchor` a heading of the file it points into (as GitHub makes a
 * heading's anchor); README stays a front page and links every page of docs/;
 * the package ships every page and every file a shipped page links.
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const README_MAX_LINES = 350;

const docsPages = readdirSync(join(root, "docs"))
	.filter((name) => name.endsWith(".md"))
	.sort()
	.map((name) => `docs/${name}`);
const checkedFiles = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", "ARCHITECTURE.md", ...docsPages];

/** What the checker needs of the files: a markdown file's text, and whether a path exists. */
interface Files {
	text(path: string): string | undefined;
	exists(path: string): boolean;
}

const repository: Files = {
	text: (path) =>
		path.endsWith(".md") && existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : undefined,
	exists: (path) => existsSync(join(root, path)),
};

/** A link as written: its target, and the line it is on (1-based). */
interface Link {
	target: string;
	line: number;
}

/** The markdown with its fenced code blocks blanked out (lines kept), so no code is read as a heading or a link. */
function withoutFences(markdown: string): string {
	let fence: string | undefined;
	const lines = markdown.split("\n").map((line) => {
		const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
		if (fence === undefined && opening) {
			fence = opening;
			return "";
		}
		if (fence !== undefined) {
			const trimmed = line.trim();
			if (trimmed.startsWith(fence) && trimmed.replace(/[`~]/g, "") === "") fence = undefined;
			return "";
		}
		return line;
	});
	return lines.join("\n");
}

/** The markdown without code: fenced blocks and code spans blanked out (lines kept), so code is never read as a link. */
function prose(markdown: string): string {
	return withoutFences(markdown).replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, (span) => span.replace(/[^\n]/g, " "));
}

/** Every link and image of the markdown: inline `[text](target)`, `![alt](target)`, and reference definitions. */
export function linksOf(markdown: string): Link[] {
	const text = prose(markdown);
	const lineAt = (index: number) => text.slice(0, index).split("\n").length;
	const links: Link[] = [];
	for (const match of text.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g))
		links.push({ target: match[1] ?? "", line: lineAt(match.index) });
	for (const match of text.matchAll(/^ {0,3}\[[^\]]+\]:[ \t]*<?(\S+?)>?(?:[ \t]|$)/gm))
		links.push({ target: match[1] ?? "", line: lineAt(match.index) });
	return links;
}

/** A heading's anchor as GitHub makes it: the text as shown, lowercase, without punctuation but - and _, spaces as -. */
export function slug(heading: string): string {
	const shown = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
		.replace(/<[^>]+>/g, "")
		.replace(/[`*]/g, "");
	return shown
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
		.replace(/ /g, "-");
}

/** Every anchor a markdown file has: one per ATX heading (a repeated one gets -1, -2, …), and HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const line of withoutFences(markdown).split("\n")) {
		const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line)?.[1];
		if (heading === undefined) continue;
		const base = slug(heading);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	for (const match of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1] ?? "");
	return anchors;
}

/** Where a relative link from one file lands: its path from the repository's root (undefined: not a local link), and its anchor. */
function resolveLink(from: string, target: string): { path: string; anchor: string | undefined } | undefined {
	if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return undefined;
	const hash = target.indexOf("#");
	const pathPart = decodeURI(hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, "");
	const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
	const path = pathPart === "" ? from : normalize(join(dirname(from), pathPart)).replace(/\\/g, "/");
	return { path, anchor };
}

/** Every link of one file that names no existing file, or an anchor its file does not have: "line: target (why)". */
export function brokenLinks(from: string, files: Files): string[] {
	const markdown = files.text(from);
	if (markdown === undefined) return [`${from} does not exist`];
	const problems: string[] = [];
	for (const { target, line } of linksOf(markdown)) {
		const link = resolveLink(from, target);
		if (!link) continue;
		if (target === "" || link.path.startsWith("../") || !files.exists(link.path)) {
			problems.push(`${from}:${line}: ${target} (no such file: ${link.path})`);
			continue;
		}
		if (link.anchor === undefined || link.anchor === "") continue;
		const text = files.text(link.path);
		if (text === undefined) problems.push(`${from}:${line}: ${target} (an anchor into a file that is not markdown)`);
		else if (!anchorsOf(text).has(link.anchor))
			problems.push(`${from}:${line}: ${target} (${link.path} has no heading #${link.anchor})`);
	}
	return problems;
}

describe("the checker", () => {
	const made: Record<string, string> = {
		"README.md": [
			"# Title",
			"See [the page](docs/page.md), [its part](docs/page.md#part-two-the-rest), [here](#title) and ![a picture](docs/shot.png).",
			"[gone](docs/gone.md), [no such part](docs/page.md#part-three), [a URL](https://example.com/x.md).",
			"`[code](docs/code.md)` is not a link.",
			"```",
			"[nor](docs/fenced.md) in a fence",
			"```",
			"[ref]: docs/missing-ref.md",
		].join("\n"),
		"docs/page.md": ["# Page", "## Part `two`: the *rest*", "Back to [the top](../README.md#title)."].join("\n"),
		"docs/shot.png": "",
	};
	const files: Files = {
		text: (path) => (path.endsWith(".md") ? made[path] : undefined),
		exists: (path) => path in made,
	};

	it("names each missing file and each missing anchor, with its line, and nothing else", () => {
		expect(brokenLinks("README.md", files)).toEqual([
			"README.md:3: docs/gone.md (no such file: docs/gone.md)",
			"README.md:3: docs/page.md#part-three (docs/page.md has no heading #part-three)",
			"README.md:8: docs/missing-ref.md (no such file: docs/missing-ref.md)",
		]);
		expect(brokenLinks("docs/page.md", files)).toEqual([]);
	});

	it("makes anchors as GitHub does", () => {
		expect(slug("For RPC hosts: the whole form in one request")).toBe("for-rpc-hosts-the-whole-form-in-one-request");
		expect(slug("ACP hosts (Zed and others)")).toBe("acp-hosts-zed-and-others");
		expect(slug("ACP elicitation (`pi-ask-user/elicitation`)")).toBe("acp-elicitation-pi-ask-userelicitation");
		expect(slug("Where a child's ask_user goes")).toBe("where-a-childs-ask_user-goes");
		expect(slug("pi 1.x and pi 0.73.1")).toBe("pi-1x-and-pi-0731");
		expect(slug("Typing on “Type something…” writes")).toBe("typing-on-type-something-writes");
		expect([...anchorsOf("# Notes\n## Notes\n## Notes")]).toEqual(["notes", "notes-1", "notes-2"]);
	});
});

describe("the docs", () => {
	it.each(checkedFiles)("%s: every relative link names a file, every #anchor a heading", (file) => {
		expect(brokenLinks(file, repository)).toEqual([]);
	});

	it(`README is a front page: at most ${README_MAX_LINES} lines`, () => {
		const lines = readFileSync(join(root, "README.md"), "utf8").replace(/\n$/, "").split("\n").length;
		expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
	});

	it("README links every page of docs/", () => {
		const linked = new Set(
			linksOf(readFileSync(join(root, "README.md"), "utf8")).map(
				({ target }) => resolveLink("README.md", target)?.path,
			),
		);
		expect(docsPages.filter((page) => !linked.has(page))).toEqual([]);
	});

	it("the package ships every page of docs/, and every file a shipped page links", () => {
		const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { files: string[] };
		const patterns = pkg.files.map((entry) => {
			const pattern = entry.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*");
			return new RegExp(`^${pattern}(/.*)?$`);
		});
		// npm ships package.json, README, LICENSE and CHANGELOG whatever "files" says; a folder, when something in it ships.
		const shipped = (path: string) =>
			/^(package\.json|README\.md|LICENSE|CHANGELOG\.md)$/.test(path) ||
			patterns.some((pattern) => pattern.test(path)) ||
			pkg.files.some((entry) => entry.startsWith(`${path}/`));
		expect(docsPages.filter((page) => !shipped(page))).toEqual([]);
		const unshipped: string[] = [];
		for (const file of checkedFiles.filter(shipped)) {
			for (const { target, line } of linksOf(readFileSync(join(root, file), "utf8"))) {
				const link = resolveLink(file, target);
				if (link && !shipped(link.path.replace(/\/$/, ""))) unshipped.push(`${file}:${line}: ${target}`);
			}
		}
		expect(unshipped).toEqual([]);
	});
});
