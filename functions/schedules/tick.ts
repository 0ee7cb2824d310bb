import { clock } from '../../shared/clock';
import { runDueWork, type DueRun } from '../../shared/domain/schedules/run-due';

/** Run every minute by an EventBridge rule (locally, by `npm start`): time-driven transitions that are due. */
export const handler = (): Promise<DueRun> => runDueWork(clock.now());
