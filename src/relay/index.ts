/**
 * The public relay entry point for subagent runners: `import … from "pi-ask-user/relay"`.
 * See README.md, section "Subagents", and examples/subagent-runner/.
 */

export { type ChildRelay, type ChildRelayOptions, createChildRelay, type ExtensionUIRequest, type ExtensionUIResponse, type ParentUI, relayEnvironment } from "./api.ts";
export { RELAY_ENV } from "../router.ts";
