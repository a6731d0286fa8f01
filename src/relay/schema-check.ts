/**
 * An envelope checked against its JSON Schema, every problem named by its
 * path in this project's syntax (`answers.db.selections[0].label`,
 * `answers["my id"]`) and a short rule a model or a runner author can act on.
 *
 * TypeBox's errors differ by version: 1.x gives `instancePath` (a JSON
 * pointer), `keyword` and `params`; 0.34 gives `path` (a JSON pointer) and
 * `message`. Both are read here. TypeBox reports one error per failing
 * branch of a union (the first per path is kept; a union of literals is said
 * as its list of values), and 1.x stops at 8 errors per check, so each field,
 * and each entry of a list or record, is checked on its own: a problem in one
 * never hides another's.
 */

import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { describeFound, isObject, type JsonObject, own } from "../json.ts";
import type { ValidationIssue as Issue } from "../validate.ts";
import { PATTERN_RULES } from "./envelope-schema.ts";

export type { Issue };

/** A TypeBox error, in either version's shape. */
export interface SchemaError {
	instancePath?: string;
	path?: string;
	keyword?: string;
	params?: { [key: string]: unknown };
	message: string;
}

/** The JSON Schema keywords the walk reads; TypeBox's schemas are JSON Schemas in both versions. */
interface JsonSchema {
	properties?: Record<string, TSchema>;
	required?: string[];
	patternProperties?: Record<string, TSchema>;
	items?: TSchema;
	additionalProperties?: unknown;
}

/** The problems of `envelope`'s fields (all the object schema's, or `fields`), in the schema's order; others are not looked at. */
export function envelopeIssues(schema: TSchema, envelope: JsonObject, fields?: readonly string[]): Issue[] {
	const { properties = {}, required = [] } = schema as JsonSchema;
	return (fields ?? Object.keys(properties)).flatMap((key) => {
		const field = properties[key] as TSchema;
		const value = own(envelope, key);
		const path = childPath("", key);
		if (value === undefined) return required.includes(key) ? [{ path, message: "is missing" }] : [];
		const { items } = field as JsonSchema;
		const entry = entryOf(field);
		if (items && Array.isArray(value)) return value.flatMap((item, i) => schemaIssues(items, item, `${path}[${i}]`));
		if (entry && isObject(value)) return Object.entries(value).flatMap(([id, item]) => schemaIssues(entry, item, childPath(path, id)));
		return schemaIssues(field, value, path);
	});
}

/** A record's entry schema (TypeBox writes a record as one pattern property). */
function entryOf(schema: TSchema): TSchema | undefined {
	const { patternProperties } = schema as JsonSchema;
	return patternProperties && Object.values(patternProperties)[0];
}

/**
 * Drops, in place, the fields the schema does not know (a newer peer's) at
 * every depth. Not Value.Clean: it also drops a record's entries that fail
 * their schema, or whose key ("a\nb") its pattern does not match.
 */
export function dropUnknownFields(schema: TSchema, value: unknown): void {
	const { properties, items, additionalProperties } = schema as JsonSchema;
	if (items && Array.isArray(value)) for (const item of value) dropUnknownFields(items, item);
	if (!isObject(value)) return;
	const entry = entryOf(schema);
	for (const key of Object.keys(value)) {
		const field = entry ?? (properties && Object.hasOwn(properties, key) ? properties[key] : undefined);
		if (field) dropUnknownFields(field, value[key]);
		else if (additionalProperties === false) delete value[key];
	}
}

/** `what: path: rule; path: rule` on one line, at most MAX_LISTED issues listed. */
export function formatIssues(what: string, issues: readonly Issue[]): string {
	const listed = issues.slice(0, MAX_LISTED).map(({ path, message }) => (path === "" ? message : `${path}: ${message.replace(/\.$/, "")}`));
	const more = issues.length > MAX_LISTED ? `; … and ${issues.length - MAX_LISTED} more` : "";
	return `${what}: ${listed.join("; ")}${more}`;
}

const MAX_LISTED = 8;

/** `base.key`, or `base["key"]` when the key is not a plain identifier. */
export function childPath(base: string, key: string): string {
	if (!/^[A-Za-z_$][\w$]*$/.test(key)) return `${base}[${JSON.stringify(key)}]`;
	return base === "" ? key : `${base}.${key}`;
}

function schemaIssues(schema: TSchema, value: unknown, base: string): Issue[] {
	return issuesOf(Value.Errors(schema, value) as Iterable<SchemaError>, value, base);
}

/** TypeBox's errors about `value` (found at `base`) as issues, one per path; exported for its tests, which feed it either version's errors. */
export function issuesOf(errors: Iterable<SchemaError>, value: unknown, base: string): Issue[] {
	const rulesAt = new Map<string, { allowed: unknown[]; message: string }>();
	for (const error of errors) {
		const at = locate(value, error.instancePath ?? error.path ?? "", base);
		if (error.keyword === "required") {
			for (const name of (error.params?.["requiredProperties"] as string[] | undefined) ?? []) {
				rulesAt.set(childPath(at.path, name), { allowed: [], message: "is missing" });
			}
			continue;
		}
		const known = rulesAt.get(at.path);
		if (error.keyword === "const" && (!known || known.allowed.length > 0)) {
			const allowed = [...(known?.allowed ?? []), error.params?.["allowedValue"]];
			rulesAt.set(at.path, { allowed, message: `must be ${listOf(allowed)} (found ${describeFound(at.value)})` });
		} else if (!known) rulesAt.set(at.path, { allowed: [], message: ruleOf(error, at.value) });
	}
	return [...rulesAt].map(([path, { message }]) => ({ path, message }));
}

/** The path a JSON pointer names inside `root` (reached from `base`), and the value there. */
function locate(root: unknown, pointer: string, base: string): { path: string; value: unknown } {
	let path = base;
	let value = root;
	for (const step of pointer.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))) {
		if (Array.isArray(value)) {
			path = `${path}[${step}]`;
			value = value[Number(step)];
		} else {
			path = childPath(path, step);
			value = isObject(value) ? own(value, step) : undefined;
		}
	}
	return { path, value };
}

function ruleOf(error: SchemaError, value: unknown): string {
	const { limit, type, pattern } = error.params ?? {};
	const found = `(found ${describeFound(value)})`;
	const length = typeof value === "string" || Array.isArray(value) ? value.length : 0;
	switch (error.keyword) {
		case "type":
			return `must be ${/^[aeiou]/.test(String(type)) ? "an" : "a"} ${String(type)} ${found}`;
		case "maxLength":
			return `must be at most ${String(limit)} characters (found ${length})`;
		case "minItems":
			return `must have at least ${String(limit)} ${limit === 1 ? "item" : "items"} (found ${length || "none"})`;
		case "pattern":
			return `${PATTERN_RULES[String(pattern)] ?? `must match /${String(pattern)}/`} ${found}`;
		default:
			return `${error.message.charAt(0).toLowerCase()}${error.message.slice(1)} ${found}`;
	}
}

function listOf(values: readonly unknown[]): string {
	const quoted = values.map((v) => JSON.stringify(v));
	return quoted.length <= 2 ? quoted.join(" or ") : `one of ${quoted.join(", ")}`;
}
