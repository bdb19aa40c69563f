#!/usr/bin/env node
// What compressing one response costs and saves, per encoder: CPU µs per response and bytes on the
// wire. The levels of dynamic compression (src/common/response-compression.ts) were chosen with it.
//
//   node scripts/compression-cost.mjs http://127.0.0.1:3000/ http://127.0.0.1:3000/api/catalogue
//
// scripts/bench.mjs can import `compressionCost(body)` to report the same for the bodies it fetches.
import { request } from 'node:http';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';

/** The candidates: gzip levels 1, 4 and 6 (zlib's default) and Brotli qualities 1 and 4 (the `compression` package's default). */
export const COMPRESSION_CANDIDATES = [
  { name: 'gzip-1', create: () => createGzip({ level: 1 }) },
  { name: 'gzip-4', create: () => createGzip({ level: 4 }) },
  { name: 'gzip-6', create: () => createGzip({ level: 6 }) },
  { name: 'br-1', create: () => createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }) },
  { name: 'br-4', create: () => createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }) },
];

/** One response's compression as the middleware does it: a new stream, the body written, ended. */
function compressOnce(create, body) {
  return new Promise((resolve, reject) => {
    const stream = create();
    let bytes = 0;
    stream.on('data', (chunk) => (bytes += chunk.length));
    stream.on('end', () => resolve(bytes));
    stream.on('error', reject);
    stream.write(body);
    stream.end();
  });
}

/**
 * Compresses `body` with every candidate, `rounds` rounds of `perRound` responses interleaved
 * across candidates (so a busy neighbour slows all of them alike), and answers per candidate the
 * compressed size and the CPU time (user + system, zlib's threads included) per response in µs: the
 * best round (closest to the cost on an idle machine) and the median round.
 */
export async function compressionCost(body, { rounds = 9, perRound = 100, candidates = COMPRESSION_CANDIDATES } = {}) {
  const input = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const samples = new Map(candidates.map(({ name }) => [name, []]));
  const sizes = new Map();
  for (let round = 0; round < rounds; round += 1) {
    for (const { name, create } of candidates) {
      for (let i = 0; i < 5; i += 1) await compressOnce(create, input);
      const started = process.cpuUsage();
      for (let i = 0; i < perRound; i += 1) sizes.set(name, await compressOnce(create, input));
      const cpu = process.cpuUsage(started);
      samples.get(name).push((cpu.user + cpu.system) / perRound);
    }
  }
  return candidates.map(({ name }) => {
    const sorted = samples.get(name).sort((a, b) => a - b);
    return {
      name,
      originalBytes: input.length,
      bytes: sizes.get(name),
      cpuMicros: Math.round(sorted[0]),
      medianCpuMicros: Math.round(sorted[Math.floor(sorted.length / 2)]),
    };
  });
}

/** A Markdown table of `compressionCost` rows, with the bytes saved per CPU µs. */
export function formatCompressionCost(label, rows) {
  const lines = [
    `${label} (${rows[0].originalBytes} bytes)`,
    '',
    '| encoder | bytes | saved | CPU µs/response (best round) | (median round) | bytes saved per µs |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const saved = row.originalBytes - row.bytes;
    lines.push(
      `| ${row.name} | ${row.bytes} | ${((saved / row.originalBytes) * 100).toFixed(1)} % | ${row.cpuMicros} | ${row.medianCpuMicros} | ${(saved / row.cpuMicros).toFixed(0)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * What one GET of `url` puts on the wire for a browser's `Accept-Encoding`: status, coding and body
 * bytes as sent (fetch() would decompress them), e.g. for a bench to report the bytes per response.
 */
export function wireBytes(url, acceptEncoding = 'gzip, deflate, br, zstd') {
  return new Promise((resolve, reject) => {
    const call = request(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk) => (bytes += chunk.length));
      response.on('end', () =>
        resolve({ status: response.statusCode, encoding: response.headers['content-encoding'] ?? 'identity', bytes }),
      );
      response.on('error', reject);
    });
    call.on('error', reject);
    call.end();
  });
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
    const sent = await wireBytes(url);
    console.log(formatCompressionCost(`${url} → ${response.status} ${response.headers.get('content-type')}`, await compressionCost(body)));
    console.log(`\nThe server sends it to a browser as ${sent.encoding}, ${sent.bytes} bytes.\n`);
  }
}
