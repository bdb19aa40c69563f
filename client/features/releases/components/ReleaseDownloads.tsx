import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { OwnedLicence } from '../../../../lib/api/licences.js';
import type { PublicRelease } from '../../../../lib/api/releases.js';
import { COMPANION_PRODUCTS, type ProductSlug } from '../../../../lib/product.js';
import { useDataSource } from '../../../app/data-source.js';
import { catalogueQuery, licencesQuery } from '../../../app/queries.js';
import { AppLink } from '../../../components/AppLink.js';
import { latestReleasesQuery } from '../api.js';
import { formatBytes } from '../../../../lib/format/bytes.js';
import { platformLabel } from '../../../../lib/releases/labels.js';
import { formatDate } from '../../../../lib/format/date.js';
import { CopyValue } from './CopyValue.js';
import '../releases.css';

export const SUBSCRIPTION_PATH = '/dashboard/user/subscription';

const productOf = (slug: ProductSlug) => Object.values(COMPANION_PRODUCTS).find((product) => product.slug === slug)!;

/**
 * A tool page's companion-product card: the latest build per platform, and the person's licence for
 * it. When an administrator made the product's downloads free, everybody gets the download buttons
 * ("Free download") and no licence notice.
 */
export function ReleaseDownloads({ product }: { product: ProductSlug }) {
  const id = useId();
  const { name, kind } = productOf(product);
  const releases = useQuery(latestReleasesQuery(product));
  const source = useDataSource();
  const licences = useQuery(licencesQuery(source));
  const catalogue = useQuery(catalogueQuery(source));
  const free = catalogue.data?.products.find((item) => item.slug === product)?.downloadsFree === true;
  const forProduct = licences.data?.licences.filter((licence) => licence.product === product) ?? [];
  const valid = forProduct.find((licence) => licence.valid);
  const shown: OwnedLicence | undefined = valid ?? forProduct[0];
  const entitled = Boolean(valid);
  const download: DownloadOffer = free && !entitled ? 'free' : entitled ? 'licensed' : 'none';

  return (
    <section className="card releases" aria-labelledby={`${id}-title`} aria-busy={releases.isPending || licences.isPending || undefined}>
      <h2 id={`${id}-title`} className="releases__title">
        {name} — {kind === 'desktop app' ? 'downloads' : 'download'} &amp; licence
      </h2>
      <p className="muted releases__intro">The latest stable {kind} builds, with their SHA-256 checksums to verify what you download.</p>

      <div className="releases__licence">
        {licences.isPending ? (
          <div className="skeleton releases__skeleton-line" />
        ) : licences.isError ? (
          <div className="alert alert--error releases__notice" role="alert">
            <span>Could not check your licence.</span>
            <button type="button" className="button button--small" onClick={() => void licences.refetch()}>
              Retry
            </button>
          </div>
        ) : (
          <>
            {free && !entitled ? (
              <div className="alert alert--info releases__notice" data-testid="downloads-free">
                <span>
                  <strong>Free download.</strong> No licence is needed to download {name}.
                </span>
              </div>
            ) : entitled ? null : (
              <div className="alert alert--info releases__notice" data-testid="licence-needed">
                <span>
                  <strong>A licence is needed to download.</strong>{' '}
                  {shown ? `Your ${name} licence is not active.` : `You have no ${name} licence yet.`}
                </span>
                <AppLink to={SUBSCRIPTION_PATH} className="button button--small">
                  See plans and subscription
                </AppLink>
              </div>
            )}
            {shown?.key ? <CopyValue label={`${name} licence key`} value={shown.key} what="Licence key" /> : null}
          </>
        )}
      </div>

      {releases.isPending ? (
        <div className="releases__list">
          <div className="skeleton releases__skeleton-block" />
          <div className="skeleton releases__skeleton-block" />
        </div>
      ) : releases.isError ? (
        <div className="alert alert--error releases__notice" role="alert">
          <span>Could not load the latest releases.</span>
          <button type="button" className="button button--small" onClick={() => void releases.refetch()}>
            Retry
          </button>
        </div>
      ) : releases.data.releases.length === 0 ? (
        <p className="releases__empty">No release published yet</p>
      ) : (
        <ul className="releases__list">
          {releases.data.releases.map((release) => (
            <ReleaseItem key={release.id} release={release} productName={name} download={download} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** What the download button of each build says: nothing without a licence, "Free download" when free for all. */
type DownloadOffer = 'licensed' | 'free' | 'none';

function ReleaseItem({ release, productName, download }: { release: PublicRelease; productName: string; download: DownloadOffer }) {
  const platform = platformLabel(release.platform, release.arch, release.format);
  return (
    <li className="release" data-testid="release">
      <div className="release__head">
        <h3 className="release__platform">{platform}</h3>
        <span className="badge release__version">v{release.version}</span>
      </div>
      <dl className="release__facts">
        <div className="release__fact">
          <dt>Released</dt>
          <dd>
            <time dateTime={release.publishedAt}>{formatDate(release.publishedAt)}</time>
          </dd>
        </div>
        <div className="release__fact">
          <dt>Size</dt>
          <dd>{formatBytes(release.file.size)}</dd>
        </div>
      </dl>
      <CopyValue label="SHA-256" detail={`of ${platform} ${release.version}`} value={release.file.sha256} what="Checksum" />
      {release.notesHtml ? (
        // Rendered on the server with the site's Markdown renderer: raw HTML in the notes is escaped.
        <div className="release__notes" data-testid="release-notes" dangerouslySetInnerHTML={{ __html: release.notesHtml }} />
      ) : null}
      {download === 'none' ? null : (
        <a className="button button--primary release__download" href={`/api/releases/${encodeURIComponent(release.id)}/download`} download>
          {download === 'free' ? 'Free download' : 'Download'}
          <span className="visually-hidden">{` ${productName} ${release.version} for ${platform}`}</span>
        </a>
      )}
    </li>
  );
}
