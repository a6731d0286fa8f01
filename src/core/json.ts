/** Reading parsed JSON without trusting it (the model's arguments, a relayed reply), and saying what was found. */

export type JsonObject = { [key: string]: unknown };

/** Not null, not an array. */
export const isObject = (value: unknown): value is JsonObject =>
	typeof value === "object" && value !== null && !Array.isArray(value);

/** Inherited properties are no input: a key named "constructor" must not find Object.prototype. */
export const own = <T>(object: Readonly<Record<string, T>>, key: string): T | undefined =>
	Object.hasOwn(object, key) ? object[key] : undefined;

/** What was found, for "must be X (found Y)": the JSON type, and the value for short scalars. */
export function describeFound(value: unknown): string {
	if (value === undefined) return "nothing";
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	if (typeof value === "object") return "an object";
	if (typeof value === "string")
		return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
	return `${typeof value} ${String(value)}`;
}
