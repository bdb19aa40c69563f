// HAR analyser benchmark: a ~100 MB HAR with 20 000 entries (scripts/fixtures/har-large.mjs), parsed
// and analysed by the compiled module (dist/app/lib/tools/har), several runs, medians printed.
// Parse (JSON.parse + shape check) and analyse (decode, warnings, summary) are timed separately,
// then the two together; peak memory is the highest RSS/heap sampled while it runs.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { buildLargeHar } from '../fixtures/har-large.mjs';

export const title = 'HAR analyser';

const RUNS = 3;
const MB = 1024 * 1024;

export default async function ({ root, dist, median }) {
  // A full collection before each run, so that the peak is one run's and not the garbage of the last.
  v8.setFlagsFromString('--expose-gc');
  const collect = vm.runInNewContext('gc');
  const { parseHar, analyseHar } = await import(pathToFileURL(join(dist, 'lib/tools/har/analyse.js')).href);
  void root;
  const generated = performance.now();
  const { text, entries, hits } = buildLargeHar({ entries: 20_000, targetBytes: 100 * MB });
  const megabytes = Buffer.byteLength(text) / MB;
  console.log(
    `Generated a ${megabytes.toFixed(1)} MB HAR: ${entries} entries, ${hits} analytics hits expected (${((performance.now() - generated) / 1000).toFixed(1)} s)`,
  );

  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  };
  const sampler = setInterval(sample, 5);
  const parseMs = [];
  const analyseMs = [];
  let found = 0;
  let warnings = 0;
  for (let run = 0; run < RUNS; run++) {
    collect();
    const start = performance.now();
    const har = parseHar(text);
    sample();
    const parsed = performance.now();
    const result = analyseHar(har);
    sample();
    const done = performance.now();
    parseMs.push(parsed - start);
    analyseMs.push(done - parsed);
    found = result.hits.length;
    warnings = result.warnings.length;
    // Let the sampler see the peak of this run before the next one.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  clearInterval(sampler);
  const parse = median(parseMs);
  const analyse = median(analyseMs);
  const total = median(parseMs.map((value, index) => value + analyseMs[index]));
  const rate = (ms) =>
    `${Math.round(entries / (ms / 1000)).toLocaleString('en-GB')} entries/s, ${(megabytes / (ms / 1000)).toFixed(1)} MB/s`;
  console.log(`Hits decoded: ${found} (${warnings} warnings); ${RUNS} runs, medians:`);
  console.log(`  parse    ${parse.toFixed(0).padStart(6)} ms   ${rate(parse)}`);
  console.log(`  analyse  ${analyse.toFixed(0).padStart(6)} ms   ${rate(analyse)}`);
  console.log(`  total    ${total.toFixed(0).padStart(6)} ms   ${rate(total)}`);
  console.log(
    `  runs (parse + analyse): ${parseMs.map((value, index) => `${value.toFixed(0)} + ${analyseMs[index].toFixed(0)}`).join(', ')} ms`,
  );
  console.log(
    `Peak memory during a run: RSS ${(peakRss / MB).toFixed(0)} MB, heap used ${(peakHeap / MB).toFixed(0)} MB (the ${megabytes.toFixed(0)} MB source text included)`,
  );

  // What each stage keeps alive, measured after a full collection (the worker drops the text after
  // parsing and the parsed file after analysing, so it holds at most text + tree, then the result).
  const heap = () => {
    collect();
    return process.memoryUsage().heapUsed / MB;
  };
  const base = heap();
  let har = parseHar(text);
  const tree = heap() - base;
  const result = analyseHar(har);
  har = null;
  const kept = heap() - base;
  console.log(
    `Retained heap: parsed HAR ${tree.toFixed(0)} MB (beside the text), decoded result ${kept.toFixed(0)} MB for ${result.hits.length} hits`,
  );
  const exportStart = performance.now();
  const exported = JSON.stringify(result);
  console.log(`Export as JSON: ${(performance.now() - exportStart).toFixed(0)} ms, ${(exported.length / MB).toFixed(1)} MB`);
}
