import { type ComponentProps, useContext, useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { isActiveLink } from '../../lib/routes/active-link.js';
import { PreloaderContext } from '../app/preload.js';

type Props = ComponentProps<typeof Link> & {
  /** Active only on exactly this path, not on the pages below it (as NavLink's `end`). */
  end?: boolean;
  preloadOnVisible?: boolean;
};

/**
 * A router link that preloads its target on hover, focus and (optionally) when scrolled into view,
 * and marks the current page's links with `aria-current="page"` and the `active` class, as
 * react-router's NavLink would, from one string comparison (lib/routes/active-link.ts).
 */
export function AppLink({ preloadOnVisible = false, end = false, to, className, onMouseEnter, onFocus, ...rest }: Props) {
  const preloader = useContext(PreloaderContext);
  const { pathname } = useLocation();
  const ref = useRef<HTMLAnchorElement>(null);
  const href = typeof to === 'string' ? to : `${to.pathname ?? pathname}${to.search ?? ''}`;
  const active = isActiveLink(pathname, href, end);

  useEffect(() => {
    if (!preloadOnVisible || !preloader || !ref.current || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        preloader.preload(href);
        observer.disconnect();
      }
    });
    observer.observe(ref.current);
    return () => observer.disconnect();
  }, [preloadOnVisible, preloader, href]);

  return (
    <Link
      ref={ref}
      to={to}
      aria-current={active ? 'page' : undefined}
      className={active ? (className ? `${className} active` : 'active') : className}
      onMouseEnter={(event) => {
        preloader?.preload(href);
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        preloader?.preload(href);
        onFocus?.(event);
      }}
      {...rest}
    />
  );
}

export { Link };
