/**
 * The dashboard's security headers, the same under `npm start` (lib/local/dashboard-files.ts) and on CloudFront
 * (lib/operator-dashboard.ts): its own script and stylesheet only (no inline script or style), API calls to its own
 * origin only (on AWS CloudFront forwards /v1 and /oauth/token to the API), the invoice PDF shown from an object URL
 * (`frame-src blob:`), no framing of the dashboard itself, no forms posted anywhere.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  'frame-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const dashboardHeaders = (): Record<string, string> => ({
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
});
