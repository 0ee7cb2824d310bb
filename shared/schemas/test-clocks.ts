import { dateTime, enumOf, name, object, out, resource, type Schema } from './common';

export const testClockCreationBody = object(
  {
    frozen_time: { ...dateTime, description: 'The time the workspace\'s clock starts at: any time, past or future.' },
    name: { ...name, description: 'Default "Test clock".' },
  },
  ['frozen_time'],
);

export const testClockAdvanceBody = object(
  { frozen_time: { ...dateTime, description: 'Where to move the clock: after its current time (a clock only moves forward).' } },
  ['frozen_time'],
);

export const testClockResource: Schema = resource({
  id: out.string,
  object: enumOf(['test_clock']),
  name: out.string,
  frozen_time: { ...out.dateTime, description: 'The workspace\'s time: what every request, scheduled task and stream of it reads as now.' },
  status: { ...enumOf(['ready', 'advancing']), description: '`advancing` while an advance runs the work that comes due on the way.' },
  created_at: out.dateTime,
});
