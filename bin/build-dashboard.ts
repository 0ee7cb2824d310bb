/** npm run dashboard:build: builds the operators' dashboard into .local/dashboard (or the folder given). */
import { buildDashboard, defaultDashboardOut } from '../lib/dashboard-build';
import { parseCommandLine } from './command-line';

const { positionals } = parseCommandLine('usage: npm run dashboard:build [-- <folder>]\n  builds the dashboard (docs/dashboard.md) into .local/dashboard or <folder>', { allowPositionals: true });
console.log(`Dashboard built in ${buildDashboard(positionals[0] ?? defaultDashboardOut)}`);
