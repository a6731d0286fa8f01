/**
 * The local channel's wire: how a child process reaches the session that shows its forms when no runner carries them.
 * The address travels in `PI_ASK_USER_CHANNEL` as `1:<token>:<socket path>`; one connection carries one ask, as
 * newline-terminated JSON lines:
 *
 *   child  → {"v":1,"token":"…","pid":N}  proves it was given the address; its process id names a form without a name
 *   parent → {"v":1,"ready":true}          a live, listening session
 *   child  → the relay request envelope    (encodeRelayRequest, as on RPC)
 *   parent → the relay reply envelope      (encodeRelayReply; up to CHANNEL_REPLY_MAX with files), then closes
 *   child  → {"v":1,"cancel":true}         optional: the child's run aborted
 */

import { type Static, Type } from "@sinclair/typebox";
import { ATTACHMENT_LIMITS, base64Length } from "../../core/attachment.ts";
import { describeFound, isObject, type JsonObject, own } from "../../core/json.ts";
import { schemaIssues } from "../../core/schema.ts";
import { CHANNEL_ENV } from "../../core/types.ts";

const CHANNEL_VERSION = 1;
/** The longest line either side accepts, in bytes: a form is at most a few tens of kilobytes. */
export const CHANNEL_LINE_MAX = 1024 * 1024;
/**
 * The longest reply a child reads: a form's text, and every file of the answers as base64 (the limits' total, with
 * their names and fields well within CHANNEL_LINE_MAX more).
 */
export const CHANNEL_REPLY_MAX = CHANNEL_LINE_MAX + base64Length(ATTACHMENT_LIMITS.totalBytes);

/**
 * `path`: the Unix socket's (a named pipe's name on Windows); `token`: 64 hex digits, and only a process that was given
 * it may ask.
 */
export type ChannelAddress = { path: string; token: string };

const TOKEN = /^[0-9a-f]{64}$/;
const ADDRESS = /^1:([0-9a-f]{64}):(.+)$/s;

export const encodeChannelAddress = (address: ChannelAddress): string =>
	`${CHANNEL_VERSION}:${address.token}:${address.path}`;

export function decodeChannelAddress(
	value: unknown,
): { ok: true; address: ChannelAddress } | { ok: false; error: string } {
	if (typeof value !== "string") return { ok: false, error: `${CHANNEL_ENV} is not set` };
	const [, token, path] = ADDRESS.exec(value) ?? [];
	if (!token || !path || /[\0\n]/.test(path)) {
		return {
			ok: false,
			error:
				`${CHANNEL_ENV} is not an ask_user channel address ("1:<token>:<path>"); the parent may run another ` +
				`version`,
		};
	}
	return { ok: true, address: { token, path } };
}

export const encodeChannelHello = (token: string, pid?: number): string =>
	JSON.stringify({ v: CHANNEL_VERSION, token, pid });

/** A child's first line: the token it was given, and the process id it says it has. */
const HelloSchema = Type.Object({
	token: Type.String({ pattern: TOKEN.source }),
	pid: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
});

/**
 * The token, and the process id the child says it has (the parent cannot read it from the socket); undefined: no hello.
 * A pid that is no process id is left out (the check leaves it undefined): the form is then named without it.
 */
export function decodeChannelHello(line: string): { token: string; pid?: number } | undefined {
	const hello = parseLine(line);
	if (!hello || schemaIssues(HelloSchema, hello).some(({ path }) => path === "token")) return undefined;
	const { token, pid } = hello as Static<typeof HelloSchema>;
	return pid === undefined ? { token } : { token, pid };
}

export const CHANNEL_READY = JSON.stringify({ v: CHANNEL_VERSION, ready: true });
export const CHANNEL_CANCEL = JSON.stringify({ v: CHANNEL_VERSION, cancel: true });
export const isChannelCancel = (line: string): boolean => own(parseLine(line) ?? {}, "cancel") === true;

/** Undefined when the line says the parent is ready; else why not, for an error the user can act on. */
export function notReady(line: string): string | undefined {
	const message = parseLine(line);
	if (message === undefined) return "not a JSON object of the ask_user channel";
	if (own(message, "ready") === true) return undefined;
	const v = own(message, "v");
	return v === CHANNEL_VERSION
		? "not ready"
		: `protocol version ${describeFound(v)}, expected ${CHANNEL_VERSION}: parent and child run incompatible ` +
				`pi-ask-user versions`;
}

function parseLine(line: string): JsonObject | undefined {
	try {
		const value: unknown = JSON.parse(line);
		return isObject(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Cuts a byte stream into lines; "overflow" once a line passes `max` bytes (the first line: `firstMax`). A line's parts
 * are joined once, when complete.
 */
export function createLineSplitter(
	max = CHANNEL_LINE_MAX,
	firstMax = max,
): { push(chunk: Uint8Array): string[] | "overflow" } {
	let pending: Uint8Array[] = [];
	let size = 0;
	let limit = firstMax;
	return {
		push(chunk) {
			const lines: string[] = [];
			let start = 0;
			for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10, start)) {
				if (size + end - start > limit) return "overflow";
				lines.push(Buffer.concat([...pending, chunk.subarray(start, end)]).toString("utf8"));
				pending = [];
				size = 0;
				limit = max;
				start = end + 1;
			}
			if (size + chunk.length - start > limit) return "overflow";
			if (start < chunk.length) pending.push(chunk.subarray(start));
			size += chunk.length - start;
			return lines;
		},
	};
}
