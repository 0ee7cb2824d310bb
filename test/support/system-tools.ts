import { execFileSync } from 'node:child_process';

/** Whether a command-line tool runs here (`<command> <probe>` exits 0): tests needing it skip, with a notice, where not. */
export function installed(command: string, probe = '--version'): boolean {
  try {
    execFileSync(command, [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
