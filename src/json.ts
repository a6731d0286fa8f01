/** Reading parsed JSON without trusting it (the model's arguments, a relayed reply). */

export type JsonObject = { [key: string]: unknown };

/** Not null, not an array. */
export function isObject(value: unknown): value is JsonObject {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Inherited properties are no input: a key named "constructor" must not find Object.prototype. */
export function own(object: JsonObject, key: string): unknown {
	return Object.hasOwn(object, key) ? object[key] : undefined;
}
