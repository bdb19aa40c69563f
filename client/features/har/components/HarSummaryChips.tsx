import type { HarSummary } from '../../../../lib/tools/har/types.js';
import { formatBytes } from '../../../../lib/format/bytes.js';
import { countOf, formatCount } from '../format.js';
import type { AnalysisTimings } from '../protocol.js';
import '../har.css';

/** A chip's number, emphasised, and its noun in the right number: "1 error", "17 analytics hits". */
function Count({ value, noun, plural = `${noun}s` }: { value: number; noun: string; plural?: string }) {
  return (
    <>
      <span className="har-chip__value">{formatCount(value)}</span> {value === 1 ? noun : plural}
    </>
  );
}

/**
 * Counts at a glance: hits (secondary requests and containers loaded apart, requests that are not
 * valid hits flagged), pages, warnings, then the rows per vendor grouped by kind, and per account.
 */
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
        {summary.invalid ? (
          <li className="har-chip har-chip--error" data-testid="har-invalid-count">
            <Count value={summary.invalid} noun="request that is not a valid hit" plural="requests that are not valid hits" />
          </li>
        ) : null}
        {summary.secondary ? (
          <li className="har-chip" data-testid="har-secondary-count">
            <Count value={summary.secondary} noun="secondary request" />
          </li>
        ) : null}
        {summary.containers ? (
          <li className="har-chip" data-testid="har-container-count">
            <Count value={summary.containers} noun="container or tag loaded" plural="containers and tags loaded" />
          </li>
        ) : null}
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
      <ul className="har-kinds" aria-label="Hits by vendor">
        {summary.byKind.map((kind) => (
          <li key={kind.key} className="har-kind">
            <span className="har-kind__label">
              {kind.label} <span className="har-chip__value">{formatCount(kind.count)}</span>
            </span>
            <ul className="har-chips" aria-label={`${kind.label ?? kind.key} vendors`}>
              {summary.byVendor
                .filter((row) => row.kind === kind.key)
                .map((row) => (
                  <li
                    key={row.key}
                    className={`har-chip har-vendor har-kind--${kind.key} har-vendor--${row.key}`}
                    title={
                      row.secondary
                        ? `${countOf(row.secondary, 'secondary request or load', 'secondary requests or loads')} among them`
                        : undefined
                    }
                  >
                    {row.label ?? row.key} <span className="har-chip__value">{formatCount(row.count)}</span>
                  </li>
                ))}
            </ul>
          </li>
        ))}
      </ul>
      {summary.byAccount.length ? (
        <ul className="har-chips" aria-label="Hits by measurement ID">
          {summary.byAccount.slice(0, 12).map((row) => (
            <li key={row.key} className="har-chip">
              {row.label ? <span className="muted">{row.label}</span> : null} <span className="har-chip__id">{row.key}</span>{' '}
              <span className="har-chip__value">{formatCount(row.count)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
