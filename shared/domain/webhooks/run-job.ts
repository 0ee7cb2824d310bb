import { sendEmail } from '../../email/send';
import { deliver } from './deliver';
import { isEmailJob, type QueuedJob } from './delivery-queue';

/** One job of the delivery queue: a webhook delivery attempt or an email attempt. */
export const runJob = (job: QueuedJob): Promise<void> => (isEmailJob(job) ? sendEmail(job) : deliver(job));
