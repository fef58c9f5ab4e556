import { useEffect, useState } from 'react';

/**
 * True once the page has loaded and painted: what is only a hint (the navigation's count of new cases) is
 * loaded and asked for then, so it never competes with what the first paint needs (the page's scripts,
 * the sites, a case's lookup).
 */
export function usePageUp(): boolean {
  const [up, setUp] = useState(false);
  useEffect(() => {
    let timer: number | undefined;
    const later = () => {
      timer = window.setTimeout(() => setUp(true), 0);
    };
    if (document.readyState === 'complete') later();
    else window.addEventListener('load', later, { once: true });
    return () => {
      window.removeEventListener('load', later);
      window.clearTimeout(timer);
    };
  }, []);
  return up;
}
