/**
 * A Python literal (`"[{'label': 'A'}]"`, what models driving Python tools send for JSON): each token written as
 * JSON's, the grammar left to JSON.parse.
 */

const MAX_DEPTH = 8;
/**
 * Sticky: space, a quoted string (its quote, its body), a constant, a number, or punctuation, from where the last token
 * ended.
 */
const TOKEN = /\s+|(['"])((?:\\[^]|(?!\1)[^\\])*)\1|True|False|None|-?\d+(?:\.\d+)?|[[\]{}:,]/y;
const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"' };
const CONSTANTS: Readonly<Record<string, string>> = { True: "true", False: "false", None: "null" };

/** Undefined unless the text is exactly one list or dict, with no value inside more than MAX_DEPTH others. */
export function parsePythonLiteral(text: string): object | undefined {
	const json: string[] = [];
	let depth = 0;
	TOKEN.lastIndex = 0;
	while (TOKEN.lastIndex < text.length) {
		const match = TOKEN.exec(text);
		if (match === null) return undefined;
		const [token, quote, body = ""] = match;
		if (/^\s/.test(token)) continue;
		if (token === "]" || token === "}") {
			// Python allows a comma after the last item (of a list or dict that has one); JSON does not.
			if (json.at(-1) === "," && !["[", "{"].includes(json.at(-2) ?? "")) json.pop();
			depth--;
		} else if (token !== "," && token !== ":" && depth > MAX_DEPTH) {
			return undefined;
		}
		if (token === "[" || token === "{") depth++;
		if (quote !== undefined)
			json.push(JSON.stringify(body.replace(/\\([^])/g, (_, char: string) => ESCAPES[char] ?? `\\${char}`)));
		else if (/^-?\d/.test(token)) json.push(String(Number(token)));
		else json.push(CONSTANTS[token] ?? token);
	}
	try {
		const value: unknown = JSON.parse(json.join(""));
		return typeof value === "object" && value !== null ? value : undefined;
	} catch {
		return undefined;
	}
}
