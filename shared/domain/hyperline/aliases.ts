import { RuleViolation } from '../../errors';

/** One name per member: Hyperline's alias and ours together would be two answers to one question (422). */
export function oneOf<T>(ours: T | undefined, theirs: T | undefined, names: string): T | undefined {
  if (ours !== undefined && theirs !== undefined) throw new RuleViolation('conflicting_members', `Give one of ${names}, not both.`);
  return ours ?? theirs;
}
