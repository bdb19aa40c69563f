import type { ReactNode } from 'react';
import '../marketing.css';
import '../legal.css';

export interface LegalDate {
  iso: string;
  label: string;
}

/**
 * A legal page (privacy policy, terms of service): title and date, a table of contents built from
 * the same section titles the headings use, and the text.
 */
export function LegalDocument({
  title,
  updated,
  sections,
  children,
}: {
  title: string;
  updated: LegalDate;
  /** Section id → heading, in reading order. */
  sections: Readonly<Record<string, string>>;
  children: ReactNode;
}) {
  return (
    <article className="section container policy" aria-labelledby="policy-title">
      <header className="policy__header">
        <p className="eyebrow">Legal</p>
        <h1 id="policy-title">{title}</h1>
        <p className="muted">
          Last updated <time dateTime={updated.iso}>{updated.label}</time>
        </p>
      </header>

      <div className="policy__layout">
        <nav className="policy__toc" aria-labelledby="toc-title">
          <h2 id="toc-title">On this page</h2>
          <ol>
            {Object.entries(sections).map(([id, heading]) => (
              <li key={id}>
                <a href={`#${id}`}>{heading}</a>
              </li>
            ))}
          </ol>
        </nav>

        <div className="prose policy__body">{children}</div>
      </div>
    </article>
  );
}

export function LegalSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

/** "Legal basis: …" under a purpose of processing. */
export function LegalBasis({ children }: { children: ReactNode }) {
  return (
    <p className="policy__basis">
      <strong>Legal basis:</strong> {children}
    </p>
  );
}
