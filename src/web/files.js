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

/**
 * The catalogue's `text` with each `{key}` of `values` filled in, as given: through a function, so a `$&` or `$'` in a
 * file's name stays as it is.
 */
function fill(text, values) {
	return text.replace(/\{(\w+)\}/g, (whole, key) =>
		Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole,
	);
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

/** A size against a limit, as core/attachment.ts's megabytes says it: up to the next tenth. */
const mb = (bytes) => `${Math.ceil((bytes / (1024 * 1024)) * 10) / 10} MB`;

/** The image type of a file's first 12 bytes, as core/attachment.ts's sniffImageMime reads them (and the server). */
function sniff(bytes) {
	const starts = (...sig) => sig.every((b, i) => bytes[i] === b);
	if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
	if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
	if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
		return "image/gif";
	const ascii = (from, text) => [...text].every((c, i) => bytes[from + i] === c.charCodeAt(0));
	if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "image/webp";
	return undefined;
}

/** A file's image type by its bytes, not its name (undefined: not an image, or unreadable). */
const imageType = (file) =>
	file
		.slice(0, 12)
		.arrayBuffer()
		.then((head) => sniff(new Uint8Array(head)))
		.catch(() => undefined);

/**
 * Why `file` (an image of type `image`, or none) cannot join `box` now, in the catalogue's words (the terminal's rules:
 * core/attachment.ts's limits).
 */
function refusal(box, file, image) {
	const limit = image ? limits.imageBytes : limits.fileBytes;
	if (file.size > limit) return fill(words.fileTooLarge, { name: file.name, size: mb(file.size), limit: mb(limit) });
	if (chosenFiles.get(box).length >= limits.perAnswer) return words.answerFull;
	const all = [...chosenFiles.values()].flat();
	if (all.length >= limits.perForm) return words.formFull;
	if (all.reduce((sum, c) => sum + c.file.size, 0) + file.size > limits.totalBytes)
		return fill(words.totalTooLarge, { name: file.name });
	return undefined;
}

/**
 * The files just picked join the box, each that fits, once their first bytes say which are images (the limit, the
 * thumbnail); the first that does not is said, and the text stays as it is.
 */
async function addFiles(input) {
	const box = input.closest(".files");
	const picked = [...input.files];
	// Picked again, the same file is a new choice.
	input.value = "";
	const images = await Promise.all(picked.map(imageType));
	let refused;
	picked.forEach((file, i) => {
		const image = images[i];
		const why = refusal(box, file, image);
		if (why) refused ??= why;
		// The thumbnail of the type its bytes show, whatever its name says.
		else chosenFiles.get(box).push({ file, url: image && URL.createObjectURL(new Blob([file], { type: image })) });
	});
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
					"aria-label": fill(words.remove, { name: file.name }),
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
						if (chosen.some((c) => c.file === file)) say(box, fill(words.unreadable, { name: file.name }));
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
	setLimits: (given) => Object.assign(limits, given),
};
