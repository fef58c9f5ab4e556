/**
 * Instruments installed in the page before the app loads (page.addInitScript). They run in the
 * browser, so `installProbes` must be self-contained: Playwright sends its source text, not its scope.
 *
 * "Next paint" is approximated as: the next animation frame, then a task posted from it. The task runs
 * once the frame's style, layout and paint on the main thread are done (not when the compositor shows
 * it on screen, which the Event Timing durations include).
 */

export interface EventRecord {
  name: string;
  /** Event Timing duration: from the event's timestamp to the next paint, rounded to 8 ms. */
  duration: number;
  interactionId: number;
}

export interface TypingRecord {
  /** Per keydown: ms from the event's timestamp to the next paint, measured by the probe itself. */
  keys: number[];
  /** Event Timing entries of 16 ms or more (the API's floor) while typing. */
  events: EventRecord[];
}

export interface BenchProbe {
  /**
   * Arms one measurement: from the next `trigger` event (its timestamp, i.e. when the input reached the
   * browser) to the next paint after `selector` matches at least `count` elements.
   */
  arm(trigger: 'click' | 'keydown', selector: string, count: number): void;
  /** The armed measurement, in ms, once it is painted. */
  result(): Promise<number>;
  startTyping(): void;
  /** Waits for the last paints and Event Timing entries, then returns what was recorded. */
  stopTyping(): Promise<TypingRecord>;
}

declare global {
  interface Window {
    __bench?: BenchProbe;
  }
}

/**
 * esbuild (under tsx) wraps named functions in `__name(fn, "name")`; the page has no such helper, so
 * give it a no-op one before any serialised function runs there.
 */
export const NAME_SHIM = 'globalThis.__name = globalThis.__name || ((fn) => fn);';

export function installProbes(): void {
  const afterNextPaint = (callback: () => void) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => callback();
      channel.port2.postMessage(null);
    });

  let pending: Promise<number> = Promise.resolve(Number.NaN);
  let typing: (TypingRecord & { since: number }) | null = null;

  const collect = (entries: PerformanceEntryList) => {
    if (!typing) return;
    for (const entry of entries) {
      if (!(entry instanceof PerformanceEventTiming) || entry.startTime < typing.since) continue;
      typing.events.push({ name: entry.name, duration: entry.duration, interactionId: entry.interactionId });
    }
  };
  const observer = new PerformanceObserver((list) => collect(list.getEntries()));
  // 16 ms is the lowest threshold the Event Timing API accepts: quicker events are never reported.
  const init: PerformanceObserverInit & { durationThreshold: number } = { type: 'event', durationThreshold: 16, buffered: false };
  observer.observe(init);

  window.addEventListener(
    'keydown',
    (event) => {
      const record = typing;
      if (!record) return;
      const start = event.timeStamp;
      afterNextPaint(() => record.keys.push(performance.now() - start));
    },
    true,
  );

  window.__bench = {
    arm(trigger, selector, count) {
      pending = new Promise((resolve) => {
        let start: number | null = null;
        let done = false;
        const mutations = new MutationObserver(() => finish());
        const finish = () => {
          if (done || start === null || document.querySelectorAll(selector).length < count) return;
          done = true;
          mutations.disconnect();
          const from = start;
          afterNextPaint(() => resolve(performance.now() - from));
        };
        window.addEventListener(
          trigger,
          (event) => {
            start = event.timeStamp;
            finish();
          },
          { capture: true, once: true },
        );
        mutations.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
      });
    },
    result: () => pending,
    startTyping() {
      typing = { keys: [], events: [], since: performance.now() };
    },
    async stopTyping() {
      await new Promise((resolve) => setTimeout(resolve, 400));
      collect(observer.takeRecords());
      const record = typing ?? { keys: [], events: [] };
      typing = null;
      return { keys: record.keys, events: record.events };
    },
  };
}
