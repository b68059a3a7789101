import { isObject } from '../../engine/model/validate';
import { IssueList, MAX_SAMPLES_PER_REQUEST, SampleCollector, SampleColumns } from './usage-samples';

const SAMPLE_FIELDS = ['timestamp', 'node', 'metric', 'value'];

/**
 * `{"samples": [{timestamp, node, metric, value}, ...]}`: every sample is checked and every problem
 * named by its path (`samples[17].value`); columns are only returned when there is none.
 */
export function parseJsonSamples(body: unknown, nodes: ReadonlySet<string>, metrics: ReadonlySet<string>): { columns?: SampleColumns; issues: IssueList } {
  const issues = new IssueList();
  if (!isObject(body)) {
    issues.add('$', 'expected an object {"samples": [...]} (or Content-Type: text/csv)');
    return { issues };
  }
  for (const k of Object.keys(body as object)) if (k !== 'samples') issues.add(k, 'unknown field (expected samples)');
  const samples = (body as { samples?: unknown }).samples;
  if (!Array.isArray(samples)) {
    issues.add('samples', 'required: an array of {timestamp, node, metric, value}');
    return { issues };
  }
  if (samples.length === 0) issues.add('samples', 'must hold at least one sample');
  if (samples.length > MAX_SAMPLES_PER_REQUEST) {
    issues.add('samples', `at most ${MAX_SAMPLES_PER_REQUEST} samples a request, got ${samples.length}: split the upload`);
    return { issues };
  }
  const c = new SampleCollector(samples.length, nodes, metrics, issues);
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i] as Record<string, unknown>;
    const at = (field: string) => `samples[${i}].${field}`;
    if (!isObject(s)) {
      issues.add(`samples[${i}]`, 'must be an object {timestamp, node, metric, value}');
      continue;
    }
    let n = 0;
    for (const _ in s) n++;
    if (n !== 4 || !('timestamp' in s && 'node' in s && 'metric' in s && 'value' in s))
      for (const k of Object.keys(s)) if (!SAMPLE_FIELDS.includes(k)) issues.add(at(k), `unknown field (expected ${SAMPLE_FIELDS.join(', ')})`);
    c.add(s.timestamp, s.node, s.metric, s.value, at, () => '');
  }
  return issues.count ? { issues } : { columns: c.columns(), issues };
}
