/**
 * An IPv4 address of this machine on a network (not loopback), for the browser page's QR code, which only such an
 * address gets; undefined on a machine with none (the tests that need one are skipped there).
 */

import { networkInterfaces } from "node:os";

export const LAN_ADDRESS: string | undefined = Object.values(networkInterfaces())
	.flat()
	.find((info) => info?.family === "IPv4" && !info.internal)?.address;
