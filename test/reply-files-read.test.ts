/**
 * The parent reads a file for a reply by its size first: one past its limit is never read whole (node:fs is watched
 * here, so every byte read is counted).
 */

import * as fs from "node:fs";
import { mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ATTACHMENT_LIMITS, type AskAttached } from "../src/core/attachment.ts";
import { withBytes } from "../src/relay/files.ts";
import { PNG_1X1 } from "./support/images.ts";

const read = vi.hoisted(() => ({ bytes: 0 }));

vi.mock("node:fs", async (original) => {
	const real = await original<typeof import("node:fs")>();
	return {
		...real,
		readFileSync: (...args: Parameters<typeof real.readFileSync>) => {
			const out = real.readFileSync(...args);
			read.bytes += out.length;
			return out;
		},
		readSync: (...args: Parameters<typeof real.readSync>) => {
			const n = real.readSync(...args);
			read.bytes += n;
			return n;
		},
	};
});

const dir = mkdtempSync(join(tmpdir(), "ask-user-reply-files-read-"));
const file = (name: string, size: number): AskAttached => ({
	name,
	path: join(dir, name),
	size,
	mime: "text/plain",
	kind: "answer",
	questionId: "db",
});

beforeEach(() => {
	read.bytes = 0;
});

describe("a file read for a reply", () => {
	it("past its limit is refused by its size: no more than its first bytes are read", () => {
		const big = file("big.log", 10);
		writeFileSync(big.path, "");
		truncateSync(big.path, 4 * ATTACHMENT_LIMITS.imageBytes);
		expect(fs.statSync(big.path).size).toBe(4 * ATTACHMENT_LIMITS.imageBytes);
		const [sent] = withBytes([big]);
		expect(sent?.data).toBeUndefined();
		expect(read.bytes).toBeLessThan(1024);
	});

	it("within its limit is read once, whole", () => {
		const shot = { ...file("shot.png", PNG_1X1.length), mime: "image/png" };
		writeFileSync(shot.path, PNG_1X1);
		const [sent] = withBytes([shot]);
		expect(Buffer.from(sent?.data ?? "", "base64")).toEqual(PNG_1X1);
		expect(read.bytes).toBeLessThanOrEqual(PNG_1X1.length + 12);
	});

	it("a folder is no file: nothing is read", () => {
		const [sent] = withBytes([{ ...file("folder", 0), path: dir }]);
		expect(sent?.data).toBeUndefined();
		expect(read.bytes).toBe(0);
	});
});
