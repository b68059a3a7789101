import { execFileSync } from 'node:child_process';

/**
 * Why the tests that run the README's shell blocks cannot run here (curl or jq missing), or undefined when they
 * can. `npm test` installs them when it may (scripts/ensure-tools.sh) and passes on why it could not.
 */
export function shellToolsMissing(): string | undefined {
  if (process.env.FALLOW_SHELL_TOOLS_MISSING) return process.env.FALLOW_SHELL_TOOLS_MISSING;
  const lack = ['curl', 'jq'].filter((t) => {
    try {
      execFileSync('bash', ['-c', `command -v ${t}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  return lack.length ? `no ${lack.join(' and ')} on the PATH: install them (apt-get install ${lack.join(' ')}); npm test does it when it may` : undefined;
}
