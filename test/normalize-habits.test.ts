import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeArguments } from "../src/input/normalize.ts";
import { isOtherOptionLabel } from "../src/input/normalize/other.ts";
import {
	descriptionWithoutMarker,
	MARKER_PATTERNS,
	mayBeMarked,
	withoutRecommendedMarker,
} from "../src/input/normalize/recommended.ts";
import { parsePythonLiteral } from "../src/input/normalize/literal.ts";
import { prepareForm } from "../src/tool/call.ts";
import { AskUserInputError, slugOf } from "../src/input/validate.ts";

/** The first question of the form the call becomes. */
function firstQuestion(raw: unknown) {
	const { form, notices } = prepareForm(raw);
	const question = form.questions[0];
	if (question === undefined) throw new Error("no question");
	return { question, notices };
}

const labels = (raw: unknown): string[] => firstQuestion(raw).question.options.map((option) => option.label);

describe("Cline and Roo Code follow_up suggestions", () => {
	it.each([
		["<suggest> tags in one string", '\n<suggest>main</suggest>\n<suggest mode="code">develop</suggest>\n'],
		["an array of { text, mode }", [{ text: "main" }, { text: "develop", mode: "code" }]],
		["an array of strings", ["main", "develop"]],
		["{ suggest: [...] }", { suggest: ["main", "develop"] }],
	])("become the options: %s", (_name, followUp) => {
		const { question, notices } = firstQuestion({ question: "Base branch?", follow_up: followUp });
		expect(question.options.map((option) => option.label)).toEqual(["main", "develop"]);
		expect(notices).toEqual(['questions[0]: read "follow_up" as "options"; use the canonical names.']);
	});

	it("a single { text, mode } object is one suggestion: one option, beside the free-text row", () => {
		expect(labels({ question: "Go on?", follow_up: { text: "Yes", mode: "code" } })).toEqual(["Yes"]);
	});

	it("options win over follow_up", () => {
		expect(labels({ question: "Q?", options: ["A", "B"], follow_up: "<suggest>C</suggest>" })).toEqual(["A", "B"]);
	});
});

describe("other tools' names", () => {
	it('OpenCode\'s "multiple": true is a multi-select', () => {
		const { question, notices } = firstQuestion({
			questions: [{ question: "Which?", header: "Pick", multiple: true, options: [{ label: "A" }, { label: "B" }] }],
		});
		expect(question.multiSelect).toBe(true);
		expect(notices).toEqual(['questions[0]: read "multiple" as "multiSelect"; use the canonical names.']);
	});

	it('Codex\'s "title" is the question and "isOther" the free-text row', () => {
		const { question } = firstQuestion({
			questions: [
				{ id: "build", title: "Which build?", isOther: false, options: [{ label: "Latest" }, { label: "Local" }] },
			],
		});
		expect(question).toMatchObject({ id: "build", question: "Which build?", allowOther: false });
	});

	it('Copilot\'s "allowFreeformInput" is the free-text row, and the model is told the canonical name', () => {
		const { question, notices } = firstQuestion({
			questions: [
				{ header: "Test", question: "Pick one?", allowFreeformInput: false, options: [{ label: "A" }, { label: "B" }] },
			],
		});
		expect(question.allowOther).toBe(false);
		expect(notices).toEqual(['questions[0]: read "allowFreeformInput" as "allowOther"; use the canonical names.']);
	});

	it('Codex\'s "isSecret": true is refused first, naming the path and the way around', () => {
		const call = {
			questions: [
				{
					id: "key",
					header: "API key",
					question: "Your API key?",
					isSecret: true,
					allowOther: false,
					options: [{ label: "only" }],
				},
			],
		};
		try {
			prepareForm(call);
			throw new Error("accepted");
		} catch (error) {
			expect(error).toBeInstanceOf(AskUserInputError);
			const issues = (error as AskUserInputError).issues;
			expect(issues[0]?.path).toBe("questions[0].isSecret");
			expect(issues[0]?.message).toContain("environment variable");
			expect(issues[1]?.path).toBe("questions[0].options");
		}
	});

	it('"isSecret": false is no secret', () => {
		expect(firstQuestion({ question: "Name?", isSecret: false }).question.options).toEqual([]);
	});
});

describe("Gemini CLI's question types", () => {
	it('"yesno" offers Yes and No', () => {
		const { question, notices } = firstQuestion({ questions: [{ header: "Go", question: "Proceed?", type: "yesno" }] });
		expect(question.options.map((option) => option.label)).toEqual(["Yes", "No"]);
		expect(notices).toEqual(['questions[0]: "type": "yesno" became the options "Yes" and "No".']);
	});

	it('"text" asks for the user\'s words even when options came along', () => {
		const { question, notices } = firstQuestion({
			questions: [
				{ header: "Name", question: "Project name?", type: "text", placeholder: "my-app", options: [{ label: "x" }] },
			],
		});
		expect(question.options).toEqual([]);
		expect(notices[0]).toContain('"type": "text"');
	});

	it('"choice" changes nothing', () => {
		expect(labels({ questions: [{ question: "Q?", type: "choice", options: ["A", "B"] }] })).toEqual(["A", "B"]);
	});
});

describe("options written as a Python literal", () => {
	it("are read like JSON", () => {
		const options =
			"[{'label': 'It\\'s A (Recommended)', 'description': 'first'}, {'label': \"B\", 'x': None, 'y': True, 'z': -1.5}]";
		const { question } = firstQuestion({ question: "Q?", options });
		expect(question.options.map((option) => [option.label, option.recommended])).toEqual([
			["It's A", true],
			["B", false],
		]);
	});

	it.each(["[1, 2", "['a'] + ['b']", "[open('x')]", "[" + "[".repeat(20) + "]".repeat(21)])(
		"%j is not a literal",
		(text) => {
			expect(parsePythonLiteral(text)).toBeUndefined();
		},
	);
});

describe("a question with line breaks", () => {
	it("keeps the line that asks and moves the rest into context, before the model's own", () => {
		const raw = {
			question: "I found three patterns:\n1. Types first\n2. Fixtures\nWhich should AGENTS.md stress?",
			context: "Read from the spec.",
			options: ["Types", "Fixtures"],
		};
		const { question, notices } = firstQuestion(raw);
		expect(question.question).toBe("Which should AGENTS.md stress?");
		expect(question.context).toBe("I found three patterns:\n1. Types first\n2. Fixtures\n\nRead from the spec.");
		expect(notices).toEqual([expect.stringContaining("questions[0].question: kept the line that asks")]);
	});

	it("takes the first line when no line asks", () => {
		const { question } = firstQuestion({
			question: "Pick a database\nWe need JSON columns",
			options: ["pg", "sqlite"],
		});
		expect([question.question, question.context]).toEqual(["Pick a database", "We need JSON columns"]);
	});

	it("passes over list items that ask, which detail the question", () => {
		const raw = {
			question: "Scale matters here:\n1. How many hits a day?\n- Real-time?\nB) Batch?",
			options: ["Low", "High"],
		};
		expect(firstQuestion(raw).question.question).toBe("Scale matters here:");
	});

	it("takes a line that asks before an aside when no line ends in a question mark", () => {
		const raw = {
			question:
				"The installer is running.\nWhat password should postgres get? (I'll create the user with it)\nNote: keep it strong.",
		};
		const { question } = firstQuestion(raw);
		expect(question.question).toBe("What password should postgres get? (I'll create the user with it)");
		expect(question.context).toBe("The installer is running.\nNote: keep it strong.");
	});
});

describe("a bold label opening a question with no header", () => {
	it.each([
		["**Demo Data**: Do you have samples?", "Demo Data", "Do you have samples?"],
		["**Demo Data:** Do you have samples?", "Demo Data", "Do you have samples?"],
		["**Demo Data** : Do you have samples?", "Demo Data", "Do you have samples?"],
	])("%j becomes the header, the rest the question", (text, label, rest) => {
		const { question, notices } = firstQuestion({ question: text, options: ["A", "B"] });
		expect([question.header, question.question]).toEqual([label, rest]);
		expect(notices).toContain(
			`questions[0].question: read its bold label "${label}" as the header; put a tab label in "header".`,
		);
	});

	it("a long label is shortened for the tab and kept whole in context", () => {
		const { question } = firstQuestion({
			question: "**Repository Analysis Scope**: How deep should the analysis go?",
			options: ["Files", "Code"],
		});
		expect([question.header, question.id, question.context]).toEqual([
			"Repository…",
			slugOf("Repository Analysis Scope"),
			"Repository Analysis Scope",
		]);
	});

	it("stays in the question when the model gave a header, or when no colon makes it a label", () => {
		expect(
			firstQuestion({ questions: [{ header: "Deploy", question: "**Target**: Where?", options: ["A", "B"] }] }).question
				.question,
		).toBe("**Target**: Where?");
		expect(firstQuestion({ question: "**Really** delete it?", options: ["Yes", "No"] }).question.question).toBe(
			"**Really** delete it?",
		);
	});
});

describe("a header longer than a tab", () => {
	it("is shortened for the tab, kept whole in context, and names the id", () => {
		const { question, notices } = firstQuestion({
			questions: [
				{
					header: "Architecture Direction",
					question: "Which way?",
					context: "Two services today.",
					options: ["Split", "Merge"],
				},
			],
		});
		expect(question.header).toBe("Architectur…");
		expect(question.id).toBe("architecture-direction");
		expect(question.context).toBe("Architecture Direction\nTwo services today.");
		expect(notices).toEqual([
			'questions[0].header: the tab shows "Architectur…"; a header is a tab label of at most 12 characters.',
		]);
	});

	it("stays unique when two shorten alike", () => {
		const { form } = prepareForm({
			questions: [
				{ header: "Database engine", question: "Engine?", options: ["pg", "my"] },
				{ header: "Database schema", question: "Schema?", options: ["one", "many"] },
			],
		});
		expect(form.questions.map((question) => question.header)).toEqual(["Database…", "Data…schema"]);
	});

	it("ends on a word when one fits", () => {
		expect(
			firstQuestion({ questions: [{ header: "Session naming", question: "Q?", options: ["A", "B"] }] }).question.header,
		).toBe("Session…");
	});
});

describe("a label longer than a row", () => {
	const path = "/Users/dev/projects/app/src/components/settings/NotificationPreferencesPanel.tsx";

	it("keeps the full text as the value and the description; only the label is shortened, at both ends for a path", () => {
		const { question, notices } = firstQuestion({ question: "Which file?", options: [path, "Another one"] });
		const [first] = question.options;
		expect(first?.value).toBe(path);
		expect(first?.description).toBe(path);
		expect([...(first?.label ?? "")].length).toBeLessThanOrEqual(60);
		expect(first?.label.endsWith("NotificationPreferencesPanel.tsx")).toBe(true);
		expect(notices[0]).toContain("questions[0].options[0].label: shown as");
	});

	it("ends on a word for prose and puts the full text before the model's description", () => {
		const long = "Rewrite the whole notification pipeline around a durable outbox table";
		const { question } = firstQuestion({
			question: "How?",
			options: [{ label: long, description: "Biggest change." }, "Patch it"],
		});
		expect(question.options[0]).toMatchObject({
			label: "Rewrite the whole notification pipeline around a durable…",
			value: long,
			description: `${long}\nBiggest change.`,
		});
	});

	it("a label past the longest value is still refused with the fix", () => {
		expect(() => prepareForm({ question: "Q?", options: ["x".repeat(201), "B"] })).toThrow(
			/options\[0\]\.label: 201 characters; the limit is 60/,
		);
	});
});

describe('"(Recommended)" outside the label', () => {
	it.each([
		["at the end of a description", "Fast to ship (Recommended)", "Fast to ship"],
		["as the whole description", "Recommended", undefined],
		["as a closing sentence", "Fast to ship. Recommended.", "Fast to ship."],
		["in Spanish", "Rápido (Recomendado)", "Rápido"],
		["in Chinese, full-width", "最快（推荐）", "最快"],
	])("%s marks the option", (_name, description, rest) => {
		const { question, notices } = firstQuestion({
			question: "Q?",
			options: [{ label: "A", description }, { label: "B" }],
		});
		expect(question.options[0]?.recommended).toBe(true);
		expect(question.options[0]?.description).toBe(rest);
		expect(notices).toEqual([
			'questions[0].options[0]: read "(Recommended)" in the description as "recommended": true.',
		]);
	});

	it.each(["Recomendado: Postgres", "Postgres (Empfohlen)", "Postgres【推荐】", "Postgres (おすすめ)"])(
		"%j is a marked label in another language",
		(label) => {
			expect(withoutRecommendedMarker(label)).toBe("Postgres");
		},
	);

	it("a text the quick test passes over matches no marker pattern, whatever its case and its letters", () => {
		const words = ["Recommended", "RECOMENDADA", "recommandée", "Empfohlen", "CONSIGLIATO", "Aanbevolen", "ÖNERİLEN"];
		const more = [
			"zalecane",
			"РЕКОМЕНДУЕТСЯ",
			"Рекомендовано",
			"推荐",
			"推薦",
			"建议",
			"推奨",
			"おすすめ",
			"권장",
			"추천",
		];
		const piece = fc.oneof(
			fc.constantFrom(...words, ...more, "(", ")", "【", "】", ": ", " - ", ". ", "ſ", "K", "ᲂ"),
			fc.string({ unit: "grapheme", maxLength: 4 }),
		);
		const cased = fc.tuple(piece, fc.constantFrom("as is", "upper", "lower")).map(([text, how]) => {
			if (how === "upper") return text.toUpperCase();
			return how === "lower" ? text.toLowerCase() : text;
		});
		fc.assert(
			fc.property(fc.array(cased, { maxLength: 6 }), (pieces) => {
				const text = pieces.join("");
				if (!mayBeMarked(text)) expect(MARKER_PATTERNS.filter((pattern) => pattern.test(text))).toEqual([]);
			}),
			{ numRuns: 3_000 },
		);
	});

	it("a description that only mentions the word keeps it", () => {
		expect(descriptionWithoutMarker("The recommended way per the docs")).toBeUndefined();
	});
});

describe("an Other row in another language or with a letter before it", () => {
	it.each([
		"E. 其他修改（我会补充具体要求）",
		"D) Other (please specify)",
		"Otro",
		"Autre chose…",
		"その他",
		"기타",
		"Другое",
	])("%j is dropped", (label) => {
		expect(isOtherOptionLabel(label)).toBe(true);
		const { params, notices } = normalizeArguments({ question: "Q?", options: ["A. 方案一", "B. 方案二", label] });
		expect(params).toEqual({
			questions: [{ question: "Q?", options: [{ label: "A. 方案一" }, { label: "B. 方案二" }], allowOther: true }],
		});
		expect(notices).toHaveLength(1);
	});

	it.each(["E. 其他修改", "其他浏览器", "Otro navegador", "B. Other browsers"])(
		"%j names a real choice and stays",
		(label) => {
			expect(isOtherOptionLabel(label)).toBe(false);
		},
	);
});

describe("up to 8 options", () => {
	it("accepts 8 and refuses 9 with the limit and the fix", () => {
		const options = (n: number) => Array.from({ length: n }, (_, i) => `Option ${i + 1}`);
		expect(labels({ question: "Q?", options: options(8) })).toHaveLength(8);
		expect(() => prepareForm({ question: "Q?", options: options(9) })).toThrow(
			/9 options; the limit is 8\. Keep the 8 likeliest/,
		);
	});
});
