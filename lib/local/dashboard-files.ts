import { existsSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { buildDashboard, defaultDashboardOut } from '../dashboard-build';
import { dashboardHeaders } from '../dashboard-headers';
import { DASHBOARD_CLIENT_ID } from '../../shared/domain/oauth/first-party';

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/** What the dashboard reads at start: where the API is and its client id (on AWS, a file the stack deploys). */
export const dashboardConfig = (apiUrl: string) => ({ apiUrl, clientId: DASHBOARD_CLIENT_ID });

/**
 * The dashboard under `npm start`: `/dashboard/…` from its build (made now when missing), any path that names no
 * file answered with the page (the dashboard's own router shows the screen, so deep links and reloads work),
 * `/dashboard/config.json` made from the server's URL. Every answer carries the dashboard's CSP.
 */
export function dashboardFiles(outDir: string = defaultDashboardOut) {
  if (!existsSync(join(outDir, 'index.html'))) buildDashboard(outDir);
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
