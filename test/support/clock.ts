import { useClock } from '../../shared/clock';

/**
 * The process clock, movable by tests: `advance` moves what handlers, domain and scheduler see as now. With
 * `stopped`, time does not pass by itself either: now stays where `advance` put it (tests that must not cross a
 * boundary, such as a rate-limit window, while they run). `setOffset` puts now at a fixed distance from the real time.
 */
export function movableClock(options: { stopped?: boolean } = {}) {
  let offset = 0;
  const start = Date.now();
  const now = () => new Date((options.stopped ? start : Date.now()) + offset);
  const restore = useClock({ now });
  return {
    now,
    advance: (ms: number) => {
      offset += ms;
    },
    setOffset: (ms: number) => {
      offset = ms;
    },
    restore,
  };
}
