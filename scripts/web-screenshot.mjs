#!/usr/bin/env node
/**
 * Regenerates docs/web.png, the browser page at a phone's 360 px: the real pi (this checkout's, offline and isolated,
 * scripts/isolated-pi.mjs) in tmux with the web setting on and the demo's scripted model (scripts/demo-script.json),
 * the page's link read off the form, then the page itself in headless Chromium (playwright-core): two questions
 * answered, a preview and a note open with a photo attached, photographed whole. In pi's dark theme, whose colours
 * the page takes.
 *
 *   npm run screenshot:web [-- out.png]
 *
 * Needs tmux and chromium (Debian: apt-get install -y tmux chromium; CHROMIUM names another binary).
 */

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launchChromium } from "./chromium.mjs";
import { createIsolatedPi, ISOLATION_FLAGS, REPO_ROOT, THIS_PI } from "./isolated-pi.mjs";

const OUT = process.argv[2] ?? join(REPO_ROOT, "docs", "web.png");
const SESSION = `ask-user-webshot-${process.pid}`;
const tmux = (...args) => execFileSync("tmux", args, { encoding: "utf8" });

/** Polls the tmux screen until `pattern` shows; its match. */
async function waitFor(pattern) {
	for (let i = 0; i < 240; i++) {
		const found = pattern.exec(tmux("capture-pane", "-t", SESSION, "-p", "-J"));
		if (found) return found[0];
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`timed out waiting for ${pattern}`);
}

const isolated = createIsolatedPi("pi-ask-user-webshot-");
// pi's dark theme by name: its colours are RGB (the default, "system", leaves them to a terminal that reports none).
const settings = join(isolated.agentDir, "settings.json");
writeFileSync(settings, JSON.stringify({ ...JSON.parse(readFileSync(settings, "utf8")), theme: "dark" }));
const env = {
	...isolated.env,
	TERM: "xterm-256color",
	COLORTERM: "truecolor",
	LANG: "C.UTF-8",
	LC_ALL: "C.UTF-8",
	PI_ASK_USER_WEB: "1",
	PI_SCRIPTED_MODEL_SCRIPT: join(REPO_ROOT, "scripts", "demo-script.json"),
};
const command = [
	...THIS_PI.argv,
	...ISOLATION_FLAGS,
	"-e",
	join(REPO_ROOT, "test", "support", "scripted-model.ts"),
	"-e",
	join(REPO_ROOT, "index.ts"),
	"--model",
	"scripted/scripted",
];
const quoted = (word) => `'${word.replaceAll("'", "'\\''")}'`;
const line = `cd ${quoted(isolated.cwd)} && env ${Object.entries(env)
	.map(([name, value]) => quoted(`${name}=${value}`))
	.join(" ")} ${command.map(quoted).join(" ")}`;

/** In the page: a 96×64 PNG of a soft gradient from a canvas, as bytes (Node writes them to a file to upload). */
async function gradientPng() {
	const canvas = document.createElement("canvas");
	canvas.width = 96;
	canvas.height = 64;
	const context = canvas.getContext("2d");
	const fill = context.createLinearGradient(0, 0, 96, 64);
	fill.addColorStop(0, "#8abeb7");
	fill.addColorStop(1, "#5f87af");
	context.fillStyle = fill;
	context.fillRect(0, 0, 96, 64);
	const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
	return [...new Uint8Array(await blob.arrayBuffer())];
}

let browser;
try {
	tmux("new-session", "-d", "-s", SESSION, "-x", "120", "-y", "40", line);
	await waitFor(/scripted/);
	tmux("send-keys", "-t", SESSION, "-l", "Set up error handling for the new HTTP client");
	tmux("send-keys", "-t", SESSION, "Enter");
	const url = await waitFor(/http:\/\/127\.0\.0\.1:\d+\/ask\/[A-Za-z0-9_-]+\//);
	browser = await launchChromium(["--hide-scrollbars"]);
	const page = await browser.newPage({ viewport: { width: 360, height: 640 }, deviceScaleFactor: 1 });
	await page.goto(url);
	await page.locator("fieldset").first().waitFor();
	await page.locator("label.option", { hasText: "Result value" }).click();
	await page.locator("details.preview > summary").first().click();
	await page.locator("label.option", { hasText: "PUT / DELETE" }).click();
	await page.locator('fieldset[data-index="1"] details.note > summary').click();
	await page.locator('fieldset[data-index="1"] textarea.note-text').fill("Only behind the feature flag for now.");
	// A photo on that note, as a phone's camera would give it: a small gradient made here, no file kept for it.
	const photo = join(isolated.cwd, "whiteboard.png");
	writeFileSync(photo, Buffer.from(await page.evaluate(gradientPng)));
	await page.locator('fieldset[data-index="1"] details.note input.file-input').setInputFiles(photo);
	await page.locator('fieldset[data-index="1"] img').first().waitFor();
	await page.mouse.move(0, 0);
	await page.screenshot({ path: OUT, fullPage: true });
	console.log(`wrote ${OUT}`);
} finally {
	await browser?.close();
	try {
		tmux("kill-session", "-t", SESSION);
	} catch {
		// Already gone.
	}
	isolated.cleanup();
}
