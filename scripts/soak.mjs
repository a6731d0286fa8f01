#!/usr/bin/env node
/**
 * `npm run soak`: the real pi driven for a bounded time (a few minutes on 2 cores; `--smoke`: well under one), printing
 * a line per step and, as its LAST line, one JSON object of figures; exit 1 when an invariant does not hold
 * (scripts/soak/main.ts says which). `--only children,web,…` runs some parts only. Not part of `npm test`: its
 * smoke version is (test/e2e/soak.test.ts).
 *
 * Plain Node, like the benchmark: the TypeScript is loaded through jiti with pi's own alias table (pi-host.mjs).
 */

import { join } from "node:path";
import { currentHost, jitiFor, repo } from "./pi-host.mjs";

const jiti = await jitiFor(currentHost());
const argv = process.argv.slice(2);
if (argv[0] === "--channel-children") {
	// The channel's legitimate children, in a process of their own (scripts/soak/channel-children.ts).
	const { runChannelChildren } = await jiti.import(join(repo, "scripts", "soak", "channel-children.ts"));
	console.log(JSON.stringify(await runChannelChildren(Number(argv[1]))));
	process.exit(0);
}
const { runSoak } = await jiti.import(join(repo, "scripts", "soak", "main.ts"));
const figures = await runSoak(argv, (line) => console.log(line));
console.log(JSON.stringify(figures));
process.exit(figures.ok ? 0 : 1);
