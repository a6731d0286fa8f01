/** Builds into `outDir`/dist (default: this checkout's dist/); resolves the entry's file name. */
export function build(outDir?: string): Promise<string>;
/** This checkout as a package from npm has it, in `dir`; resolves its index.ts's path. */
export function buildPackage(dir?: string): Promise<string>;
