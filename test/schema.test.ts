import { describe, expect, it } from "vitest";
import { AskParamsSchema } from "../src/core/types.ts";

/** Every schema node in the JSON the model receives, with its path. */
function* schemaNodes(node: unknown, path = "$"): Generator<[string, Record<string, unknown>]> {
	if (typeof node !== "object" || node === null) return;
	if (Array.isArray(node)) {
		for (const [index, item] of node.entries()) yield* schemaNodes(item, `${path}[${index}]`);
		return;
	}
	const record = node as Record<string, unknown>;
	yield [path, record];
	for (const [key, value] of Object.entries(record)) yield* schemaNodes(value, `${path}.${key}`);
}

const schemaJson = JSON.stringify(AskParamsSchema);
const schema = JSON.parse(schemaJson) as unknown;
const nodes = [...schemaNodes(schema)];

describe(`AskParamsSchema (${schemaJson.length} bytes of JSON)`, () => {
	it("uses no unions, enums or constants anywhere (provider proxies strip them)", () => {
		const banned = ["anyOf", "oneOf", "allOf", "not", "enum", "const"];
		const found = nodes.flatMap(([path, node]) => banned.filter((key) => key in node).map((key) => `${path}.${key}`));
		expect(found).toEqual([]);
	});

	it("uses only object, array, string and boolean types", () => {
		const types = new Set(nodes.flatMap(([, node]) => (typeof node.type === "string" ? [node.type] : [])));
		expect([...types].sort()).toEqual(["array", "boolean", "object", "string"]);
	});

	it("describes, briefly, every property whose name does not say it all", () => {
		const properties = nodes.flatMap(([path, node]) =>
			node.type === "object"
				? Object.entries(node.properties as Record<string, Record<string, unknown>>).map(
						([key, property]) => [`${path}.${key}`, property] as const,
					)
				: [],
		);
		expect(properties.length).toBe(19);
		// A name that says it all costs nothing more: the schema is paid for on every turn.
		const selfExplaining = new Set(["description", "multiSelect", "source", "flowId", "tags"]);
		for (const [path, property] of properties) {
			const name = path.slice(path.lastIndexOf(".") + 1);
			if (selfExplaining.has(name)) continue;
			expect(typeof property.description, path).toBe("string");
			expect((property.description as string).length, path).toBeLessThan(60);
		}
	});

	it("leaves limits to our validator: no length/count constraints, no additionalProperties", () => {
		const constraints = ["minLength", "maxLength", "minItems", "maxItems", "pattern", "additionalProperties"];
		const found = nodes.flatMap(([path, node]) =>
			constraints.filter((key) => key in node).map((key) => `${path}.${key}`),
		);
		expect(found).toEqual([]);
	});

	it("requires exactly questions, question and label (options are optional: a text-only question)", () => {
		const required = nodes.flatMap(([path, node]) => (Array.isArray(node.required) ? [[path, node.required]] : []));
		expect(required).toEqual([
			["$", ["questions"]],
			["$.properties.questions.items", ["question"]],
			["$.properties.questions.items.properties.options.items", ["label"]],
		]);
	});

	it("tells the model the limits that matter", () => {
		for (const limit of [
			"1-4",
			"≤12",
			"2-8",
			"fewest that cover it",
			"≤60",
			"default: label",
			"single-select only",
			"At most one",
			"one line ≤200",
		]) {
			expect(schemaJson).toContain(limit);
		}
	});

	it("stays small: it is paid on every model turn", () => {
		console.log(`AskParamsSchema JSON: ${schemaJson.length} bytes`);
		expect(schemaJson.length).toBeLessThan(1400);
	});
});
