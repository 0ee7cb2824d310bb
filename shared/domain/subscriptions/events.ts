import type { EventDraft } from '../events/catalog';

/** `subscription.*` events (issue 7, in progress). */
export const subscriptionEvents = (_before: unknown, _after: unknown): EventDraft[] => [];
