import type { ReactNode } from 'react';
import './PageHeader.css';

export function PageHeader({ title, children, actions }: { title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-header">
      <div className="page-header__heading">
        <h1>{title}</h1>
        {actions}
      </div>
      {children ? <p>{children}</p> : null}
    </header>
  );
}

/** A page whose working parts arrive with a later release: says so plainly instead of faking data. */
export function UpcomingSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="empty-state" aria-label={title}>
      <h2>{title}</h2>
      <p>{children}</p>
    </section>
  );
}
