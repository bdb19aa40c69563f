import { type ReactNode, type Ref, useId } from 'react';
import '../admin-users.css';

/**
 * A titled part of the user panel. With `headingRef` its heading can take the focus (after an
 * action in the section ends and the button used is gone or would do the opposite now).
 */
export function PanelSection({
  title,
  headingRef,
  children,
}: {
  title: string;
  headingRef?: Ref<HTMLHeadingElement>;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className="admin-users__section" aria-labelledby={id}>
      <h3 id={id} ref={headingRef} tabIndex={headingRef ? -1 : undefined} className="admin-users__section-title">
        {title}
      </h3>
      {children}
    </section>
  );
}
