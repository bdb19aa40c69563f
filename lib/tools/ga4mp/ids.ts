/**
 * Identifier generators for the workbench's "Generate" buttons. Web: a gtag.js-shaped client id
 * (`<random 31-bit integer>.<Unix seconds>`, as the `_ga` cookie holds it). App: an app instance id,
 * 32 lower-case hex characters as the Firebase SDK reports it.
 */
function randomBytes(length: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}

export function generateClientId(now = new Date()): string {
  const [a, b, c, d] = randomBytes(4);
  const random = ((a! << 23) | (b! << 15) | (c! << 7) | (d! >> 1)) >>> 0;
  return `${random || 1}.${Math.floor(now.getTime() / 1000)}`;
}

export function generateAppInstanceId(): string {
  return Array.from(randomBytes(16), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
