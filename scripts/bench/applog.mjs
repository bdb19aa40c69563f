// App-log analyser throughput: a generated ~20 MB Android logcat (mostly other apps' noise, about
// one line in eight from FA / FA-SVC) and a generated ~20 MB iOS console capture (multi-line
// dictionaries), each analysed whole and in the 256 kB slices the page feeds. Prints numbers only.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

export const title = 'App-log analyser';

const TARGET_BYTES = 20 * 1024 * 1024;
const RUNS = Number(process.env.APPLOG_BENCH_RUNS ?? 3);
const SLICE = 256 * 1024;

const pad = (value, width = 2) => String(value).padStart(width, '0');

function androidLog() {
  const lines = [];
  let bytes = 0;
  let n = 0;
  const push = (line) => {
    lines.push(line);
    bytes += line.length + 1;
  };
  while (bytes < TARGET_BYTES) {
    const stamp = `05-01 ${pad(10 + (Math.floor(n / 360000) % 10))}:${pad(Math.floor(n / 6000) % 60)}:${pad(Math.floor(n / 100) % 60)}.${pad(n % 1000, 3)}`;
    const kind = n % 8;
    if (kind === 0) {
      push(
        `${stamp}  1234  1260 V FA      : Logging event (FE): screen_view(_vs), Bundle[{ga_event_origin(_o)=auto, ga_previous_class(_pc)=MainActivity, ga_screen_class(_sc)=Screen${n % 40}, ga_screen_id(_si)=-45246586245809${n % 10000}}]`,
      );
    } else if (kind === 3) {
      push(
        `${stamp}  1234  1260 V FA      : Logging event (FE): add_to_cart, Bundle[{ga_event_origin(_o)=app, ga_screen_class(_sc)=Screen${n % 40}, currency=EUR, value=${(n % 997) / 10}, items=[Bundle[{item_id=SKU_${n % 500}, item_name=Shirt, size ${n % 5}, price=19.99, quantity=1}]]}]`,
      );
      push(
        `${stamp}  1234  1290 V FA-SVC  : Logging event: origin=app,name=add_to_cart,params=Bundle[{ga_event_origin(_o)=app, ga_screen_class(_sc)=Screen${n % 40}, currency=EUR, value=${(n % 997) / 10}}]`,
      );
    } else if (kind === 5 && n % 80 === 5) {
      push(`${stamp}  1234  1260 V FA      : Setting user property (FE): plan, tier_${n % 3}`);
    } else {
      push(
        `${stamp}  ${800 + (n % 50)}  ${900 + (n % 70)} D SomeOtherTag${n % 30}: unrelated message number ${n} with some payload {key=value, other=[1, 2, 3]}`,
      );
    }
    n++;
  }
  return lines.join('\n');
}

function iosLog() {
  const lines = [];
  let bytes = 0;
  let n = 0;
  const push = (line) => {
    lines.push(line);
    bytes += line.length + 1;
  };
  while (bytes < TARGET_BYTES) {
    const stamp = `2024-05-01 ${pad(10 + (Math.floor(n / 360000) % 10))}:${pad(Math.floor(n / 6000) % 60)}:${pad(Math.floor(n / 100) % 60)}.${pad(n % 1000000, 6)}+0200 ShopApp[5123:2014${n % 90}]`;
    if (n % 6 === 0) {
      push(`${stamp} 10.24.0 - [FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: app, purchase, {`);
      push('    currency = USD;');
      push('    "ga_event_origin (_o)" = app;');
      push(`    ga_screen_class (_sc) = Screen${n % 40};`);
      push('    items =     (');
      push('                {');
      push(`            "item_id" = "SKU_${n % 500}";`);
      push('            "item_name" = "Blue T-shirt; size M";');
      push('            price = "19.99";');
      push('        }');
      push('    );');
      push(`    value = "${(n % 997) / 10}";`);
      push('}');
    } else if (n % 6 === 1) {
      push(`${stamp} 10.24.0 - [FirebaseAnalytics][I-ACS023087] User property set. Name, value: plan, tier_${n % 3}`);
    } else {
      push(`${stamp} [UIKit] unrelated message number ${n} while scrolling a collection view`);
    }
    n++;
  }
  return lines.join('\n');
}

export default async function benchAppLog({ dist, median }) {
  const { analyseAppLog, AppLogAnalyser } = await import(pathToFileURL(join(dist, 'lib/tools/applog/analyser.js')).href);
  for (const [label, platform, text] of [
    ['Android logcat', 'android', androidLog()],
    ['iOS console', 'ios', iosLog()],
  ]) {
    const megabytes = Buffer.byteLength(text) / 1024 / 1024;
    const whole = [];
    const sliced = [];
    let result;
    for (let run = 0; run < RUNS; run++) {
      let started = performance.now();
      result = analyseAppLog(text, { platform });
      whole.push(performance.now() - started);
      started = performance.now();
      const analyser = new AppLogAnalyser(platform);
      for (let at = 0; at < text.length; at += SLICE) analyser.push(text.slice(at, at + SLICE));
      analyser.finish();
      sliced.push(performance.now() - started);
    }
    const seconds = median(whole) / 1000;
    const events = result.summary.events;
    console.log(
      `${label}: ${megabytes.toFixed(1)} MB, ${result.totalLines.toLocaleString('en-GB')} lines, ${events.toLocaleString('en-GB')} events, ` +
        `${result.summary.userPropertyChanges.toLocaleString('en-GB')} user property changes`,
    );
    console.log(
      `  whole: ${median(whole).toFixed(0)} ms (median of ${RUNS}) = ${Math.round(result.totalLines / seconds).toLocaleString('en-GB')} lines/s, ` +
        `${(megabytes / seconds).toFixed(1)} MB/s, ${Math.round(events / seconds).toLocaleString('en-GB')} events/s`,
    );
    console.log(`  256 kB slices (as the page feeds it): ${median(sliced).toFixed(0)} ms (median of ${RUNS})`);
  }
}
