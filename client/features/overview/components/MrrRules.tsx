/** The MRR rules in short (docs/mrr.md, "Rules"): a native disclosure, so keyboard and screen readers work as is. */
export function MrrRules() {
  return (
    <details className="overview-info">
      <summary>
        <span aria-hidden="true" className="overview-info__icon">
          i
        </span>
        <span>How MRR is counted</span>
      </summary>
      <div className="overview-info__panel">
        <ul>
          <li>From our copy of the Stripe subscriptions, each priced by its plan in the catalogue, without tax.</li>
          <li>
            <strong>Counted:</strong> active and past-due subscriptions (a cancellation at period end counts until the period ends).
            Trialing ones are shown, never counted.
          </li>
          <li>
            Unit price × seats, minus a recurring discount, as a monthly amount: yearly ÷ 12. Rounded once per subscription, to the cent.
          </li>
          <li>One-off purchases (lifetime plans) and refunds are revenue, not MRR. Each currency is reported on its own.</li>
          <li>
            <strong>30-day change:</strong> now minus the daily snapshot at least 30 days old (or the oldest one). Movements per customer:
            new, expansion, reactivation, contraction, churn; they add up to the change.
          </li>
        </ul>
      </div>
    </details>
  );
}
