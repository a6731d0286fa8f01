/** fd, for `@` completion in the form's editor (form/complete.ts), found where pi finds its own. */

import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * fd where pi keeps or finds it: its own copy in `<agent dir>/bin`, else `fd` or Debian's `fdfind` on PATH; without
 * it pi's `@` finds nothing, in pi's editor as here.
 */
export function findFd(agentDir: string, path = process.env.PATH ?? ""): string | undefined {
	const candidates = [join(agentDir, "bin", "fd")];
	for (const dir of path.split(delimiter).filter(Boolean)) candidates.push(join(dir, "fd"), join(dir, "fdfind"));
	return candidates.find((file) => {
		try {
			accessSync(file, constants.X_OK);
			return true;
		} catch {
			return false;
		}
	});
}
