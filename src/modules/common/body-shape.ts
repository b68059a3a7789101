import type { NextFunction, Request, Response } from 'express';
import { PROTOTYPE_KEYS, stringProblem } from '../../engine/model/input-bounds';
import { ProblemException } from './problem';
import { sendProblem } from './problem.filter';

/** Deeper than any document Fallow takes (an instance is 6 levels deep); validation recurses, so it must not see more. */
export const MAX_BODY_DEPTH = 64;

/** Problems listed at most: a body of a million bad strings is refused just as well by the first twenty. */
const MAX_SHAPE_PROBLEMS = 20;

/**
 * Checks a parsed JSON body's shape, and the query's values, before anything recursive sees them: nesting
 * deeper than MAX_BODY_DEPTH (which overflowed the validators' stack: a 500), prototype keys (which they
 * dropped without a word) and strings Postgres cannot store or that are too long (a NUL, a lone surrogate:
 * "invalid byte sequence", a 500 after part of the work) are a 422 naming the path. This is the one rule
 * for every stored string, values and keys alike, whatever the route. Walks iteratively, so no body can
 * overflow this check itself.
 */
export function bodyShapeGuard(req: Request, res: Response, next: NextFunction): void {
  const problems = [...queryProblems(req.query), ...shapeProblems(req.body)];
  if (!problems.length) return next();
  sendProblem(req, res, new ProblemException(422, 'Invalid request', 'the request has a shape or a string no request of this API has', problems.slice(0, MAX_SHAPE_PROBLEMS)));
}

/** A string root (a CSV body) is the route's to parse; strings inside a JSON document are checked here. */
export function shapeProblems(root: unknown, rootPath = '$'): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: root, path: rootPath, depth: 0 }];
  while (stack.length && problems.length < MAX_SHAPE_PROBLEMS) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = depth > 0 ? stringProblem(v) : undefined;
      if (problem) problems.push({ path, message: problem });
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) {
      problems.push({ path, message: `nested deeper than ${MAX_BODY_DEPTH} levels` });
      continue;
    }
    if (Array.isArray(v)) v.forEach((x, i) => stack.push({ v: x, path: `${path}[${i}]`, depth: depth + 1 }));
    else
      for (const k of Object.keys(v)) {
        const keyProblem = stringProblem(k);
        // The path of a bad key shows it escaped (JSON), so a NUL in it is readable in the answer.
        const p = `${path === rootPath && rootPath === '$' ? '' : `${path}.`}${keyProblem ? JSON.stringify(k.slice(0, 40)) : k}`;
        if (PROTOTYPE_KEYS.has(k)) problems.push({ path: p, message: 'not allowed (a prototype key)' });
        else if (keyProblem) problems.push({ path: p, message: `a key ${keyProblem}` });
        else stack.push({ v: (v as Record<string, unknown>)[k], path: p, depth: depth + 1 });
      }
  }
  return problems;
}

/** The query's values (`?node=%00`) under the same rule, each named `query:<name>`. */
function queryProblems(query: unknown): { path: string; message: string }[] {
  if (!query || typeof query !== 'object') return [];
  return Object.entries(query as Record<string, unknown>).flatMap(([k, v]) => shapeProblems({ [k]: v }, 'query').map((p) => ({ ...p, path: p.path.replace(/^query\./, 'query:') })));
}
