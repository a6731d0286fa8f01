/**
 * The check of untrusted JSON against a JSON Schema (TypeBox's schemas are JSON Schemas): every problem with its path
 * and its rule in words, so one problem never hides another. For the relay's envelopes, the kept files, the page's
 * submits.
 */

import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { describeFound, isObject, own } from "./json.ts";

/** `path`: where, e.g. `questions[1].options[2].label`; `message`: the rule broken. */
export type Issue = { path: string; message: string };

const PATTERN_RULES = new Map<string, string>();

/** Says each pattern's rule in words, for the error that names it (else the pattern itself). */
export function sayPatterns(rules: Readonly<Record<string, string>>): void {
	for (const [pattern, words] of Object.entries(rules)) PATTERN_RULES.set(pattern, words);
}

/** The JSON Schema keywords the walk reads itself; TypeBox's schemas are JSON Schemas. */
type Walked = {
	properties?: Record<string, TSchema>;
	required?: string[];
	patternProperties?: Record<string, TSchema>;
	items?: TSchema;
	additionalProperties?: unknown;
};

/**
 * The problems of `value`, each by its path (`answers["my id"].kind`) and a rule; each node checked on its own (TypeBox
 * stops at 8 errors), so no problem hides another. In place, it drops fields the schema does not know (a newer peer's)
 * and leaves undefined what it found unsound.
 */
export function schemaIssues(schema: TSchema, value: unknown, path = ""): Issue[] {
	const { properties, required = [], patternProperties, items, additionalProperties, ...rules } = schema as Walked;
	// What TypeBox finds wrong with the value itself, as one rule.
	const errors = Value.Errors(rules, value);
	if (errors[0]) return [{ path, message: ruleOf(errors[0], errors, value) }];
	if (!(isObject(value) || Array.isArray(value))) return [];
	const parts = value as Record<string | number, unknown>;
	const check = (part: TSchema, key: string | number, at: string, entry: boolean): Issue[] => {
		const found = schemaIssues(part, parts[key], at);
		if (entry ? found.length > 0 : found.some((issue) => issue.path === at)) parts[key] = undefined;
		return found;
	};
	const entry = patternProperties && Object.values(patternProperties)[0];
	if (Array.isArray(value)) return items ? value.flatMap((_, i) => check(items, i, `${path}[${i}]`, true)) : [];
	if (entry) return Object.keys(value).flatMap((key) => check(entry, key, childPath(path, key), true));
	if (!properties) return [];
	if (additionalProperties === false)
		for (const key of Object.keys(value)) if (!Object.hasOwn(properties, key)) delete value[key];
	return Object.entries(properties).flatMap(([key, field]) => {
		if (own(value, key) !== undefined) return check(field, key, childPath(path, key), false);
		return required.includes(key) ? [{ path: childPath(path, key), message: "is missing" }] : [];
	});
}

/** `base.key`, or `base["key"]` when the key is not a plain identifier. */
export function childPath(base: string, key: string): string {
	if (!/^[A-Za-z_$][\w$]*$/.test(key)) return `${base}[${JSON.stringify(key)}]`;
	return base === "" ? key : `${base}.${key}`;
}

type SchemaError = ReturnType<typeof Value.Errors>[number];

function ruleOf(error: SchemaError, errors: SchemaError[], value: unknown): string {
	const found = `(found ${describeFound(value)})`;
	const length = typeof value === "string" || Array.isArray(value) ? value.length : 0;
	switch (error.keyword) {
		case "const": {
			// A union of literals fails once per branch: said as its list of values.
			const allowed = errors.flatMap((e) => (e.keyword === "const" ? [JSON.stringify(e.params.allowedValue)] : []));
			return `must be ${allowed.length <= 2 ? allowed.join(" or ") : `one of ${allowed.join(", ")}`} ${found}`;
		}
		case "type":
			return `must be ${/^[aeiou]/.test(String(error.params.type)) ? "an" : "a"} ${String(error.params.type)} ${found}`;
		case "maxLength":
			return `must be at most ${error.params.limit} characters (found ${length})`;
		case "maximum":
			return `must be at most ${error.params.limit} ${found}`;
		case "maxItems":
			return `must have at most ${error.params.limit} ${error.params.limit === 1 ? "item" : "items"} (found ${length})`;
		case "minItems":
			return (
				`must have at least ${error.params.limit} ${error.params.limit === 1 ? "item" : "items"} (found ` +
				`${length || "none"})`
			);
		case "pattern":
			return (
				`${PATTERN_RULES.get(String(error.params.pattern)) ?? `must match /${String(error.params.pattern)}/`} ` +
				`${found}`
			);
		default:
			return `${error.message.charAt(0).toLowerCase()}${error.message.slice(1)} ${found}`;
	}
}
