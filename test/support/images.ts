/** Small real images for the tests of files in an answer, made here rather than kept as binary files. */

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import type { AskAttached } from "../../src/core/attachment.ts";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	return c >>> 0;
});

function crc32(bytes: Buffer): number {
	let c = 0xffffffff;
	for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
	return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(body));
	return Buffer.concat([length, body, crc]);
}

/** A `width`×`height` PNG of one colour. */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header.set([8, 2, 0, 0, 0], 8);
	const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
	const pixels = Buffer.concat(Array.from({ length: height }, () => row));
	const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	return Buffer.concat([
		signature,
		chunk("IHDR", header),
		chunk("IDAT", deflateSync(pixels)),
		chunk("IEND", Buffer.alloc(0)),
	]);
}

/** A 1×1 PNG (70 bytes): the smallest image a test attaches. */
export const PNG_1X1 = Buffer.from(
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
	"base64",
);

/**
 * PNG_1X1 as a file in a temp folder of its own (`prefix`), and the attachment of it to the free answer of the
 * "features" question (test/support/answers.ts's FORM): what the relay's file tests send.
 */
export function shotOnFeatures(prefix: string): { dir: string; shot: string; onFeatures: AskAttached } {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	const shot = join(dir, "layout.png");
	writeFileSync(shot, PNG_1X1);
	const onFeatures: AskAttached = {
		name: "layout.png",
		path: shot,
		size: PNG_1X1.length,
		mime: "image/png",
		kind: "answer",
		questionId: "features",
	};
	return { dir, shot, onFeatures };
}
