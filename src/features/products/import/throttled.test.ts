import { afterEach, describe, expect, it, vi } from 'vitest';
import { throttled } from './throttled';

/** A store's subscription as ImportSession has it: `change()` tells every listener. */
function store() {
  const listeners = new Set<() => void>();
  return {
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    change: () => listeners.forEach((listener) => listener()),
    count: () => listeners.size,
  };
}

afterEach(() => vi.useRealTimers());

describe('throttled', () => {
  it('tells a change of a quiet store at once, a burst once per window, and always its last change', () => {
    vi.useFakeTimers();
    const source = store();
    const told = vi.fn();
    throttled(source.subscribe, 100, Date.now)(told);
    source.change();
    expect(told).toHaveBeenCalledTimes(1);
    // 30 changes within 60 ms: none told before the window ends, then one.
    for (let i = 0; i < 30; i += 1) {
      vi.advanceTimersByTime(2);
      source.change();
    }
    expect(told).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(40);
    expect(told).toHaveBeenCalledTimes(2);
    // Quiet again: the next change is told at once.
    vi.advanceTimersByTime(500);
    source.change();
    expect(told).toHaveBeenCalledTimes(3);
  });

  it('tells nothing after unsubscribing, not even a change it was holding', () => {
    vi.useFakeTimers();
    const source = store();
    const told = vi.fn();
    const unsubscribe = throttled(source.subscribe, 100, Date.now)(told);
    source.change();
    source.change();
    unsubscribe();
    vi.advanceTimersByTime(200);
    expect(told).toHaveBeenCalledTimes(1);
    expect(source.count()).toBe(0);
  });
});
