import { useQueries } from '@tanstack/react-query';
import { useId } from 'react';
import { COMPANION_PRODUCTS } from '../../../../lib/product.js';
import { AppLink } from '../../../components/AppLink.js';
import { UpcomingSection } from '../../../components/PageHeader.js';
import { latestReleasesQuery } from '../api.js';
import { platformLabel } from '../../../../lib/releases/labels.js';
import { formatDate } from '../../../../lib/format/date.js';
import '../releases.css';

const PRODUCTS = Object.values(COMPANION_PRODUCTS);

/** The lounge's latest releases of both products, newest first; the placeholder while there are none. */
export function LatestReleasesList() {
  const id = useId();
  const results = useQueries({ queries: PRODUCTS.map((product) => latestReleasesQuery(product.slug)) });
  const pending = results.some((result) => result.isPending);
  const releases = results
    .flatMap((result) => result.data?.releases ?? [])
    .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt))
    .slice(0, 6);

  if (!pending && releases.length === 0) {
    return (
      <UpcomingSection title="Latest releases">
        No version of Hitscope for Apps or Hitscope for Browsers is published yet. New versions appear here as soon as they are released;
        announcements from the team appear at the top of the page.
      </UpcomingSection>
    );
  }
  return (
    <section className="card latest-releases" aria-labelledby={`${id}-title`} aria-busy={pending || undefined}>
      <h2 id={`${id}-title`} className="latest-releases__title">
        Latest releases
      </h2>
      {pending ? (
        <div className="skeleton releases__skeleton-line" />
      ) : (
        <ul className="latest-releases__list">
          {releases.map((release) => {
            const product = PRODUCTS.find((item) => item.slug === release.product);
            return (
              <li key={release.id} className="latest-releases__item">
                <AppLink to={`/dashboard/tools/${release.product}`} className="latest-releases__product">
                  {product?.name ?? release.product}
                </AppLink>
                <span className="latest-releases__platform">{platformLabel(release.platform, release.arch, release.format)}</span>
                <span className="latest-releases__version">v{release.version}</span>
                <time className="latest-releases__date" dateTime={release.publishedAt}>
                  {formatDate(release.publishedAt)}
                </time>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
