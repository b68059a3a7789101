import assert from 'node:assert/strict';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  problems: { path: string; message: string }[];
}

/** Asserts an application/problem+json answer with `status` and returns its body. */
export function problem(r: { response: Response; error?: unknown }, status: number): Problem {
  assert.equal(r.response.status, status, `expected ${status}, got ${r.response.status}: ${JSON.stringify(r.error)}`);
  assert.match(r.response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = r.error as Problem;
  assert.equal(body.status, status);
  assert.equal(typeof body.title, 'string');
  assert.ok(body.title.length > 0);
  assert.ok(Array.isArray(body.problems), 'problems is an array');
  return body;
}
