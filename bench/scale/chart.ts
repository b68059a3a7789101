/**
 * bench:scale's figure: a small SVG line chart on log-log axes (tasks across, one line per cluster size), written
 * next to SCALE.md so that the report shows how cost grows. No chart library: bench/ must run with the
 * project's dependencies alone, and a log-log line plot is a few dozen lines.
 */
export interface Series {
  label: string;
  points: [number, number][];
  dashed?: boolean;
  /** Colour index (default the series' position): a dashed companion of a line takes the line's. */
  colour?: number;
}

const W = 560;
const H = 340;
const PAD = { left: 64, right: 150, top: 34, bottom: 46 };
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];

export function logLogChart(title: string, xLabel: string, yLabel: string, series: Series[]): string {
  const pts = series.flatMap((s) => s.points).filter(([x, y]) => x > 0 && y > 0);
  if (pts.length === 0) return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><text x="20" y="40">${esc(title)}: no data</text></svg>\n`;
  const [x0, x1] = decades(pts.map((p) => p[0]));
  const [y0, y1] = decades(pts.map((p) => p[1]));
  const px = (x: number) => PAD.left + ((Math.log10(x) - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const py = (y: number) => H - PAD.bottom - ((Math.log10(y) - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom);
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`];
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`, `<text x="${PAD.left}" y="18" font-size="13" font-weight="bold">${esc(title)}</text>`);
  for (let d = x0; d <= x1; d++) out.push(`<line x1="${px(10 ** d)}" x2="${px(10 ** d)}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="#ddd"/><text x="${px(10 ** d)}" y="${H - PAD.bottom + 14}" text-anchor="middle">${fmt(10 ** d)}</text>`);
  for (let d = y0; d <= y1; d++) out.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${py(10 ** d)}" y2="${py(10 ** d)}" stroke="#ddd"/><text x="${PAD.left - 6}" y="${py(10 ** d) + 4}" text-anchor="end">${fmt(10 ** d)}</text>`);
  out.push(`<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 10}" text-anchor="middle">${esc(xLabel)}</text>`);
  out.push(`<text transform="translate(16 ${(PAD.top + H - PAD.bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`);
  series.forEach((s, i) => {
    const c = COLOURS[(s.colour ?? i) % COLOURS.length];
    const ok = s.points.filter(([x, y]) => x > 0 && y > 0);
    if (ok.length) out.push(`<polyline fill="none" stroke="${c}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''} points="${ok.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ')}"/>`);
    for (const [x, y] of ok) out.push(`<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3" fill="${c}"/>`);
    const ly = PAD.top + 8 + i * 18;
    out.push(`<line x1="${W - PAD.right + 10}" x2="${W - PAD.right + 34}" y1="${ly}" y2="${ly}" stroke="${c}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/><text x="${W - PAD.right + 40}" y="${ly + 4}">${esc(s.label)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

/** Whole decades around the values (at least one). */
function decades(xs: number[]): [number, number] {
  const lo = Math.floor(Math.log10(Math.min(...xs)));
  const hi = Math.ceil(Math.log10(Math.max(...xs)));
  return [lo, Math.max(hi, lo + 1)];
}

const fmt = (x: number) => (x >= 1000 ? `${x / 1000}k` : x >= 1 ? String(x) : x.toPrecision(1));
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
