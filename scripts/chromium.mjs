/**
 * Debian's Chromium through playwright-core, as the browser tests and the page's screenshot use it: headless (the
 * default), no sandbox (CI runs as root), and none of the background connections this machine's closed network refuses
 * at every start. CHROMIUM names another binary.
 */

import { chromium } from "playwright-core";

const ARGS = [
	"--no-sandbox",
	"--disable-gpu",
	"--disable-quic",
	"--no-first-run",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
];

/** @param {readonly string[]} [extraArgs] */
export function launchChromium(extraArgs = []) {
	return chromium.launch({
		executablePath: process.env["CHROMIUM"] ?? "/usr/bin/chromium",
		args: [...ARGS, ...extraArgs],
	});
}
