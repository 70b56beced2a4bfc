import type { FC } from 'hono/jsx';

/**
 * Charts drawn on the server as SVG (no chart library, no script): a stacked bar per day, and one
 * horizontal bar per row. Each bar carries a <title> (the browser's tooltip), and every chart has its
 * numbers in a table beside it for people who would rather read.
 */

const PALETTE = ['#1565c0', '#2e7d32', '#ef6c00', '#6a1b9a', '#00838f', '#ad1457', '#827717', '#4e342e', '#37474f', '#5d4037'];
const BAD = '#c62828';
const GOOD = '#2e7d32';

/** A stable colour per series name: failures red, completions green, the rest from the palette. */
export function seriesColor(name: string, index: number): string {
  if (/fail|error|cancel|lost|expired|reject/.test(name)) return BAD;
  if (/^(completed|delivered|approved)$/.test(name)) return GOOD;
  return PALETTE[index % PALETTE.length]!;
}

export interface DaySeries {
  /** Every day of the window, oldest first (YYYY-MM-DD). */
  days: string[];
  series: { name: string; values: number[] }[];
}

/** The last `n` UTC days ending today, oldest first. */
export function lastDays(n: number, now = new Date()): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: n }, (_, i) => new Date(today - (n - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

/** Rows of (day, category, n) into one series per category over every day of the window (missing days are 0). */
export function toDaySeries(rows: { day: string; key: string; n: number }[], days: string[]): DaySeries {
  const index = new Map(days.map((d, i) => [d, i]));
  const byKey = new Map<string, number[]>();
  for (const r of rows) {
    const i = index.get(r.day);
    if (i === undefined) continue;
    let values = byKey.get(r.key);
    if (!values) byKey.set(r.key, (values = days.map(() => 0)));
    values[i]! += r.n;
  }
  const series = [...byKey.entries()]
    .map(([name, values]) => ({ name, values }))
    .sort((a, b) => b.values.reduce((x, y) => x + y, 0) - a.values.reduce((x, y) => x + y, 0) || a.name.localeCompare(b.name));
  return { days, series };
}

const W = 760;
const H = 220;
const M = { left: 42, right: 10, top: 12, bottom: 34 };

/** Stacked bars, one per day; a legend with each series' total; the numbers in a collapsible table. */
export const StackedDayChart: FC<{ id: string; label: string; data: DaySeries; unit: string }> = ({ id, label, data, unit }) => {
  const { days, series } = data;
  const totals = days.map((_, i) => series.reduce((s, x) => s + x.values[i]!, 0));
  // An even whole-number top, so the middle tick is a whole number too.
  const max = 2 * Math.ceil(Math.max(1, ...totals) / 2);
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const step = plotW / Math.max(1, days.length);
  const barW = Math.max(2, step * 0.75);
  const y = (v: number) => M.top + plotH - (v / max) * plotH;
  const labelEvery = Math.ceil(days.length / 10);
  const colors = series.map((s, i) => seriesColor(s.name, i));
  return (
    <figure class="chart" id={id}>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={label}>
        {[0, 0.5, 1].map((f) => (
          <g>
            <line x1={M.left} x2={W - M.right} y1={y(max * f)} y2={y(max * f)} stroke="#e3e6eb" />
            <text x={M.left - 6} y={y(max * f) + 4} text-anchor="end" font-size="11" fill="#6b7487">
              {max * f}
            </text>
          </g>
        ))}
        {days.map((day, i) => {
          let acc = 0;
          const x = M.left + i * step + (step - barW) / 2;
          return (
            <g>
              {series.map((s, k) => {
                const v = s.values[i]!;
                if (!v) return null;
                const top = y(acc + v);
                const height = y(acc) - top;
                acc += v;
                return (
                  <rect x={x} y={top} width={barW} height={Math.max(1, height)} fill={colors[k]} data-series={s.name} data-day={day} data-n={v}>
                    <title>{`${day} · ${s.name}: ${v} ${unit}`}</title>
                  </rect>
                );
              })}
              {i % labelEvery === 0 && (
                <text x={x + barW / 2} y={H - M.bottom + 16} text-anchor="middle" font-size="11" fill="#6b7487">
                  {day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        {series.length === 0 ? (
          <span class="muted">Nothing in this window.</span>
        ) : (
          series.map((s, k) => (
            <span class="legend">
              <span class="swatch" style={`background:${colors[k]}`}></span>
              {s.name} <span class="muted">{s.values.reduce((a, b) => a + b, 0)}</span>
            </span>
          ))
        )}
      </figcaption>
      {series.length > 0 && (
        <details>
          <summary>Numbers</summary>
          <table class="chart-data">
            <thead>
              <tr>
                <th>Day</th>
                {series.map((s) => (
                  <th>{s.name}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((d, i) =>
                totals[i] ? (
                  <tr>
                    <td class="mono">{d}</td>
                    {series.map((s) => (
                      <td>{s.values[i]}</td>
                    ))}
                  </tr>
                ) : null,
              )}
            </tbody>
          </table>
        </details>
      )}
    </figure>
  );
};

export interface BarRow {
  /** What the row stands for (an endpoint's id): two rows may share a label, never an id. */
  id: string;
  label: string;
  /** 0…max */
  value: number | null;
  text: string;
  color: string;
  /** A second, thinner mark (e.g. p95 beside p50). */
  mark?: number | null;
}

/** One horizontal bar per row, all on one scale (`max`); rows without a value show their text only. */
export const BarRowsChart: FC<{ id: string; label: string; rows: BarRow[]; max: number }> = ({ id, label, rows, max }) => {
  const rowH = 22;
  const labelW = 300;
  const barMax = W - labelW - 170;
  const h = Math.max(rowH, rows.length * rowH) + 4;
  const scale = (v: number) => (Math.min(v, max) / Math.max(max, 1e-9)) * barMax;
  return (
    <figure class="chart" id={id}>
      <svg viewBox={`0 0 ${W} ${h}`} width={W} height={h} role="img" aria-label={label}>
        {rows.map((r, i) => {
          const top = i * rowH + 4;
          return (
            <g data-row={r.label} data-id={r.id}>
              <text x={labelW - 8} y={top + 14} text-anchor="end" font-size="12" fill="#1d2330">
                {r.label.length > 46 ? `${r.label.slice(0, 45)}…` : r.label}
              </text>
              <rect x={labelW} y={top + 3} width={barMax} height={rowH - 8} fill="#eef0f4" />
              {r.value !== null && (
                <rect x={labelW} y={top + 3} width={Math.max(1, scale(r.value))} height={rowH - 8} fill={r.color}>
                  <title>{`${r.label}: ${r.text}`}</title>
                </rect>
              )}
              {r.mark != null && <rect x={labelW + scale(r.mark) - 1} y={top} width={2} height={rowH - 2} fill="#1d2330" />}
              <text x={labelW + barMax + 8} y={top + 14} font-size="12" fill="#4a5468">
                {r.text}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
};

export { BAD, GOOD };
