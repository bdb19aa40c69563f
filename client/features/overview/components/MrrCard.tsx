import type { MrrCurrencyView, MrrMovementsView, MrrOverviewResponse } from '../../../../lib/api/overview.js';
import { formatMoney } from '../../../../lib/money.js';
import type { AdminOverviewQuery } from '../hooks/useAdminOverview.js';
import { formatCount, formatDay, formatSignedMoney } from '../format.js';
import { MrrRules } from './MrrRules.js';
import { OverviewCard } from './OverviewCard.js';

/** Movements in the order of the formula: what adds, then what takes away. */
const MOVEMENTS: ReadonlyArray<{ key: keyof MrrMovementsView; label: string; sign: 1 | -1 }> = [
  { key: 'new', label: 'New', sign: 1 },
  { key: 'expansion', label: 'Expansion', sign: 1 },
  { key: 'reactivation', label: 'Reactivation', sign: 1 },
  { key: 'contraction', label: 'Contraction', sign: -1 },
  { key: 'churn', label: 'Churn', sign: -1 },
];

function Change({ view, baselineDay }: { view: MrrCurrencyView; baselineDay: string | null }) {
  if (view.change30dMinor === null) {
    return <p className="overview-card__note">The 30-day change appears after the first daily snapshot.</p>;
  }
  const direction = view.change30dMinor > 0 ? 'up' : view.change30dMinor < 0 ? 'down' : 'flat';
  const arrow = direction === 'up' ? '▲' : direction === 'down' ? '▼' : '■';
  return (
    <p className={`overview-change overview-change--${direction}`}>
      <span aria-hidden="true">{arrow}</span> {formatSignedMoney(view.change30dMinor, view.currency)}{' '}
      <span className="overview-change__since">{baselineDay ? `since ${formatDay(baselineDay)}` : 'in 30 days'}</span>
    </p>
  );
}

function Movements({ movements, currency }: { movements: MrrMovementsView; currency: string }) {
  return (
    <dl className="overview-list overview-movements" aria-label="MRR movements">
      {MOVEMENTS.map(({ key, label, sign }) => (
        <div key={key}>
          <dt>{label}</dt>
          <dd>{movements[key] === 0 ? formatMoney(0, currency) : formatSignedMoney(sign * movements[key], currency)}</dd>
        </div>
      ))}
    </dl>
  );
}

function CurrencyMrr({ view, baselineDay }: { view: MrrCurrencyView; baselineDay: string | null }) {
  return (
    <li className="overview-mrr" data-currency={view.currency}>
      <p className="overview-figure">
        <span className="overview-figure__value">{formatMoney(view.mrrMinor, view.currency)}</span>
        <span className="overview-figure__label">
          {view.currency.toUpperCase()} · {formatCount(view.subscriptions)} {view.subscriptions === 1 ? 'subscription' : 'subscriptions'}
        </span>
      </p>
      <Change view={view} baselineDay={baselineDay} />
      {view.movements ? <Movements movements={view.movements} currency={view.currency} /> : null}
    </li>
  );
}

function MrrFigures({ mrr }: { mrr: MrrOverviewResponse }) {
  return (
    <>
      <ul className="overview-currencies overview-currencies--columns">
        {mrr.currencies.map((view) => (
          <CurrencyMrr key={view.currency} view={view} baselineDay={mrr.baselineDay} />
        ))}
      </ul>
      <p className="overview-card__note">
        {formatCount(mrr.counts.counted)} counted, of which {formatCount(mrr.counts.pastDue)} past due; {formatCount(mrr.counts.trialing)}{' '}
        trialing (not counted).
        {mrr.latestSnapshotDay ? ` Latest daily snapshot: ${formatDay(mrr.latestSnapshotDay)}.` : ' No daily snapshot yet.'}
      </p>
      {mrr.unpricedSubscriptions > 0 ? (
        <p className="alert alert--info">
          {formatCount(mrr.unpricedSubscriptions)} {mrr.unpricedSubscriptions === 1 ? 'subscription has' : 'subscriptions have'} a plan that
          is not in the catalogue and {mrr.unpricedSubscriptions === 1 ? 'is' : 'are'} left out.
        </p>
      ) : null}
    </>
  );
}

export function MrrCard({ overview }: { overview: AdminOverviewQuery }) {
  return (
    <OverviewCard
      name="mrr"
      title="Monthly recurring revenue"
      overview={overview}
      pick={(data) => data.mrr}
      isEmpty={(mrr) => mrr.currencies.length === 0}
      empty={
        <p>
          No paying subscriptions yet.
          {overview.data?.mrr?.counts.trialing ? ` ${formatCount(overview.data.mrr.counts.trialing)} trialing (not counted).` : ''}
        </p>
      }
      info={<MrrRules />}
      wide
    >
      {(mrr) => <MrrFigures mrr={mrr} />}
    </OverviewCard>
  );
}
