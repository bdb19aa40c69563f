import type { HarSummary } from '../../../../lib/tools/har/types.js';
import { formatBytes, formatCount, vendorLabel } from '../format.js';
import type { AnalysisTimings } from '../protocol.js';
import '../har.css';

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
        <strong>{fileName}</strong> · {formatBytes(bytes)} · {formatCount(summary.entries)} requests
        {summary.creator ? ` · exported by ${summary.creator}` : ''} · analysed in {seconds} s
      </p>
      <ul className="har-chips">
        <li className="har-chip har-chip--strong" data-testid="har-hit-count">
          <span className="har-chip__value">{formatCount(summary.hits)}</span> analytics hits
        </li>
        <li className="har-chip">
          <span className="har-chip__value">{formatCount(summary.pages.length)}</span> pages
        </li>
        <li className={`har-chip${summary.warnings.error ? ' har-chip--error' : ''}`}>
          <span className="har-chip__value">{formatCount(summary.warnings.error)}</span> errors
        </li>
        <li className={`har-chip${summary.warnings.warning ? ' har-chip--warning' : ''}`}>
          <span className="har-chip__value">{formatCount(summary.warnings.warning)}</span> warnings
        </li>
        <li className="har-chip">
          <span className="har-chip__value">{formatCount(summary.warnings.info)}</span> notes
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
