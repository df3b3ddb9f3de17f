// Small line charts for the benchmark docs: an SVG drawn here (axes with units, ticks, legend, an optional shaded
// x-range) rendered to PNG by @resvg/resvg-js with the system's fonts (DejaVu Sans on Debian).
import { writeFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';

export interface Series {
  name: string;
  color: string;
  points: [x: number, y: number][];
  /** Dashed line (for a secondary series). */
  dashed?: boolean;
}

export interface LineChart {
  title: string;
  subtitle?: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** Shaded x-range with a label (e.g. the steady state a verdict is computed over). */
  band?: { from: number; to: number; label: string };
  /** Y axis starts at 0 unless told otherwise (a flat line then looks flat, not magnified noise). */
  yFromZero?: boolean;
}

const WIDTH = 760;
const HEIGHT = 380;
const MARGIN = { left: 78, right: 24, top: 62, bottom: 56 };
const FONT = 'DejaVu Sans, Liberation Sans, Arial, sans-serif';

/** Round tick step (1, 2 or 5 × 10^k) giving about `count` ticks over `span`. */
function niceStep(span: number, count: number): number {
  if (!(span > 0)) return 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const mantissa = raw / power;
  return (mantissa <= 1 ? 1 : mantissa <= 2 ? 2 : mantissa <= 5 ? 5 : 10) * power;
}

function ticks(min: number, max: number, count: number): number[] {
  const step = niceStep(max - min, count);
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

const escapeXml = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const label = (v: number) => (Math.abs(v) >= 1000 ? v.toLocaleString('en-US') : String(Number(v.toPrecision(6))));

export function lineChartSvg(chart: LineChart): string {
  const all = chart.series.flatMap((s) => s.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const xs = all.map(([x]) => x);
  const ys = all.map(([, y]) => y);
  const xMin = xs.length ? Math.min(...xs) : 0;
  const xMax = xs.length ? Math.max(...xs, xMin + 1e-9) : 1;
  let yMin = chart.yFromZero === false && ys.length ? Math.min(...ys) : 0;
  let yMax = ys.length ? Math.max(...ys) : 1;
  if (yMax <= yMin) yMax = yMin + 1;
  const pad = (yMax - yMin) * 0.08;
  yMax += pad;
  if (chart.yFromZero === false) yMin = Math.max(0, yMin - pad);
  const yTicks = ticks(yMin, yMax, 5);
  yMax = Math.max(yMax, yTicks.at(-1) ?? yMax);
  const xTicks = ticks(xMin, xMax, 8);

  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const px = (x: number) => MARGIN.left + ((x - xMin) / (xMax - xMin || 1)) * plotW;
  const py = (y: number) => MARGIN.top + plotH - ((y - yMin) / (yMax - yMin || 1)) * plotH;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="${FONT}">`);
  out.push(`<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`);
  out.push(`<text x="${MARGIN.left}" y="24" font-size="16" font-weight="bold" fill="#111">${escapeXml(chart.title)}</text>`);
  if (chart.subtitle) out.push(`<text x="${MARGIN.left}" y="42" font-size="11" fill="#555">${escapeXml(chart.subtitle)}</text>`);
  if (chart.band) {
    const x1 = px(Math.max(xMin, chart.band.from));
    const x2 = px(Math.min(xMax, chart.band.to));
    out.push(`<rect x="${x1}" y="${MARGIN.top}" width="${Math.max(0, x2 - x1)}" height="${plotH}" fill="#eef3fb"/>`);
    out.push(`<text x="${x1 + 4}" y="${MARGIN.top + 13}" font-size="10" fill="#5b7bb0">${escapeXml(chart.band.label)}</text>`);
  }
  for (const t of yTicks) {
    out.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${py(t)}" y2="${py(t)}" stroke="#e3e3e3"/>`);
    out.push(`<text x="${MARGIN.left - 6}" y="${py(t) + 4}" font-size="11" text-anchor="end" fill="#333">${label(t)}</text>`);
  }
  for (const t of xTicks) {
    out.push(`<line x1="${px(t)}" x2="${px(t)}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH + 4}" stroke="#333"/>`);
    out.push(`<text x="${px(t)}" y="${MARGIN.top + plotH + 17}" font-size="11" text-anchor="middle" fill="#333">${label(t)}</text>`);
  }
  out.push(`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333"/>`);
  out.push(`<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 12}" font-size="12" text-anchor="middle" fill="#111">${escapeXml(chart.xLabel)}</text>`);
  out.push(
    `<text transform="translate(18 ${MARGIN.top + plotH / 2}) rotate(-90)" font-size="12" text-anchor="middle" fill="#111">${escapeXml(chart.yLabel)}</text>`,
  );
  for (const s of chart.series) {
    const pts = s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
    if (pts.length === 0) continue;
    const d = pts.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
    out.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    for (const [x, y] of pts.length <= 60 ? pts : []) out.push(`<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="2.5" fill="${s.color}"/>`);
  }
  // Legend: one row above the plot, right-aligned.
  let lx = WIDTH - MARGIN.right;
  for (const s of [...chart.series].reverse()) {
    const w = 26 + s.name.length * 6.6;
    lx -= w;
    out.push(
      `<line x1="${lx}" x2="${lx + 18}" y1="${MARGIN.top - 9}" y2="${MARGIN.top - 9}" stroke="${s.color}" stroke-width="3"${s.dashed ? ' stroke-dasharray="5 3"' : ''}/>`,
    );
    out.push(`<text x="${lx + 22}" y="${MARGIN.top - 5}" font-size="11" fill="#222">${escapeXml(s.name)}</text>`);
  }
  out.push('</svg>');
  return out.join('\n');
}

/** Renders the chart to a PNG file. */
export function writeLineChartPng(file: string, chart: LineChart): void {
  const png = new Resvg(lineChartSvg(chart), { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render().asPng();
  writeFileSync(file, png);
}
