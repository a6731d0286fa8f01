#!/usr/bin/env node
/**
 * `node heap-data.mjs FILE`: the bytes of a V8 heap snapshot's JavaScript data — objects, arrays, strings, closures,
 * numbers, regexps — apart from V8's own: compiled code and its metadata (the snapshot's "code" nodes: bytecode,
 * machine code, deoptimisation data), object shapes, hidden and native internals. Code V8 optimises late also grows
 * the old space, so the heap's course in all cannot tell it from what the keys leave; this can. Prints one JSON line
 * `{ "data": bytes, "v8": bytes }`. Plain JavaScript, run in a process of its own so parsing leaves the measured
 * heap alone.
 */

import { readFileSync } from "node:fs";

const DATA = new Set([
	"object",
	"array",
	"string",
	"concatenated string",
	"sliced string",
	"closure",
	"number",
	"regexp",
	"symbol",
	"bigint",
]);

const snapshot = JSON.parse(readFileSync(process.argv[2], "utf8"));
const fields = snapshot.snapshot.meta.node_fields;
const types = snapshot.snapshot.meta.node_types[0];
const type = fields.indexOf("type");
const size = fields.indexOf("self_size");
const totals = { data: 0, v8: 0 };
for (let at = 0; at < snapshot.nodes.length; at += fields.length)
	totals[DATA.has(types[snapshot.nodes[at + type]]) ? "data" : "v8"] += snapshot.nodes[at + size];
process.stdout.write(`${JSON.stringify(totals)}\n`);
