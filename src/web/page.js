// The browser page of a waiting ask_user form (src/web/server.ts). Everything
// the model wrote arrives as JSON and goes in as textContent: never as HTML.
// The files of an answer: `pageFiles` (files.js, loaded first).
"use strict";

const submitToken = document.querySelector('meta[name="ask-user"]').content;
const main = document.getElementById("form");
let words = {};
let done = false;
/** A submit on its way (its files are read and sent, up to two minutes): Submit waits for its response. */
let sending = false;

function el(tag, attributes, ...children) {
	const node = document.createElement(tag);
	for (const [name, value] of Object.entries(attributes || {})) {
		if (value !== undefined && value !== false) node.setAttribute(name, value === true ? "" : value);
	}
	for (const child of children) if (child !== undefined) node.append(child);
	return node;
}

const MARKDOWN = /^(#{1,6} |[-*+] |\d+[.)] |```)/m;

/** Inline marks of one line, as elements holding text: `code`, **bold**, *emphasis*. */
function inline(text) {
	const parts = [];
	for (const piece of text.split(/(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*)/)) {
		if (/^`.+`$/.test(piece)) parts.push(el("code", {}, piece.slice(1, -1)));
		else if (/^\*\*.+\*\*$/.test(piece)) parts.push(el("strong", {}, piece.slice(2, -2)));
		else if (/^\*.+\*$/.test(piece)) parts.push(el("em", {}, piece.slice(1, -1)));
		else if (piece) parts.push(piece);
	}
	return parts;
}

/**
 * A preview that reads as markdown, built as elements (headings, lists, code blocks, paragraphs); any other text as it
 * is.
 */
function preview(text) {
	if (!MARKDOWN.test(text)) return el("pre", {}, text);
	const box = el("div", { class: "markdown" });
	let list;
	let code;
	for (const line of text.split("\n")) {
		if (code) {
			if (line.startsWith("```")) code = undefined;
			else code.append(`${code.textContent ? "\n" : ""}${line}`);
			continue;
		}
		const item = /^([-*+]|\d+[.)]) (.*)$/.exec(line);
		if (!item) list = undefined;
		if (line.startsWith("```")) box.append(el("pre", {}, (code = el("code"))));
		else if (/^#{1,6} /.test(line)) box.append(el("h4", {}, ...inline(line.replace(/^#+ /, ""))));
		else if (item) {
			if (!list) box.append((list = el(/\d/.test(item[1]) ? "ol" : "ul")));
			list.append(el("li", {}, ...inline(item[2])));
		} else if (line.trim()) box.append(el("p", {}, ...inline(line)));
	}
	return box;
}

/** An option's row; `value`: its index, or "other" for the free-text row (class "other"). */
function optionRow(question, index, option, value) {
	const input = el("input", {
		type: question.multiSelect ? "checkbox" : "radio",
		name: `q${index}`,
		value: String(value),
		class: value === "other" ? "other" : undefined,
	});
	const title = el(
		"span",
		{ class: "label" },
		option.label,
		option.recommended ? el("span", { class: "mark" }, ` ${words.recommended}`) : undefined,
	);
	const row = el(
		"label",
		{ class: "option" },
		input,
		el("span", { class: "text" }, title, option.description ? el("small", {}, option.description) : undefined),
	);
	if (!option.preview) return row;
	return el(
		"div",
		{},
		row,
		el("details", { class: "preview" }, el("summary", {}, words.preview), preview(option.preview)),
	);
}

function questionBlock(question, index) {
	const block = el("fieldset", { class: "question", "data-index": String(index) });
	block.append(el("legend", {}, question.header), el("p", { class: "asks" }, question.question));
	if (question.context) block.append(el("p", { class: "context" }, question.context));
	question.options.forEach((option, i) => block.append(optionRow(question, index, option, i)));
	if (question.options.length === 0) {
		block.append(
			el("textarea", { class: "other-text only", rows: "3", "aria-label": words.other, placeholder: words.other }),
			pageFiles.box("other"),
		);
	} else if (question.allowOther) {
		block.append(
			optionRow(question, index, { label: words.other }, "other"),
			el("textarea", { class: "other-text", rows: "2", "aria-label": words.other }),
			pageFiles.box("other"),
		);
	}
	// "You decide": left to the model, an answer of its own (choosing anything else lets go of it).
	if (question.youDecide)
		block.append(el("button", { type: "button", class: "decide", "aria-pressed": "false" }, words.youDecide));
	block.append(noteBox("note", words.note, "2"));
	return block;
}

/** A note that opens under its summary, with its files: `kind` "note" on a question, "form-note" on the whole form. */
function noteBox(kind, label, rows) {
	return el(
		"details",
		{ class: kind },
		el("summary", {}, label),
		el("textarea", { class: `${kind}-text`, rows, "aria-label": label }),
		pageFiles.box(kind),
	);
}

/**
 * What the page sends, its files as File objects (submit reads them); `unworded`: files whose words are blank, which
 * the page will not send (as the terminal: a file goes with the words it illustrates).
 */
function answersOf(form) {
	let unworded = false;
	/** The text of `textarea` and its files, under `key` and `filesKey`, when the text is not blank. */
	const worded = (textarea, key, filesKey) => {
		const text = textarea.value;
		const files = pageFiles.of(textarea);
		if (text.trim() === "") {
			unworded ||= files.length > 0;
			return {};
		}
		return { [key]: text, ...(files.length > 0 && { [filesKey]: files }) };
	};
	const formNote = worded(main.querySelector(".form-note-text"), "note", "noteFiles");
	const questions = form.questions.map((question, index) => {
		const block = main.querySelector(`fieldset[data-index="${index}"]`);
		const checked = [...block.querySelectorAll("input:checked")];
		const chosen = checked.filter((input) => input.value !== "other").map((input) => Number(input.value));
		const otherOn = question.options.length === 0 || checked.some((input) => input.value === "other");
		const noted = worded(block.querySelector(".note-text"), "note", "noteFiles");
		if (block.querySelector(".decide")?.getAttribute("aria-pressed") === "true")
			return { chosen: [], delegated: true, ...noted };
		const other = block.querySelector(".other-text");
		return { chosen, ...(other && otherOn && worded(other, "other", "otherFiles")), ...noted };
	});
	return { answers: { ...formNote, questions }, unworded };
}

function review(form) {
	const list = main.querySelector(".review ul");
	list.replaceChildren();
	const { answers, unworded } = answersOf(form);
	const missing = [];
	form.questions.forEach((question, index) => {
		const answer = answers.questions[index];
		const labels = answer.chosen.map((i) => question.options[i].label);
		if (answer.other !== undefined) labels.push(`“${answer.other}”`);
		if (answer.delegated) labels.push(words.delegated);
		if (labels.length === 0 && question.required) missing.push(question.header);
		// Its note under it, as the terminal's review shows it; then its files.
		const note = answer.note === undefined ? undefined : el("span", { class: "noted" }, `✎ ${answer.note}`);
		const files = [...(answer.otherFiles ?? []), ...(answer.noteFiles ?? [])].map((file) => `📎 ${file.name}`);
		const attached = files.length ? el("span", { class: "noted" }, files.join("  ")) : undefined;
		const shown = labels.length ? labels.join(", ") : "—";
		list.append(el("li", {}, el("b", {}, `${question.header}: `), shown, note, attached));
	});
	const status = missing.length ? fill(words.missing, { names: missing.join(", ") }) : words.ready;
	main.querySelector(".review .status").textContent = unworded ? words.needsText : status;
	main.querySelector("#submit").disabled = missing.length > 0 || unworded || done || sending;
}

/** Leaves the question to the model (every choice let go), or lets go of that. */
function decide(block, on) {
	const button = block?.querySelector(".decide");
	if (!button) return;
	button.setAttribute("aria-pressed", String(on));
	if (on) for (const input of block.querySelectorAll("input:checked")) input.checked = false;
}

function finish(message) {
	done = true;
	for (const input of main.querySelectorAll("input, textarea, button")) input.disabled = true;
	const notice = main.querySelector(".notice");
	notice.textContent = message;
	notice.hidden = false;
	// Where the user is: under the Submit button they just pressed, on screen.
	notice.scrollIntoView({ block: "center" });
}

/** Sends the answers once: Submit is held from the click until the response (or until a file cannot be read). */
async function submit(form) {
	if (sending || done) return;
	sending = true;
	main.querySelector("#submit").disabled = true;
	try {
		const body = await pageFiles.encoded(answersOf(form).answers);
		if (!body) return;
		const response = await fetch("answer", {
			method: "POST",
			headers: { "content-type": "application/json", "x-ask-user": submitToken },
			body: JSON.stringify(body),
		}).catch(() => undefined);
		const reply = response ? await response.json().catch(() => ({})) : {};
		if (response?.ok) return finish(words.answered);
		// Another answer came first (another tab, the terminal): nothing more to send from here.
		if (response?.status === 409) return finish(words.alreadyAnswered);
		// A file the server refused is said in the catalogue's words (`said`), as the page refuses one.
		const error = reply.said ?? reply.error ?? (response ? String(response.status) : "no connection");
		const problem = main.querySelector(".problem");
		problem.textContent = response?.status === 413 ? words.tooLarge : fill(words.notSent, { error });
		problem.hidden = false;
	} finally {
		sending = false;
		review(form);
	}
}

/**
 * The server closes when the form closes in the terminal: the page says so once it is gone (not at one lost request on
 * a phone's wifi).
 */
function watch() {
	let failures = 0;
	const timer = setInterval(async () => {
		if (done) return clearInterval(timer);
		const status = await fetch("form").then(
			(r) => r.status,
			() => 0,
		);
		if (status === 404) failures = 3;
		else failures = status === 0 ? failures + 1 : 0;
		if (failures >= 3 && !done) {
			clearInterval(timer);
			finish(words.closed);
		}
	}, 2000);
}

async function start() {
	const form = await (await fetch("form")).json();
	words = form.words;
	pageFiles.setLimits(form.limits);
	const sections = form.questions.map(questionBlock);
	const reviewBlock = el(
		"section",
		{ class: "review" },
		el("h2", {}, words.review),
		el("ul"),
		// The note on the whole form, as the terminal's review offers it.
		noteBox("form-note", words.formNote, "3"),
		el("p", { class: "status" }),
	);
	const notice = el("p", { class: "notice", role: "status", hidden: true });
	const problem = el("p", { class: "problem", role: "alert", hidden: true });
	const button = el("button", { id: "submit", type: "button" }, words.submit);
	// A form from elsewhere says who asks and its task, and the model why it asks, as in the terminal.
	if (form.asker) main.append(el("p", { class: "asker" }, form.asker));
	if (form.reason) main.append(el("p", { class: "reason" }, form.reason));
	main.append(...sections, reviewBlock, problem, button, notice);
	main.addEventListener("input", (event) => {
		// Typing an answer of one's own chooses it.
		const other =
			event.target.classList.contains("other-text") && event.target.closest("fieldset").querySelector("input.other");
		if (other && event.target.value.trim() !== "") {
			other.checked = true;
			decide(event.target.closest("fieldset"), false);
		}
		review(form);
	});
	main.addEventListener("change", (event) => {
		if (event.target.matches("input.file-input")) pageFiles.add(event.target).then(() => review(form));
		else if (event.target.matches("input")) decide(event.target.closest("fieldset"), false);
		review(form);
	});
	main.addEventListener("click", (event) => {
		if (event.target.classList.contains("remove")) {
			pageFiles.remove(event.target);
			return review(form);
		}
		if (!event.target.classList.contains("decide")) return;
		decide(event.target.closest("fieldset"), event.target.getAttribute("aria-pressed") !== "true");
		review(form);
	});
	button.addEventListener("click", () => submit(form));
	review(form);
	watch();
}

start();
