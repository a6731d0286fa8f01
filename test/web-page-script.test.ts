/**
 * The page's own copies of core/attachment.ts (src/web/files.js, plain JavaScript for the browser) say what the core
 * says: a size against a limit, a file's size, an image's type by its first bytes; and the catalogue's words are filled
 * in as given, a `$&` in a file's name kept. The script is run as the browser runs it, in a context of its own.
 */

import { readFileSync } from "node:fs";
import { createContext, runInContext } from "node:vm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ATTACHMENT_LIMITS, formatSize, megabytes, sniffImageMime } from "../src/core/attachment.ts";

/** files.js's top-level functions, from a context where it ran as a classic script does. */
function pageScript(): {
	mb: (bytes: number) => string;
	sizeOf: (bytes: number) => string;
	sniff: (bytes: Uint8Array) => string | undefined;
	fill: (text: string, values: Record<string, unknown>) => string;
} {
	const context = createContext({});
	runInContext(readFileSync(new URL("../src/web/files.js", import.meta.url), "utf8"), context);
	return runInContext("({ mb, sizeOf, sniff, fill })", context);
}
const page = pageScript();

const MB = 1024 * 1024;
/** Sizes about every limit and unit: each limit, a byte either side, and sizes at random. */
const SIZES = [
	0,
	1,
	1023,
	1024,
	1025,
	MB - 1,
	MB,
	MB + 1,
	...Object.values(ATTACHMENT_LIMITS).flatMap((limit) => [limit - 1, limit, limit + 1]),
	10 * MB + 1,
	15 * MB,
	1024 * MB + 1,
];

describe("the page's script", () => {
	it("says a size against a limit as the core does (megabytes), and a file's size (formatSize)", () => {
		for (const size of SIZES) {
			expect(page.mb(size)).toBe(megabytes(size));
			expect(page.sizeOf(size)).toBe(formatSize(size));
		}
		fc.assert(
			fc.property(fc.integer({ min: 0, max: 4 * 1024 * MB }), (size) => {
				expect(page.mb(size)).toBe(megabytes(size));
				expect(page.sizeOf(size)).toBe(formatSize(size));
			}),
			{ numRuns: 5000 },
		);
		expect(page.mb(10 * MB + 1)).toBe("10.1 MB");
	});

	it("reads an image's type from its first 12 bytes as the core (and the server) does", () => {
		const signatures = [
			[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d],
			[0xff, 0xd8, 0xff, 0xe0],
			[...Buffer.from("GIF89a")],
			[...Buffer.from("GIF87a")],
			[...Buffer.from("GIF88a")],
			[...Buffer.from("RIFF\0\0\0\0WEBP")],
			[...Buffer.from("RIFF\0\0\0\0WAVE")],
			[...Buffer.from("not an image")],
			[],
		];
		for (const bytes of signatures) {
			const head = Uint8Array.from(bytes);
			expect(page.sniff(head)).toBe(sniffImageMime(head));
		}
		expect(page.sniff(Uint8Array.from(signatures[0] ?? []))).toBe("image/png");
		// Each signature with one byte changed, and bytes at random.
		const near = fc
			.tuple(fc.constantFrom(...signatures), fc.nat(11), fc.integer({ min: 0, max: 255 }))
			.map(([bytes, at, value]) => Object.assign([...bytes, ...Array(12).fill(0)].slice(0, 12), { [at]: value }));
		fc.assert(
			fc.property(fc.oneof(near, fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 12 })), (bytes) => {
				const head = Uint8Array.from(bytes);
				expect(page.sniff(head)).toBe(sniffImageMime(head));
			}),
			{ numRuns: 5000 },
		);
	});

	it("fills the catalogue's words as given: `$&`, `$'` and `$$` in a file's name stay as they are", () => {
		const text = "{name} is too large to attach ({size}, the limit is {limit}).";
		expect(page.fill(text, { name: "a$&b.png", size: "10.1 MB", limit: "10 MB" })).toBe(
			"a$&b.png is too large to attach (10.1 MB, the limit is 10 MB).",
		);
		expect(page.fill("Remove {name}", { name: "x$'y$`z$$.png" })).toBe("Remove x$'y$`z$$.png");
		// A placeholder it is not given stays, as does one that looks like the object's own.
		expect(page.fill("{names} {toString}", {})).toBe("{names} {toString}");
	});
});
