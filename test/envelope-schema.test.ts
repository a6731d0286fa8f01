/**
 * The relay envelopes' JSON Schemas shipped in schema/: the files match their
 * definitions (src/relay/envelope-schema.ts), and real envelopes — every form
 * the property arbitraries make, and replies the codec writes — pass them.
 * `npm run schemas` (UPDATE_SCHEMAS=1) writes the files anew.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collectedToReply, encodeRelayReply, encodeRelayRequest } from "../src/relay/envelope.ts";
import { emptyCollected } from "../src/result.ts";
import { ENVELOPE_SCHEMA_FILES, RelayReplySchema, RelayRequestSchema, RID_PATTERN, schemaFileText } from "../src/relay/envelope-schema.ts";
import { issuesOf } from "../src/relay/schema-check.ts";
import { RELAY_VERSION } from "../src/types.ts";
import { arbAskForm } from "./support/arbitraries.ts";

const dir = join(import.meta.dirname, "..", "schema");

describe("the envelope schemas shipped for host authors", () => {
	it("the files in schema/ are their definitions (npm run schemas writes them)", () => {
		for (const [name, schema] of Object.entries(ENVELOPE_SCHEMA_FILES)) {
			if (process.env["UPDATE_SCHEMAS"] === "1") writeFileSync(join(dir, name), schemaFileText(schema));
			expect(readFileSync(join(dir, name), "utf8"), `schema/${name} is stale: run npm run schemas`).toBe(schemaFileText(schema));
		}
	});

	it("every request the codec writes, for every form, passes the request schema", () => {
		fc.assert(
			fc.property(arbAskForm(), fc.option(fc.constantFrom("scout", "planner › scout"), { nil: undefined }), (form, asker) => {
				const envelope = JSON.parse(encodeRelayRequest({ v: RELAY_VERSION, rid: "r-1", asker, questions: form.questions, metadata: form.metadata })) as unknown;
				expect([...Value.Errors(RelayRequestSchema, envelope)].map((e) => `${e.instancePath}: ${e.message}`)).toEqual([]);
			}),
			{ numRuns: 200 },
		);
	});

	it("replies of every status pass the reply schema; a reply with a stray field or a bad status does not", () => {
		const answered = {
			...collectedToReply({ status: "answered", answers: { db: { kind: "single", selections: [{ value: "pg", label: "Postgres" }] } }, skipped: ["x"], notes: [{ questionId: "db", text: "n" }] }, "r-1"),
		};
		const drafts = collectedToReply({ ...emptyCollected("dismissed"), drafts: [{ questionId: "db", kind: "answer", text: "half" }] });
		for (const reply of [answered, drafts, collectedToReply(emptyCollected("error", "broke")), collectedToReply(emptyCollected("no_ui"))]) {
			expect(Value.Check(RelayReplySchema, JSON.parse(encodeRelayReply(reply)))).toBe(true);
		}
		expect(Value.Check(RelayReplySchema, { ...answered, extra: 1 })).toBe(false);
		expect(Value.Check(RelayReplySchema, { ...answered, status: "maybe" })).toBe(false);
	});

	it("TypeBox's errors read in either version's shape, as this project's paths and short rules, one per path", () => {
		const value = { answers: { "my id": { selections: [{ label: 3 }] }, "a/b~": { kind: "x" } }, rid: "has space" };
		// TypeBox 0.34: `path` and `message`.
		expect(issuesOf([{ path: "/answers/my id/selections/0/label", message: "Expected string" }], value, "")).toEqual([
			{ path: 'answers["my id"].selections[0].label', message: "expected string (found number 3)" },
		]);
		// TypeBox 1.x: `instancePath`, `keyword` and `params`; a union of literals fails once per branch, then as a whole.
		const kind = "/answers/a~1b~0/kind";
		const union = [
			{ instancePath: kind, keyword: "const", params: { allowedValue: "single" }, message: "must be equal to constant" },
			{ instancePath: kind, keyword: "const", params: { allowedValue: "multi" }, message: "must be equal to constant" },
			{ instancePath: kind, keyword: "anyOf", params: {}, message: "must match a schema in anyOf" },
			{ instancePath: "/rid", keyword: "pattern", params: { pattern: RID_PATTERN }, message: "must match pattern" },
			{ instancePath: "/answers/my id", keyword: "required", params: { requiredProperties: ["kind"] }, message: "must have required properties kind" },
		];
		expect(issuesOf(union, value, "")).toEqual([
			{ path: 'answers["a/b~"].kind', message: 'must be "single" or "multi" (found the string "x")' },
			{ path: "rid", message: 'must be 1–128 printable ASCII characters without spaces (found the string "has space")' },
			{ path: 'answers["my id"].kind', message: "is missing" },
		]);
	});
});
