import type { HarSummary } from '../../../../lib/tools/har/types.js';
import { formatBytes } from '../../../../lib/format/bytes.js';
import { countOf, formatCount, vendorLabel } from '../format.js';
import type { AnalysisTimings } from '../protocol.js';
import '../har.css';

/** A chip's number, emphasised, and its noun in the right number: "1 error", "17 analytics hits". */
function Count({ value, noun }: { value: number; noun: string }) {
  return (
    <>
      <span className="har-chip__value">{formatCount(value)}</span> {value === 1 ? noun : `${noun}s`}
    </>
  );
}

/** Counts at a glance: hits, entries, pages, warnings, hits per vendor and per account. */
export function HarSummaryChips({
  summary,
  fileName,
  bytes,
  timings,
}: {
  summary: HarSummary;
  fileName: string;
  bytes: number;
  timings: AnalysisTimings;
}) {
  const seconds = ((timings.readMs + timings.parseMs + timings.analyseMs) / 1000).toFixed(1);
  return (
    <section className="har-summary" aria-label="Summary">
      <p className="har-summary__file muted">
        <strong>{fileName}</strong> · {formatBytes(bytes)} · {countOf(summary.entries, 'request')}
        {summary.creator ? ` · exported by ${summary.creator}` : ''} · analysed in {seconds} s
      </p>
      <ul className="har-chips">
        <li className="har-chip har-chip--strong" data-testid="har-hit-count">
          <Count value={summary.hits} noun="analytics hit" />
        </li>
        <li className="har-chip">
          <Count value={summary.pages.length} noun="page" />
        </li>
        <li className={`har-chip${summary.warnings.error ? ' har-chip--error' : ''}`}>
          <Count value={summary.warnings.error} noun="error" />
        </li>
        <li className={`har-chip${summary.warnings.warning ? ' har-chip--warning' : ''}`}>
          <Count value={summary.warnings.warning} noun="warning" />
        </li>
        <li className="har-chip">
          <Count value={summary.warnings.info} noun="note" />
        </li>
      </ul>
      <ul className="har-chips" aria-label="Hits by vendor">
        {summary.byVendor.map((row) => (
          <li key={row.key} className={`har-chip har-vendor har-vendor--${row.key}`}>
            {vendorLabel(row.key)} <span className="har-chip__value">{formatCount(row.count)}</span>
          </li>
        ))}
      </ul>
      {summary.byAccount.length ? (
        <ul className="har-chips" aria-label="Hits by measurement ID">
          {summary.byAccount.slice(0, 12).map((row) => (
            <li key={row.key} className="har-chip har-chip--mono">
              {row.key} <span className="har-chip__value">{formatCount(row.count)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
