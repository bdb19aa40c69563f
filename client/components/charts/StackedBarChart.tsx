import { useId, useLayoutEffect, useRef, useState } from 'react';
import './charts.css';

export interface ChartSeries {
  key: string;
  label: string;
  /** A CSS colour; use custom properties so both colour modes read well. */
  color: string;
}

export interface StackedBarChartProps {
  /** One bar per entry, in order (e.g. one per day). */
  bars: Array<{ label: string; values: Record<string, number> }>;
  series: ChartSeries[];
  /** What the chart shows, for screen readers and as the figure caption. */
  title: string;
  height?: number;
}

const PADDING = { top: 8, right: 8, bottom: 22, left: 36 };
/** The width drawn before the figure is measured (the server's render): a desktop card's. */
const DEFAULT_WIDTH = 720;
/** Below this the bars are too thin to read; the figure scales down instead. */
const MIN_WIDTH = 240;
/** About the width of one character of the 11px axis labels, to space the day labels. */
const LABEL_CHAR_PX = 6.5;
const LABEL_GAP_PX = 10;

/**
 * The figure's width in CSS pixels, followed as it resizes. The SVG is drawn at that width (its
 * viewBox is the box it fills) so that text keeps its 11px on a phone instead of shrinking with a
 * fixed-width drawing scaled to fit (a 720-unit drawing in a 330px card made 5px labels).
 */
function useWidth() {
  const ref = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = (measured: number) => setWidth(Math.max(MIN_WIDTH, Math.round(measured)));
    measure(element.getBoundingClientRect().width);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => measure(entry.contentRect.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** A step for the value axis that gives at most four gridlines of round numbers. */
function niceStep(max: number): number {
  const raw = Math.max(1, max) / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= raw) ?? raw;
  return Math.max(1, step);
}

/**
 * A stacked bar chart in plain SVG (no chart library): scales to its container's width, labels every
 * few bars, and titles each segment for hover. The numbers are also given as text by the caller (a
 * table), so the chart is `aria-hidden` detail beside an accessible summary.
 */
export function StackedBarChart({ bars, series, title, height = 180 }: StackedBarChartProps) {
  const id = useId();
  const [figureRef, width] = useWidth();
  const totals = bars.map((bar) => series.reduce((sum, item) => sum + (bar.values[item.key] ?? 0), 0));
  const step = niceStep(Math.max(0, ...totals));
  const top = Math.max(step, Math.ceil(Math.max(0, ...totals) / step) * step);
  const plotWidth = width - PADDING.left - PADDING.right;
  const plotHeight = height - PADDING.top - PADDING.bottom;
  const slot = plotWidth / Math.max(1, bars.length);
  const barWidth = Math.max(2, Math.min(28, slot * 0.7));
  const y = (value: number) => PADDING.top + plotHeight - (value / top) * plotHeight;
  // At most eight day labels, and never so many that they touch.
  const labelWidth = Math.max(0, ...bars.map((bar) => bar.label.length)) * LABEL_CHAR_PX + LABEL_GAP_PX;
  const labelEvery = Math.max(1, Math.ceil(bars.length / 8), Math.ceil(labelWidth / slot));
  const gridlines = Array.from({ length: Math.floor(top / step) + 1 }, (_, index) => index * step);
  const grandTotal = totals.reduce((sum, value) => sum + value, 0);

  return (
    <figure ref={figureRef} className="chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="chart__caption">
        {title}
        <span className="visually-hidden">
          : {grandTotal} in total over {bars.length} bars; the table below lists every value.
        </span>
      </figcaption>
      <svg className="chart__svg" viewBox={`0 0 ${width} ${height}`} aria-hidden="true" focusable="false">
        {gridlines.map((value) => (
          <g key={value}>
            <line className="chart__grid" x1={PADDING.left} x2={width - PADDING.right} y1={y(value)} y2={y(value)} />
            <text className="chart__axis" x={PADDING.left - 6} y={y(value) + 4} textAnchor="end">
              {value}
            </text>
          </g>
        ))}
        {bars.map((bar, index) => {
          const x = PADDING.left + index * slot + (slot - barWidth) / 2;
          let base = 0;
          return (
            <g key={bar.label}>
              {series.map((item) => {
                const value = bar.values[item.key] ?? 0;
                if (!value) return null;
                const rect = (
                  <rect
                    key={item.key}
                    x={x}
                    width={barWidth}
                    y={y(base + value)}
                    height={y(base) - y(base + value)}
                    fill={item.color}
                    rx={1.5}
                  >
                    <title>{`${bar.label} — ${item.label}: ${value}`}</title>
                  </rect>
                );
                base += value;
                return rect;
              })}
              {index % labelEvery === 0 ? (
                <text className="chart__axis" x={x + barWidth / 2} y={height - 6} textAnchor="middle">
                  {bar.label}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <ul className="chart__legend" aria-hidden="true">
        {series.map((item) => (
          <li key={item.key}>
            {/* An SVG fill rather than a style attribute: the CSP allows no inline styles. */}
            <svg className="chart__swatch" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
              <rect width="12" height="12" rx="3" fill={item.color} />
            </svg>
            {item.label}
          </li>
        ))}
      </ul>
    </figure>
  );
}
