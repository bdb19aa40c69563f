import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';

/**
 * The kernel's range for ephemeral ports (what `listen(0)` and every outgoing connection draw from):
 * Linux's default unless /proc says otherwise.
 */
function ephemeralRange() {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low > 0 && high >= low) return [low, high];
  } catch {
    // Not Linux: its usual range.
  }
  return [32768, 60999];
}

const canListen = (port) =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * A loopback port that is free now, for a server that must know its port before it starts (an app's
 * PUBLIC_URL, a redirect URI). Chosen at random below the ephemeral range: a port the kernel handed
 * out for `listen(0)` would be free again once checked, and the next `listen(0)` anywhere on the
 * machine (an embedded database, a browser, an outgoing connection) could take it before the server
 * it was meant for starts.
 */
export async function freePort() {
  const [ephemeralLow] = ephemeralRange();
  const low = 10_000;
  const high = Math.max(low + 1_000, ephemeralLow) - 1;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free loopback port between ${low} and ${high} after 200 tries`);
}
