/**
 * "Other" rows the model added: ask_user always offers a free-text row, so they are dropped (with a notice), unless
 * `allowOther: false` makes them a real choice.
 */

import { isObject, type JsonObject } from "../../core/json.ts";
import { CONTROL } from "../validate-text.ts";

/**
 * Compared folded (NFKC, lower case, single spaces), with or without a request to type ("Other: describe"); "Other:
 * BSD" or "None of the above" stays.
 */
const OTHER_OPTION_LABELS: readonly string[] = [
	"other",
	"others",
	"other answer",
	"other option",
	"something else",
	"type something",
	"type your own",
	"type your own answer",
	"write your own",
	"write your own answer",
	"enter your own",
	"your own answer",
	"custom answer",
	"custom response",
	// The words a model writing in another language uses for the row.
	"otro",
	"otra",
	"otra opción",
	"outro",
	"outra",
	"autre",
	"autre chose",
	"andere",
	"sonstiges",
	"altro",
	"другое",
	"другой вариант",
	"その他",
	"기타",
	"其他",
	"其它",
];

/** The request to type, in English and in the languages above. */
const PLEASE_TYPE =
	"(?:please )?(?:specify|describe|explain|elaborate|tell (?:me|us)|type|write|enter)[^()]{0,30}" +
	"|[^()]{0,20}(?:补充|說明|说明|输入|輸入|填写|具体|自定义|especifi|précise|angeben|specifica|укаж|入力|입력)[^()]{0,20}";
/** "其他修改（我会补充具体要求）": "other changes" and a request to type; without the request ("其他修改") it names something. */
const CJK_OTHER_WITH_REQUEST = `(?:其他|其它)(?:修改|选项|選項|方案|情况|想法|要求|需求|意见) ?\\((?:${PLEASE_TYPE})\\)`;
const OTHER_LABEL = new RegExp(
	`^(?:(?:${OTHER_OPTION_LABELS.join("|")})(?: ?\\((?:${PLEASE_TYPE})\\)| ?[:,\\-–—] ` +
		`?(?:${PLEASE_TYPE}))?|${CJK_OTHER_WITH_REQUEST})[ .…:!?。]*$`,
	"u",
);
/** "E. ", "5) ", "B、": the letter or number a model put before each of its options. */
const ROW_PREFIX = /^(?:[a-z]|\d{1,2}) ?[.)、:] ?/u;

/** Longer than any label OTHER_LABEL can match: longer labels skip the work. */
const MAX_OTHER_LABEL = 80;

export function isOtherOptionLabel(label: string): boolean {
	const text = label.trim();
	if (text.length === 0 || text.length > MAX_OTHER_LABEL || CONTROL.test(text)) return false;
	// NFKC turns full-width parentheses and colons into ASCII ones, so one pattern reads both.
	const folded = text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ");
	// Every label the pattern matches holds one of the words: without one, the pattern (costly to compile, the first
	// time a process runs it) need not run.
	if (!OTHER_OPTION_LABELS.some((words) => folded.includes(words))) return false;
	return OTHER_LABEL.test(folded) || OTHER_LABEL.test(folded.replace(ROW_PREFIX, ""));
}

export function dropOtherOptions(question: JsonObject, index: number, notices: string[]): void {
	const options = question.options as unknown[];
	const dropped: string[] = [];
	const kept = options.filter((option) => {
		const label = isObject(option) ? option.label : undefined;
		if (typeof label !== "string" || !isOtherOptionLabel(label)) return true;
		// Short and free of controls, as isOtherOptionLabel requires: safe to quote.
		dropped.push(JSON.stringify(label.trim()));
		return false;
	});
	if (dropped.length === 0) return;
	question.options = kept;
	if (question.allowOther === undefined) question.allowOther = true;
	const what = dropped.length === 1 ? `the option ${dropped[0]}` : `the options ${dropped.join(", ")}`;
	notices.push(`questions[${index}]: removed ${what} — ask_user always offers a free-text row; don't add one.`);
}
