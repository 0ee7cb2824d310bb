import { useClock } from '../../shared/clock';

/** The process clock, movable by tests: `advance` moves what handlers, domain and scheduler see as now. */
export function movableClock() {
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const restore = useClock({ now });
  return {
    now,
    advance: (ms: number) => {
      offset += ms;
    },
    restore,
  };
}
