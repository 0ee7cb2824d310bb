import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { entityKey } from '../../db/keys';
import { NotFound } from '../../errors';

export const PLAN_MIGRATION = 'PLM';
export const PLAN_MIGRATION_ITEM_TYPE = 'plan_migration';
/** The due work's kind (the scheduling index, gsi4): one page of a migration at a time. */
export const PLAN_MIGRATION_WORK = 'plan_migration';
export const MIGRATION_EFFECTIVE = ['now', 'next_period'] as const;
export const MIGRATION_PRORATION = ['prorate', 'none'] as const;
/** A migration names at most this many subscriptions (more: migrate them all, or from a version). */
export const MAX_NAMED_SUBSCRIPTIONS = 1_000;
/** The failures a migration keeps (the count goes on). */
export const MAX_KEPT_FAILURES = 20;

export interface MigrationInput {
  /** Only subscriptions on this version (absent: on any other version of the plan). */
  from_version_id?: string | null;
  to_version_id: string;
  /** Only these (absent: every subscription of the plan). */
  subscription_ids?: string[] | null;
  effective?: (typeof MIGRATION_EFFECTIVE)[number];
  proration?: (typeof MIGRATION_PRORATION)[number];
}

export interface MigrationFailure {
  subscription_id: string;
  code: string;
  message: string;
}

export interface PlanMigrationItem extends StoredItem {
  id: string;
  plan_id: string;
  from_version_id: string | null;
  to_version_id: string;
  subscription_ids: string[] | null;
  effective: (typeof MIGRATION_EFFECTIVE)[number];
  proration: (typeof MIGRATION_PRORATION)[number];
  status: 'pending' | 'running' | 'completed';
  /** Where the next page starts: the plan list's last key read, or the position in `subscription_ids`. */
  cursor: Record<string, unknown> | number | null;
  migrated: number;
  skipped: number;
  failed: number;
  failures: MigrationFailure[];
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  gsi4pk?: string;
  gsi4sk?: string;
}

export const planMigrationKey = (ctx: Ctx, id: string) => entityKey(ctx, PLAN_MIGRATION, id);
export const planMigrationNotFound = (id: string) => new NotFound('plan_migration', id);

export const toPlanMigration = (m: PlanMigrationItem) => ({
  id: m.id,
  plan_id: m.plan_id,
  from_version_id: m.from_version_id,
  to_version_id: m.to_version_id,
  subscription_ids: m.subscription_ids,
  effective: m.effective,
  proration: m.proration,
  status: m.status,
  migrated: m.migrated,
  skipped: m.skipped,
  failed: m.failed,
  failures: m.failures,
  created_at: m.created_at,
  updated_at: m.updated_at,
  completed_at: m.completed_at,
});
export type PlanMigration = ReturnType<typeof toPlanMigration>;
