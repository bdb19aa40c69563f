import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { TOOL_ACTIONS, type ToolId } from '../../../../lib/tools/tool-usage.js';
import { SegmentedControl } from '../../../components/SegmentedControl.js';
import { type ChartSeries, StackedBarChart } from '../../../components/charts/StackedBarChart.js';
import { toolUsageQuery } from '../api.js';
import { formatDay } from '../../../../lib/format/date.js';
import '../tool-usage.css';

const RANGES = [7, 30, 90] as const;
type Range = (typeof RANGES)[number];
const RANGE_OPTIONS = RANGES.map((days) => ({ value: String(days), label: `${days} days` }));

const TOOL_LABELS: Record<ToolId, string> = {
  ga4mp: 'GA4 Measurement Protocol',
  linker: 'Google tag linker',
  har: 'HAR analyser',
  applog: 'App-log analyser',
};

const SERIES: ChartSeries[] = [
  { key: 'ga4mp', label: TOOL_LABELS.ga4mp, color: 'var(--chart-1)' },
  { key: 'linker', label: TOOL_LABELS.linker, color: 'var(--chart-2)' },
  { key: 'har', label: TOOL_LABELS.har, color: 'var(--chart-3)' },
  { key: 'applog', label: TOOL_LABELS.applog, color: 'var(--chart-4)' },
];

const DAY_MS = 24 * 3600 * 1000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** Every day of the range, so days without runs show as gaps rather than disappearing. */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let time = Date.parse(from); time <= Date.parse(to); time += DAY_MS) days.push(isoDay(time));
  return days;
}

/** Tool runs per day (UTC) from the `$inc` counters: a chart, then the same numbers as a table. */
export function ToolUsagePanel() {
  const [range, setRange] = useState<Range>(30);
  // The last day of every range: today (UTC) when the panel was opened, so that re-renders and a
  // range switch ask for the same days however long the page stays open.
  const [to] = useState(() => isoDay(Date.now()));
  const headingId = useId();
  const from = isoDay(Date.parse(to) - (range - 1) * DAY_MS);
  const usage = useQuery(toolUsageQuery({ from, to }));

  const rows = usage.data?.rows ?? [];
  const byDay = new Map<string, Record<string, number>>();
  const byAction = new Map<string, number>();
  for (const row of rows) {
    const values = byDay.get(row.day) ?? {};
    values[row.tool] = (values[row.tool] ?? 0) + row.runs;
    byDay.set(row.day, values);
    byAction.set(`${row.tool}/${row.action}`, (byAction.get(`${row.tool}/${row.action}`) ?? 0) + row.runs);
  }
  const total = rows.reduce((sum, row) => sum + row.runs, 0);
  const bars = usage.data
    ? daysBetween(usage.data.from, usage.data.to).map((day) => ({ label: formatDay(day), values: byDay.get(day) ?? {} }))
    : [];

  return (
    <section className="card tool-usage" aria-labelledby={headingId} aria-busy={usage.isFetching}>
      <div className="tool-usage__head">
        <h2 id={headingId}>Tool usage</h2>
        <SegmentedControl
          label="Date range"
          options={RANGE_OPTIONS}
          value={String(range)}
          onChange={(value) => setRange(Number(value) as Range)}
        />
      </div>
      <p className="muted">Runs per UTC day: validations and sends, linker decodes and encodes, finished HAR and app-log analyses.</p>
      {usage.isPending ? (
        <div className="tool-usage__skeleton" aria-label="Loading tool usage">
          <div className="skeleton tool-usage__skeleton-chart" />
          <div className="skeleton tool-usage__skeleton-line" />
        </div>
      ) : usage.isError ? (
        <div className="alert alert--error" role="alert">
          Tool usage could not be loaded. {usage.error.message}{' '}
          <button type="button" className="button button--ghost" onClick={() => void usage.refetch()}>
            Try again
          </button>
        </div>
      ) : total === 0 ? (
        <div className="empty-state">
          <h3>No tool runs in the last {range} days</h3>
          <p>Runs are counted from the moment a signed-in user validates, decodes or analyses something.</p>
        </div>
      ) : (
        <>
          <StackedBarChart
            title={`Tool runs per day, ${formatDay(usage.data.from)} – ${formatDay(usage.data.to)}`}
            bars={bars}
            series={SERIES}
          />
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Tool runs by action over the selected range</caption>
              <thead>
                <tr>
                  <th scope="col">Tool</th>
                  <th scope="col">Action</th>
                  <th scope="col" className="numeric">
                    Runs
                  </th>
                </tr>
              </thead>
              <tbody>
                {(Object.keys(TOOL_ACTIONS) as ToolId[]).flatMap((tool) =>
                  TOOL_ACTIONS[tool].map((action) => (
                    <tr key={`${tool}/${action}`}>
                      <th scope="row">{TOOL_LABELS[tool]}</th>
                      <td>{action}</td>
                      <td className="numeric">{byAction.get(`${tool}/${action}`) ?? 0}</td>
                    </tr>
                  )),
                )}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={2}>
                    Total
                  </th>
                  <td className="numeric">{total}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
