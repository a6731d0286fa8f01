/**
 * A waiting form as a page in the browser (the `web` setting): one small HTTP server per waiting form (Node's `http`),
 * on 127.0.0.1 unless the user names an address, closed with the form. The page's answers become a form state checked
 * by the same machine as the inline form's (machine/saved.ts, collect), then an answer from elsewhere (waiting.ts): the
 * first answer wins, from either side.
 *
 * Safe by construction:
 * - the form's URL carries a random token (32 URL-safe characters); any other path is a bare 404 that says nothing of
 *   the form;
 * - the HTML holds no text of the model's: the page reads the questions as JSON and puts them in with textContent; a
 *   strict Content-Security-Policy allows only the page's own script and style, nothing external (images: its own and
 *   the `blob:` thumbnails of the files chosen);
 * - it answers only requests for its own address (the Host the URL was given out with; on loopback `localhost` too), so
 *   a page that rebinds its DNS name to this machine gets a bare 421;
 * - a submit needs the page's second token, in a header (a page on another site can neither read it nor send that
 *   header), an Origin of its own if any, and a JSON body of at most MAX_BODY_BYTES (the answers, and the files in
 *   base64 within their limits), checked by a schema (submit.ts); requests without the token are rate-limited;
 * - pi's theme reaches the page only as a stylesheet of fixed names with `#rrggbb` values (theme.ts);
 * - connections are short: one request each, its headers due within HEADERS_DEADLINE_MS (a timer of our own); past the
 *   cap of connections still waiting for theirs (per peer, and in all) an old one is dropped, a slow one first, never
 *   the newcomer: slow connections cannot keep the user's out.
 */

import { randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Texts } from "../i18n/texts.ts";
import { ATTACHMENT_LIMITS, base64Length, megabytes } from "../core/attachment.ts";
import { delegable } from "../machine/model.ts";
import { ALREADY_CLOSED, type AskQuestion, type WebLink } from "../core/types.ts";
import { qrRows } from "./qr.ts";
import { answerFrom, type FileRefusal, type SubmitSetup } from "./submit.ts";
import { type PageTheme, pageColors, themeCss } from "./theme.ts";

/**
 * A submit's largest body: 64 KiB for the answers and, for the files, the base64 of the form's total and a KiB of JSON
 * around each (about 33.4 MB in all).
 */
export const MAX_BODY_BYTES = 64 * 1024 + base64Length(ATTACHMENT_LIMITS.totalBytes) + ATTACHMENT_LIMITS.perForm * 1024;
/** Requests without the form's token a server takes per second; more are refused with 429. */
export const MAX_REQUESTS_PER_SECOND = 20;
/**
 * How long a connection has to send a whole request's headers; and how many may be waiting to, from one peer and in
 * all.
 */
export const HEADERS_DEADLINE_MS = 3000;
export const MAX_WAITING_PER_PEER = 128;
export const MAX_WAITING = 512;
/** What a submit gets once the form is answered or closed: 409 with this error. */
export const ALREADY_ANSWERED = "already answered";

/**
 * Every text sanitised (waiting.ts): `questions` as the page shows them, `asker` (of a form from another session),
 * `task`, `reason`; `options`: what the model may decide.
 */
export type WebPageSetup = SubmitSetup & {
	questions: AskQuestion[];
	asker?: string | undefined;
	task?: string | undefined;
	reason?: string | undefined;
	texts: Texts;
	/** pi's theme, for the page's colours (src/web/theme.ts); none: the page's own. */
	theme?: PageTheme | undefined;
	address: string;
	port: number;
};

/** `close`: the form closed (answered here or elsewhere), so the port closes. */
export type WebPage = WebLink & { close(): Promise<void> };

const ALL_FILES = megabytes(ATTACHMENT_LIMITS.totalBytes);
const TOO_LARGE = `larger than ${MAX_BODY_BYTES} bytes: the files of a form may take ${ALL_FILES} in all`;

/** The page's script and style, by path and type, each read once, when first asked for. */
const ASSETS: Record<string, string> = {
	"/page.js": "text/javascript",
	"/files.js": "text/javascript",
	"/page.css": "text/css",
};
const assets = new Map<string, string>();
const asset = (name: string) =>
	assets.get(name) ?? assets.set(name, readFileSync(new URL(name, import.meta.url), "utf8")).get(name) ?? "";

export async function openWebPage(setup: WebPageSetup): Promise<WebPage> {
	const token = randomBytes(24).toString("base64url");
	const submitToken = randomBytes(24).toString("base64url");
	const base = `/ask/${token}/`;
	const limit = rateLimit();
	/** The Host headers the page is asked for with (known once it listens); its Origins are these after `http://`. */
	let hosts = new Set<string>();
	/** The theme as it is when the form opens. */
	const colors = themeCss(pageColors(setup.theme));
	const server = createServer((request, response) => {
		heard(request.socket);
		try {
			handle(request, response);
		} catch {
			// Nothing a request does may take pi down.
			if (!response.headersSent) send(response, 500, "text/plain", "");
		}
	});
	const handle = (request: IncomingMessage, response: ServerResponse) => {
		// Not this page's address (a DNS name rebound to this machine): a bare 421, before anything else is looked at.
		if (!hosts.has(String(request.headers.host).toLowerCase())) return send(response, 421, "text/plain", "");
		const path = (request.url ?? "").split("?")[0] ?? "";
		// What a browser asks of every site: nothing, and no error in the page's console.
		if (request.method === "GET" && path === "/favicon.ico") return send(response, 204, "text/plain", "");
		// Only requests without the form's token count against the limit: a flood of them never shuts the user out.
		if (!sameSecret(path.slice(0, base.length), base)) return send(response, limit() ? 404 : 429, "text/plain", "");
		const rest = `/${path.slice(base.length)}`;
		if (request.method === "GET" && rest === "/")
			return send(response, 200, "text/html; charset=utf-8", html(submitToken, setup.texts));
		if (request.method === "GET" && Object.hasOwn(ASSETS, rest))
			return send(response, 200, `${ASSETS[rest]}; charset=utf-8`, asset(`.${rest}`));
		if (request.method === "GET" && rest === "/theme.css")
			return send(response, 200, "text/css; charset=utf-8", colors);
		if (request.method === "GET" && rest === "/form")
			return send(response, 200, "application/json", JSON.stringify(pageData(setup)));
		if (request.method === "POST" && rest === "/answer")
			return void receive(request, response, { setup, submitToken, hosts }).catch(
				() => response.headersSent || send(response, 400, "application/json", JSON.stringify({ error: "bad request" })),
			);
		send(response, 404, "text/plain", "");
	};
	const { heard, dropWaiting } = dropSlowConnections(server);
	// A ceiling on pi's file descriptors; a request is over soon after its headers (one per connection, a submit's body
	// within requestTimeout: time for the files of a form over a phone's network).
	server.maxConnections = 2 * MAX_WAITING;
	server.requestTimeout = 120_000;
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(setup.port, setup.address, () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	const host = setup.address.includes(":") ? `[${setup.address}]` : setup.address;
	const url = `http://${host}:${port}${base}`;
	const names = /^(127\.|::1$)/.test(setup.address) ? [host, "localhost"] : [host];
	hosts = new Set(names.flatMap((name) => [`${name}:${port}`.toLowerCase(), new URL(`http://${name}:${port}`).host]));
	// On loopback no phone can open the link: no QR code, and the help screen says how to reach the page instead.
	const loopback = /^(127\.|::1$|::ffff:127\.)/.test(setup.address);
	const qr = loopback ? undefined : await qrRows(url);
	return {
		url,
		...(loopback ? { loopback } : qr && { qr }),
		// A request under way is answered (a submit then hears it came too late); the rest are dropped, each within a
		// second.
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				dropWaiting();
				server.closeIdleConnections();
				setTimeout(() => server.closeAllConnections(), 1000).unref();
			}),
	};
}

/** A submit: from the page (its token, its Origin, JSON), within the size, through the form's rules. */
async function receive(
	request: IncomingMessage,
	response: ServerResponse,
	{ setup, submitToken, hosts }: { setup: WebPageSetup; submitToken: string; hosts: ReadonlySet<string> },
): Promise<void> {
	const { "x-ask-user": header, origin, "content-type": type } = request.headers;
	if (
		typeof header !== "string" ||
		!sameSecret(header, submitToken) ||
		!(origin === undefined || [...hosts].some((name) => origin.toLowerCase() === `http://${name}`)) ||
		!/^application\/json(;\s*charset=utf-8)?$/i.test(String(type))
	) {
		return send(response, 403, "application/json", JSON.stringify({ error: "refused" }));
	}
	const body = await readBody(request);
	if (body === undefined) return send(response, 413, "application/json", JSON.stringify({ error: TOO_LARGE }));
	const outcome = answerFrom(setup, body);
	// A submit that lost the race (to another tab, the terminal, another extension) is told so.
	const lost = !outcome.ok && outcome.error === ALREADY_CLOSED;
	if (outcome.ok) return send(response, 200, "application/json", JSON.stringify({ ok: true }));
	const error = lost ? ALREADY_ANSWERED : outcome.error;
	// A file the limits refuse (one the page could not judge: it changed since it was chosen), in the user's words too.
	const said = "refused" in outcome ? { said: refusalWords(setup.texts, outcome.refused) } : {};
	send(response, lost ? 409 : 400, "application/json", JSON.stringify({ error, ...said }));
}

/** A file the server refuses, as the page refuses one where it is chosen. */
function refusalWords({ t }: Texts, refused: FileRefusal): string {
	if (refused.limit === "form") return t("web.formFull", { limit: ATTACHMENT_LIMITS.perForm });
	if (refused.limit === "total") return t("web.totalTooLarge", { name: refused.name, limit: megabytes(refused.bytes) });
	return t("web.fileTooLarge", { name: refused.name, size: megabytes(refused.size), limit: megabytes(refused.bytes) });
}

/**
 * Connections yet to send their request's headers, oldest first, each with a timer of our own that drops it (Node's
 * headersTimeout is only checked every 30 s); past a peer's share, or the whole, an old one makes room for the new.
 */
function dropSlowConnections(server: Server): { heard(socket: Socket): void; dropWaiting(): void } {
	const waiting = new Map<Socket, ReturnType<typeof setTimeout>>();
	const heard = (socket: Socket) => {
		clearTimeout(waiting.get(socket));
		waiting.delete(socket);
	};
	const drop = (socket: Socket) => (heard(socket), socket.destroy());
	server.on("connection", (socket: Socket) => {
		const all = [...waiting.keys()];
		const peer = all.filter((other) => other.remoteAddress === socket.remoteAddress);
		const crowd = all.length >= MAX_WAITING ? all : [];
		const full = peer.length >= MAX_WAITING_PER_PEER ? peer : crowd;
		// One that sent part of its headers goes first: a browser's spare connection has sent nothing yet.
		const oldest = full.find((other) => other.bytesRead > 0) ?? full[0];
		if (oldest) drop(oldest);
		waiting.set(socket, setTimeout(drop, HEADERS_DEADLINE_MS, socket));
		socket.once("close", () => heard(socket));
	});
	return { heard, dropWaiting: () => [...waiting.keys()].forEach(drop) };
}

/** Everything the page shows, as data (never HTML). */
function pageData({ form, questions, texts, asker, task, reason, options: setup }: WebPageSetup) {
	const { t } = texts;
	const youDecide = delegable(form, setup);
	const who =
		task === undefined
			? t("form.askedBy", { asker: asker ?? "" })
			: t("form.askedByTask", { asker: asker ?? "", task });
	return {
		...(asker !== undefined && { asker: who }),
		...(reason !== undefined && { reason: t("form.reason", { reason }) }),
		// What the page shows of an option, not the value the model gets back.
		questions: questions.map(({ options, ...question }, i) => ({
			...question,
			youDecide: youDecide[i],
			options: options.map(({ label, description, preview, recommended }) => ({
				label,
				description,
				preview,
				recommended,
			})),
		})),
		words: {
			other: t("question.typeSomething"),
			youDecide: t("question.youDecide"),
			delegated: t("outcome.delegated"),
			recommended: t("question.recommended"),
			note: t("editor.questionNote"),
			formNote: t("editor.formNote"),
			preview: t("question.preview"),
			review: t("review.title"),
			ready: t("review.ready"),
			missing: t("review.missing", { names: "{names}" }),
			submit: t("review.submit"),
			answered: t("web.answered"),
			closed: t("web.closed"),
			alreadyAnswered: t("web.alreadyAnswered"),
			notSent: t("web.notSent", { error: "{error}" }),
			...fileWords(texts),
		},
		limits: ATTACHMENT_LIMITS,
	};
}

/** The page's words for the files of an answer; `{name}`, `{size}`, a file's `{limit}` left for the page to fill. */
function fileWords({ t }: Texts) {
	const name = "{name}";
	const { perAnswer, perForm } = ATTACHMENT_LIMITS;
	return {
		attach: t("web.attach"),
		remove: t("web.removeFile", { name }),
		needsText: t("attach.needsText"),
		fileTooLarge: t("web.fileTooLarge", { name, size: "{size}", limit: "{limit}" }),
		answerFull: t("web.answerFull", { limit: perAnswer }),
		formFull: t("web.formFull", { limit: perForm }),
		totalTooLarge: t("web.totalTooLarge", { name, limit: ALL_FILES }),
		unreadable: t("web.fileUnreadable", { name }),
		tooLarge: t("web.submitTooLarge", { limit: ALL_FILES }),
	};
}

/** The catalogue's text made safe inside HTML (ours, but never trusted to hold no markup). */
const escaped = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function html(submitToken: string, texts: Texts): string {
	return `<!doctype html>
<html lang="${escaped(texts.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="ask-user" content="${submitToken}">
<title>ask_user</title>
<link rel="stylesheet" href="page.css">
<link rel="stylesheet" href="theme.css">
<script src="files.js" defer></script>
<script src="page.js" defer></script>
</head>
<body><noscript><p>${escaped(texts.t("web.needsScript"))}</p></noscript><main id="form"></main></body>
</html>
`;
}

const HEADERS = {
	"Content-Security-Policy":
		"default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' blob:; " +
		"base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	"X-Content-Type-Options": "nosniff",
	"Referrer-Policy": "no-referrer",
	"Cache-Control": "no-store",
	"X-Frame-Options": "DENY",
	Connection: "close",
};

function send(response: ServerResponse, status: number, type: string, body: string): void {
	response.writeHead(status, { ...HEADERS, "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
	response.end(body);
}

/** The body, or undefined past MAX_BODY_BYTES (the rest is read and dropped, never kept). */
function readBody(request: IncomingMessage): Promise<string | undefined> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		request.on("data", (chunk: Buffer) => {
			size += chunk.length;
			if (size <= MAX_BODY_BYTES) chunks.push(chunk);
		});
		request.on("end", () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString("utf8")));
		request.on("error", () => resolve(undefined));
	});
}

/** Compared in constant time: a wrong token learns nothing from how long it took. */
function sameSecret(given: string, secret: string): boolean {
	const a = Buffer.from(given);
	const b = Buffer.from(secret);
	return a.length === b.length && timingSafeEqual(a, b);
}

function rateLimit(): () => boolean {
	let second = 0;
	let count = 0;
	return () => {
		const now = Math.floor(Date.now() / 1000);
		if (now !== second) [second, count] = [now, 0];
		return ++count <= MAX_REQUESTS_PER_SECOND;
	};
}
