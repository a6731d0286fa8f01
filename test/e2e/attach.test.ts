/**
 * Files in an answer in pi 1.x's real TUI (tmux): a dropped file (its path, pasted bracketed) and the clipboard's
 * image (pi's paste-image key, ctrl+v; the clipboard is xclip's on an Xvfb display of the test's own) attached to a
 * free answer, submitted; the model receives an image block per image and the path of each saved copy. Each bad paste
 * is refused in place with its reason, the path left as text.
 */

import { readdirSync, readFileSync, statSync, truncateSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ASK, askScript, onlyAskResult, TWO_QUESTIONS, submitTwoQuestions } from "../support/ask-fixtures.ts";
import { startDisplay, type TestDisplay } from "../support/display.ts";
import { startedPerTest, until } from "../support/harness.ts";
import { solidPng } from "../support/images.ts";
import { keptFiles, lateAnswers } from "../support/kept-forms.ts";
import { IMAGES_ENV, type ModelCallLogEntry } from "../support/model-script.ts";
import { createPiEnv, type PiEnv } from "../support/pi-env.ts";
import { TmuxPi } from "../support/tmux.ts";

const started = startedPerTest();
let display: TestDisplay | undefined;

afterEach(async () => {
	await display?.stop();
	display = undefined;
});

const RED = solidPng(40, 30, [255, 0, 0]);
const BLUE = solidPng(20, 10, [0, 0, 255]);

/** pi with sessions kept, a model that reads images, a display with BLUE on its clipboard, and RED in the project. */
async function start(): Promise<{ env: PiEnv; tui: TmuxPi }> {
	display = await startDisplay();
	const env = (started.piEnv = createPiEnv({
		script: askScript(TWO_QUESTIONS),
		sessions: true,
		env: { [IMAGES_ENV]: "1", DISPLAY: display.display },
	}));
	writeFileSync(join(env.cwd, "layout shot.png"), RED);
	writeFileSync(join(env.root, "blue.png"), BLUE);
	await display.copyImage(join(env.root, "blue.png"), "image/png");
	const tui = (started.tui = await TmuxPi.start(env, { cols: 110, rows: 40 }));
	await tui.waitForReady();
	await tui.type(ASK);
	await tui.send("Enter");
	await tui.waitFor("Which database");
	// ↑ wraps to "You decide"; "Type something…" is above it, and typing there opens its editor.
	await tui.send("Up", "Up");
	await tui.type("like this");
	await tui.waitFor("like this");
	return { env, tui };
}

/** Saves the free answer, answers the second question, submits; the model's one result. */
async function submit(env: PiEnv, tui: TmuxPi) {
	await submitTwoQuestions(tui);
	return onlyAskResult(env);
}

const CLIPBOARD_NAME = /clipboard-\d{8}-\d{6}\.png/;

describe("files in an answer, in the TUI", () => {
	it("a dropped file's path and the clipboard's image attach; the model gets both images and each saved copy's path", async () => {
		const { env, tui } = await start();
		// Dropped on the terminal: its path, quoted because of the space.
		await tui.paste(`'${join(env.cwd, "layout shot.png")}'`);
		await tui.waitFor(`📎 layout shot.png ${RED.length} B`);
		await tui.send("C-v");
		const screen = await tui.waitFor(CLIPBOARD_NAME);
		expect(screen).toContain("like this");
		expect(screen).not.toContain("layout shot.png'");

		const seen = await submit(env, tui);
		expect(seen.details.status).toBe("answered");
		const clipboard = seen.text.match(CLIPBOARD_NAME)?.[0];
		expect(seen.text).toContain(`db: wrote "like this" + 📎 "layout shot.png" (image) + 📎 ${clipboard} (image)`);
		const images = env.toolResults("ask_user")[0]?.images ?? [];
		expect(images.map((image) => image.mimeType)).toEqual(["image/png", "image/png"]);

		// Each a copy beside the session, 0600 in a 0700 folder, named in the text with where it is.
		const saved = [...seen.text.matchAll(/saved at "([^"]+)": the image is attached to this result\./g)].map(
			(m) => m[1],
		);
		expect(saved).toHaveLength(2);
		const [red, blue] = saved.map((path) => readFileSync(path ?? ""));
		expect(red?.equals(RED)).toBe(true);
		expect(blue?.equals(BLUE)).toBe(true);
		for (const path of saved) {
			expect(path).toMatch(/\.jsonl\.ask-user\/attachments\/[^/]+$/);
			expect(statSync(path ?? "").mode & 0o777).toBe(0o600);
			expect(statSync(join(path ?? "", "..")).mode & 0o777).toBe(0o700);
		}
		// The files' bytes are in the session only as the image content pi records of the result: not in its details,
		// and not in the kept form.
		const session = (saved[0] ?? "").replace(/\.ask-user\/attachments\/[^/]+$/, "");
		const results = readFileSync(session, "utf8")
			.split("\n")
			.filter((line) => line.includes('"toolResult"') && line.includes('"ask_user"'))
			.map((line) => JSON.parse(line) as { message: { details: unknown; content: { type: string }[] } });
		expect(results).toHaveLength(1);
		expect(results[0]?.message.content.filter((part) => part.type === "image")).toHaveLength(2);
		expect(JSON.stringify(results[0]?.message.details)).not.toMatch(/"data"/);
		for (const kept of keptFiles(env)) expect(readFileSync(kept, "utf8")).not.toContain(RED.toString("base64"));
	});

	it("@ completes a file of the project as in pi's editor (fd finds it); Esc closes the menu, Tab attaches the file, and the model gets the image", async () => {
		const { env, tui } = await start();
		await tui.type(" @layout");
		// pi's own completion menu, in the form's editor: the file's name, then its path.
		const menu = /layout shot\.png\s+layout shot\.png/;
		await tui.waitFor(menu);
		// Esc closes the menu only: the editor stays open with what was typed.
		await tui.send("Escape");
		await tui.waitForGone(menu);
		expect(await tui.capture()).toContain("like this @layout");
		// Tab completes as in pi: one match is taken at once, and here that attaches it.
		await tui.send("Tab");
		const screen = await tui.waitFor(`📎 layout shot.png ${RED.length} B`);
		expect(screen).toContain("like this");
		expect(screen).not.toContain("@layout");

		const seen = await submit(env, tui);
		expect(seen.text).toContain(`db: wrote "like this" + 📎 "layout shot.png" (image)`);
		const images = env.toolResults("ask_user")[0]?.images ?? [];
		expect(images.map((image) => image.mimeType)).toEqual(["image/png"]);
	});

	it("bad pastes are refused in place with their reason, the path left as typed text; a file that claims to be an image is sent as a file", async () => {
		const { env, tui } = await start();
		const missing = join(env.cwd, "nowhere", "shot.png");
		await tui.paste(`'${missing}'`);
		await tui.waitFor(`No such file: ${missing}`);
		mkdirSync(join(env.cwd, "shots"));
		await tui.paste(join(env.cwd, "shots"));
		await tui.waitFor("is a folder, not a file");
		const big = join(env.cwd, "big.log");
		writeFileSync(big, "");
		truncateSync(big, 11 * 1024 * 1024);
		await tui.paste(big);
		await tui.waitFor("big.log is too large to attach (11 MB, the limit is 10 MB)");
		writeFileSync(join(env.cwd, "fake.png"), "not an image at all\n");
		for (const n of [1, 2, 3]) writeFileSync(join(env.cwd, `note${n}.txt`), `note ${n}\n`);
		for (const name of ["fake.png", "note1.txt", "note2.txt", "note3.txt"]) {
			await tui.paste(join(env.cwd, name));
			await tui.waitFor(`📎 ${name}`);
		}
		writeFileSync(join(env.cwd, "fifth.txt"), "five\n");
		await tui.paste(join(env.cwd, "fifth.txt"));
		const screen = await tui.waitFor("At most 4 files per answer");
		// Every refused path is in the editor as text, after what was typed.
		expect(screen).toContain("like this");
		expect(screen).toContain("fifth.txt");

		const seen = await submit(env, tui);
		expect(seen.text).toMatch(/db: wrote "like this.*fifth\.txt" \+ 📎 fake\.png \(file, 20 B\)/s);
		expect(seen.text).toMatch(
			/📎 fake\.png \(application\/octet-stream, 20 B\) saved at "[^"]+": read it with your tools/,
		);
		expect(env.toolResults("ask_user")[0]?.images ?? []).toEqual([]);
	});

	it("kill -9 with a file attached, then pi --continue: the form is back with its file, and the late answer carries it", async () => {
		const { env, tui } = await start();
		await tui.paste(`'${join(env.cwd, "layout shot.png")}'`);
		await tui.waitFor("📎 layout shot.png");
		await until(
			() => keptFiles(env).some((file) => readFileSync(file, "utf8").includes("layout shot.png")),
			"the attachment kept beside the session",
		);
		process.kill(tui.pid, "SIGKILL");
		await tui.waitForExit();
		await tui.kill();

		const again = (started.tui = await TmuxPi.start(env, { cols: 110, rows: 40, extraArgs: ["--continue"] }));
		const screen = await again.waitFor("📎 layout shot.png");
		expect(screen).toContain("like this");
		await again.send("Enter");
		await again.waitFor("What should the command");
		await again.send("2");
		await again.waitFor("Review your answers");
		await again.send("Enter");
		await until(() => lateAnswers(env).length === 1, "the late answer reaching the model");
		const late = env.log().find((e): e is ModelCallLogEntry => e.kind === "call" && e.user.startsWith("Late answer"));
		expect(late?.user).toContain('db: wrote "like this" + 📎 "layout shot.png" (image)');
		expect(late?.userImages?.map((image) => image.mimeType)).toEqual(["image/png"]);
		const dir = readdirSync(join(env.root, "agent", "sessions"), { recursive: true }) as string[];
		expect(dir.some((name) => /\.ask-user\/attachments\/[0-9a-f]{8}-layout_shot\.png$/.test(name))).toBe(true);
	});
});
