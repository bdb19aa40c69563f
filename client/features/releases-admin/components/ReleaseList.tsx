import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { AdminRelease } from '../../../../lib/api/releases.js';
import { Dialog } from '../../../components/Dialog.js';
import { FormAlert, formErrorMessage } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { adminReleasesQuery, useSetYanked } from '../api.js';
import { formatBytes } from '../../../../lib/format/bytes.js';
import { ARCH_LABELS, PLATFORM_LABELS } from '../../../../lib/releases/labels.js';
import { formatCount, productName } from '../format.js';

export function ReleaseList() {
  const releases = useQuery(adminReleasesQuery());
  // One confirmation at a time, outside the table (a dialog inherits nothing from a cell).
  const [confirming, setConfirming] = useState<{ release: AdminRelease; opener: HTMLElement } | null>(null);
  if (releases.isPending) {
    return (
      <div className="releases-admin__skeleton" aria-busy="true" aria-label="Loading releases">
        <div className="skeleton" />
        <div className="skeleton" />
        <div className="skeleton" />
      </div>
    );
  }
  if (releases.isError) {
    return (
      <div className="alert alert--error releases-admin__error" role="alert">
        <span>{formErrorMessage(releases.error) ?? 'The releases could not be loaded.'}</span>
        <button type="button" className="button button--small" onClick={() => void releases.refetch()}>
          Retry
        </button>
      </div>
    );
  }
  if (releases.data.releases.length === 0) {
    return <p className="releases-admin__empty">No release yet. Upload the first build below.</p>;
  }
  return (
    <>
      <div className="table-wrap">
        <table className="table table--stack releases-admin__table">
          <caption className="visually-hidden">Releases, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Build</th>
              <th scope="col">Version</th>
              <th scope="col" className="numeric">
                Size
              </th>
              <th scope="col">SHA-256</th>
              <th scope="col" className="numeric">
                Downloads
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {releases.data.releases.map((release) => (
              <ReleaseRow key={release.id} release={release} onConfirm={(opener) => setConfirming({ release, opener })} />
            ))}
          </tbody>
        </table>
      </div>
      {confirming ? (
        <YankDialog release={confirming.release} onClose={() => setConfirming(null)} returnFocus={() => confirming.opener} />
      ) : null}
    </>
  );
}

function ReleaseRow({ release, onConfirm }: { release: AdminRelease; onConfirm: (opener: HTMLElement) => void }) {
  const yanked = release.status === 'yanked';
  const label = buildLabel(release);

  return (
    <tr className="releases-admin__row" data-testid="admin-release" data-version={release.version}>
      <td data-label="Build">
        <div className="releases-admin__build">
          <span className="releases-admin__product">{productName(release.product)}</span>
          <span className="releases-admin__target">
            {PLATFORM_LABELS[release.platform]} · {ARCH_LABELS[release.arch]}
            {release.format ? ` · .${release.format}` : ''} · {release.channel}
          </span>
          <span className="releases-admin__file">{release.file.filename}</span>
        </div>
      </td>
      <td data-label="Version">
        <div className="releases-admin__release">
          <span className="releases-admin__version">{release.version}</span>
          <span className={`badge releases-admin__status releases-admin__status--${release.status}`}>{release.status}</span>
        </div>
      </td>
      <td data-label="Size" className="numeric releases-admin__nowrap">
        {formatBytes(release.file.size)}
      </td>
      <td data-label="SHA-256">
        <code className="releases-admin__sha" title={release.file.sha256} data-testid="release-sha256">
          {release.file.sha256.slice(0, 12)}…
        </code>
      </td>
      <td data-label="Downloads" className="numeric">
        {formatCount(release.downloads)}
      </td>
      <td data-label="Actions" className="releases-admin__actions-cell">
        <button
          type="button"
          className={`button button--small ${yanked ? '' : 'button--danger'}`.trim()}
          aria-label={`${yanked ? 'Unyank' : 'Yank'} ${label}`}
          onClick={(event) => onConfirm(event.currentTarget)}
        >
          {yanked ? 'Unyank…' : 'Yank…'}
        </button>
      </td>
    </tr>
  );
}

/** "Hitscope for Apps 1.4.0 (Linux · x64, stable)": the build in one line, for toasts and accessible names. */
function buildLabel(release: AdminRelease): string {
  return `${productName(release.product)} ${release.version} (${PLATFORM_LABELS[release.platform]} · ${ARCH_LABELS[release.arch]}, ${release.channel})`;
}

/**
 * Asks before a build leaves (or comes back to) the tool pages and the apps' update check, naming
 * exactly which build: product, version, platform and arch, channel and file, as the row does.
 */
function YankDialog({
  release,
  onClose,
  returnFocus,
}: {
  release: AdminRelease;
  onClose: () => void;
  returnFocus: () => HTMLElement | null;
}) {
  const toast = useToast();
  const setYanked = useSetYanked();
  const yanked = release.status === 'yanked';
  const label = buildLabel(release);
  const product = productName(release.product);
  const toastKey = `release-${release.id}`;

  const confirm = () =>
    setYanked.mutate(
      { id: release.id, yanked: !yanked },
      {
        onSuccess: () => {
          onClose();
          toast(yanked ? `${label} is published again` : `${label} is yanked`, 'success', { key: toastKey });
        },
        onError: (error) => toast(formErrorMessage(error) ?? 'The change failed. Try again.', 'error', { key: toastKey }),
      },
    );

  return (
    <Dialog
      title={yanked ? `Publish ${product} ${release.version} again?` : `Yank ${product} ${release.version}?`}
      placement="centered"
      onClose={onClose}
      returnFocus={returnFocus}
      className="releases-admin__dialog"
    >
      <dl className="releases-admin__facts" data-testid="yank-build">
        <div>
          <dt>Product</dt>
          <dd>{product}</dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd className="releases-admin__version">{release.version}</dd>
        </div>
        <div>
          <dt>Platform</dt>
          <dd>
            {PLATFORM_LABELS[release.platform]} · {ARCH_LABELS[release.arch]}
          </dd>
        </div>
        <div>
          <dt>Channel</dt>
          <dd>{release.channel}</dd>
        </div>
        <div>
          <dt>File</dt>
          <dd className="releases-admin__file">
            {release.file.filename} ({formatBytes(release.file.size)})
          </dd>
        </div>
        <div>
          <dt>SHA-256</dt>
          <dd>
            <code className="releases-admin__sha" title={release.file.sha256}>
              {release.file.sha256.slice(0, 12)}…
            </code>
          </dd>
        </div>
        <div>
          <dt>Downloads</dt>
          <dd>{formatCount(release.downloads)}</dd>
        </div>
      </dl>
      <p>
        {yanked
          ? 'It comes back to the tool pages, the lounge and the apps’ update check, and its download links work again.'
          : 'It leaves the tool pages, the lounge and the apps’ update check at once, and its download links stop working. Copies already downloaded keep working. You can publish it again later.'}
      </p>
      <FormAlert error={setYanked.error} />
      <div className="releases-admin__dialog-actions">
        <button
          type="button"
          className={`button ${yanked ? 'button--primary' : 'button--destructive'}`}
          disabled={setYanked.isPending}
          onClick={confirm}
        >
          {setYanked.isPending ? 'Working…' : yanked ? 'Publish again' : 'Yank this build'}
        </button>
        <button type="button" className="button button--ghost" disabled={setYanked.isPending} onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
