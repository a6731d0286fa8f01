/** pi-ask-user/relay, for subagent runners: README.md, "Subagents"; examples/subagent-runner/. */

export {
	type ChildRelay,
	type ChildRelayOptions,
	createChildRelay,
	type ExtensionUIRequest,
	type ExtensionUIResponse,
	type ParentUI,
	relayEnvironment,
} from "./api.ts";
export { RELAY_ENV } from "../core/types.ts";
