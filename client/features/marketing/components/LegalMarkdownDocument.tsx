import type { ReactNode } from 'react';
import type { PublicLegalDocument } from '../../../../lib/api/site-settings.js';
import { formatDate } from '../../../../lib/format/date.js';
import '../marketing.css';
import '../legal.css';

/**
 * A legal page (`/privacy-policy`, `/terms`): the administrator's Markdown, its placeholders filled
 * in and rendered to HTML on the server (lib/markdown: raw HTML escaped, so a `<script>` in the
 * source is text), with its last-updated date, a table of contents from its `## ` sections, and
 * any generated block (`extra`) below it.
 */
export function LegalMarkdownDocument({ title, document, extra }: { title: string; document: PublicLegalDocument; extra?: ReactNode }) {
  return (
    <article className="section container policy" aria-labelledby="policy-title">
      <header className="policy__header">
        <p className="eyebrow">Legal</p>
        <h1 id="policy-title">{title}</h1>
        {document.updatedAt ? (
          <p className="muted policy__updated">
            Last updated <time dateTime={document.updatedAt}>{formatDate(document.updatedAt)}</time>
          </p>
        ) : null}
      </header>
      <div className={document.toc.length > 1 ? 'policy__layout' : undefined}>
        {document.toc.length > 1 ? (
          <nav className="policy__toc" aria-labelledby="toc-title">
            <h2 id="toc-title">On this page</h2>
            <ol>
              {document.toc.map((section) => (
                <li key={section.id}>
                  <a href={`#${section.id}`}>{section.title}</a>
                </li>
              ))}
            </ol>
          </nav>
        ) : null}
        <div>
          <div className="prose policy__body policy__markdown" dangerouslySetInnerHTML={{ __html: document.html }} />
          {extra ? <div className="prose policy__body policy__extra">{extra}</div> : null}
        </div>
      </div>
    </article>
  );
}

/** While the document loads (a client-side navigation whose data is not in yet). */
export function LegalDocumentLoading({ title }: { title: string }) {
  return (
    <div className="section container" role="status" aria-busy="true" aria-label={`Loading the ${title.toLowerCase()}`}>
      <div className="skeleton policy__skeleton-title" />
      <div className="skeleton policy__skeleton-body" />
    </div>
  );
}

export function LegalDocumentUnavailable({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <section className="section container policy" aria-labelledby="policy-title">
      <h1 id="policy-title">{title}</h1>
      <div className="alert alert--error" role="alert">
        The {title.toLowerCase()} could not be loaded.{' '}
        <button type="button" className="button button--small" onClick={onRetry}>
          Retry
        </button>
      </div>
    </section>
  );
}
