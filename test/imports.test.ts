/**
 * The import graph of the extension's own code (index.ts and src/), read from the sources with TypeScript's own
 * pre-processor, type-only and lazy imports included: no circle (a module never reaches itself through its imports),
 * and no import runs back up the layers (ARCHITECTURE.md, "Layers"), so the code reads bottom-up.
 */

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sources(path);
		return /\.(ts|js)$/.test(entry.name) ? [path] : [];
	});
}

/** Each module, by its path from the project's root, with the modules of this project it imports. */
export function importGraph(): Map<string, string[]> {
	const files = [join(ROOT, "index.ts"), ...sources(join(ROOT, "src"))];
	const graph = new Map<string, string[]>();
	for (const file of files) {
		const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
		const local = importedFiles.map((i) => i.fileName).filter((name) => name.startsWith("."));
		graph.set(
			relative(ROOT, file),
			local.map((name) => relative(ROOT, resolve(dirname(file), name))),
		);
	}
	return graph;
}

/** Every circle, each as the path from a module back to itself (one per strongly connected group). */
export function circles(graph: Map<string, string[]>): string[][] {
	const found: string[][] = [];
	const state = new Map<string, "open" | "done">();
	const stack: string[] = [];
	const visit = (node: string): void => {
		state.set(node, "open");
		stack.push(node);
		for (const next of graph.get(node) ?? []) {
			if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
			else if (!state.has(next)) visit(next);
		}
		stack.pop();
		state.set(node, "done");
	};
	for (const node of graph.keys()) if (!state.has(node)) visit(node);
	return found;
}

/** The folders of src/, bottom first: a module imports only from its own folder or the ones below it. */
export const LAYERS: readonly (readonly string[])[] = [
	["i18n"],
	["core"],
	["settings", "input", "machine"],
	["form", "walker", "web"],
	["relay", "tool"],
	["route"],
	["kept"],
	["extension"],
];

/** The public entry points: pi's (index.ts) and runners' (the relay API), which nothing of ours imports. */
export const ENTRIES: readonly string[] = ["index.ts", "src/relay/index.ts", "src/relay/api.ts"];

const layerOf = (module: string): number => {
	const folder = module.split("/")[1] ?? "";
	return LAYERS.findIndex((layer) => layer.includes(folder));
};

/** Every import from a module that is no entry point to a module in a higher layer, or into an entry point. */
export function importsUp(graph: Map<string, string[]>): string[] {
	const up = (from: string, target: string) => ENTRIES.includes(target) || layerOf(target) > layerOf(from);
	return [...graph]
		.filter(([from]) => !ENTRIES.includes(from))
		.flatMap(([from, to]) => to.filter((target) => up(from, target)).map((target) => `${from} → ${target}`));
}

describe("the import graph", () => {
	const graph = importGraph();

	test("knows every module and resolves every import to one", () => {
		expect(graph.size).toBeGreaterThan(40);
		const missing = [...graph].flatMap(([from, to]) => to.filter((t) => !graph.has(t)).map((t) => `${from} → ${t}`));
		expect(missing).toEqual([]);
	});

	test("has no circle", () => {
		expect(circles(graph).map((circle) => circle.join(" → "))).toEqual([]);
	});

	test("puts every module of src/ in a layer", () => {
		const unplaced = [...graph.keys()].filter((module) => module !== "index.ts" && layerOf(module) < 0);
		expect(unplaced).toEqual([]);
	});

	test("has no import that runs back up", () => {
		expect(importsUp(graph)).toEqual([]);
	});

	test("the check finds an import up where there is one", () => {
		expect(importsUp(new Map([["src/core/types.ts", ["src/route/router.ts"]]]))).toEqual([
			"src/core/types.ts → src/route/router.ts",
		]);
	});

	test("the check finds a circle where there is one", () => {
		const looped = new Map([
			["a", ["b"]],
			["b", ["c"]],
			["c", ["a"]],
		]);
		expect(circles(looped)).toEqual([["a", "b", "c", "a"]]);
	});
});
