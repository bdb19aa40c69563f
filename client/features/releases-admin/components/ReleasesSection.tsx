import { ReleaseList } from './ReleaseList.js';
import { ReleaseUploadForm } from './ReleaseUploadForm.js';
import '../releases-admin.css';

/** The releases card of /admin/settings: the builds, yanked ones included, and the upload form. */
export function ReleasesSection() {
  return (
    <section className="card releases-admin" aria-labelledby="releases-admin-title">
      <h2 id="releases-admin-title">Releases</h2>
      <p className="muted">
        Builds of the companion products. A published version never changes: to fix a build, yank it and upload a new version.
      </p>
      <ReleaseList />
      <ReleaseUploadForm />
    </section>
  );
}
