import type { Ctx } from '../../context';
import { dueIndexKeys } from '../../db/keys';
import type { Interval, WalletItem } from './wallet';

export const AUTO_LOAD = 'wallet_auto_load';

/**
 * When the wallet next needs the scheduler: its auto-load date, or now when it is under its threshold; undefined
 * when auto-load is off or has nothing to wait for (the wallet then leaves the scheduling index).
 */
export function nextDue(wallet: WalletItem, now: Date): string | undefined {
  if (!wallet.is_auto_load_enabled || !wallet.auto_load_amount) return undefined;
  const candidates: string[] = [];
  if (wallet.auto_load_next_date) candidates.push(wallet.auto_load_next_date);
  if (wallet.auto_load_threshold !== null && wallet.balance < wallet.auto_load_threshold) candidates.push(now.toISOString());
  return candidates.sort()[0];
}

/** The attributes that put the wallet in the scheduling index (or the names to remove to take it out). */
export function scheduleAttributes(ctx: Ctx, wallet: WalletItem, now: Date): { set: Record<string, string>; remove: string[] } {
  const due = nextDue(wallet, now);
  return due ? { set: dueIndexKeys(ctx, due, AUTO_LOAD, wallet.id), remove: [] } : { set: {}, remove: ['gsi4pk', 'gsi4sk'] };
}

/** `date` moved forward by whole intervals until it is after `now`. */
export function advance(date: string, interval: Interval, now: Date): string {
  const start = new Date(date);
  let next = start;
  for (let steps = 1; next <= now; steps++) next = addInterval(start, interval, steps);
  return next.toISOString();
}

/**
 * `steps` intervals after `start`, counted from the start each time so month ends do not drift: Jan 31 + 1 month
 * is Feb 28 (or 29), + 2 months is Mar 31.
 */
export function addInterval(start: Date, { period, count }: Interval, steps: number): Date {
  const next = new Date(start);
  if (period === 'days' || period === 'weeks') {
    next.setUTCDate(start.getUTCDate() + steps * count * (period === 'weeks' ? 7 : 1));
    return next;
  }
  const months = steps * count * (period === 'years' ? 12 : 1);
  const target = start.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(start.getUTCFullYear(), target + 1, 0)).getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(target);
  next.setUTCDate(Math.min(start.getUTCDate(), lastDay));
  return next;
}
