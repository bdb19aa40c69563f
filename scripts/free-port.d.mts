/** A loopback port that is free now, chosen below the kernel's ephemeral range (see free-port.mjs). */
export function freePort(): Promise<number>;
