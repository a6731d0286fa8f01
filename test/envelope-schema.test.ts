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
import { collectedToReply, decodeRelayReply, encodeRelayReply, encodeRelayRequest } from "../src/relay/envelope.ts";
import { RelayReplyFileSchema, RelayReplySchema, RelayRequestSchema } from "../src/relay/envelope-schema.ts";
import { RELAY_VERSION, emptyCollected } from "../src/core/types.ts";
import { arbAskForm } from "./support/arbitraries.ts";

const dir = join(import.meta.dirname, "..", "schema");
/** The files `npm run schemas` writes, by name under schema/. */
const FILES = { "relay-request.schema.json": RelayRequestSchema, "relay-reply.schema.json": RelayReplyFileSchema };

/** A schema as its file holds it: draft-07, two-space JSON, one newline at the end. */
function schemaFileText(schema: object): string {
	return `${JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", ...schema }, null, 2)}\n`;
}

describe("the envelope schemas shipped for host authors", () => {
	it("the files in schema/ are their definitions (npm run schemas writes them)", () => {
		for (const [name, schema] of Object.entries(FILES)) {
			if (process.env["UPDATE_SCHEMAS"] === "1") writeFileSync(join(dir, name), schemaFileText(schema));
			expect(readFileSync(join(dir, name), "utf8"), `schema/${name} is stale: run npm run schemas`).toBe(
				schemaFileText(schema),
			);
		}
	});

	it("every request the codec writes, for every form, passes the request schema", () => {
		fc.assert(
			fc.property(
				arbAskForm(),
				fc.option(fc.constantFrom("scout", "planner › scout"), { nil: undefined }),
				(form, asker) => {
					const envelope = JSON.parse(
						encodeRelayRequest({
							v: RELAY_VERSION,
							rid: "r-1",
							asker,
							questions: form.questions,
							metadata: form.metadata,
						}),
					) as unknown;
					expect([...Value.Errors(RelayRequestSchema, envelope)].map((e) => `${e.instancePath}: ${e.message}`)).toEqual(
						[],
					);
				},
			),
			{ numRuns: 200 },
		);
	});

	it("replies of every status pass the reply schema; a reply with a stray field or a bad status does not", () => {
		const answered = {
			...collectedToReply(
				{
					status: "answered",
					answers: { db: { kind: "single", selections: [{ value: "pg", label: "Postgres" }] } },
					skipped: ["x"],
					notes: [{ questionId: "db", text: "n" }],
				},
				"r-1",
			),
		};
		const drafts = collectedToReply({
			...emptyCollected("dismissed"),
			drafts: [{ questionId: "db", kind: "answer", text: "half" }],
		});
		for (const reply of [
			answered,
			drafts,
			collectedToReply(emptyCollected("error", "broke")),
			collectedToReply(emptyCollected("no_ui")),
		]) {
			expect(Value.Check(RelayReplySchema, JSON.parse(encodeRelayReply(reply)))).toBe(true);
		}
		expect(Value.Check(RelayReplySchema, { ...answered, extra: 1 })).toBe(false);
		expect(Value.Check(RelayReplySchema, { ...answered, status: "maybe" })).toBe(false);
	});

	it("a reply's problems are named by this project's paths and short rules, one per path, in the schema's order", () => {
		const answers = { "my id": { selections: [{ label: 3 }] }, "a/b~": { kind: "x" } };
		const decoded = decodeRelayReply(
			JSON.stringify({ v: 1, rid: "has space", status: "answered", answers, skipped: [], notes: [] }),
		);
		expect(decoded.ok ? "accepted" : decoded.error.split("; ")).toEqual([
			'relay reply rejected: rid: must be 1–128 printable ASCII characters without spaces (found the string "has space")',
			'answers["my id"].kind: is missing',
			'answers["my id"].selections[0].value: is missing',
			'answers["my id"].selections[0].label: must be a string (found number 3)',
			'answers["a/b~"].kind: must be "single" or "multi" (found the string "x")',
			'answers["a/b~"].selections: is missing',
		]);
	});
});
