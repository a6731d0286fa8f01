/**
 * The browser page without its optional dependency: a folder installed
 * without `npm install` has no uqr. The page is served all the same, and the
 * help screen says, in one line, why there is no QR code; with uqr, the code. On loopback (the default 127.0.0.1) no
 * phone could open the link: no code, but how to reach the page from one.
 */

import { afterEach, describe, expect, it, vi } from "vitest";
import { prepareForm } from "../src/tool/call.ts";
import { renderHelpView } from "../src/form/help-view.ts";
import { ENGLISH } from "../src/i18n/texts.ts";
import { plainContext, plainTable } from "./form/support.ts";
import { LAN_ADDRESS } from "./support/lan.ts";

const { form } = prepareForm({
	questions: [{ id: "db", header: "Database", question: "Which database?", options: [{ label: "Postgres" }] }],
});

const LAN = LAN_ADDRESS;

async function servedPage(address = LAN ?? "127.0.0.1") {
	const { openWebPage } = await import("../src/web/server.ts");
	return openWebPage({
		form,
		questions: form.questions,
		texts: ENGLISH,
		address,
		port: 0,
		answer: () => ({ ok: true }),
	});
}

const help = (link: Parameters<typeof renderHelpView>[5]) =>
	renderHelpView(plainTable(), 0, 120, 200, plainContext(), link).lines.join("\n");

afterEach(() => {
	vi.doUnmock("uqr");
	vi.resetModules();
});

describe("the QR code", () => {
	it.skipIf(!LAN)("with uqr: the page's link comes with its QR code, shown on the help screen", async () => {
		const page = await servedPage();
		try {
			expect(page.qr?.length).toBeGreaterThan(10);
			const screen = help(page);
			expect(screen).toContain(ENGLISH.t("web.qr"));
			expect(screen).not.toContain("uqr");
		} finally {
			await page.close();
		}
	});

	it.skipIf(!LAN)(
		"without uqr: the page is served all the same, and the help screen says the optional package is missing",
		async () => {
			vi.resetModules();
			vi.doMock("uqr", () => {
				throw new Error("Cannot find module 'uqr'");
			});
			const page = await servedPage();
			try {
				expect(page.qr).toBeUndefined();
				expect((await fetch(page.url)).status).toBe(200);
				const screen = help(page);
				expect(screen).toContain("No QR code: the optional package uqr is missing");
				expect(screen).not.toContain(ENGLISH.t("web.qr"));
			} finally {
				await page.close();
			}
		},
	);

	it("on loopback: no QR code, but how to reach the page from a phone (webAddress, a LAN or tailnet address)", async () => {
		const page = await servedPage("127.0.0.1");
		try {
			expect(page.loopback).toBe(true);
			expect(page.qr).toBeUndefined();
			const screen = help(page);
			expect(screen).toMatch(/Set webAddress in your ask-user\.json to this machine's LAN or\s+tailnet address/);
			expect(screen).toContain("--ask-user-web-address");
			expect(screen).not.toContain(ENGLISH.t("web.qr"));
			expect(screen).not.toContain("uqr");
			expect(screen).not.toMatch(/[▀▄█]{20,}/);
		} finally {
			await page.close();
		}
	});

	it("no page, no line about it", () => {
		expect(help(undefined)).not.toContain("QR");
	});
});
