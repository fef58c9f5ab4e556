/**
 * While someone types their e-mail address and passphrase, the scripts of the screen that follows the
 * sign-in load: Cases (the first page after signing in), and the case view when the address names a case.
 * Pressing Sign in then waits for our server's answers only, not for scripts asked for after them: on a
 * slow network each such wait is a round trip (562.5 ms on DevTools' Slow 4G).
 */
const CASE_ADDRESS = /^(?:\/s\/[^/]+)?\/cases\/[^/]+\/[^/]+\/?$/;

export function warmNextScreen(pathname: string): () => void {
  const warm = () => {
    // The same modules the router and the Cases page import: the browser keeps them, and a failure here
    // is the page's to report when it is opened, not this warm-up's.
    void import('@/features/cases/cases-page').catch(() => undefined);
    if (CASE_ADDRESS.test(pathname)) void import('@/features/cases/case-result').catch(() => undefined);
  };
  // After the sign-in page's own first paint, so that nothing it needs waits behind these.
  const timer = setTimeout(warm, 0);
  return () => clearTimeout(timer);
}
