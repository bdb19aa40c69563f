import type { ReactNode } from 'react';
import { type PublicPrivacyPolicy } from '../../../../lib/api/site-settings.js';
import { formatDate } from '../../../../lib/format/date.js';
import '../marketing.css';
import '../legal.css';

/**
 * The privacy policy of `/privacy-policy`: the admin's Markdown, rendered to HTML on the server
 * (lib/markdown: raw HTML escaped, so a `<script>` in the source is text), then any generated block
 * (`extra`) below it.
 */
export function PrivacyPolicy({ policy, extra }: { policy: PublicPrivacyPolicy; extra?: ReactNode }) {
  return (
    <article className="section container policy" aria-labelledby="policy-title">
      <header className="policy__header">
        <p className="eyebrow">Legal</p>
        <h1 id="policy-title">Privacy policy</h1>
        {policy.updatedAt ? (
          <p className="muted policy__updated">
            Last updated <time dateTime={policy.updatedAt}>{formatDate(policy.updatedAt)}</time>
          </p>
        ) : null}
      </header>
      <div className={policy.toc.length > 1 ? 'policy__layout' : undefined}>
        {policy.toc.length > 1 ? (
          <nav className="policy__toc" aria-labelledby="toc-title">
            <h2 id="toc-title">On this page</h2>
            <ol>
              {policy.toc.map((section) => (
                <li key={section.id}>
                  <a href={`#${section.id}`}>{section.title}</a>
                </li>
              ))}
            </ol>
          </nav>
        ) : null}
        <div>
          <div className="prose policy__body policy__markdown" dangerouslySetInnerHTML={{ __html: policy.html }} />
          {extra ? <div className="prose policy__body policy__extra">{extra}</div> : null}
        </div>
      </div>
    </article>
  );
}

export function PrivacyPolicyUnavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <section className="section container policy" aria-labelledby="policy-title">
      <h1 id="policy-title">Privacy policy</h1>
      <div className="alert alert--error" role="alert">
        The policy could not be loaded.{' '}
        <button type="button" className="button button--small" onClick={onRetry}>
          Retry
        </button>
      </div>
    </section>
  );
}
