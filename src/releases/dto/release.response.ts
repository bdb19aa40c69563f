import type { AdminRelease, PublicRelease } from '../../../lib/api/releases.js';
import type { ProductSlug } from '../../../lib/licences/key.js';
import { renderMarkdown } from '../../../lib/markdown/markdown.js';
import { formatOf } from '../../../lib/releases/formats.js';
import type { Release } from '../schemas/release.schema.js';

export const downloadPath = (id: string) => `/api/releases/${id}/download`;
export const keyDownloadPath = (id: string) => `/api/v1/releases/${id}/download`;

/** What anybody may see of a published release (no storage id, no counters). */
export function toPublicRelease(release: Release): PublicRelease {
  const id = release._id.toString();
  return {
    id,
    product: release.product as ProductSlug,
    platform: release.platform,
    arch: release.arch,
    channel: release.channel,
    version: release.version,
    format: formatOf(release),
    notes: release.notes,
    // Under the card's platform heading (<h3>): the notes' own headings start at <h4>.
    notesHtml: release.notes.trim() ? renderMarkdown(release.notes, { firstHeadingLevel: 4 }) : '',
    file: {
      filename: release.file.filename,
      size: release.file.size,
      sha256: release.file.sha256,
      contentType: release.file.contentType,
    },
    signature: { alg: 'EdDSA', kid: release.signature.kid, value: release.signature.value },
    publishedAt: release.publishedAt.toISOString(),
    downloadUrl: downloadPath(id),
  };
}

export function toAdminRelease(release: Release): AdminRelease {
  return {
    ...toPublicRelease(release),
    status: release.status,
    yankedAt: release.yankedAt ? release.yankedAt.toISOString() : null,
    downloads: release.downloads ?? 0,
  };
}
