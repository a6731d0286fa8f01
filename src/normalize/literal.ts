/**
 * A Python literal of lists, dicts, strings, numbers, True/False/None — what
 * `repr()` of a parsed JSON value prints, and what a model that drives Python
 * tools sometimes sends for JSON (`"[{'label': 'A'}]"`). Anything else (an
 * expression, a trailing word) is not read at all. Bounded: one pass, no
 * recursion deeper than MAX_DEPTH.
 */

const MAX_DEPTH = 8;
const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"' };

class Reader {
	at = 0;
	constructor(readonly text: string) {}

	skipSpace(): void {
		while (this.at < this.text.length && /\s/.test(this.text[this.at] ?? "")) this.at++;
	}

	value(depth: number): unknown {
		if (depth > MAX_DEPTH) throw new Error("too deep");
		this.skipSpace();
		const char = this.text[this.at];
		if (char === "[") return this.list(depth);
		if (char === "{") return this.dict(depth);
		if (char === "'" || char === '"') return this.string(char);
		const word = /^(?:True|False|None|-?\d+(?:\.\d+)?)/.exec(this.text.slice(this.at))?.[0];
		if (word === undefined) throw new Error("not a literal");
		this.at += word.length;
		return word === "True" ? true : word === "False" ? false : word === "None" ? null : Number(word);
	}

	list(depth: number): unknown[] {
		const items: unknown[] = [];
		this.at++;
		while (!this.closes("]")) {
			items.push(this.value(depth + 1));
			this.separator("]");
		}
		return items;
	}

	dict(depth: number): Record<string, unknown> {
		const entries: Record<string, unknown> = {};
		this.at++;
		while (!this.closes("}")) {
			const key = this.value(depth + 1);
			if (typeof key !== "string") throw new Error("key");
			this.skipSpace();
			if (this.text[this.at++] !== ":") throw new Error("colon");
			entries[key] = this.value(depth + 1);
			this.separator("}");
		}
		return entries;
	}

	string(quote: string): string {
		let out = "";
		for (this.at++; this.at < this.text.length; this.at++) {
			const char = this.text[this.at] ?? "";
			if (char === quote) {
				this.at++;
				return out;
			}
			if (char === "\\") {
				const next = this.text[++this.at] ?? "";
				out += ESCAPES[next] ?? `\\${next}`;
			} else out += char;
		}
		throw new Error("unterminated");
	}

	closes(close: string): boolean {
		this.skipSpace();
		if (this.text[this.at] !== close) return false;
		this.at++;
		return true;
	}

	separator(close: string): void {
		this.skipSpace();
		if (this.text[this.at] === ",") this.at++;
		else if (this.text[this.at] !== close) throw new Error("separator");
	}
}

/** Undefined unless the text is exactly one list or dict. */
export function parsePythonLiteral(text: string): object | undefined {
	try {
		const reader = new Reader(text);
		const value = reader.value(0);
		reader.skipSpace();
		return reader.at === text.length && typeof value === "object" && value !== null ? value : undefined;
	} catch {
		return undefined;
	}
}
