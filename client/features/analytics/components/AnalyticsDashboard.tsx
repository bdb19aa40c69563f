import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  ANALYTICS_PRESETS,
  type AnalyticsPreset,
  customRangeProblem,
  type RangeQuery,
  rangeQueryOf,
} from '../../../../lib/analytics/range.js';
import { utcDay } from '../../../../lib/time/utc-day.js';
import {
  ANALYTICS_DIMENSIONS,
  type AnalyticsDashboard as Dashboard,
  type AnalyticsDay,
  type AnalyticsKpis,
  type AnalyticsRow,
  DIMENSION_LABELS,
  DROP_LABELS,
} from '../../../../lib/api/analytics.js';
import { formatMoney } from '../../../../lib/money.js';
import { SegmentedControl } from '../../../components/SegmentedControl.js';
import { StackedBarChart } from '../../../components/charts/StackedBarChart.js';
import { adminAnalyticsQuery } from '../../../app/queries.js';
import { useDataSource } from '../../../app/data-source.js';
import { exportUrl, realtimeQuery } from '../api.js';
import { changeText, formatCount, formatDay, formatDecimal, formatPercent } from '../format.js';
import '../analytics.css';

const PRESET_LABELS: Record<AnalyticsPreset, string> = { today: 'Today', '7d': '7 days', '30d': '30 days', '90d': '90 days' };
type Choice = AnalyticsPreset | 'custom';
const CHOICES: Array<{ value: Choice; label: string }> = [
  ...ANALYTICS_PRESETS.map((preset) => ({ value: preset, label: PRESET_LABELS[preset] })),
  { value: 'custom', label: 'Custom' },
];

const METRICS = [
  { value: 'pageviews', label: 'Page views' },
  { value: 'visitors', label: 'Daily unique visitors' },
  { value: 'visits', label: 'Visits' },
] as const;
type Metric = (typeof METRICS)[number]['value'];

/** The range in the URL (`?preset=7d` or `?from=…&to=…`), so that a link reproduces the view. */
function useRange(): [RangeQuery, Choice, (range: RangeQuery) => void] {
  const [params, setParams] = useSearchParams();
  const range = rangeQueryOf(params);
  const choice: Choice = 'preset' in range ? (range.preset as AnalyticsPreset) : 'custom';
  return [range, choice, (next) => setParams(new URLSearchParams(next as Record<string, string>), { replace: false })];
}

export function AnalyticsDashboard() {
  const [range, choice, setRange] = useRange();
  const [customOpen, setCustomOpen] = useState(choice === 'custom');
  const dashboard = useQuery(adminAnalyticsQuery(useDataSource(), range));

  return (
    <div className="analytics">
      <div className="analytics__toolbar">
        <SegmentedControl
          label="Date range"
          options={CHOICES}
          value={customOpen ? 'custom' : choice}
          onChange={(value) => {
            if (value === 'custom') setCustomOpen(true);
            else {
              setCustomOpen(false);
              setRange({ preset: value });
            }
          }}
        />
        <a className="button button--ghost button--small" href={exportUrl(range)} download>
          Export CSV
        </a>
      </div>
      {customOpen ? <CustomRange range={range} onApply={setRange} /> : null}
      {dashboard.data ? (
        <p className="analytics__period muted" aria-live="polite">
          {formatDay(dashboard.data.from)} – {formatDay(dashboard.data.to)} (UTC), compared with {formatDay(dashboard.data.previousFrom)} –{' '}
          {formatDay(dashboard.data.previousTo)}.
        </p>
      ) : null}
      {dashboard.isPending ? (
        <DashboardSkeleton />
      ) : dashboard.isError ? (
        <div className="alert alert--error analytics__error" role="alert">
          <p>Analytics could not be loaded. {dashboard.error.message}</p>
          <button type="button" className="button button--small" onClick={() => void dashboard.refetch()} disabled={dashboard.isFetching}>
            {dashboard.isFetching ? 'Retrying…' : 'Try again'}
          </button>
        </div>
      ) : (
        <DashboardBody data={dashboard.data} busy={dashboard.isFetching} />
      )}
    </div>
  );
}

function CustomRange({ range, onApply }: { range: RangeQuery; onApply: (range: RangeQuery) => void }) {
  const [today] = useState(() => utcDay(Date.now()));
  const [from, setFrom] = useState('from' in range ? range.from : '');
  const [to, setTo] = useState('to' in range ? range.to : today);
  const [problem, setProblem] = useState<string | null>(null);
  const errorId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = customRangeProblem(from, to, today);
    setProblem(found);
    if (!found) onApply({ from, to });
  };
  return (
    <form className="analytics__custom" onSubmit={submit} noValidate aria-label="Custom date range">
      <DateInput id={`${errorId}-from`} label="From" value={from} max={today} onChange={setFrom} problemId={problem ? errorId : null} />
      <DateInput id={`${errorId}-to`} label="To" value={to} max={today} onChange={setTo} problemId={problem ? errorId : null} />
      <button type="submit" className="button button--small">
        Apply
      </button>
      {problem ? (
        <p className="field__error analytics__custom-error" id={errorId} role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

/** One end of the custom range; both ends share the range's one error message. */
function DateInput(props: {
  id: string;
  label: string;
  value: string;
  max: string;
  onChange: (value: string) => void;
  problemId: string | null;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="date"
        value={props.value}
        max={props.max}
        onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.problemId ? true : undefined}
        aria-describedby={props.problemId ?? undefined}
      />
    </div>
  );
}

function DashboardSkeleton() {
  return (
    <div className="analytics__skeleton" aria-label="Loading analytics" aria-busy="true">
      <div className="analytics__kpis">
        {Array.from({ length: 5 }, (_, index) => (
          <div key={index} className="card skeleton analytics__skeleton-kpi" />
        ))}
      </div>
      <div className="card skeleton analytics__skeleton-chart" />
    </div>
  );
}

function isEmpty(data: Dashboard): boolean {
  return (
    data.kpis.pageviews === 0 && data.previousKpis.pageviews === 0 && data.drops.every((drop) => drop.count === 0 && drop.previous === 0)
  );
}

function DashboardBody({ data, busy }: { data: Dashboard; busy: boolean }) {
  return (
    <div className="analytics__body" aria-busy={busy}>
      <Kpis kpis={data.kpis} previous={data.previousKpis} />
      {isEmpty(data) ? (
        <div className="card empty-state analytics__empty">
          <h2>No page views yet — the tracker starts counting as soon as someone visits</h2>
          <p>
            Every page of the site sends one cookie-less beacon when it is shown. Admin pages, bots and automated browsers are not counted.
          </p>
        </div>
      ) : (
        <>
          <SeriesChart series={data.series} />
          <div className="analytics__grid">
            {ANALYTICS_DIMENSIONS.map((dim) => (
              <DimensionTable key={dim} title={DIMENSION_LABELS[dim]} rows={data.tables[dim]} name={dim} />
            ))}
            <DimensionTable
              title="Not counted, by reason"
              name="drops"
              rows={data.drops
                .filter((drop) => drop.count + drop.previous > 0)
                .map((drop) => ({ value: DROP_LABELS[drop.reason], count: drop.count, previous: drop.previous }))}
              empty="Nothing was dropped in this range."
              keepZero
            />
          </div>
        </>
      )}
      <div className="analytics__grid">
        <Realtime />
        <Business data={data} />
      </div>
    </div>
  );
}

function Change({ current, previous, invert = false }: { current: number; previous: number; invert?: boolean }) {
  const { text, direction } = changeText(current, previous);
  const good = direction === 'flat' ? 'flat' : (direction === 'up') !== invert ? 'good' : 'bad';
  return (
    <span className={`analytics-change analytics-change--${good}`}>
      <span aria-hidden="true">{direction === 'up' ? '▲' : direction === 'down' ? '▼' : '■'}</span> {text}
      <span className="visually-hidden"> compared with the previous period</span>
    </span>
  );
}

function Kpi({ label, value, change, info, name }: { label: string; value: string; change: ReactNode; info?: string; name: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <section className="card analytics-kpi" aria-labelledby={id} data-kpi={name}>
      <div className="analytics-kpi__head">
        <h2 id={id} className="analytics-kpi__label">
          {label}
        </h2>
        {info ? (
          <button
            type="button"
            className="analytics-kpi__info"
            aria-label={`About ${label.toLowerCase()}`}
            aria-expanded={open}
            aria-controls={`${id}-info`}
            title={info}
            onClick={() => setOpen(!open)}
          >
            ?
          </button>
        ) : null}
      </div>
      <p className="analytics-kpi__value">{value}</p>
      <p className="analytics-kpi__change">{change}</p>
      {info ? (
        <p id={`${id}-info`} className="analytics-kpi__note" hidden={!open}>
          {info}
        </p>
      ) : null}
    </section>
  );
}

function Kpis({ kpis, previous }: { kpis: AnalyticsKpis; previous: AnalyticsKpis }) {
  return (
    <div className="analytics__kpis">
      <Kpi
        name="pageviews"
        label="Page views"
        value={formatCount(kpis.pageviews)}
        change={<Change current={kpis.pageviews} previous={previous.pageviews} />}
      />
      <Kpi
        name="visitors"
        label="Daily unique visitors, summed"
        info="Visitors are recognised within one UTC day only (the key of the hash changes at midnight), so a person who comes back on three days counts three times. Over a range this is the sum of each day's unique visitors."
        value={formatCount(kpis.visitors)}
        change={<Change current={kpis.visitors} previous={previous.visitors} />}
      />
      <Kpi
        name="visits"
        label="Visits"
        value={formatCount(kpis.visits)}
        change={<Change current={kpis.visits} previous={previous.visits} />}
      />
      <Kpi
        name="bounce-rate"
        label="Bounce rate"
        info="Visits with a single page view, out of all visits. A visit ends after 30 minutes without a page view."
        value={kpis.bounceRate === null ? '—' : formatPercent(kpis.bounceRate)}
        change={
          kpis.bounceRate === null || previous.bounceRate === null ? (
            <span className="muted">no comparison</span>
          ) : (
            <Change current={Math.round(kpis.bounceRate * 1000)} previous={Math.round(previous.bounceRate * 1000)} invert />
          )
        }
      />
      <Kpi
        name="views-per-visit"
        label="Views per visit"
        value={kpis.viewsPerVisit === null ? '—' : formatDecimal(kpis.viewsPerVisit)}
        change={
          kpis.viewsPerVisit === null || previous.viewsPerVisit === null ? (
            <span className="muted">no comparison</span>
          ) : (
            <Change current={Math.round(kpis.viewsPerVisit * 100)} previous={Math.round(previous.viewsPerVisit * 100)} />
          )
        }
      />
    </div>
  );
}

function SeriesChart({ series }: { series: AnalyticsDay[] }) {
  const [metric, setMetric] = useState<Metric>('pageviews');
  const label = METRICS.find((item) => item.value === metric)!.label;
  const headingId = useId();
  return (
    <section className="card analytics__chart" aria-labelledby={headingId}>
      <div className="analytics__chart-head">
        <h2 id={headingId}>Over time</h2>
        <SegmentedControl label="Metric" options={METRICS} value={metric} onChange={setMetric} />
      </div>
      <StackedBarChart
        title={`${label} per day (UTC)`}
        bars={series.map((day) => ({ label: formatDay(day.day), values: { [metric]: day[metric] } }))}
        series={[{ key: metric, label, color: 'var(--chart-1)' }]}
      />
      <details className="analytics__table-alt">
        <summary>Show the numbers as a table</summary>
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Page views, daily unique visitors and visits per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" className="numeric">
                  Page views
                </th>
                <th scope="col" className="numeric">
                  Visitors
                </th>
                <th scope="col" className="numeric">
                  Visits
                </th>
              </tr>
            </thead>
            <tbody>
              {series.map((day) => (
                <tr key={day.day}>
                  <th scope="row">{formatDay(day.day)}</th>
                  <td className="numeric">{formatCount(day.pageviews)}</td>
                  <td className="numeric">{formatCount(day.visitors)}</td>
                  <td className="numeric">{formatCount(day.visits)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}

function DimensionTable({
  title,
  rows,
  name,
  empty = 'Nothing counted in this range.',
  keepZero = false,
}: {
  title: string;
  rows: AnalyticsRow[];
  name: string;
  empty?: string;
  keepZero?: boolean;
}) {
  const headingId = useId();
  const shown = keepZero ? rows : rows.filter((row) => row.count > 0);
  const top = Math.max(1, ...shown.map((row) => row.count));
  return (
    <section className="card analytics-table" aria-labelledby={headingId} data-dimension={name}>
      <h2 id={headingId}>{title}</h2>
      {shown.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <div className="table-wrap">
          <table className="table analytics-table__table">
            <thead>
              <tr>
                <th scope="col">Value</th>
                <th scope="col" className="numeric">
                  Count
                </th>
                <th scope="col" className="numeric">
                  Change
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.slice(0, 10).map((row) => (
                <tr key={row.value}>
                  <th scope="row" className="analytics-table__value" title={row.value}>
                    {/* An SVG width, not a style attribute: the CSP allows no inline styles. */}
                    <svg
                      className="analytics-table__bar"
                      viewBox="0 0 100 4"
                      preserveAspectRatio="none"
                      aria-hidden="true"
                      focusable="false"
                    >
                      <rect width={(row.count / top) * 100} height="4" rx="1" />
                    </svg>
                    <span>{row.value}</span>
                  </th>
                  <td className="numeric">{formatCount(row.count)}</td>
                  <td className="numeric">
                    <Change current={row.count} previous={row.previous} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {shown.length > 10 ? (
        <p className="muted analytics-table__more">Top 10 of {formatCount(shown.length)}; the CSV export has them all.</p>
      ) : null}
    </section>
  );
}

function Realtime() {
  const realtime = useQuery(realtimeQuery());
  const headingId = useId();
  return (
    <section className="card analytics-realtime" aria-labelledby={headingId} data-realtime>
      <h2 id={headingId}>Right now</h2>
      {realtime.isPending ? (
        <div className="skeleton analytics-realtime__skeleton" aria-label="Loading realtime visitors" />
      ) : realtime.isError ? (
        <div className="alert alert--error" role="alert">
          Realtime visitors could not be loaded.{' '}
          <button type="button" className="button button--ghost button--small" onClick={() => void realtime.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <>
          <p className="analytics-realtime__figure" aria-live="polite">
            <span className="analytics-realtime__dot" aria-hidden="true" />
            <span className="analytics-kpi__value">{formatCount(realtime.data.visitors)}</span>{' '}
            {realtime.data.visitors === 1 ? 'visitor' : 'visitors'} in the last 5 minutes
          </p>
          <p className="muted">Refreshes every 15 seconds.</p>
        </>
      )}
    </section>
  );
}

function Business({ data }: { data: Dashboard }) {
  const headingId = useId();
  const business = data.business;
  return (
    <section className="card analytics-business" aria-labelledby={headingId} data-business>
      <h2 id={headingId}>Sign-ups and revenue</h2>
      {!business ? (
        <p className="alert alert--error" role="alert">
          Sign-ups and orders could not be read just now.
        </p>
      ) : (
        <dl className="analytics-business__list">
          <div>
            <dt>Sign-ups</dt>
            <dd>
              {formatCount(business.signups)} <Change current={business.signups} previous={business.previousSignups} />
            </dd>
          </div>
          {business.revenue.length === 0 ? (
            <div>
              <dt>Orders</dt>
              <dd>No paid orders in this range</dd>
            </div>
          ) : (
            business.revenue.map((row) => {
              const before = business.previousRevenue.find((previous) => previous.currency === row.currency);
              return (
                <div key={row.currency}>
                  <dt>
                    {row.currency.toUpperCase()}: {formatCount(row.orders)} {row.orders === 1 ? 'order' : 'orders'}
                  </dt>
                  <dd>
                    {formatMoney(row.netMinor, row.currency)} net <Change current={row.netMinor} previous={before?.netMinor ?? 0} />
                    {row.refundedMinor > 0 ? (
                      <span className="muted"> ({formatMoney(row.refundedMinor, row.currency)} refunded)</span>
                    ) : null}
                  </dd>
                </div>
              );
            })
          )}
        </dl>
      )}
    </section>
  );
}
