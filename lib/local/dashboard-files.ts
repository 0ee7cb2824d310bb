import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { buildDashboard, dashboardSources, defaultDashboardOut } from '../dashboard-build';
import { dashboardHeaders } from '../dashboard-headers';
import { DASHBOARD_CLIENT_ID } from '../../shared/domain/oauth/first-party';

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/** What the dashboard reads at start: where the API is and its client id (on AWS, a file the stack deploys). */
export const dashboardConfig = (apiUrl: string) => ({ apiUrl, clientId: DASHBOARD_CLIENT_ID });

/**
 * The dashboard under `npm start`: `/dashboard/…` from its build (made now when missing), any path that names no
 * file answered with the page (the dashboard's own router shows the screen, so deep links and reloads work),
 * `/dashboard/config.json` made from the server's URL. Every answer carries the dashboard's CSP. The build is made
 * when missing or older than a source file (an edit shows after a restart, a test never sees a stale build).
 */
export function dashboardFiles(outDir: string = defaultDashboardOut) {
  const built = join(outDir, 'index.html');
  if (!existsSync(built) || statSync(built).mtimeMs < newestSource(dashboardSources)) buildDashboard(outDir);
  return (pathname: string, apiUrl: string, response: ServerResponse): void => {
    const headers = { ...dashboardHeaders(), 'cache-control': 'no-cache' };
    if (pathname === '/dashboard') {
      response.writeHead(308, { ...headers, location: '/dashboard/' });
      return void response.end();
    }
    if (pathname === '/dashboard/config.json') {
      response.writeHead(200, { ...headers, 'content-type': 'application/json' });
      return void response.end(JSON.stringify(dashboardConfig(apiUrl)));
    }
    const name = pathname.slice('/dashboard/'.length);
    const isFile = extname(name) !== '';
    const file = isFile ? join(outDir, name) : join(outDir, 'index.html');
    if (name.includes('..') || !existsSync(file)) {
      response.writeHead(404, { ...headers, 'content-type': 'text/plain' });
      return void response.end('Not found');
    }
    response.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  };
}

/** The last modification time of any file under `dir` (the dashboard's sources, catalogs and page). */
function newestSource(dir: string): number {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .reduce((newest, entry) => Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs), 0);
}
