import { csvCell, csvRow } from './csv.js';

describe('csv', () => {
  it.each(['=HYPERLINK("http://evil")', '+1+1', '-2+3', '@SUM(A1)', '\tx', '\rx'])('neutralises the formula %j', (value) => {
    expect(csvCell(value).startsWith(`"'`)).toBe(true);
  });

  it('quotes commas, quotes and line breaks and leaves plain text alone', () => {
    expect(csvRow(['a,b', 'say "hi"', 'two\nlines', null, 3])).toBe('"a,b","say ""hi""","two\nlines","","3"\r\n');
    expect(csvCell('ada@example.com')).toBe('"ada@example.com"');
  });
});
