/**
 * The user's language in the real pi: the environment's (LANG) in the TUI,
 * a project's settings file over it, and the dialog walker's rows over RPC.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rowTexts } from "../../src/walker/views.ts";
import { ASK, askScript, onlyAskResult, TWO_QUESTIONS } from "../support/ask-fixtures.ts";
import { CATALOGUES, textsFor } from "../support/locales.ts";
import { QUOTE_PREFIX } from "../support/model-script.ts";
import { createPiEnv } from "../support/pi-env.ts";
import { answerInOrder, choose, RpcPi } from "../support/rpc-client.ts";
import { startedPerTest } from "../support/harness.ts";
import { startTuiWith } from "../support/subagents.ts";

const started = startedPerTest();
/** A Chinese desktop: LANG decides (pi-env sets LC_ALL for the other tests; empty is unset). */
const CHINESE = { LANG: "zh_CN.UTF-8", LC_ALL: "" };

describe("the form in the user's language", () => {
	it("LANG=zh_CN.UTF-8: the hint line and the review are in Chinese, and the answers reach the model as ever", async () => {
		const zh = CATALOGUES["zh-CN"];
		const piEnv = (started.piEnv = createPiEnv({ script: askScript(TWO_QUESTIONS), env: CHINESE }));
		const tui = await startTuiWith(piEnv, ASK, (t) => (started.tui = t));
		const form = await tui.waitFor("Which database");
		expect(form).toContain(`↑↓ ${zh["key.move.hint"]}`);
		expect(form).toContain(`? ${zh["key.help.hint"]}`);
		expect(form).toContain(`esc ${zh["key.dismiss.hint"]}`);
		expect(form).not.toContain("↑↓ move");

		await tui.send("Enter");
		await tui.waitFor("What should the command");
		await tui.send("Enter");
		const review = await tui.waitFor(zh["review.title"]);
		expect(review).toContain(zh["review.ready"]);
		expect(review).toContain(zh["review.submit"]);
		expect(review).not.toContain("Review your answers");
		await tui.send("Enter");
		await tui.waitFor(QUOTE_PREFIX);
		const result = onlyAskResult(piEnv);
		expect(result.details.status).toBe("answered");
		// The model still reads English.
		expect(result.text).toContain("User submitted the form");
	});

	it('a project\'s "locale": "ja" wins over LANG', async () => {
		const ja = CATALOGUES.ja;
		const piEnv = (started.piEnv = createPiEnv({ script: askScript(TWO_QUESTIONS), env: CHINESE }));
		mkdirSync(join(piEnv.cwd, ".pi"));
		writeFileSync(join(piEnv.cwd, ".pi", "ask-user.json"), JSON.stringify({ locale: "ja" }));
		const tui = await startTuiWith(piEnv, ASK, (t) => (started.tui = t));
		const form = await tui.waitFor("Which database");
		expect(form).toContain(`↑↓ ${ja["key.move.hint"]}`);
		expect(form).not.toContain(`↑↓ ${CATALOGUES["zh-CN"]["key.move.hint"]}`);
		await tui.send("?");
		// A frame is written line by line: wait for the help whole, its title and its own row.
		const help = await tui.waitFor(function helpShown(screen) {
			return screen.includes(ja["help.title"]) && screen.includes(ja["key.help.help"]);
		});
		expect(help).toContain(ja["help.title"]);
	});
});

describe("a locale that is not shipped", () => {
	it("PI_ASK_USER_LOCALE=tlh: one warning at start that names the variable, in the system's language, which the form then speaks", async () => {
		const piEnv = (started.piEnv = createPiEnv({
			script: askScript(TWO_QUESTIONS),
			env: { ...CHINESE, PI_ASK_USER_LOCALE: "tlh" },
		}));
		const tui = await startTuiWith(piEnv, ASK, (t) => (started.tui = t));
		const warned = await tui.waitFor("PI_ASK_USER_LOCALE");
		expect(warned).toContain(`"tlh"`);
		expect(warned.split("PI_ASK_USER_LOCALE").length - 1).toBe(1);
		// The warning's own words, before the value, in Chinese.
		expect(warned).toContain(CATALOGUES["zh-CN"]["warning.settingsBadValue"].split("{source}")[0]?.trim());
		const form = await tui.waitFor("Which database");
		expect(form).toContain(`↑↓ ${CATALOGUES["zh-CN"]["key.move.hint"]}`);
	});
});

describe("the dialog walker in the user's language", () => {
	it("LANG=de_DE.UTF-8 over RPC: the walker's rows and titles are German, the options the model's", async () => {
		const row = rowTexts(textsFor("de"));
		const piEnv = (started.piEnv = createPiEnv({
			script: askScript(TWO_QUESTIONS),
			env: { LANG: "de_DE.UTF-8", LC_ALL: "" },
		}));
		const handler = answerInOrder(choose("Postgres"), choose("launch"), choose(row.submit));
		const rpc = (started.rpc = RpcPi.start(piEnv, handler));
		await rpc.prompt(ASK);

		expect(handler.unexpected).toEqual([]);
		const [first, , review] = rpc.dialogs;
		expect(first?.method === "select" && first.options).toEqual(
			expect.arrayContaining(["Postgres", row.freeText, row.note, row.chat]),
		);
		expect(first?.title).toContain(textsFor("de").t("walker.position", { index: 1, total: 2 }));
		expect(review?.title).toContain(CATALOGUES.de["review.title"]);
		expect(review?.method === "select" && review.options).toEqual([
			row.submit,
			row.formNote,
			row.chat,
			row.back,
			row.cancel,
		]);
		expect(onlyAskResult(piEnv).details.status).toBe("answered");
	});
});
