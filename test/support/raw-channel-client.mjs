/**
 * What any command the model runs can do with the PI_ASK_USER_CHANNEL it inherits (a prompt-injected bash step, say):
 * connect to the session's local channel and send a relayed form of its own making. Its hello gives this process's pid,
 * as pi-ask-user's own client does. Prints the parent's reply.
 *
 *   node raw-channel-client.mjs '<the request envelope as JSON>'
 */

import { createConnection } from "node:net";

const [, token, path] = /^1:([0-9a-f]{64}):(.+)$/s.exec(process.env["PI_ASK_USER_CHANNEL"] ?? "") ?? [];
if (!token || !path) {
	console.error("PI_ASK_USER_CHANNEL is not a channel address");
	process.exit(2);
}
const socket = createConnection(path);
let received = "";
socket.on("data", (chunk) => {
	received += chunk.toString("utf8");
});
socket.on("close", () => process.stdout.write(`${received.split("\n")[1] || "no reply"}\n`));
socket.write(`${JSON.stringify({ v: 1, token, pid: process.pid })}\n${process.argv[2]}\n`);
