import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { AdminRelease } from '../../../../lib/api/releases.js';
import { formErrorMessage } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { adminReleasesQuery, useSetYanked } from '../api.js';
import { formatBytes } from '../../../../lib/format/bytes.js';
import { ARCH_LABELS, PLATFORM_LABELS } from '../../../../lib/releases/labels.js';
import { productName } from '../format.js';

export function ReleaseList() {
  const releases = useQuery(adminReleasesQuery());
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
    <div className="table-wrap">
      <table className="table table--stack releases-admin__table">
        <caption className="visually-hidden">Releases, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Platform</th>
            <th scope="col">Channel</th>
            <th scope="col">Version</th>
            <th scope="col" className="numeric">
              Size
            </th>
            <th scope="col">SHA-256</th>
            <th scope="col">Status</th>
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
            <ReleaseRow key={release.id} release={release} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ReleaseRow({ release }: { release: AdminRelease }) {
  const toast = useToast();
  const setYanked = useSetYanked();
  const [confirming, setConfirming] = useState(false);
  const yanked = release.status === 'yanked';
  const label = `${productName(release.product)} ${release.version} (${PLATFORM_LABELS[release.platform]} ${ARCH_LABELS[release.arch]}, ${release.channel})`;
  const toastKey = `release-${release.id}`;

  const confirm = () =>
    setYanked.mutate(
      { id: release.id, yanked: !yanked },
      {
        onSuccess: () => {
          setConfirming(false);
          toast(yanked ? `${label} is published again` : `${label} is yanked`, 'success', { key: toastKey });
        },
        onError: (error) => toast(formErrorMessage(error) ?? 'The change failed. Try again.', 'error', { key: toastKey }),
      },
    );

  return (
    <tr className="releases-admin__row" data-testid="admin-release" data-version={release.version}>
      <td data-label="Product">{productName(release.product)}</td>
      <td data-label="Platform" className="releases-admin__nowrap">
        {PLATFORM_LABELS[release.platform]} · {ARCH_LABELS[release.arch]}
      </td>
      <td data-label="Channel">{release.channel}</td>
      <td data-label="Version" className="releases-admin__version">
        {release.version}
      </td>
      <td data-label="Size" className="numeric releases-admin__nowrap">
        {formatBytes(release.file.size)}
      </td>
      <td data-label="SHA-256">
        <code className="releases-admin__sha" title={release.file.sha256} data-testid="release-sha256">
          {release.file.sha256.slice(0, 12)}…
        </code>
      </td>
      <td data-label="Status">
        <span className={`badge releases-admin__status releases-admin__status--${release.status}`}>{release.status}</span>
      </td>
      <td data-label="Downloads" className="numeric">
        {release.downloads.toLocaleString('en-GB')}
      </td>
      <td data-label="Actions">
        {confirming ? (
          <div className="releases-admin__confirm" role="group" aria-label={`Confirm: ${yanked ? 'unyank' : 'yank'} ${label}`}>
            <span className="releases-admin__confirm-text">{yanked ? 'Publish again?' : 'Withdraw it?'}</span>
            <button
              type="button"
              className={`button button--small ${yanked ? 'button--primary' : 'button--destructive'}`}
              disabled={setYanked.isPending}
              onClick={confirm}
            >
              {setYanked.isPending ? 'Working…' : yanked ? 'Unyank' : 'Yank'}
            </button>
            <button
              type="button"
              className="button button--small button--ghost"
              disabled={setYanked.isPending}
              onClick={() => setConfirming(false)}
            >
              Cancel
            </button>
          </div>
        ) : (
          <button
            type="button"
            className={`button button--small ${yanked ? '' : 'button--danger'}`.trim()}
            aria-label={`${yanked ? 'Unyank' : 'Yank'} ${label}`}
            onClick={() => setConfirming(true)}
          >
            {yanked ? 'Unyank…' : 'Yank…'}
          </button>
        )}
      </td>
    </tr>
  );
}
