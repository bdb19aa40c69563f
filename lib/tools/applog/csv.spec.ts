import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseAppLog } from './analyser.js';
import { buildEntriesCsv, csvCell } from './csv.js';

const fixture = (name: string) => readFileSync(join(process.cwd(), 'test/fixtures/applog', name), 'utf8');

/** A small RFC 4180 reader, to check that what is written reads back cell for cell. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += char;
  }
  return rows;
}

describe('CSV export of the stream', () => {
  it('writes one row per entry with the device columns first, quoting what needs it', () => {
    const result = analyseAppLog(fixture('android-logcat-threadtime.txt'));
    const rows = result.entries.map((entry) => ({ entry, device: 'Pixel 7', app: 'com.example.shop' }));
    const csv = buildEntriesCsv(rows, { header: ['device', 'app'], values: (row) => [row.device, row.app] });
    const table = parseCsv(csv);
    expect(table[0]).toEqual([
      'device',
      'app',
      'time',
      'kind',
      'name',
      'short_name',
      'origin',
      'screen',
      'value',
      'parameters',
      'items',
      'issues',
      'stages',
      'lines',
    ]);
    expect(table).toHaveLength(result.entries.length + 1);
    const purchase = table.find((cells) => cells[4] === 'purchase')!;
    expect(purchase.slice(0, 4)).toEqual(['Pixel 7', 'com.example.shop', '05-01 10:00:05.120', 'event']);
    expect(purchase[9]).toContain('coupon=SUMMER, SALE {2024}');
    expect(purchase[10]).toBe(
      '{item_id=SKU_1; item_name=T-shirt, blue; price=19.99; quantity=2}, {item_id=SKU_2; item_name=Mug {large}; price=20.0; quantity=1}',
    );
    expect(purchase[12]).toBe('logged (FE) > logged (service) > recorded');
    const property = table.find((cells) => cells[3] === 'user_property' && cells[4] === 'favorite_food')!;
    expect(property[8]).toBe('pizza');
    const tooLong = table.find((cells) => cells[4] === 'select_promotion')!;
    expect(tooLong[11]).toMatch(/^param_value_too_long: /);
  });

  it('keeps a spreadsheet from running a logged value as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
  });
});
