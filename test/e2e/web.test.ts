/**
 * Answering from a browser (src/web/), in the real pi TUI and a real browser:
 * Debian's chromium driven by playwright-core. The page's answers reach the
 * model exactly; nothing the model wrote runs as HTML; a wrong token learns
 * nothing; a flood of bad requests changes nothing, nor do slow connections
 * that trickle their headers; a submit that came too late is told so; with the
 * setting off pi listens on no port. On 127.0.0.1 `?` says how to reach the page from a phone, on a LAN address it
 * shows the QR code; the page wears pi's theme as pi gives it; the review shows the notes, and the note on the whole
 * form reaches the model. The page alone, on a phone's screen: test/e2e/web-page.test.ts.
 */

// The page's own globals, for what runs in it (page.evaluate).
/// <reference lib="dom" />

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../../scripts/chromium.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareForm } from "../../src/tool/call.ts";
import { ENGLISH } from "../../src/i18n/texts.ts";
import { ALREADY_CLOSED } from "../../src/core/types.ts";
import { openWebPage } from "../../src/web/server.ts";
import { fuzz, slowloris } from "../support/attack.ts";
import { callTool, IMAGES_ENV, QUOTE_PREFIX, quoteLastToolResult, scriptOf } from "../support/model-script.ts";
import { createPiEnv, type PiEnv, REPO_ROOT } from "../support/pi-env.ts";
import { processesOf, startedPerTest, until } from "../support/harness.ts";
import { TmuxPi } from "../support/tmux.ts";
import { LAN_ADDRESS } from "../support/lan.ts";

const started = startedPerTest();
const URL_PATTERN = /http:\/\/[0-9.]+:\d+\/ask\/[A-Za-z0-9_-]{16,}\//;
const LAN = LAN_ADDRESS;

const FORM = {
	questions: [
		{
			id: "db",
			header: "Database",
			question: "Which database should the service use?",
			options: [{ label: "Postgres" }, { label: "SQLite" }],
		},
		{
			id: "features",
			header: "Features",
			question: "Which features ship first?",
			multiSelect: true,
			options: [{ label: "Auth" }, { label: "Billing" }, { label: "Search" }],
		},
		{ id: "why", header: "Context", question: "Anything else I should know?" },
	],
};
const HOSTILE = {
	questions: [
		{
			id: "x",
			header: "Markup",
			question: "Pick one <img src=x onerror=alert(1)>",
			options: [
				{
					label: "First",
					description: "</script><script>alert(2)</script>",
					preview:
						"# Plan <img src=x onerror=alert(3)>\n- step **one** <b>two</b>\n```\nconst s = '<script>alert(4)</script>';\n```",
				},
				{ label: "Second" },
			],
		},
	],
	reason: "The plan needs it <script>alert(5)</script>",
};

/** A real PNG of 1×1 pixel. */
const PNG = Buffer.from(
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
	"base64",
);

let browser: Browser;
beforeAll(async () => {
	browser = await launchChromium();
}, 120_000);
afterAll(async () => browser?.close());

/**
 * pi with the web setting (or not), its model asking `form` on "ask"; returns once the form shows, with the page's URL
 * when there is one. `more`: more variables for pi, and a step before it starts (a theme in its agent dir).
 */
async function ask(
	form: unknown,
	web: boolean,
	more: { env?: Record<string, string>; before?(env: PiEnv): string[]; sessions?: boolean } = {},
): Promise<{ env: PiEnv; tui: TmuxPi; url: string | undefined }> {
	const script = scriptOf({ user: "ask", replies: [callTool("ask_user", form), quoteLastToolResult] });
	const variables = { ...(web && { PI_ASK_USER_WEB: "1" }), ...more.env };
	const env = (started.piEnv = createPiEnv({ script, env: variables, ...(more.sessions && { sessions: true }) }));
	const extraArgs = more.before?.(env) ?? [];
	const tui = (started.tui = await TmuxPi.start(env, { cols: 120, rows: 45, extraArgs }));
	await tui.waitForReady();
	await tui.type("ask");
	await tui.send("Enter");
	const screen = await tui.waitFor(web ? URL_PATTERN : "Submit");
	return { env, tui, url: URL_PATTERN.exec(screen)?.[0] };
}

async function openPage(url: string): Promise<{ page: Page; dialogs: string[] }> {
	const page = await browser.newPage({ viewport: { width: 360, height: 780 } });
	const dialogs: string[] = [];
	page.on("dialog", (dialog) => {
		dialogs.push(dialog.message());
		void dialog.dismiss();
	});
	await page.goto(url);
	await page.locator("fieldset").first().waitFor();
	return { page, dialogs };
}

/** pi's own dark theme with a few colours of ours, chosen in the agent dir's settings; the flag that loads it. */
function withTheme(env: PiEnv): string[] {
	const dark = JSON.parse(
		readFileSync(
			join(REPO_ROOT, "node_modules/@earendil-works/pi-coding-agent/dist/modes/interactive/theme/dark.json"),
			"utf8",
		),
	);
	const theme = {
		...dark,
		name: "ask-user-page",
		colors: { ...dark.colors, accent: "#ff8800", text: "#e6e6e6", toolPendingBg: "#282c34" },
	};
	const path = join(env.root, "ask-user-page.json");
	writeFileSync(path, JSON.stringify(theme));
	const settings = join(env.env["PI_CODING_AGENT_DIR"] ?? "", "settings.json");
	writeFileSync(settings, JSON.stringify({ ...JSON.parse(readFileSync(settings, "utf8")), theme: "ask-user-page" }));
	return ["--theme", path];
}

/** The TCP ports pi's processes listen on (from /proc: their sockets among the listening ones). */
function listeningPorts(env: PiEnv): number[] {
	const inodes = new Set<string>();
	for (const { pid } of processesOf(env)) {
		for (const fd of readdirSync(`/proc/${pid}/fd`)) {
			const link = (() => {
				try {
					return readlinkSync(`/proc/${pid}/fd/${fd}`);
				} catch {
					return "";
				}
			})();
			const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
			if (inode) inodes.add(inode);
		}
	}
	const ports: number[] = [];
	for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
		for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
			const fields = line.trim().split(/\s+/);
			if (fields[3] === "0A" && inodes.has(fields[9] ?? ""))
				ports.push(Number.parseInt(fields[1]?.split(":")[1] ?? "", 16));
		}
	}
	return ports;
}

describe("answering from a browser", () => {
	it("a three-question form answered in the page: the model receives exactly those answers, the inline form is gone, the port closes", async () => {
		const { env, tui, url } = await ask(FORM, true);
		expect(url).toBeDefined();
		// On 127.0.0.1 no phone can open the link: ? says how to reach the page from one, and shows no QR code.
		await tui.send("?");
		const help = await tui.waitFor("this page listens on this machine only");
		expect(help).toMatch(/Set webAddress in your ask-user\.json/);
		expect(help).not.toContain("Scan with a phone");
		expect(help).not.toMatch(/[▀▄█]{20,}/);
		await tui.send("Escape");
		await tui.waitForGone("this page listens on this machine only");
		expect(listeningPorts(env)).toEqual([Number(new URL(url ?? "").port)]);
		const { page, dialogs } = await openPage(url ?? "");
		await page.getByText("SQLite", { exact: true }).click();
		await page.getByText("Auth", { exact: true }).click();
		await page.getByText("Search", { exact: true }).click();
		await page.locator("fieldset").nth(2).locator("textarea.other-text").fill("Keep the  spacing\nand this line");
		await page.locator("fieldset").nth(2).locator("details.note summary").click();
		await page.locator("fieldset").nth(2).locator("textarea.note-text").fill("a note on the last one");
		// The review shows it, as the terminal's does; and offers the note on the whole form.
		await expect(page.locator(".review li").nth(2).locator(".noted").textContent()).resolves.toBe(
			"✎ a note on the last one",
		);
		await page.locator(".review details.form-note summary").click();
		await page.locator(".review textarea.form-note-text").fill("all of it by Friday");
		if (process.env["WEB_SCREENSHOT"]) await page.screenshot({ path: process.env["WEB_SCREENSHOT"], fullPage: true });
		await page.getByRole("button", { name: "Submit" }).click();
		await page.getByText("the agent has your answers").waitFor();

		await tui.waitForGone("Anything else I should know?");
		await tui.waitFor(QUOTE_PREFIX);
		const [result] = env.toolResults("ask_user");
		const details = result?.details as {
			status: string;
			answeredBy: string;
			answers: Record<string, { selections: Array<{ label: string; value: string }> }>;
			notes: unknown[];
		};
		expect(details.status).toBe("answered");
		expect(details.answeredBy).toBe("the browser");
		expect(details.answers["db"]?.selections.map((s) => s.label)).toEqual(["SQLite"]);
		expect(details.answers["features"]?.selections.map((s) => s.label)).toEqual(["Auth", "Search"]);
		expect(details.answers["why"]?.selections.map((s) => s.value)).toEqual(["Keep the  spacing\nand this line"]);
		expect(details.notes).toEqual([
			{ questionId: "why", text: "a note on the last one" },
			{ text: "all of it by Friday" },
		]);
		expect(result?.text).toContain('Note on the whole form: "all of it by Friday"');
		expect(await tui.capture()).toContain("the browser");
		expect(dialogs).toEqual([]);
		await until(() => listeningPorts(env).length === 0, "the page's port closed");
		await page.close();
	});

	it("a photo chosen at 360 px reaches the model as image content of its type; a log file as its saved path; the result names both", async () => {
		const { env, tui, url = "" } = await ask(FORM, true, { env: { [IMAGES_ENV]: "1" }, sessions: true });
		const photo = join(env.root, "layout.png");
		writeFileSync(photo, PNG);
		const log = join(env.root, "build.log");
		writeFileSync(log, "error: it broke\n");
		const { page } = await openPage(url);
		await page.getByText("SQLite", { exact: true }).click();
		await page.getByText("Auth", { exact: true }).click();
		const why = page.locator('fieldset[data-index="2"]');
		await why.locator("textarea.other-text").fill("like this");
		await why.locator('.files[data-for="other"] input.file-input').setInputFiles(photo);
		// Its row: a thumbnail that loaded (the page's policy lets blob: images in), its name and size.
		const row = why.locator('.files[data-for="other"] .file');
		await expect.poll(() => row.locator("img.thumb").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
		expect(await row.locator(".file-name").textContent()).toBe("layout.png");
		expect(await row.locator(".file-size").textContent()).toBe(`${PNG.length} B`);
		await page.locator(".review details.form-note summary").click();
		await page.locator(".review textarea.form-note-text").fill("the log too");
		await page.locator(".review .files input.file-input").setInputFiles(log);
		await expect(page.locator(".review li").nth(2).textContent()).resolves.toContain("📎 layout.png");
		await page.getByRole("button", { name: "Submit" }).click();
		await page.getByText("the agent has your answers").waitFor();

		await tui.waitFor(QUOTE_PREFIX);
		const [result] = env.toolResults("ask_user");
		expect(result?.images).toEqual([
			{ mimeType: "image/png", bytes: PNG.length, sha256: createHash("sha256").update(PNG).digest("hex") },
		]);
		expect(result?.text).toContain('why: wrote "like this" + 📎 layout.png (image)');
		expect(result?.text).toMatch(/Note on the whole form: "the log too" \+ 📎 build\.log \(file, 16 B\)/);
		const saved = /📎 build\.log \(text\/plain, 16 B\) saved at "([^"]+)"/.exec(result?.text ?? "")?.[1] ?? "";
		expect(saved).toMatch(/\.jsonl\.ask-user\/attachments\/[0-9a-f]{8}-build\.log$/);
		expect(readFileSync(saved, "utf8")).toBe("error: it broke\n");
		expect(statSync(saved).mode & 0o777).toBe(0o600);
		const details = result?.details as { attachments?: Array<{ name: string; sent: string; kind: string }> };
		expect(details.attachments?.map(({ name, sent, kind }) => ({ name, sent, kind }))).toEqual([
			{ name: "layout.png", sent: "image", kind: "answer" },
			{ name: "build.log", sent: "path", kind: "note" },
		]);
		await page.close();
	});

	it("You decide is a button per question: pressed, the question is left to the model; choosing an option lets go of it", async () => {
		const { env, tui, url = "" } = await ask(FORM, true);
		const { page } = await openPage(url);
		const decide = (n: number) => page.locator("fieldset").nth(n).getByRole("button", { name: "You decide" });
		await decide(0).click();
		await expect(decide(0).getAttribute("aria-pressed")).resolves.toBe("true");
		await decide(1).click();
		await page.getByText("Billing", { exact: true }).click();
		await expect(decide(1).getAttribute("aria-pressed")).resolves.toBe("false");
		await page.locator("fieldset").nth(2).locator("textarea.other-text").fill("nothing");
		await expect(page.locator(".review ul").textContent()).resolves.toContain("Database: left to the model");
		await page.getByRole("button", { name: "Submit" }).click();
		await page.getByText("the agent has your answers").waitFor();

		await tui.waitFor(QUOTE_PREFIX);
		const [result] = env.toolResults("ask_user");
		expect(result?.details).toMatchObject({ status: "answered", delegated: ["db"], answeredBy: "the browser" });
		expect(result?.text).toContain("db: left to you — choose and say which");
		await page.close();
	});

	it("the model's markup (its reason too) shows as text and nothing runs; a wrong token is a bare 404; 200 bad requests change nothing", async () => {
		const { env, tui, url = "" } = await ask(HOSTILE, true);
		const { page, dialogs } = await openPage(url);
		await expect(page.locator(".asks").textContent()).resolves.toBe("Pick one <img src=x onerror=alert(1)>");
		// The call's reason, above the questions, as text too.
		await expect(page.locator(".reason").textContent()).resolves.toBe(
			"Why: The plan needs it <script>alert(5)</script>",
		);
		await expect(page.locator(".text small").first().textContent()).resolves.toBe("</script><script>alert(2)</script>");
		// A markdown preview is built as elements, its text still text.
		await page.locator("details.preview summary").first().click();
		await expect(page.locator(".markdown h4").textContent()).resolves.toBe("Plan <img src=x onerror=alert(3)>");
		await expect(page.locator(".markdown li").textContent()).resolves.toBe("step one <b>two</b>");
		await expect(page.locator(".markdown li strong").textContent()).resolves.toBe("one");
		await expect(page.locator(".markdown pre code").textContent()).resolves.toBe(
			"const s = '<script>alert(4)</script>';",
		);
		expect(await page.locator("img, main script, .markdown b").count()).toBe(0);

		const wrong = url.replace(/\/ask\/[^/]+\//, "/ask/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/");
		const refused = await fetch(wrong);
		expect(refused.status).toBe(404);
		expect(await refused.text()).toBe("");
		const flood = await Promise.all(
			Array.from({ length: 200 }, (_, i) =>
				fetch(i % 2 ? wrong : `${url}answer`, {
					method: "POST",
					headers: { "content-type": "application/json" },
					body: JSON.stringify({ questions: [{ chosen: [0] }] }),
				}).then(
					(r) => r.status,
					() => 0,
				),
			),
		);
		// Each refused: a 4xx, or (past the server's connection limit) a connection it closed at once.
		expect(flood.every((status) => status === 0 || (status >= 400 && status < 500))).toBe(true);
		expect(flood.some((status) => status >= 400)).toBe(true);
		expect((await fetch(`${url}form`)).status).toBe(200);
		expect(env.toolResults("ask_user")).toEqual([]);
		// The form still waits, and still takes its answer from the terminal.
		await tui.send("2");
		await tui.waitFor(QUOTE_PREFIX);
		expect(
			(env.toolResults("ask_user")[0]?.details as { answers: Record<string, unknown> }).answers["x"],
		).toBeDefined();
		expect(dialogs).toEqual([]);
		await page.close();
	});

	it("200 connections trickling their headers and a flood of fuzzed requests: the page loads every time, and answers", async () => {
		const { env, tui, url = "" } = await ask(FORM, true);
		const slow = slowloris(url, 200);
		const fuzzed = fuzz(url, 8);
		try {
			await until(() => slow.connections >= 400, "the slow connections dropped and back");
			for (let i = 0; i < 10; i++) {
				const page = await browser.newPage();
				await page.goto(url, { timeout: 10_000 });
				await page.locator("fieldset").first().waitFor({ timeout: 10_000 });
				await page.close();
			}
			const { page } = await openPage(url);
			await page.getByText("SQLite", { exact: true }).click();
			await page.getByText("Auth", { exact: true }).click();
			await page.locator("fieldset").nth(2).locator("textarea.other-text").fill("under attack");
			await page.getByRole("button", { name: "Submit" }).click();
			await page.getByText("the agent has your answers").waitFor({ timeout: 10_000 });
		} finally {
			slow.stop();
			fuzzed.stop();
		}
		await tui.waitFor(QUOTE_PREFIX);
		expect((env.toolResults("ask_user")[0]?.details as { answeredBy: string }).answeredBy).toBe("the browser");
	});

	it("a submit that comes after another answer: the page says the form was already answered, and takes no more", async () => {
		const { form } = prepareForm(FORM);
		const server = await openWebPage({
			form,
			questions: form.questions,
			texts: ENGLISH,
			address: "127.0.0.1",
			port: 0,
			answer: () => ({ ok: false, error: ALREADY_CLOSED }),
		});
		try {
			const { page } = await openPage(server.url);
			await page.getByText("Postgres", { exact: true }).click();
			await page.getByText("Billing", { exact: true }).click();
			await page.locator("fieldset").nth(2).locator("textarea.other-text").fill("late");
			await page.getByRole("button", { name: "Submit" }).click();
			await page.getByText(ENGLISH.t("web.alreadyAnswered")).waitFor();
			expect(await page.getByRole("button", { name: "Submit" }).isDisabled()).toBe(true);
			await page.close();
		} finally {
			await server.close();
		}
	});

	it.skipIf(!LAN)(
		"on an address a phone can reach (webAddress), ? shows the page's QR code under the keys",
		async () => {
			const { tui, url = "" } = await ask(FORM, true, { env: { PI_ASK_USER_WEB_ADDRESS: LAN ?? "" } });
			expect(new URL(url).hostname).toBe(LAN);
			await tui.send("?");
			await tui.waitFor("Scan with a phone");
			expect(await tui.capture()).toMatch(/[▀▄█]{20,}/);
			expect(await tui.capture()).not.toContain("this machine only");
			const { page } = await openPage(url);
			await page.getByText("Postgres", { exact: true }).click();
			await expect(page.locator(".review li").first().textContent()).resolves.toBe("Database: Postgres");
			await page.close();
		},
	);

	it("the page wears pi's theme: its accent, text and card colours, as pi 1.6 gives them through ctx.ui.theme", async () => {
		const { url = "" } = await ask(FORM, true, { env: { COLORTERM: "truecolor" }, before: withTheme });
		const { page } = await openPage(url);
		const style = await page.evaluate(() => ({
			accent: getComputedStyle(document.documentElement).getPropertyValue("--accent").trim(),
			button: getComputedStyle(document.getElementById("submit") as HTMLElement).backgroundColor,
			text: getComputedStyle(document.body).color,
			card: getComputedStyle(document.querySelector("fieldset") as HTMLElement).backgroundColor,
			scheme: getComputedStyle(document.documentElement).colorScheme,
		}));
		expect(style).toEqual({
			accent: "#ff8800",
			button: "rgb(255, 136, 0)",
			text: "rgb(230, 230, 230)",
			card: "rgb(40, 44, 52)",
			scheme: "dark",
		});
		await page.close();
	});

	it("with the setting off, pi listens on no port and the form shows no link", async () => {
		const { env, tui, url } = await ask(FORM, false);
		expect(url).toBeUndefined();
		expect(await tui.capture()).not.toContain("browser");
		expect(listeningPorts(env)).toEqual([]);
	});
});
