import type { NextFunction, Request, Response } from 'express';
import { ProblemException } from './problem';
import { sendProblem } from './problem.filter';

/** Deeper than any document Fallow takes (an instance is 6 levels deep); validation recurses, so it must not see more. */
export const MAX_BODY_DEPTH = 64;

/** Keys that address an object's prototype: dropped silently by the validators, so refused here by name. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Checks a parsed JSON body's shape before anything recursive sees it: nesting deeper than MAX_BODY_DEPTH
 * (which overflowed the validators' stack: a 500) and prototype keys (which they dropped without a word)
 * are a 422 naming the path. Walks iteratively, so no body can overflow this check itself.
 */
export function bodyShapeGuard(req: Request, res: Response, next: NextFunction): void {
  const problems = shapeProblems(req.body);
  if (!problems.length) return next();
  sendProblem(req, res, new ProblemException(422, 'Invalid request', 'the body has a shape no request of this API has', problems));
}

export function shapeProblems(root: unknown): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: root, path: '$', depth: 0 }];
  while (stack.length && problems.length < 20) {
    const { v, path, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) {
      problems.push({ path, message: `nested deeper than ${MAX_BODY_DEPTH} levels` });
      continue;
    }
    if (Array.isArray(v)) v.forEach((x, i) => stack.push({ v: x, path: `${path}[${i}]`, depth: depth + 1 }));
    else
      for (const k of Object.keys(v)) {
        const p = path === '$' ? k : `${path}.${k}`;
        if (FORBIDDEN_KEYS.has(k)) problems.push({ path: p, message: 'not allowed (a prototype key)' });
        else stack.push({ v: (v as Record<string, unknown>)[k], path: p, depth: depth + 1 });
      }
  }
  return problems;
}
