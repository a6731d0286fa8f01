import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ATTENTION_MODES } from "../src/attention.ts";
import { parseSettings, readSettings, SETTING_RULES, settingsFiles } from "../src/settings.ts";

const schema = JSON.parse(readFileSync(join(import.meta.dirname, "..", "schema", "ask-user.schema.json"), "utf8")) as {
	properties: Record<string, { enum?: unknown[] }>;
	additionalProperties: boolean;
};

describe("one file", () => {
	it("takes every known key of the right type", () => {
		const text = JSON.stringify({
			$schema: "./node_modules/pi-ask-user/schema/ask-user.schema.json",
			attention: "desktop",
			remindSeconds: 120,
			timeoutSeconds: 0,
			description: "Ask me.",
			promptSnippet: "Ask.",
			promptGuidelines: ["One.", "Two."],
		});
		expect(parseSettings(text, "a.json")).toEqual({
			settings: { attention: "desktop", remindSeconds: 120, timeoutSeconds: 0, description: "Ask me.", promptSnippet: "Ask.", promptGuidelines: ["One.", "Two."] },
			warnings: [],
		});
	});

	it("an unknown key and a wrong type are each one warning naming the file, the key and the fix; the rest applies", () => {
		const { settings, warnings } = parseSettings(JSON.stringify({ attention: "loud", remindSeconds: 60, colour: "red" }), "/p/.pi/ask-user.json");
		expect(settings).toEqual({ remindSeconds: 60 });
		expect(warnings).toHaveLength(2);
		expect(warnings[0]).toContain("/p/.pi/ask-user.json: attention must be one of \"off\", \"bell\", \"desktop\" (found \"loud\"); the default applies");
		expect(warnings[1]).toContain('unknown key "colour" is ignored. Known keys: attention');
	});

	it("malformed JSON, or not an object, is one warning and nothing applies", () => {
		for (const text of ['{ "attention": "desktop",', "[1,2]", "null"]) {
			const { settings, warnings } = parseSettings(text, "g.json");
			expect(settings).toEqual({});
			expect(warnings).toHaveLength(1);
			expect(warnings[0]).toContain("g.json");
		}
	});

	it("wrong shapes of every key are refused", () => {
		const bad = { attention: 1, remindSeconds: -1, timeoutSeconds: "60", description: "", promptSnippet: 3, promptGuidelines: ["ok", 2] };
		const { settings, warnings } = parseSettings(JSON.stringify(bad), "x.json");
		expect(settings).toEqual({});
		expect(warnings).toHaveLength(Object.keys(bad).length);
	});
});

describe("two files", () => {
	it("the project's file wins key by key; a missing file is no problem", () => {
		const files: Record<string, string> = {
			"/agent/ask-user.json": JSON.stringify({ attention: "desktop", remindSeconds: 30 }),
			"/work/.pi/ask-user.json": JSON.stringify({ attention: "off" }),
		};
		const read = (path: string) => {
			const text = files[path];
			if (text === undefined) throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
			return text;
		};
		expect(settingsFiles("/agent", "/work")).toEqual(["/agent/ask-user.json", "/work/.pi/ask-user.json"]);
		expect(readSettings(settingsFiles("/agent", "/work"), read)).toEqual({ settings: { attention: "off", remindSeconds: 30 }, warnings: [] });
		expect(readSettings(["/nowhere/ask-user.json"], read)).toEqual({ settings: {}, warnings: [] });
	});

	it("an unreadable file (not just a missing one) is a warning", () => {
		const read = () => {
			throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
		};
		expect(readSettings(["/a/ask-user.json"], read).warnings[0]).toContain("/a/ask-user.json could not be read");
	});
});

describe("the JSON Schema shipped for editors", () => {
	it("names exactly the keys the reader knows, closed to others, with the same attention values", () => {
		expect(Object.keys(schema.properties).filter((key) => key !== "$schema").sort()).toEqual(Object.keys(SETTING_RULES).sort());
		expect(schema.additionalProperties).toBe(false);
		expect(schema.properties["attention"]?.enum).toEqual([...ATTENTION_MODES]);
	});
});
