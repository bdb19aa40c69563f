import { type ComponentProps, type ReactElement, useContext, useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { isActiveLink, plainLinkHref } from '../../lib/routes/active-link.js';
import { PreloaderContext } from '../app/preload.js';

type Props = ComponentProps<typeof Link> & {
  /** Active only on exactly this path, not on the pages below it (as NavLink's `end`). */
  end?: boolean;
  preloadOnVisible?: boolean;
};

/** Link's props that change what it does rather than what it renders. */
const ROUTER_ONLY_PROPS = [
  'discover',
  'prefetch',
  'relative',
  'reloadDocument',
  'replace',
  'state',
  'preventScrollReset',
  'viewTransition',
];

/**
 * A router link that preloads its target on hover, focus and (optionally) when scrolled into view,
 * and marks the current page's links with `aria-current="page"` and the `active` class, as
 * react-router's NavLink would, from one string comparison (lib/routes/active-link.ts).
 */
export const AppLink: (props: Props) => ReactElement = import.meta.env.SSR ? AppLinkOnServer : AppLinkInBrowser;

/**
 * In the server render a link is only its markup: Link's click handler, prefetch behaviour, ref and
 * path resolution serve the browser, and were about 7 % of a signed-in page's CPU. For a
 * plain absolute path (`plainLinkHref`) this writes what Link writes, attribute for attribute; the
 * browser hydrates it as the Link it renders there. Anything else is Link's to resolve.
 */
function AppLinkOnServer(props: Props) {
  const {
    preloadOnVisible: _preloadOnVisible,
    end = false,
    to,
    className,
    onMouseEnter: _onMouseEnter,
    onFocus: _onFocus,
    ...rest
  } = props;
  const { pathname } = useLocation();
  const href = plainLinkHref(to);
  if (href === null || ROUTER_ONLY_PROPS.some((name) => name in rest)) return <AppLinkInBrowser {...props} />;
  const active = isActiveLink(pathname, href, end);
  const { target, children, ...anchor } = rest;
  return (
    <a
      aria-current={active ? 'page' : undefined}
      className={active ? (className ? `${className} active` : 'active') : className}
      {...anchor}
      href={href}
      target={target}
      data-discover="true"
    >
      {children}
    </a>
  );
}

function AppLinkInBrowser({ preloadOnVisible = false, end = false, to, className, onMouseEnter, onFocus, ...rest }: Props) {
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
