import type { EventBridgeEvent } from 'aws-lambda';
import { applyEmailFeedback, type SesEmailEvent } from '../../shared/email/feedback';
import { logger } from '../../shared/observability/logger';

/**
 * SES's reports about sent emails (deliveries, bounces, complaints), from its configuration set through EventBridge
 * (lib/email-feedback.ts), applied to the email they name (shared/email/feedback.ts). A failure throws: Lambda tries
 * the event again (twice, minutes apart), then puts it on the dead-letter queue.
 */
export async function handler(event: EventBridgeEvent<string, SesEmailEvent>): Promise<void> {
  const outcome = await applyEmailFeedback(event.detail);
  logger.info('email feedback', { event_id: event.id, event_type: event.detail.eventType, message_id: event.detail.mail.messageId, outcome });
}
