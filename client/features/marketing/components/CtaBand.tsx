import type { ReactNode } from 'react';
import '../marketing.css';

/** The closing band of a public page: a heading, a sentence or two, and its buttons. */
export function CtaBand({ id, title, children, actions }: { id: string; title: string; children: ReactNode; actions: ReactNode }) {
  return (
    <section className="section" aria-labelledby={id}>
      <div className="container">
        <div className="cta-band">
          <div>
            <h2 id={id}>{title}</h2>
            <p>{children}</p>
          </div>
          <div className="cta-band__actions">{actions}</div>
        </div>
      </div>
    </section>
  );
}
