import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ATTENTION_MODES } from "../src/attention.ts";
import { parseSettings, readSettings, SETTING_RULES, settingsFiles, settingText } from "../src/settings.ts";

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

describe("where a setting comes from", () => {
	const file = { attention: "desktop" as const, remindSeconds: 120, timeoutSeconds: 0 };
	const sources = (flags: Record<string, unknown>, env: Record<string, string>) => ({ flag: (name: string) => flags[name], env, file });

	it("a flag wins over its variable, the variable over the file, the file over the default", () => {
		expect(settingText(sources({ "ask-user-attention": "off" }, { PI_ASK_USER_ATTENTION: "bell" }), "ask-user-attention", "PI_ASK_USER_ATTENTION", "attention")).toBe("off");
		expect(settingText(sources({}, { PI_ASK_USER_ATTENTION: "bell" }), "ask-user-attention", "PI_ASK_USER_ATTENTION", "attention")).toBe("bell");
		expect(settingText(sources({}, {}), "ask-user-attention", "PI_ASK_USER_ATTENTION", "attention")).toBe("desktop");
		expect(settingText(sources({}, {}), "ask-user-remind", "PI_ASK_USER_REMIND", "remindSeconds")).toBe("120");
	});

	it("an empty flag or variable gives nothing, so the file still applies; 0 in the file is none", () => {
		expect(settingText(sources({ "ask-user-attention": "" }, { PI_ASK_USER_ATTENTION: "" }), "ask-user-attention", "PI_ASK_USER_ATTENTION", "attention")).toBe("desktop");
		expect(settingText(sources({}, {}), "ask-user-timeout", "PI_ASK_USER_TIMEOUT", "timeoutSeconds")).toBeUndefined();
	});

	it("seconds in the file are 0 or from 1 on: half a second is refused with the file's own fix", () => {
		const { settings, warnings } = parseSettings(JSON.stringify({ remindSeconds: 0.5 }), "f.json");
		expect(settings).toEqual({});
		expect(warnings[0]).toContain("remindSeconds must be 0 (none) or a number of seconds from 1");
	});
});
