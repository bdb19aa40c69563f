import { formatBytes } from './bytes.js';

describe('formatBytes', () => {
  it.each([
    [512, '512 B'],
    [1536, '1.5 KB'],
    [12.3 * 1024 * 1024, '12.3 MB'],
    [512 * 1024 * 1024, '512.0 MB'],
    [1.02 * 1024 ** 3, '1.02 GB'],
  ])('%d bytes → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});
