#!/usr/bin/env node
// What compressing one response costs and saves, per encoder: CPU µs per response and bytes on the
// wire. The levels of dynamic compression (src/common/response-compression.ts) were chosen with it.
//
//   node scripts/compression-cost.mjs http://127.0.0.1:3000/ http://127.0.0.1:3000/api/catalogue
//
// scripts/bench.mjs can import `compressionCost(body)` to report the same for the bodies it fetches.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** The candidates: gzip levels 1, 4 and 6 (zlib's default) and Brotli qualities 1 and 4 (the `compression` package's default). */
export const COMPRESSION_CANDIDATES = [
  { name: 'gzip-1', encode: (body) => gzipSync(body, { level: 1 }) },
  { name: 'gzip-4', encode: (body) => gzipSync(body, { level: 4 }) },
  { name: 'gzip-6', encode: (body) => gzipSync(body, { level: 6 }) },
  { name: 'br-1', encode: (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }) },
  { name: 'br-4', encode: (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }) },
];

/**
 * Compresses `body` with every candidate `iterations` times (after a warm-up) and answers, per
 * candidate, the compressed size and the CPU time (user + system) per response in µs.
 */
export function compressionCost(body, { iterations = 300, candidates = COMPRESSION_CANDIDATES } = {}) {
  const input = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return candidates.map(({ name, encode }) => {
    for (let i = 0; i < 20; i += 1) encode(input);
    const started = process.cpuUsage();
    let bytes = 0;
    for (let i = 0; i < iterations; i += 1) bytes = encode(input).length;
    const cpu = process.cpuUsage(started);
    return { name, originalBytes: input.length, bytes, cpuMicros: Math.round(((cpu.user + cpu.system) / iterations) * 10) / 10 };
  });
}

/** A Markdown table of `compressionCost` rows, with the bytes saved per CPU µs. */
export function formatCompressionCost(label, rows) {
  const lines = [
    `${label} (${rows[0].originalBytes} bytes)`,
    '',
    '| encoder | bytes | saved | CPU µs/response | bytes saved per µs |',
    '|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const saved = row.originalBytes - row.bytes;
    lines.push(
      `| ${row.name} | ${row.bytes} | ${((saved / row.originalBytes) * 100).toFixed(1)} % | ${row.cpuMicros} | ${(saved / row.cpuMicros).toFixed(0)} |`,
    );
  }
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const urls = process.argv.slice(2);
  if (!urls.length) {
    console.error('usage: node scripts/compression-cost.mjs <url>…');
    process.exit(2);
  }
  for (const url of urls) {
    const response = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    const body = Buffer.from(await response.arrayBuffer());
    console.log(`${formatCompressionCost(`${url} → ${response.status} ${response.headers.get('content-type')}`, compressionCost(body))}\n`);
  }
}
