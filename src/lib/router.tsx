/**
 * A small client-side router: exactly what site-admin needs (paths with params, links, navigation,
 * history state, and a blocker for unsaved changes), in a few kilobytes rather than a general router's
 * thirty, so the first page loads fast. It takes paths only from the typed table in `paths.ts`: routes by
 * pattern, links and `navigate` by `pathTo(...)`, params and history state read back typed.
 */
import {
  Children,
  createContext,
  isValidElement,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
} from 'react';
import {
  matchPath,
  matchPathName,
  readPathState,
  type Href,
  type PathName,
  type PathParams,
  type PathPattern,
  type PathState,
  type StatefulPathName,
} from './paths';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** Whatever the history entry holds: read it typed with `usePathState`. */
  state: unknown;
  /** Position in this tab's history, to undo a blocked back or forward. */
  index: number;
}

export interface NavigateOptions<N extends PathName = PathName> {
  replace?: boolean;
  state?: PathState<N>;
}

/** Goes to a page of the table (`navigate(pathTo('cases'))`), or back and forth in history (`navigate(-1)`). */
export interface NavigateFunction {
  <N extends PathName>(to: Href<N>, options?: NavigateOptions<N>): void;
  (delta: number): void;
}

type BlockerFunction = (args: { currentLocation: Location; nextLocation: Location }) => boolean;

interface History {
  location(): Location;
  push(to: string, state: unknown, replace: boolean): void;
  go(delta: number): void;
  /** Called on back/forward; returns the unsubscribe function. */
  listen(listener: () => void): () => void;
}

function parsePath(to: string, state: unknown, index: number): Location {
  const url = new URL(to, 'http://x');
  return { pathname: url.pathname, search: url.search, hash: url.hash, state, index };
}

/**
 * The browser's history. With a `basename` (`/s/harbour-linen`, the site a page works on), the app sees
 * and writes paths without it: `/cases/3/48217` is `/s/harbour-linen/cases/3/48217` in the address bar.
 */
function browserHistory(basename = ''): History {
  const read = (): Location => {
    const entry = (window.history.state ?? {}) as { usr?: unknown; idx?: number };
    const { pathname } = window.location;
    const inApp =
      basename && (pathname === basename || pathname.startsWith(`${basename}/`)) ? pathname.slice(basename.length) || '/' : pathname;
    return { ...parsePath(inApp + window.location.search + window.location.hash, entry.usr, entry.idx ?? 0) };
  };
  if (typeof (window.history.state as { idx?: number } | null)?.idx !== 'number') {
    window.history.replaceState({ usr: (window.history.state as { usr?: unknown } | null)?.usr, idx: 0 }, '');
  }
  return {
    location: read,
    push(to, state, replace) {
      const idx = read().index + (replace ? 0 : 1);
      if (replace) window.history.replaceState({ usr: state, idx }, '', basename + to);
      else window.history.pushState({ usr: state, idx }, '', basename + to);
    },
    go: (delta) => window.history.go(delta),
    listen(listener) {
      window.addEventListener('popstate', listener);
      return () => window.removeEventListener('popstate', listener);
    },
  };
}

/**
 * For tests. With `held`, a traversal waits for `finishTraversal()` and one asked for while another is under
 * way is dropped, as Chromium does; otherwise go() answers at once.
 */
export function memoryHistory(initial: string, { held = false } = {}): History & { finishTraversal(): void } {
  const entries: Location[] = [parsePath(initial, undefined, 0)];
  let current = 0;
  let underWay: number | null = null;
  const listeners = new Set<() => void>();
  const move = (delta: number) => {
    current = Math.min(Math.max(current + delta, 0), entries.length - 1);
    listeners.forEach((l) => l());
  };
  return {
    location: () => entries[current] as Location,
    push(to, state, replace) {
      if (!replace) current += 1;
      entries.splice(current, entries.length, parsePath(to, state, current));
    },
    go(delta) {
      if (!held) move(delta);
      else if (underWay === null) underWay = delta;
    },
    finishTraversal() {
      const delta = underWay;
      underWay = null;
      if (delta !== null) move(delta);
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

interface RouterContextValue {
  location: Location;
  /** What the address bar has before the app's paths (the site's `/s/<id>`), or "". */
  basename: string;
  navigate: NavigateFunction;
  registerBlocker: (blocker: BlockerEntry) => () => void;
}

interface BlockerEntry {
  shouldBlock: BlockerFunction;
  onBlocked: (proceed: () => void) => void;
}

const RouterContext = createContext<RouterContextValue | null>(null);

function useRouter(): RouterContextValue {
  const router = useContext(RouterContext);
  if (!router) throw new Error('Router hooks must be used inside <BrowserRouter> or <MemoryRouter>.');
  return router;
}

function RouterProvider({ history, basename = '', children }: { history: History; basename?: string; children: ReactNode }) {
  const [location, setLocation] = useState(history.location);
  const blockers = useRef(new Set<BlockerEntry>());
  const current = useRef(location);
  const ignoreNextPop = useRef(false);
  /**
   * A "Leave" chosen before the browser finished taking us back waits for that return: Chromium drops a
   * history traversal asked for while another is still under way, which left the editor in place.
   */
  const afterReturn = useRef<(() => void) | null>(null);
  /** The user chose to leave: the next back or forward goes through without asking again. */
  const skipBlockers = useRef(false);

  const blockedBy = useCallback((next: Location) => {
    for (const blocker of blockers.current) {
      if (blocker.shouldBlock({ currentLocation: current.current, nextLocation: next })) return blocker;
    }
    return undefined;
  }, []);

  const commit = useCallback(() => {
    const next = history.location();
    current.current = next;
    setLocation(next);
  }, [history]);

  useEffect(
    () =>
      history.listen(() => {
        if (ignoreNextPop.current) {
          ignoreNextPop.current = false;
          const then = afterReturn.current;
          afterReturn.current = null;
          then?.();
          return;
        }
        const next = history.location();
        const delta = current.current.index - next.index;
        if (skipBlockers.current) {
          skipBlockers.current = false;
          commit();
          return;
        }
        const blocker = blockedBy(next);
        if (!blocker || delta === 0) {
          commit();
          return;
        }
        // Back or forward while blocked: return to where we were, and go on only if the user agrees.
        ignoreNextPop.current = true;
        history.go(delta);
        blocker.onBlocked(() => {
          const leave = () => {
            skipBlockers.current = true;
            history.go(-delta);
          };
          if (ignoreNextPop.current) afterReturn.current = leave;
          else leave();
        });
      }),
    [history, blockedBy, commit],
  );

  const navigate = useCallback(
    (to: string | number, options: { replace?: boolean; state?: unknown } = {}) => {
      if (typeof to === 'number') {
        history.go(to);
        return;
      }
      const go = () => {
        history.push(to, options.state, options.replace ?? false);
        commit();
      };
      const blocker = blockedBy(parsePath(to, options.state, current.current.index + 1));
      if (blocker) blocker.onBlocked(go);
      else go();
    },
    [history, blockedBy, commit],
  );

  const registerBlocker = useCallback((entry: BlockerEntry) => {
    blockers.current.add(entry);
    return () => {
      blockers.current.delete(entry);
    };
  }, []);

  const value = useMemo(
    () => ({ location, basename, navigate: navigate, registerBlocker }),
    [location, basename, navigate, registerBlocker],
  );
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function BrowserRouter({ basename = '', children }: { basename?: string; children: ReactNode }) {
  const [history] = useState(() => browserHistory(basename));
  return (
    <RouterProvider history={history} basename={basename}>
      {children}
    </RouterProvider>
  );
}

/** For tests: a router with its own history, starting at the first entry. */
export function MemoryRouter({
  initialEntries = ['/'],
  history: given,
  children,
}: {
  initialEntries?: string[];
  history?: History;
  children: ReactNode;
}) {
  const [history] = useState(() => given ?? memoryHistory(initialEntries[0] ?? '/'));
  return <RouterProvider history={history}>{children}</RouterProvider>;
}

export { matchPath };

export function Route(_props: { path: PathPattern | '*'; element: ReactNode }): null {
  // Read by <Routes>; never rendered on its own.
  return null;
}

/** Renders the element of the first <Route> whose path matches. */
export function Routes({ children }: { children: ReactNode }) {
  const { location } = useRouter();
  for (const child of Children.toArray(children)) {
    if (!isValidElement(child)) continue;
    const { path, element } = (child as ReactElement<{ path: string; element: ReactNode }>).props;
    if (matchPath(path, location.pathname)) return element;
  }
  return null;
}

export const useLocation = () => useRouter().location;
export const useNavigate = () => useRouter().navigate;

/** The params of page `name` when it is the current page (`usePathParams('case')?.form`), else null. */
export function usePathParams<N extends PathName>(name: N): PathParams<N> | null {
  const { pathname } = useRouter().location;
  return useMemo(() => matchPathName(name, pathname), [name, pathname]);
}

/** The current history entry's state, read through page `name`'s reader (paths.ts); undefined when it has none. */
export function usePathState<N extends StatefulPathName>(name: N): PathState<N> | undefined {
  const { location } = useRouter();
  return useMemo(() => (matchPathName(name, location.pathname) ? readPathState(name, location.state) : undefined), [name, location]);
}

export function Navigate({ to, replace = false }: { to: Href; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace }), [navigate, to, replace]);
  return null;
}

type LinkProps<N extends PathName> = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: Href<N>;
  replace?: boolean;
  state?: PathState<N>;
  ref?: Ref<HTMLAnchorElement>;
};

/** An ordinary link (open in a new tab, copy address) that navigates inside the app on a plain click. */
export function Link<N extends PathName>({ to, replace, state, onClick, target, ref, children, ...props }: LinkProps<N>) {
  const { navigate, basename } = useRouter();
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    if (target && target !== '_self') return;
    event.preventDefault();
    navigate(to, { replace, state });
  };
  return (
    <a {...props} ref={ref} href={basename + to} target={target} onClick={handle}>
      {children}
    </a>
  );
}

export interface Blocker {
  state: 'unblocked' | 'blocked';
  proceed: () => void;
  reset: () => void;
}

/** Holds navigation while `shouldBlock` says so, until the user proceeds or stays. */
export function useBlocker(shouldBlock: BlockerFunction): Blocker {
  const { registerBlocker } = useRouter();
  const [pending, setPending] = useState<(() => void) | null>(null);
  const latest = useRef(shouldBlock);
  useEffect(() => {
    latest.current = shouldBlock;
  });
  useEffect(
    () =>
      registerBlocker({
        shouldBlock: (args) => latest.current(args),
        onBlocked: (proceed) => setPending(() => proceed),
      }),
    [registerBlocker],
  );
  return {
    state: pending ? 'blocked' : 'unblocked',
    proceed: () => {
      const go = pending;
      setPending(null);
      go?.();
    },
    reset: () => setPending(null),
  };
}
