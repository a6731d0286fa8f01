/**
 * The browser page's URL as a QR code, for the `?` screen: drawn by uqr, the package's one dependency, which is
 * optional (bundled in the packed package; a folder installed without `npm install` has none). Without it the page
 * works the same and the help screen says why there is no code.
 */

/** The code's rows in block characters; undefined when uqr cannot be loaded. */
export async function qrRows(url: string): Promise<readonly string[] | undefined> {
	let uqr: typeof import("uqr");
	try {
		uqr = await import("uqr");
	} catch {
		return undefined;
	}
	return uqr.renderUnicodeCompact(url).split("\n");
}
