#!/usr/bin/env node
// The code's size as the formatter writes it: lines of index.ts and every .ts, .js and .css file under src/, the
// locale catalogues aside; and the lines wider than 120 columns (a tab counts 2, as Biome counts it).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dirname, "..");
const files = (dir) =>
	readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return path.endsWith(join("i18n", "locales")) ? [] : files(path);
		return /\.(ts|js|css)$/.test(entry.name) ? [path] : [];
	});
const counted = [join(root, "index.ts"), ...files(join(root, "src"))];
let lines = 0;
const wide = [];
for (const file of counted) {
	const text = readFileSync(file, "utf8").replace(/\n$/, "").split("\n");
	lines += text.length;
	text.forEach((line, i) => {
		const width = [...line.replace(/\t/g, "  ")].length;
		if (width > 120) wide.push(`${relative(root, file)}:${i + 1} (${width})`);
	});
}
console.log(JSON.stringify({ files: counted.length, lines, wider: wide.length }));
if (process.argv.includes("--wide")) for (const where of wide) console.log(where);
