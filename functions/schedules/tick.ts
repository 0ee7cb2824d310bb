import { clock } from '../../shared/clock';
import { runDueWork, type DueRun } from '../../shared/domain/schedules/run-due';
import { linkKeyReady } from '../../shared/pages/link-key';

/** Run every minute by an EventBridge rule (locally, by `npm start`): time-driven transitions that are due. */
export const handler = async (): Promise<DueRun> => {
  await linkKeyReady(); // invoices in events carry signed page links
  return runDueWork(clock.now());
};
