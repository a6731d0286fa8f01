/**
 * The code as the formatter writes it, 120 columns (a tab counts 2, as Biome counts it): Biome wraps code, not
 * comments or strings, so those are wrapped by hand, and this holds them. The English catalogue's messages stay whole:
 * each placeholder's type is read from its message's literal type, which a `+` would lose.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { expect, test } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");
const WHOLE = new Set(["src/i18n/en.ts", "src/i18n/locales"]);

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (WHOLE.has(relative(ROOT, path))) return [];
		if (entry.isDirectory()) return sources(path);
		return /\.(ts|js|css)$/.test(entry.name) ? [path] : [];
	});
}

test("no line of index.ts or src/ is wider than 120 columns, the catalogues' messages aside", () => {
	const wide = [join(ROOT, "index.ts"), ...sources(join(ROOT, "src"))].flatMap((file) =>
		readFileSync(file, "utf8")
			.split("\n")
			.flatMap((line, i) => ([...line.replace(/\t/g, "  ")].length > 120 ? [`${relative(ROOT, file)}:${i + 1}`] : [])),
	);
	expect(wide).toEqual([]);
});
