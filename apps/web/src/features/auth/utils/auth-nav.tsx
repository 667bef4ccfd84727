import { createContext, useContext, type ComponentPropsWithRef, type MouseEvent } from 'react';

/**
 * How the signed-out pages read their query and move between each other, without naming a router: the
 * sign-in page is served by a small entry of its own (app/guest) that carries no React Router
 * (apps/web/docs/bundle-budget.md), and by the router's auth layout once the app is loaded. Each
 * provides this; with neither (a test, a page rendered alone) links are plain page loads.
 */
export type AuthNav = {
  /** The page's query (`redirect`, `ref`…). */
  search: string;
  /** Goes to a path of this app in place. */
  go: (href: string) => void;
};

export const AuthNavContext = createContext<AuthNav | null>(null);

/** The query of the current page. */
export function useAuthParams(): URLSearchParams {
  const nav = useContext(AuthNavContext);
  return new URLSearchParams(nav ? nav.search : window.location.search);
}

/** A link between signed-out pages: an `<a href>` (new tab, copy link work) followed in place. */
export function AuthLink({ to, onClick, ...props }: Omit<ComponentPropsWithRef<'a'>, 'href'> & { to: string }) {
  const nav = useContext(AuthNavContext);
  const follow = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (!nav || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (props.target && props.target !== '_self') return;
    e.preventDefault();
    nav.go(to);
  };
  return <a href={to} onClick={follow} {...props} />;
}
