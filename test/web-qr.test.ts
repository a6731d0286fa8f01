/**
 * The browser page without its optional dependency: a folder installed
 * without `npm install` has no uqr. The page is served all the same, and the
 * help screen says, in one line, why there is no QR code; with uqr, the code.
 */

import { afterEach, describe, expect, it, vi } from "vitest";
import { prepareForm } from "../src/tool/call.ts";
import { renderHelpView } from "../src/form/help-view.ts";
import { ENGLISH } from "../src/i18n/texts.ts";
import { plainContext, plainTable } from "./form/support.ts";

const { form } = prepareForm({
	questions: [{ id: "db", header: "Database", question: "Which database?", options: [{ label: "Postgres" }] }],
});

async function servedPage() {
	const { openWebPage } = await import("../src/web/server.ts");
	return openWebPage({
		form,
		questions: form.questions,
		texts: ENGLISH,
		address: "127.0.0.1",
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
	it("with uqr: the page's link comes with its QR code, shown on the help screen", async () => {
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

	it("without uqr: the page is served all the same, and the help screen says the optional package is missing", async () => {
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
	});

	it("no page, no line about it", () => {
		expect(help(undefined)).not.toContain("QR");
	});
});
