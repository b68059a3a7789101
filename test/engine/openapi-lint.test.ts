/**
 * The committed OpenAPI document passes `@redocly/cli lint` with the repository's redocly.yaml (the recommended
 * rules, plus descriptions on every operation and parameter): any error or warning fails.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';

const ROOT = path.resolve(__dirname, '../../..');

describe('OpenAPI lint', () => {
  it('openapi/openapi.json has no lint errors or warnings (redocly.yaml)', () => {
    const r = spawnSync(
      path.join(ROOT, 'node_modules/.bin/redocly'),
      ['lint', 'openapi/openapi.json', '--config', 'redocly.yaml', '--format', 'json', '--lint-config', 'error'],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    );
    const start = r.stdout.indexOf('{');
    assert.ok(start >= 0, `redocly printed no JSON report (exit ${r.status}):\n${r.stdout}${r.stderr}`);
    const report = JSON.parse(r.stdout.slice(start)) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[] };
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
    assert.deepEqual(problems, [], `redocly lint found ${report.totals.errors} errors and ${report.totals.warnings} warnings`);
    assert.equal(r.status, 0, r.stderr);
  });
});
