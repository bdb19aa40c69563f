import { formatMoney } from '../../../../lib/money.js';
import type { AdminOverviewQuery } from '../hooks/useAdminOverview.js';
import { formatCount, formatDateTime } from '../format.js';
import { OverviewCard } from './OverviewCard.js';
import { Sparkline } from './Sparkline.js';

type CardProps = { overview: AdminOverviewQuery };

export function UsersCard({ overview }: CardProps) {
  return (
    <OverviewCard
      name="users"
      title="Users"
      overview={overview}
      pick={(data) => data.users}
      isEmpty={(users) => users.total === 0}
      empty={<p>No accounts yet. Sign-ups appear here as soon as someone registers.</p>}
      link={{ to: '/admin/users', label: 'Manage users' }}
    >
      {(users) => (
        <>
          <p className="overview-figure">
            <span className="overview-figure__value">{formatCount(users.total)}</span>
            <span className="overview-figure__label">{users.total === 1 ? 'account' : 'accounts'}</span>
          </p>
          <p className="overview-card__facts">
            <span>+{formatCount(users.newToday)} today</span>
            <span>+{formatCount(users.new7d)} in 7 days</span>
          </p>
          <Sparkline days={users.signups} />
          <p className="overview-card__note">Sign-ups per day, last 14 days (UTC)</p>
        </>
      )}
    </OverviewCard>
  );
}

export function SubscriptionsCard({ overview }: CardProps) {
  return (
    <OverviewCard
      name="subscriptions"
      title="Subscriptions"
      overview={overview}
      pick={(data) => data.subscriptions}
      isEmpty={(counts) => counts.active + counts.trialing + counts.pastDue === 0}
      empty={<p>No active, trialing or past-due subscriptions yet.</p>}
    >
      {(counts) => (
        <>
          <p className="overview-figure">
            <span className="overview-figure__value">{formatCount(counts.active)}</span>
            <span className="overview-figure__label">active</span>
          </p>
          <dl className="overview-list">
            <div>
              <dt>Trialing</dt>
              <dd>{formatCount(counts.trialing)}</dd>
            </div>
            <div>
              <dt>Past due</dt>
              <dd>{formatCount(counts.pastDue)}</dd>
            </div>
          </dl>
        </>
      )}
    </OverviewCard>
  );
}

export function RevenueCard({ overview }: CardProps) {
  return (
    <OverviewCard
      name="revenue"
      title="Revenue, last 30 days"
      overview={overview}
      pick={(data) => data.revenue30d}
      isEmpty={(revenue) => revenue.currencies.length === 0}
      empty={<p>No paid orders in the last 30 days.</p>}
    >
      {(revenue) => (
        <ul className="overview-currencies">
          {revenue.currencies.map((row) => (
            <li key={row.currency}>
              <p className="overview-figure">
                <span className="overview-figure__value">{formatMoney(row.netMinor, row.currency)}</span>
                <span className="overview-figure__label">net</span>
              </p>
              <p className="overview-card__facts">
                <span>
                  {formatCount(row.orders)} {row.orders === 1 ? 'order' : 'orders'}
                </span>
                <span>{formatMoney(row.grossMinor, row.currency)} paid</span>
                {row.refundedMinor > 0 ? <span>{formatMoney(row.refundedMinor, row.currency)} refunded</span> : null}
              </p>
            </li>
          ))}
        </ul>
      )}
    </OverviewCard>
  );
}

export function LicencesCard({ overview }: CardProps) {
  return (
    <OverviewCard
      name="licences"
      title="Licence activations today"
      overview={overview}
      pick={(data) => data.licences}
      isEmpty={(licences) => licences.activationsToday === 0}
      empty={<p>No devices activated a licence today (UTC).</p>}
      link={{ to: '/admin/users', label: 'Licences by user' }}
    >
      {(licences) => (
        <p className="overview-figure">
          <span className="overview-figure__value">{formatCount(licences.activationsToday)}</span>
          <span className="overview-figure__label">{licences.activationsToday === 1 ? 'device' : 'devices'} since 00:00 UTC</span>
        </p>
      )}
    </OverviewCard>
  );
}

export function WebhooksCard({ overview }: CardProps) {
  return (
    <OverviewCard
      name="webhooks"
      title="Stripe webhooks"
      overview={overview}
      pick={(data) => data.webhooks}
      isEmpty={(webhooks) => !webhooks.configured && webhooks.lastReceivedAt === null}
      empty={<p>Stripe is not configured, so there are no webhook events to watch.</p>}
    >
      {(webhooks) => {
        const attention = webhooks.failed + webhooks.dead > 0;
        return (
          <>
            <p className={`overview-status overview-status--${attention ? 'attention' : 'ok'}`}>
              <span aria-hidden="true">{attention ? '!' : '✓'}</span> {attention ? 'Needs attention' : 'Healthy'}
            </p>
            <dl className="overview-list">
              <div>
                <dt>Last event</dt>
                <dd>{webhooks.lastReceivedAt ? formatDateTime(webhooks.lastReceivedAt) : 'None yet'}</dd>
              </div>
              <div>
                <dt>Failed, retrying</dt>
                <dd>{formatCount(webhooks.failed)}</dd>
              </div>
              <div>
                <dt>Dead (out of retries)</dt>
                <dd>{formatCount(webhooks.dead)}</dd>
              </div>
              <div>
                <dt>Unprocessed</dt>
                <dd>{formatCount(webhooks.unprocessed)}</dd>
              </div>
            </dl>
          </>
        );
      }}
    </OverviewCard>
  );
}

export function PageViewsCard({ overview }: CardProps) {
  return (
    <OverviewCard
      name="page-views"
      title="Page views today"
      overview={overview}
      pick={(data) =>
        data.pageViewsToday === undefined || data.pageViewsToday === null
          ? null
          : { views: data.pageViewsToday, visitors: data.visitorsToday ?? 0 }
      }
      isEmpty={(traffic) => traffic.views === 0}
      empty={<p>No page views yet today (UTC). The tracker counts from the first visit.</p>}
      link={{ to: '/admin/analytics', label: 'Open analytics' }}
    >
      {(traffic) => (
        <>
          <p className="overview-figure">
            <span className="overview-figure__value">{formatCount(traffic.views)}</span>
            <span className="overview-figure__label">since 00:00 UTC</span>
          </p>
          <p className="overview-card__facts">
            <span>
              {formatCount(traffic.visitors)} unique {traffic.visitors === 1 ? 'visitor' : 'visitors'}
            </span>
          </p>
        </>
      )}
    </OverviewCard>
  );
}

export function NewsletterCard({ overview }: CardProps) {
  return (
    <OverviewCard
      name="newsletter"
      title="Newsletter"
      overview={overview}
      pick={(data) => data.newsletter}
      isEmpty={(newsletter) => newsletter.confirmed + newsletter.pending === 0}
      empty={<p>No subscribers yet. Sign-ups from the home page, registration and profiles appear here.</p>}
      link={{ to: '/admin/newsletter', label: 'Open newsletter' }}
    >
      {(newsletter) => (
        <>
          <p className="overview-figure">
            <span className="overview-figure__value">{formatCount(newsletter.confirmed)}</span>
            <span className="overview-figure__label">confirmed</span>
          </p>
          <p className="overview-card__facts">
            <span>{formatCount(newsletter.pending)} pending</span>
          </p>
        </>
      )}
    </OverviewCard>
  );
}
