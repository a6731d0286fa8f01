/**
 * Small tools for checking the shape of parsed JSON and saying what is wrong:
 * every issue names the path, the rule, and what was found there.
 */

export interface ShapeIssue {
	path: string;
	message: string;
}

/** `base.key`, or `base["key"]` when the key is not a plain identifier. */
export function childPath(base: string, key: string): string {
	const step = /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
	return base === "" ? step.replace(/^\./, "") : base + step;
}

export function indexPath(base: string, index: number): string {
	return `${base}[${index}]`;
}

/** What was found, for "must be X (found Y)": the JSON type, and the value for short scalars. */
export function describeFound(value: unknown): string {
	if (value === undefined) return "nothing";
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	if (typeof value === "object") return "an object";
	if (typeof value === "string") {
		const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
		return `the string ${JSON.stringify(shown)}`;
	}
	return `${typeof value} ${String(value)}`;
}

const MAX_LISTED = 8;

/** `what: path: rule; path: rule` on one line, at most MAX_LISTED issues listed. */
export function formatShapeIssues(what: string, issues: ShapeIssue[]): string {
	const listed = issues.slice(0, MAX_LISTED).map((i) => {
		const message = i.message.replace(/\.$/, "");
		return i.path === "" ? message : `${i.path}: ${message}`;
	});
	const more = issues.length > MAX_LISTED ? `; … and ${issues.length - MAX_LISTED} more` : "";
	return `${what}: ${listed.join("; ")}${more}`;
}
