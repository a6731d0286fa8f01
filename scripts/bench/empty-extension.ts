/**
 * The bench's floor for pi's start-up: an extension that registers nothing.
 * Whatever extension pi loads first pays for its loader's own start-up (jiti
 * and its transform); loading this one costs that and nothing else.
 */
export default function emptyExtension(): void {}
