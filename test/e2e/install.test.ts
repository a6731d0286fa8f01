/**
 * Every install route README names, tried as a user would with the real pi:
 * the package packed (`npm pack`), then each route into a fresh pi agent dir,
 * then pi started the way that route loads it, and a scripted model calling
 * ask_user — the tool must run (its dialog shows, its answer comes back).
 *
 * No network: npm runs offline (the tarball bundles uqr, its one optional
 * dependency; a clone's `npm ci` takes uqr from npm's own cache, or leaves it
 * out), the git host is a local repository that git's `insteadOf` stands in
 * for, and the registry a loopback server that serves the packed tarball.
 */

import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THIS_PI } from "../../scripts/isolated-pi.mjs";
import type { AskDetails } from "../../src/core/types.ts";
import { askScript } from "../support/ask-fixtures.ts";
import { startedPerTest } from "../support/harness.ts";
import { createPiEnv, type PiEnv, REPO_ROOT } from "../support/pi-env.ts";
import { answerInOrder, choose, RpcPi } from "../support/rpc-client.ts";
import { TmuxPi } from "../support/tmux.ts";
import { LAN_ADDRESS } from "../support/lan.ts";

const run = promisify(execFile);
const started = startedPerTest();

const FORM = {
	questions: [
		{
			id: "db",
			header: "Database",
			question: "Which database?",
			options: [{ label: "Postgres" }, { label: "SQLite" }],
		},
	],
};
/** Where README's git route clones from; git's `insteadOf` sends it to a local repository. */
const GIT_URL = "https://git.example.test/team/pi-ask-user";
const URL_PATTERN = /http:\/\/[0-9.]+:\d+\/ask\/[A-Za-z0-9_-]{32}\//;

let work: string;
/** The packed package. */
let tarball: string;
/** A clone of this checkout (its files as committed with the changes in the working tree), no node_modules. */
let clone: string;
/** The same, after README's `npm ci --omit=dev`. */
let installedClone: string;
/** npm's own cache: offline, a clone's `npm ci` takes uqr from there (or, not there, leaves the optional package out). */
let npmCache: string;

beforeAll(async () => {
	work = mkdtempSync(join(tmpdir(), "pi-ask-user-install-"));
	const packed = await run("npm", ["pack", "--json", "--pack-destination", work], { cwd: REPO_ROOT });
	const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; bundled: string[]; files: { path: string }[] }>;
	expect(info?.bundled).toEqual(["uqr"]);
	// The build (prepack made it, postpack took it out of the checkout again): a package runs it, not its source.
	const packedFiles = info?.files.map((file) => file.path) ?? [];
	expect(packedFiles).toEqual(expect.arrayContaining(["dist/manifest.json", "dist/page.js", "dist/page.css"]));
	expect(existsSync(join(REPO_ROOT, "dist"))).toBe(false);
	tarball = join(work, info?.filename ?? "");

	clone = join(work, "clone");
	const listed = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
		cwd: REPO_ROOT,
		maxBuffer: 16 * 1024 * 1024,
	});
	for (const file of listed.stdout.split("\0").filter((name) => name !== "")) {
		if (!existsSync(join(REPO_ROOT, file))) continue; // deleted in the working tree
		mkdirSync(dirname(join(clone, file)), { recursive: true });
		cpSync(join(REPO_ROOT, file), join(clone, file));
	}
	const git = (...args: string[]) =>
		run("git", ["-c", "user.name=test", "-c", "user.email=test@example.test", ...args], { cwd: clone });
	await git("init", "-q");
	await git("add", "-A");
	await git("commit", "-q", "-m", "pi-ask-user");

	npmCache = (await run("npm", ["config", "get", "cache"])).stdout.trim();
	installedClone = join(work, "installed-clone");
	cpSync(clone, installedClone, { recursive: true });
	await run("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund"], {
		cwd: installedClone,
		env: { ...process.env, ...offlineNpm(npmCache) },
	});
}, 180_000);

afterAll(() => {
	if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

function offlineNpm(cache: string): Record<string, string> {
	return { npm_config_offline: "true", npm_config_cache: cache, npm_config_update_notifier: "false" };
}

/** A fresh agent dir that loads the packages installed into it, and only those: ask_user is not given with -e. */
function freshPi(env: Record<string, string> = {}): PiEnv {
	return (started.piEnv = createPiEnv({ script: askScript(FORM), extensions: [], packages: true, env }));
}

/** `pi <args>` (install, list) in the env's agent dir; its output. */
async function pi(env: PiEnv, npm: Record<string, string>, ...args: string[]): Promise<string> {
	const [node = "node", ...cli] = THIS_PI.argv;
	const { stdout, stderr } = await run(node, [...cli, ...args], { cwd: env.cwd, env: { ...env.env, ...npm } });
	return stdout + stderr;
}

/** pi over RPC with `args`: the scripted model calls ask_user; its select dialog is answered; the answer comes back. */
async function expectAskUserRuns(env: PiEnv, args: string[] = []): Promise<void> {
	const handler = answerInOrder(choose("Postgres"));
	const rpc = (started.rpc = RpcPi.start({ ...env, command: [...env.command, ...args] }, handler));
	await rpc.prompt("ask me");
	expect(rpc.dialogs[0]?.title).toContain("Which database?");
	const [result] = env.toolResults("ask_user");
	expect(result?.text).not.toContain("not found");
	expect((result?.details as AskDetails | undefined)?.status).toBe("answered");
	expect(handler.unexpected).toEqual([]);
}

describe("installing pi-ask-user", () => {
	it("from a clone: npm ci --omit=dev, then pi install <folder>", async () => {
		const env = freshPi();
		expect(await pi(env, {}, "install", installedClone)).toContain("Installed");
		expect(await pi(env, {}, "list")).toContain(installedClone);
		await expectAskUserRuns(env);
	});

	it("from git: pi install git:<repository-url> clones it and installs its dependency", async () => {
		const env = freshPi();
		writeFileSync(join(env.env["HOME"] ?? "", ".gitconfig"), `[url "${clone}"]\n\tinsteadOf = ${GIT_URL}\n`);
		expect(await pi(env, offlineNpm(npmCache), "install", `git:${GIT_URL}`)).toContain("Installed");
		expect(await pi(env, {}, "list")).toContain(join("git", "git.example.test", "team", "pi-ask-user"));
		await expectAskUserRuns(env);
	});

	it("from the packed tarball: pi install npm:pi-ask-user@file:<tarball>, offline, uqr in the tarball", async () => {
		const env = freshPi();
		const emptyCache = join(env.root, "npm-cache");
		expect(await pi(env, offlineNpm(emptyCache), "install", `npm:pi-ask-user@file:${tarball}`)).toContain("Installed");
		const installed = join(env.root, "agent", "npm", "node_modules", "pi-ask-user");
		expect(await pi(env, {}, "list")).toContain(installed);
		expect(existsSync(join(installed, "node_modules", "uqr", "package.json"))).toBe(true);
		await expectAskUserRuns(env);
	});

	it("from a registry: pi install npm:pi-ask-user (a loopback registry serving the packed tarball)", async () => {
		const registry = await serveRegistry(tarball);
		try {
			const env = freshPi();
			const npm = {
				npm_config_registry: registry.url,
				npm_config_cache: join(env.root, "npm-cache"),
				npm_config_update_notifier: "false",
			};
			expect(await pi(env, npm, "install", "npm:pi-ask-user")).toContain("Installed");
			expect(await pi(env, {}, "list")).toContain(join("agent", "npm", "node_modules", "pi-ask-user"));
			await expectAskUserRuns(env);
		} finally {
			await registry.close();
		}
	});

	it("for one run: pi -e <folder>/index.ts", async () => {
		await expectAskUserRuns(freshPi(), ["-e", join(installedClone, "index.ts")]);
	});

	// On an address a phone can reach: on loopback ? shows no QR code anyway (test/e2e/web.test.ts).
	it.skipIf(!LAN_ADDRESS)(
		"a folder without npm install (no uqr): the tool runs, the browser page works, and ? says the QR code needs uqr",
		async () => {
			const env = freshPi({ PI_ASK_USER_WEB: "1", PI_ASK_USER_WEB_ADDRESS: LAN_ADDRESS ?? "" });
			expect(await pi(env, {}, "install", clone)).toContain("Installed");
			const tui = (started.tui = await TmuxPi.start(env, { cols: 120, rows: 50 }));
			await tui.waitForReady();
			await tui.type("ask me");
			await tui.send("Enter");
			const screen = await tui.waitFor(URL_PATTERN);
			expect(screen).toContain("Which database?");
			expect(screen).not.toContain("could not listen");
			const page = await fetch(URL_PATTERN.exec(screen)?.[0] ?? "");
			expect(page.status).toBe(200);
			await tui.send("?");
			const help = await tui.waitFor("No QR code");
			expect(help).toContain("the optional package uqr is missing");
			expect(help).not.toContain("Scan with a phone");
		},
	);
});

/** An npm registry of one package, on loopback: its packument and its tarball. */
async function serveRegistry(tarballPath: string): Promise<{ url: string; close(): Promise<void> }> {
	const bytes = readFileSync(tarballPath);
	const integrity = `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
	const shasum = createHash("sha1").update(bytes).digest("hex");
	const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
		name: string;
		version: string;
	};
	const server: Server = createServer((request, response) => {
		const { port } = server.address() as AddressInfo;
		const base = `http://127.0.0.1:${port}`;
		const tarballPathname = `/${manifest.name}/-/${manifest.name}-${manifest.version}.tgz`;
		if (request.url === `/${manifest.name}`) {
			const version = { ...manifest, dist: { tarball: `${base}${tarballPathname}`, integrity, shasum } };
			response.writeHead(200, { "content-type": "application/json" });
			response.end(
				JSON.stringify({
					name: manifest.name,
					"dist-tags": { latest: manifest.version },
					versions: { [manifest.version]: version },
				}),
			);
		} else if (request.url === tarballPathname) {
			response.writeHead(200, { "content-type": "application/octet-stream" });
			response.end(bytes);
		} else {
			response.writeHead(404, { "content-type": "application/json" });
			response.end("{}");
		}
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
