import type { SignupDay } from '../../../../lib/api/overview.js';
import { formatDay } from '../format.js';

const WIDTH = 140;
const HEIGHT = 40;
const PAD = 3;

/** What the line shows, in words: the image's accessible name. */
export function describeSignups(days: readonly SignupDay[]): string {
  if (!days.length) return 'No sign-up data';
  const total = days.reduce((sum, day) => sum + day.count, 0);
  const peak = days.reduce((best, day) => (day.count > best.count ? day : best), days[0]);
  const today = days[days.length - 1].count;
  const range = `${formatDay(days[0].day)} to ${formatDay(days[days.length - 1].day)}`;
  if (total === 0) return `Sign-ups per day, ${range}: none`;
  return `Sign-ups per day, ${range}: ${total} in total, most on ${formatDay(peak.day)} (${peak.count}), ${today} today`;
}

/** A small line of daily sign-ups: an image with its numbers in its name, decoration only for sight. */
export function Sparkline({ days }: { days: readonly SignupDay[] }) {
  const max = Math.max(1, ...days.map((day) => day.count));
  const step = days.length > 1 ? (WIDTH - 2 * PAD) / (days.length - 1) : 0;
  const points = days.map((day, index) => [PAD + index * step, HEIGHT - PAD - (day.count / max) * (HEIGHT - 2 * PAD)] as const);
  const line = points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
  const last = points[points.length - 1];
  return (
    <svg className="sparkline" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={describeSignups(days)}>
      {points.length > 1 ? (
        <>
          <polygon className="sparkline__area" points={`${PAD},${HEIGHT - PAD} ${line} ${WIDTH - PAD},${HEIGHT - PAD}`} />
          <polyline className="sparkline__line" points={line} vectorEffect="non-scaling-stroke" />
        </>
      ) : null}
      {last ? <circle className="sparkline__dot" cx={last[0]} cy={last[1]} r="2.5" /> : null}
    </svg>
  );
}
