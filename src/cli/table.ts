/**
 * Plain text tables for people: `score --format table`, the closing summary, the demo's terminal view.
 * Columns fit a given width (the terminal's): columns keep their natural width when everything fits,
 * otherwise the flexible ones (excerpts, reasons) share what is left in proportion to their weight, and a
 * cell that does not fit is cut with `…`. Widths count code points (East Asian wide characters and emoji
 * count as one, so such text can overrun a little).
 */

export interface Column {
  header: string;
  /** Never narrower than this (default: the header's length, at most 12). */
  min?: number;
  /** Never wider than this (default: unbounded). */
  max?: number;
  /** Share of the spare width when the table must shrink (0: keeps its natural width; default 0). */
  weight?: number;
  align?: 'left' | 'right';
}

const GAP = '  ';

/** The width of `s` in code points. */
export function textWidth(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** `s` cut to at most `width` code points, with `…` when cut. */
export function cut(s: string, width: number): string {
  if (width <= 0) return '';
  if (textWidth(s) <= width) return s;
  const chars = Array.from(s);
  return `${chars.slice(0, Math.max(0, width - 1)).join('').trimEnd()}…`;
}

/** Column widths for `rows` within `width` characters (see the module comment). */
export function fitWidths(columns: readonly Column[], rows: readonly (readonly string[])[], width: number): number[] {
  const natural = columns.map((c, i) => {
    const widest = Math.max(textWidth(c.header), ...rows.map((r) => textWidth(r[i] ?? '')));
    return Math.min(widest, c.max ?? Infinity);
  });
  const gaps = GAP.length * Math.max(0, columns.length - 1);
  const total = natural.reduce((a, b) => a + b, 0) + gaps;
  if (total <= width) return natural;
  const mins = columns.map((c, i) => Math.min(natural[i] ?? 0, c.min ?? Math.min(textWidth(c.header), 12)));
  const weights = columns.map((c) => c.weight ?? 0);
  const fixed = natural.reduce((sum, w, i) => sum + ((weights[i] ?? 0) > 0 ? 0 : w), 0);
  let spare = width - gaps - fixed;
  const out = natural.slice();
  const flexible = columns.map((_, i) => i).filter((i) => (weights[i] ?? 0) > 0);
  // Give each flexible column its share, capped at its natural width; hand what is left to the others.
  let open = flexible.slice();
  for (const i of flexible) out[i] = mins[i] ?? 0;
  spare -= flexible.reduce((sum, i) => sum + (mins[i] ?? 0), 0);
  while (spare > 0 && open.length > 0) {
    const weightSum = open.reduce((s, i) => s + (weights[i] ?? 0), 0);
    let handed = 0;
    const still: number[] = [];
    for (const i of open) {
      const share = Math.max(1, Math.floor((spare * (weights[i] ?? 0)) / weightSum));
      const room = (natural[i] ?? 0) - (out[i] ?? 0);
      const give = Math.min(share, room, spare - handed);
      out[i] = (out[i] ?? 0) + give;
      handed += give;
      if ((out[i] ?? 0) < (natural[i] ?? 0)) still.push(i);
    }
    spare -= handed;
    if (handed === 0) break;
    open = still;
  }
  if (spare < 0) {
    // Even the flexible minimums do not fit: shrink the fixed columns to their minimums too.
    let over = -spare;
    for (let i = 0; i < out.length && over > 0; i++) {
      if ((weights[i] ?? 0) > 0) continue;
      const take = Math.min(over, (out[i] ?? 0) - (mins[i] ?? 0));
      out[i] = (out[i] ?? 0) - take;
      over -= take;
    }
  }
  return out;
}

/**
 * The table as text lines (header first), fitted to `width` (default: unbounded), each line ending in `\n`.
 *
 * @example
 * ```ts
 * formatTable([{ header: 'AGENT' }, { header: 'SCORE', align: 'right' }], [['weather', '0.50']], 80);
 * // 'AGENT    SCORE\nweather   0.50\n'
 * ```
 */
export function formatTable(columns: readonly (Column | string)[], rows: readonly (readonly string[])[], width = Infinity): string {
  const cols: Column[] = columns.map((c) => (typeof c === 'string' ? { header: c } : c));
  const clean = rows.map((r) => r.map((cell) => cell.replace(/\p{Cc}+/gu, ' ')));
  const widths = fitWidths(cols, clean, width);
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => {
        const w = widths[i] ?? 0;
        const text = cut(cell, w);
        const pad = ' '.repeat(Math.max(0, w - textWidth(text)));
        return cols[i]?.align === 'right' ? pad + text : text + pad;
      })
      .join(GAP)
      .trimEnd();
  return [line(cols.map((c) => c.header)), ...clean.map(line)].join('\n') + '\n';
}

/** The terminal width to fit: `stream.columns` on a TTY, else 120. */
export function terminalWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout): number {
  return stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 20 ? stream.columns : 120;
}
