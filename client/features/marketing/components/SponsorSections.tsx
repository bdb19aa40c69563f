import { PRODUCT } from '../../../../lib/product.js';
import { Icon } from '../../../components/Icon.js';
import { mailto, SPONSOR_EMAIL, SPONSORS, TIERS } from '../sponsor-content.js';
import { CheckList } from './CheckList.js';
import { CtaBand } from './CtaBand.js';
import '../marketing.css';

export function SponsorHero() {
  return (
    <section className="page-hero" aria-labelledby="sponsor-title">
      <div className="container">
        <p className="eyebrow">Sponsorship</p>
        <h1 id="sponsor-title">Sponsor {PRODUCT.name}</h1>
        <p className="page-hero__lead">
          The GA4 Measurement Protocol workbench, the Google tag linker decoder and the HAR and app-log analysers are free for everyone with
          an account. Sponsors pay for the hours that keep them that way: tracking every GA4, Google tag and consent-mode change, and fixing
          the decoders the week Google ships it.
        </p>
      </div>
    </section>
  );
}

export function SponsorTiers() {
  return (
    <section className="section section--tight" aria-labelledby="tiers-title">
      <div className="container">
        <h2 id="tiers-title">Sponsorship tiers</h2>
        <p className="muted section__intro">Monthly, in euros. Stop whenever you like; there is no minimum term.</p>
        <ul className="pricing">
          {TIERS.map((tier) => {
            const featured = tier.id === 'backer';
            return (
              <li key={tier.id} className={`card plan tier${featured ? ' plan--featured' : ''}`}>
                <div className="plan__head">
                  <h3>{tier.name}</h3>
                </div>
                <p className="plan__price">
                  <span className="plan__amount">€{tier.monthlyPrice}</span>
                  <span className="plan__period">per month</span>
                </p>
                <p className="muted">{tier.pitch}</p>
                <CheckList items={tier.benefits} />
                <a
                  className={`button button--block${featured ? ' button--primary' : ''}`}
                  href={mailto(`${PRODUCT.name} sponsorship: ${tier.name}`)}
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

export function SponsorList() {
  return (
    <section className="section section--alt" aria-labelledby="sponsors-title">
      <div className="container">
        <h2 id="sponsors-title">Current sponsors</h2>
        {SPONSORS.length ? (
          <ul className="sponsor-list">
            {SPONSORS.map((sponsor) => (
              <li key={sponsor.name}>
                <a href={sponsor.url} rel="sponsored noopener">
                  {sponsor.name}
                </a>
                <span className="muted"> · {sponsor.tier}</span>
              </li>
            ))}
          </ul>
        ) : (
          <div className="empty-state sponsor-empty">
            <span className="icon-chip">
              <Icon name="heart" size={22} />
            </span>
            <h3>No sponsors yet</h3>
            <p>Nobody has sponsored {PRODUCT.name} so far, which means the first name on this list could be yours.</p>
            <a className="button button--primary" href={mailto(`${PRODUCT.name} sponsorship: first sponsor`)}>
              Become the first sponsor
            </a>
          </div>
        )}
      </div>
    </section>
  );
}

export function SponsorContact() {
  return (
    <CtaBand
      id="contact-title"
      title="Questions, invoices or a custom arrangement?"
      actions={
        <a className="button button--primary button--large" href={mailto(`${PRODUCT.name} sponsorship`)}>
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
