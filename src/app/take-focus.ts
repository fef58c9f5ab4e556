/**
 * For a header menu that replaced the stand-in button the keyboard was on (its module loaded after the
 * first paint): a ref for its own button, which takes the focus when `takeFocus` says the stand-in had it.
 */
import { useEffect, useRef } from 'react';

export function useTakeFocus(takeFocus: boolean) {
  const target = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (takeFocus) target.current?.focus();
  }, [takeFocus]);
  return target;
}
