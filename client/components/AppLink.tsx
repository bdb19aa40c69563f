import { type ComponentProps, useContext, useEffect, useRef } from 'react';
import { Link, NavLink } from 'react-router';
import { PreloaderContext } from '../app/preload.js';

type Props = ComponentProps<typeof NavLink> & { preloadOnVisible?: boolean };

/** A router link that preloads its target on hover, focus and (optionally) when scrolled into view. */
export function AppLink({ preloadOnVisible = false, to, onMouseEnter, onFocus, ...rest }: Props) {
  const preloader = useContext(PreloaderContext);
  const ref = useRef<HTMLAnchorElement>(null);
  const href = typeof to === 'string' ? to : `${to.pathname ?? ''}${to.search ?? ''}`;

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
    <NavLink
      ref={ref}
      to={to}
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
