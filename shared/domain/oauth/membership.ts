/** The form of a workspace id (docs/decisions.md, "Authentication"): anything else in the claim is ignored. */
const WORKSPACE_ID = /^ws_[A-Za-z0-9_-]{1,61}$/;

/**
 * The workspaces a person may grant access to, from the upstream ID token's configured claim: an array of workspace
 * ids, or one string of them separated by spaces or commas (providers that cannot emit arrays).
 */
export function membershipsOf(claim: unknown): string[] {
  const values = Array.isArray(claim) ? claim : typeof claim === 'string' ? claim.split(/[\s,]+/) : [];
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && WORKSPACE_ID.test(v)))];
}
