import { PRODUCT } from '../../../../lib/product.js';
import { AppLink } from '../../../components/AppLink.js';
import { Icon } from '../../../components/Icon.js';
import { useMe } from '../../../app/data-source.js';
import { HERO_EXAMPLE } from '../home-content.js';
import '../marketing.css';

/** What Hitscope is, the way in, and one decoded hit as the HAR analyser shows it. */
export function HeroSection() {
  const me = useMe();
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="container hero__inner">
        <div className="hero__copy">
          <p className="eyebrow">GA4 · Google Tag Manager · Consent mode · Cross-domain</p>
          <h1 id="hero-title">{PRODUCT.tagline}</h1>
          <p className="hero__lead">{PRODUCT.description}</p>
          <div className="hero__actions">
            {me ? (
              <AppLink to="/dashboard/lounge" className="button button--primary button--large">
                Open your dashboard
                <Icon name="arrow-right" size={18} />
              </AppLink>
            ) : (
              <>
                <AppLink to="/register" className="button button--primary button--large">
                  Create a free account
                  <Icon name="arrow-right" size={18} />
                </AppLink>
                <AppLink to="/login" className="button button--large">
                  Sign in
                </AppLink>
              </>
            )}
          </div>
          <ul className="hero__facts">
            <li>
              <Icon name="check" size={18} /> The four web tools are free with an account
            </li>
            <li>
              <Icon name="check" size={18} /> HAR files and logs never leave your browser
            </li>
          </ul>
        </div>
        <HitPreview />
      </div>
    </section>
  );
}

function HitPreview() {
  return (
    <figure className="hit-preview">
      <div className="hit-preview__bar">
        <span className="hit-preview__method">POST</span>
        <code>/g/collect?v=2</code>
        <span className="badge hit-preview__badge">GA4</span>
      </div>
      <dl className="hit-preview__params">
        {HERO_EXAMPLE.map((row) => (
          <div className="hit-preview__row" key={row.key}>
            <dt>
              <code>{row.key}</code>
            </dt>
            <dd>
              <code>{row.value}</code>
              <span className="hit-preview__note">{row.note}</span>
            </dd>
          </div>
        ))}
      </dl>
      <p className="hit-preview__warning">
        <strong>Warning:</strong> page_view sent twice in the same page load
      </p>
      <figcaption>Example: one GA4 hit from a HAR file, as the HAR analyser shows it.</figcaption>
    </figure>
  );
}
