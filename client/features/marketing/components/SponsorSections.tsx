import { Icon } from '../../../components/Icon.js';
import type { PublicSponsors } from '../../../../lib/api/site-settings.js';
import { formatMoney } from '../../../../lib/money.js';
import { mailto, SPONSOR_EMAIL } from '../sponsor-content.js';
import { CheckList } from './CheckList.js';
import { CtaBand } from './CtaBand.js';
import '../marketing.css';

export function SponsorHero({ siteName }: { siteName: string }) {
  return (
    <section className="page-hero" aria-labelledby="sponsor-title">
      <div className="container">
        <p className="eyebrow">Sponsorship</p>
        <h1 id="sponsor-title">Sponsor {siteName}</h1>
        <p className="page-hero__lead">
          The GA4 Measurement Protocol workbench, the Google tag linker decoder and the HAR and app-log analysers are free for everyone with
          an account. Sponsors pay for the hours that keep them that way: tracking every GA4, Google tag and consent-mode change, and fixing
          the decoders the week Google ships it.
        </p>
      </div>
    </section>
  );
}

/** The tiers in the admin's order; with three or more, the second is the one to suggest. */
export function SponsorTiers({ tiers, siteName }: { tiers: PublicSponsors['tiers']; siteName: string }) {
  if (!tiers.length) return null;
  return (
    <section className="section section--tight" aria-labelledby="tiers-title">
      <div className="container">
        <h2 id="tiers-title">Sponsorship tiers</h2>
        <p className="muted section__intro">Monthly. Stop whenever you like; there is no minimum term.</p>
        <ul className="pricing">
          {tiers.map((tier, index) => {
            const featured = tiers.length >= 3 && index === 1;
            return (
              <li key={tier.id} className={`card plan tier${featured ? ' plan--featured' : ''}`}>
                <div className="plan__head">
                  <h3>{tier.name}</h3>
                </div>
                <p className="plan__price">
                  <span className="plan__amount">{formatMoney(tier.monthlyAmount, tier.currency, { short: true })}</span>
                  <span className="plan__period">per month</span>
                </p>
                {tier.description ? <p className="muted">{tier.description}</p> : null}
                {tier.perks.length ? <CheckList items={tier.perks} /> : null}
                <a
                  className={`button button--block${featured ? ' button--primary' : ''}`}
                  href={mailto(`${siteName} sponsorship: ${tier.name}`)}
                >
                  Become a {tier.name}
                </a>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');

/** The current sponsors, grouped by tier in the tiers' order; a logo, or the name's initials. */
export function SponsorList({ sponsors: data, siteName }: { sponsors: PublicSponsors; siteName: string }) {
  const groups = data.tiers
    .map((tier) => ({ tier, sponsors: data.sponsors.filter((sponsor) => sponsor.tierId === tier.id) }))
    .filter((group) => group.sponsors.length > 0);
  return (
    <section className="section section--alt" aria-labelledby="sponsors-title">
      <div className="container">
        <h2 id="sponsors-title">Current sponsors</h2>
        {groups.length ? (
          <div className="sponsor-groups">
            {groups.map(({ tier, sponsors }) => (
              <section key={tier.id} className="sponsor-group" aria-labelledby={`sponsor-tier-${tier.id}`}>
                <h3 id={`sponsor-tier-${tier.id}`}>{tier.name}</h3>
                <ul className="sponsor-grid">
                  {sponsors.map((sponsor) => (
                    <li key={sponsor.id}>
                      <a className="card sponsor-card" href={sponsor.url} rel="sponsored noopener">
                        {sponsor.logoUrl ? (
                          <img className="sponsor-card__logo" src={sponsor.logoUrl} alt="" width={56} height={56} loading="lazy" />
                        ) : (
                          <span className="sponsor-card__logo sponsor-card__initials" aria-hidden="true">
                            {initialsOf(sponsor.name)}
                          </span>
                        )}
                        <span className="sponsor-card__name">{sponsor.name}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        ) : (
          <div className="empty-state sponsor-empty">
            <span className="icon-chip">
              <Icon name="heart" size={22} />
            </span>
            <h3>No sponsors yet</h3>
            <p>Nobody has sponsored {siteName} so far, which means the first name on this list could be yours.</p>
            <a className="button button--primary" href={mailto(`${siteName} sponsorship: first sponsor`)}>
              Become the first sponsor
            </a>
          </div>
        )}
      </div>
    </section>
  );
}

export function SponsorContact({ siteName }: { siteName: string }) {
  return (
    <CtaBand
      id="contact-title"
      title="Questions, invoices or a custom arrangement?"
      actions={
        <a className="button button--primary button--large" href={mailto(`${siteName} sponsorship`)}>
          <Icon name="mail" size={18} />
          E-mail us
        </a>
      }
    >
      Tell us which tier you have in mind and how you would like to be listed. If you need an invoice, a yearly arrangement or something
      else entirely, write to <a href={`mailto:${SPONSOR_EMAIL}`}>{SPONSOR_EMAIL}</a>.
    </CtaBand>
  );
}
