/**
 * The browser page itself (src/web/page.js, page.css, theme.css), served by its real server and shown in Debian's
 * chromium through playwright-core, on a phone's 360 px: its disclosures show a marker, "Sent" shows where the user
 * tapped, the review shows the notes and offers the note on the whole form, pi's theme colours the page (and can do
 * nothing else), the console stays clean, and without JavaScript the page says it needs it. With pi around it:
 * test/e2e/web.test.ts.
 */

// The page's own globals, for what runs in it (page.evaluate).
/// <reference lib="dom" />

import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../../scripts/chromium.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AskAttached } from "../../src/core/attachment.ts";
import type { OutsideAnswer } from "../../src/core/types.ts";
import { ENGLISH } from "../../src/i18n/texts.ts";
import { prepareForm } from "../../src/tool/call.ts";
import { openWebPage, type WebPage } from "../../src/web/server.ts";
import type { PageTheme } from "../../src/web/theme.ts";

const { form } = prepareForm({
	questions: [
		{
			id: "db",
			header: "Database",
			question: "Which database should the service use?",
			options: [
				{ label: "Postgres", preview: "# Postgres\n- a server\n- **strong** types" },
				{ label: "SQLite", description: "one file" },
			],
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
});

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

/** The page on 127.0.0.1 with pi's `theme` (if any), recording what it is answered. */
async function served(theme?: PageTheme): Promise<WebPage & { given: OutsideAnswer[]; files: AskAttached[] }> {
	const given: OutsideAnswer[] = [];
	const files: AskAttached[] = [];
	const page = await openWebPage({
		form,
		questions: form.questions,
		texts: ENGLISH,
		address: "127.0.0.1",
		port: 0,
		...(theme && { theme }),
		answer: (reply, _source, attached = []) => (given.push(reply), files.push(...attached), { ok: true }),
	});
	return Object.assign(page, { given, files });
}

/** The page at a phone's size, with every console message and every failed or refused request it saw. */
async function phone(url: string, javaScriptEnabled = true): Promise<{ page: Page; troubles: string[] }> {
	const context = await browser.newContext({
		viewport: { width: 360, height: 640 },
		hasTouch: true,
		javaScriptEnabled,
	});
	const page = await context.newPage();
	const troubles: string[] = [];
	page.on("console", (message) => troubles.push(`console ${message.type()}: ${message.text()}`));
	page.on("pageerror", (error) => troubles.push(`error: ${error.message}`));
	page.on("requestfailed", (request) => troubles.push(`failed: ${request.url()}`));
	page.on(
		"response",
		(response) => response.status() >= 400 && troubles.push(`${response.status()}: ${response.url()}`),
	);
	await page.goto(url);
	if (javaScriptEnabled) await page.locator("fieldset").first().waitFor();
	return { page, troubles };
}

/** `bytes` written at `path`, then made `size` bytes long (zeros after them). */
function written(path: string, bytes: Buffer | string, size?: number): string {
	writeFileSync(path, bytes);
	if (size !== undefined) truncateSync(path, size);
	return path;
}

/** The page with every question answered, the last in words of its own (for files to go with). */
async function answered(url: string): Promise<{ page: Page; troubles: string[] }> {
	const opened = await phone(url);
	await opened.page.getByText("SQLite", { exact: true }).click();
	await opened.page.getByText("Auth", { exact: true }).click();
	await opened.page.locator('fieldset[data-index="2"] textarea.other-text').fill("as on these");
	return opened;
}

const marker = (page: Page, selector: string) =>
	page.locator(selector).evaluate((summary) => getComputedStyle(summary, "::before").content);

async function withPage(
	theme: PageTheme | undefined,
	test: (server: Awaited<ReturnType<typeof served>>) => Promise<void>,
) {
	const server = await served(theme);
	try {
		await test(server);
	} finally {
		await server.close();
	}
}

describe("the browser page, on a phone", () => {
	it("Preview and the note on a question show a disclosure marker: ▸ closed, ▾ open", async () => {
		await withPage(undefined, async ({ url }) => {
			const { page } = await phone(url);
			const preview = "details.preview > summary";
			const note = 'fieldset[data-index="0"] details.note > summary';
			expect(await marker(page, preview)).toBe('"▸"');
			expect(await marker(page, note)).toBe('"▸"');
			await page.locator(preview).click();
			await page.locator(note).click();
			expect(await marker(page, preview)).toBe('"▾"');
			expect(await marker(page, note)).toBe('"▾"');
			await expect(page.locator(".markdown h4").textContent()).resolves.toBe("Postgres");
			await page.locator(preview).click();
			expect(await marker(page, preview)).toBe('"▸"');
			await page.context().close();
		});
	});

	it("after tapping Submit at 360×640, “✓ Sent” shows right under the button, inside the viewport", async () => {
		await withPage(undefined, async ({ url, given }) => {
			const { page } = await phone(url);
			await page.getByText("SQLite", { exact: true }).click();
			await page.getByText("Auth", { exact: true }).click();
			await page.locator('fieldset[data-index="2"] textarea.other-text').fill("nothing more");
			const submit = page.getByRole("button", { name: "Submit" });
			await submit.tap();
			const sent = page.getByText(ENGLISH.t("web.answered"));
			await sent.waitFor();
			await expect.poll(() => sent.isVisible()).toBe(true);
			const box = await sent.boundingBox();
			const button = await submit.boundingBox();
			expect(box && button).toBeTruthy();
			if (!box || !button) return;
			// Under the button, and wholly on screen.
			expect(box.y).toBeGreaterThanOrEqual(button.y + button.height);
			expect(box.y).toBeGreaterThanOrEqual(0);
			expect(box.y + box.height).toBeLessThanOrEqual(640);
			expect(given).toHaveLength(1);
			await page.context().close();
		});
	});

	it("the review shows each question's note; the note on the whole form is offered and sent as the form's", async () => {
		await withPage(undefined, async ({ url, given }) => {
			const { page } = await phone(url);
			await page.locator("label.option", { hasText: "Postgres" }).click();
			await page.getByText("Billing", { exact: true }).click();
			await page.locator('fieldset[data-index="2"] textarea.other-text').fill("ship it");
			await page.locator('fieldset[data-index="1"] details.note > summary').click();
			await page.locator('fieldset[data-index="1"] textarea.note-text').fill("billing first, for the pilot");
			const review = page.locator(".review ul");
			await expect(review.locator("li").nth(1).textContent()).resolves.toBe(
				"Features: Billing✎ billing first, for the pilot",
			);
			await expect(review.locator("li").nth(1).locator(".noted").isVisible()).resolves.toBe(true);
			const formNote = page.locator(".review details.form-note");
			await expect(formNote.locator("summary").textContent()).resolves.toBe(ENGLISH.t("editor.formNote"));
			await formNote.locator("summary").click();
			await formNote.locator("textarea").fill("keep it boring");
			await page.getByRole("button", { name: "Submit" }).click();
			await page.getByText(ENGLISH.t("web.answered")).waitFor();
			expect(given[0]).toMatchObject({
				notes: [{ questionId: "features", text: "billing first, for the pilot" }],
				formNote: "keep it boring",
			});
			await page.context().close();
		});
	});

	it("files: each a row with a thumbnail and remove; a fifth on one answer and one over the limit refused in place, in one line, the text kept; a file on a blank note holds Submit", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-ask-user-web-page-files-"));
		const shot = (i: number) => join(dir, `shot-${i}.png`);
		for (let i = 1; i <= 5; i++) writeFileSync(shot(i), PNG);
		const big = written(join(dir, "big.log"), "", 10 * 1024 * 1024 + 1);
		try {
			await withPage(undefined, async ({ url, given, files }) => {
				const { page, troubles } = await answered(url);
				const why = page.locator('fieldset[data-index="2"]');
				const box = why.locator('.files[data-for="other"]');
				const picker = box.locator("input.file-input");
				expect(await picker.getAttribute("accept")).toBe("image/*");
				await picker.setInputFiles([1, 2, 3, 4].map(shot));
				await expect.poll(() => box.locator(".file").count()).toBe(4);
				await expect
					.poll(() =>
						box.locator("img.thumb").evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth)),
					)
					.toEqual([1, 1, 1, 1]);
				// A fifth on the same answer: refused in place, with the reason; the text stays.
				await picker.setInputFiles(shot(5));
				const problem = box.locator(".file-problem");
				await expect.poll(() => problem.textContent()).toBe(ENGLISH.t("web.answerFull", { limit: 4 }));
				expect(await box.locator(".file").count()).toBe(4);
				expect(await why.locator("textarea.other-text").inputValue()).toBe("as on these");
				// Removed, a file is gone; then one over the limit is refused, with its size and the limit.
				await box.getByRole("button", { name: "Remove shot-2.png" }).click();
				await box.getByRole("button", { name: "Remove shot-3.png" }).click();
				await box.getByRole("button", { name: "Remove shot-4.png" }).click();
				await expect.poll(() => box.locator(".file-name").allTextContents()).toEqual(["shot-1.png"]);
				expect(await problem.isHidden()).toBe(true);
				await picker.setInputFiles(big);
				const tooLarge = ENGLISH.t("web.fileTooLarge", { name: "big.log", size: "10.1 MB", limit: "10 MB" });
				await expect.poll(() => problem.textContent()).toBe(tooLarge);
				expect(await box.locator(".file-name").allTextContents()).toEqual(["shot-1.png"]);
				// A file on a note with no words holds Submit, and says why.
				const note = why.locator('.files[data-for="note"]');
				await why.locator("details.note summary").click();
				await note.locator("input.file-input").setInputFiles(shot(5));
				const submit = page.getByRole("button", { name: "Submit" });
				await expect.poll(() => submit.isDisabled()).toBe(true);
				expect(await page.locator(".review .status").textContent()).toBe(ENGLISH.t("attach.needsText"));
				await why.locator("textarea.note-text").fill("and this one");
				await expect.poll(() => submit.isDisabled()).toBe(false);
				await submit.click();
				await page.getByText(ENGLISH.t("web.answered")).waitFor();
				expect(given).toHaveLength(1);
				expect(files.map(({ name, kind, questionId, mime, size }) => ({ name, kind, questionId, mime, size }))).toEqual(
					[
						{ name: "shot-1.png", kind: "answer", questionId: "why", mime: "image/png", size: PNG.length },
						{ name: "shot-5.png", kind: "note", questionId: "why", mime: "image/png", size: PNG.length },
					],
				);
				for (const file of files) rmSync(file.path);
				expect(troubles).toEqual([]);
				await page.context().close();
			});
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("files are judged by their bytes, not their names: a PNG with no extension is an image, a .jpg that is none a file; `$&` in a name stays", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-ask-user-web-page-bytes-"));
		const at = (name: string, bytes: Buffer | string, size?: number) => written(join(dir, name), bytes, size);
		const over = 10 * 1024 * 1024 + 1;
		try {
			await withPage(undefined, async ({ url, files }) => {
				const { page, troubles } = await answered(url);
				const box = page.locator('fieldset[data-index="2"] .files[data-for="other"]');
				const picker = box.locator("input.file-input");
				// A real PNG named with no extension: its thumbnail; one of 10.1 MB: within an image's 20 MB.
				await picker.setInputFiles([at("shot", PNG), at("screen", PNG, over), at("a$&b.png", PNG)]);
				await expect.poll(() => box.locator(".file-name").allTextContents()).toEqual(["shot", "screen", "a$&b.png"]);
				await expect
					.poll(() =>
						box
							.locator(".file")
							.first()
							.locator("img.thumb")
							.evaluate((img: HTMLImageElement) => img.naturalWidth),
					)
					.toBe(1);
				await expect(box.getByRole("button", { name: "Remove a$&b.png", exact: true }).count()).resolves.toBe(1);
				// A .jpg that is no JPEG is a file: past 10 MB it is refused where it was chosen.
				await picker.setInputFiles(at("fake$'.jpg", "not a photo", over));
				const tooLarge = ENGLISH.t("web.fileTooLarge", { name: "fake$'.jpg", size: "10.1 MB", limit: "10 MB" });
				await expect.poll(() => box.locator(".file-problem").textContent()).toBe(tooLarge);
				await page.getByRole("button", { name: "Submit" }).click();
				await page.getByText(ENGLISH.t("web.answered")).waitFor();
				expect(files.map(({ name, mime, size }) => ({ name, mime, size }))).toEqual([
					{ name: "shot", mime: "image/png", size: PNG.length },
					{ name: "screen", mime: "image/png", size: over },
					{ name: "a$&b.png", mime: "image/png", size: PNG.length },
				]);
				for (const file of files) rmSync(file.path);
				expect(troubles).toEqual([]);
				await page.context().close();
			});
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("Submit is held while the files go, so a second tap sends nothing; a file the server refuses is said in the catalogue's words", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-ask-user-web-page-held-"));
		const big = written(join(dir, "big.log"), "", 10 * 1024 * 1024 + 1);
		try {
			await withPage(undefined, async ({ url, given }) => {
				const { page } = await answered(url);
				let release = () => {};
				const held = new Promise<void>((resolve) => (release = resolve));
				let posts = 0;
				await page.route("**/answer", async (route) => (posts++, await held, route.continue()));
				// The page's limits let a file through that the server's do not (as one that grew since it was chosen).
				await page.evaluate("pageFiles.setLimits({ fileBytes: 100 * 1024 * 1024 })");
				await page.locator('fieldset[data-index="2"] .files[data-for="other"] input.file-input').setInputFiles(big);
				const submit = page.getByRole("button", { name: "Submit" });
				await submit.click();
				await expect.poll(() => posts, { timeout: 60_000 }).toBe(1);
				expect(await submit.isDisabled()).toBe(true);
				await submit.dispatchEvent("click");
				release();
				const problem = page.locator(".problem");
				const said = ENGLISH.t("web.fileTooLarge", { name: "big.log", size: "10.1 MB", limit: "10 MB" });
				await expect.poll(() => problem.textContent()).toBe(ENGLISH.t("web.notSent", { error: said }));
				// The response came: Submit is offered again, and only the one submit was sent.
				await expect.poll(() => submit.isDisabled()).toBe(false);
				expect(posts).toBe(1);
				expect(given).toEqual([]);
				await page.context().close();
			});
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("pi's theme colours the page (accent, text, lines, cards); a theme with no RGB leaves the page's own", async () => {
		const rgb: Record<string, string> = {
			accent: "\x1b[38;2;255;136;0m",
			text: "\x1b[38;2;230;230;230m",
			borderMuted: "\x1b[38;2;90;90;90m",
			toolPendingBg: "\x1b[48;2;40;44;52m",
		};
		const theme: PageTheme = {
			getFgAnsi: (token) => rgb[token] ?? "\x1b[39m",
			getBgAnsi: (token) => rgb[token] ?? "\x1b[49m",
		};
		await withPage(theme, async ({ url }) => {
			const { page, troubles } = await phone(url);
			const style = await page.evaluate(() => {
				const root = getComputedStyle(document.documentElement);
				const button = getComputedStyle(document.getElementById("submit") as HTMLElement);
				return {
					accent: root.getPropertyValue("--accent").trim(),
					scheme: root.colorScheme,
					button: button.backgroundColor,
					buttonText: button.color,
					card: getComputedStyle(document.querySelector("fieldset") as HTMLElement).backgroundColor,
					text: getComputedStyle(document.body).color,
				};
			});
			expect(style).toEqual({
				accent: "#ff8800",
				scheme: "dark",
				button: "rgb(255, 136, 0)",
				buttonText: "rgb(0, 0, 0)",
				card: "rgb(40, 44, 52)",
				text: "rgb(230, 230, 230)",
			});
			expect(troubles).toEqual([]);
			await page.context().close();
		});
		// Codes the terminal decides (its default colours, the first 16) and anything else: the page's own.
		const hostile: PageTheme = { getFgAnsi: () => "\x1b[31m;}</style><b>", getBgAnsi: () => "\x1b[49m" };
		await withPage(hostile, async ({ url }) => {
			const { page } = await phone(url);
			await expect(page.evaluate(() => fetch("theme.css").then((r) => r.text()))).resolves.toBe("");
			const accent = await page.evaluate(() =>
				getComputedStyle(document.documentElement).getPropertyValue("--accent").trim(),
			);
			expect(accent).toBe("#3b82f6");
			await page.context().close();
		});
	});

	it("the console stays clean (/favicon.ico is 204); without JavaScript the page says, in one line, that it needs it", async () => {
		await withPage(undefined, async ({ url }) => {
			const favicon = await fetch(new URL("/favicon.ico", url));
			expect(favicon.status).toBe(204);
			const { page, troubles } = await phone(url);
			await page.reload();
			await page.locator("fieldset").first().waitFor();
			expect(troubles).toEqual([]);
			await expect(page.locator("noscript").count()).resolves.toBe(1);
			await page.context().close();

			const { page: plain } = await phone(url, false);
			await expect(plain.locator("body").innerText()).resolves.toBe(ENGLISH.t("web.needsScript"));
			await plain.context().close();
		});
	});
});
