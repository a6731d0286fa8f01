/**
 * Reading parsed JSON without trusting it: the model's arguments, a relayed
 * reply. The one place that says what a JSON object is and how a field is
 * looked up. A leaf: imports nothing.
 */

export type JsonObject = { [key: string]: unknown };

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is JsonObject {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An own field: inherited properties are no input, and a key named "constructor" must not find Object.prototype. */
export function own(object: JsonObject, key: string): unknown {
	return Object.hasOwn(object, key) ? object[key] : undefined;
}
