/**
 * Vega-Lite spec -> SVG, in Node with no browser: vega-lite compiles the spec to Vega, a headless Vega View
 * (renderer 'none') renders it to an SVG string.
 *
 * vega 6 and vega-lite 6 are ESM only (no `require` export), and tsc compiles this project to CommonJS, where a
 * written `import()` becomes `require()`; so they are loaded with a real dynamic import (as test/architecture.test.ts
 * loads dependency-cruiser), once per process.
 */
import type { ChartSpec } from './spec';

interface VegaLite {
  compile(spec: unknown, opts?: unknown): { spec: unknown };
}
interface VegaView {
  toSVG(scaleFactor?: number): Promise<string>;
  finalize(): void;
}
interface Vega {
  parse(spec: unknown, config?: unknown, opts?: unknown): unknown;
  View: new (runtime: unknown, opts: { renderer: 'none' }) => VegaView;
}

const dynamicImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;
let libraries: Promise<{ vega: Vega; vl: VegaLite }> | null = null;

/** Loads vega and vega-lite (about half a second) ahead of the first chart; every later call is free. */
export function load(): Promise<{ vega: Vega; vl: VegaLite }> {
  libraries ??= Promise.all([dynamicImport('vega'), dynamicImport('vega-lite')]).then(
    ([vega, vl]) => ({ vega, vl }),
    (e) => {
      libraries = null; // let a later call try again
      throw e;
    },
  );
  return libraries;
}

/** Renders a Vega-Lite spec to a standalone SVG document (a white background, fonts named, no scripts). */
export async function renderSvg(spec: ChartSpec): Promise<string> {
  const { vega, vl } = await load();
  const compiled = vl.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
