import type { EventDraft } from '../events/catalog';

/** `quote.*` events (issue 7, in progress). */
export const quoteEvents = (_before: unknown, _after: unknown): EventDraft[] => [];
