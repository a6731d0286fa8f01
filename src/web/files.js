// The files of a free answer or a note on the browser page, as `pageFiles` (page.js, loaded after this, uses it and
// lends it `el` and `words`). Each chosen file is a row (a thumbnail for an image, its name and size, a remove
// button); the terminal's limits refuse one in place, in one line; on Submit each is read as base64 into the answers.
"use strict";

/** The files chosen in each box (a free answer's, a note's): { file, url } each, `url` a thumbnail's object URL. */
const chosenFiles = new Map();
/** The limits of core/attachment.ts, from the form's data. */
const limits = {};

/** A box of files under a free answer or a note: the chosen ones, each a row; the picker; a line saying a refusal. */
function fileBox(kind) {
	// Images first (a phone offers its camera), any file allowed.
	const input = el("input", { type: "file", accept: "image/*", multiple: true, class: "file-input" });
	const box = el(
		"div",
		{ class: "files", "data-for": kind },
		el("div", { class: "file-list", role: "list" }),
		el("label", { class: "attach" }, input, el("span", {}, words.attach)),
		el("p", { class: "file-problem", role: "alert", hidden: true }),
	);
	chosenFiles.set(box, []);
	return box;
}

/** One line in the box: why a file was refused (or nothing). */
function say(box, text) {
	const problem = box.querySelector(".file-problem");
	problem.textContent = text ?? "";
	problem.hidden = !text;
}

/** "512 B", "412 KB", "3.4 MB", as the terminal writes a size. */
function sizeOf(bytes) {
	if (bytes < 1024) return `${bytes} B`;
	const units = ["KB", "MB", "GB"];
	let value = bytes / 1024;
	let unit = 0;
	for (; value >= 1024 && unit < units.length - 1; unit++) value /= 1024;
	return `${value < 10 ? Math.round(value * 10) / 10 : Math.round(value)} ${units[unit]}`;
}

const IMAGE = /^image\/(png|jpeg|gif|webp)$/;
const mb = (bytes) => `${Math.ceil((bytes / (1024 * 1024)) * 10) / 10} MB`;

/** Why `file` cannot join `box` now, in the catalogue's words (the terminal's rules: core/attachment.ts's limits). */
function refusal(box, file) {
	const limit = IMAGE.test(file.type) ? limits.imageBytes : limits.fileBytes;
	if (file.size > limit)
		return words.fileTooLarge
			.replace("{name}", file.name)
			.replace("{size}", mb(file.size))
			.replace("{limit}", mb(limit));
	if (chosenFiles.get(box).length >= limits.perAnswer) return words.answerFull;
	const all = [...chosenFiles.values()].flat();
	if (all.length >= limits.perForm) return words.formFull;
	if (all.reduce((sum, c) => sum + c.file.size, 0) + file.size > limits.totalBytes)
		return words.totalTooLarge.replace("{name}", file.name);
	return undefined;
}

/** The files just picked join the box, each that fits; the first that does not is said, and the text stays as it is. */
function addFiles(input) {
	const box = input.closest(".files");
	let refused;
	for (const file of input.files) {
		const why = refusal(box, file);
		if (why) refused ??= why;
		else chosenFiles.get(box).push({ file, url: IMAGE.test(file.type) ? URL.createObjectURL(file) : undefined });
	}
	// Picked again, the same file is a new choice.
	input.value = "";
	say(box, refused);
	showFiles(box);
}

function showFiles(box) {
	const rows = chosenFiles.get(box).map(({ file, url }, i) =>
		el(
			"div",
			{ class: "file", role: "listitem" },
			url ? el("img", { class: "thumb", src: url, alt: "" }) : el("span", { class: "thumb" }, "📎"),
			el("span", { class: "file-name" }, file.name),
			el("span", { class: "file-size" }, sizeOf(file.size)),
			el(
				"button",
				{
					type: "button",
					class: "remove",
					"data-file": String(i),
					"aria-label": words.remove.replace("{name}", file.name),
				},
				"✕",
			),
		),
	);
	box.querySelector(".file-list").replaceChildren(...rows);
}

function removeFile(button) {
	const box = button.closest(".files");
	const [gone] = chosenFiles.get(box).splice(Number(button.dataset.file), 1);
	if (gone?.url) URL.revokeObjectURL(gone.url);
	say(box, undefined);
	showFiles(box);
}

/** A file's bytes in base64, or undefined when it cannot be read (gone from the disk since it was chosen). */
const base64Of = (file) =>
	new Promise((resolve) => {
		const reader = new FileReader();
		reader.onload = () => resolve(String(reader.result).slice(String(reader.result).indexOf(",") + 1));
		reader.onerror = () => resolve(undefined);
		reader.readAsDataURL(file);
	});

/** The answers with each file as { name, data }; a file that cannot be read is said in its box, and nothing is sent. */
async function encoded(answers) {
	let unreadable = false;
	const files = async (list) =>
		Promise.all(
			(list ?? []).map(async (file) => {
				const data = await base64Of(file);
				if (data === undefined) {
					unreadable = true;
					for (const [box, chosen] of chosenFiles)
						if (chosen.some((c) => c.file === file)) say(box, words.unreadable.replace("{name}", file.name));
				}
				return { name: file.name, data };
			}),
		);
	const withFiles = async ({ otherFiles, noteFiles, ...answer }) => ({
		...answer,
		...(otherFiles && { otherFiles: await files(otherFiles) }),
		...(noteFiles && { noteFiles: await files(noteFiles) }),
	});
	const body = { ...(await withFiles(answers)), questions: await Promise.all(answers.questions.map(withFiles)) };
	return unreadable ? undefined : body;
}

globalThis.pageFiles = {
	box: fileBox,
	add: addFiles,
	remove: removeFile,
	encoded,
	/** The files chosen in the box after `textarea` (none where it has none). */
	of: (textarea) => (chosenFiles.get(textarea.parentElement.querySelector(".files")) ?? []).map((c) => c.file),
	/** The limits of core/attachment.ts, from the form's data. */
	setLimits: (given) => Object.assign(limits, given),
};
