/**
 * The numeric evidence of a run, built once per run: every number a tool returned (or was called with), read
 * with the unit and scale its key names (`temp_f`, `p99_ms`, `estimate_cents`, `error_rate`), plus the values
 * a model may derive from them: the length of a list, how many records of a list share a value, the sum of a
 * list's column, and the sum, difference, product and ratio of two numbers of one record.
 *
 * `numberSupport` asks whether any of these, under a normalisation a good answer may apply (sign, scale,
 * a unit conversion through js-quantities, rounding the answer signals or that keeps 2–3 significant digits),
 * is the number the answer wrote. A number so supported is never a contradiction (docs/scorers.md,
 * `claim-grounding`).
 */
import Qty from 'js-quantities';
import { contentWords, keyWords, parseJsonString, withoutDenominator } from './sources.js';
import { singular, type NumberSpecific } from './specifics.js';

/** Where a number of the evidence comes from, for reasons. */
export interface NumberEvidence {
  value: number;
  /** js-quantities unit its key names (`tempF`, `ms`, `kph`), when one. */
  unit?: string;
  /** Amounts in cents (`_cents`, `pence`). */
  cents: boolean;
  /** A fraction that reads as a percentage (`error_rate: 0.0031`, `humidity: 0.81`). */
  fraction: boolean;
  /** Key words (singular) of the slot, and for derived values the words that name what was counted. */
  words: readonly string[];
  /** Counts that name any noun: a list's length, `total`, `count`. */
  anyNoun: boolean;
  /** The currency its key or its record names (`amountEur`, `{ amount, currency: "EUR" }`). */
  currency?: string;
  /** The record it sits in; its values' words (`Evanston`, an id) tell which record of a list it is (`recordWords`). */
  record?: Record<string, unknown>;
  source: string;
  path: string;
  /** How it was derived (`length`, `count`, `sum`, `mean`, `+`, `−`, `×`, `÷`, `× (1 −)`, `× %`, `time`), for derived values; `path` is its first operand's. */
  derived?: string;
}

/** Key words that name a unit, mapped to js-quantities units. */
const KEY_UNIT: Readonly<Record<string, string>> = {
  c: 'tempC', celsius: 'tempC', f: 'tempF', fahrenheit: 'tempF', kelvin: 'tempK',
  kmh: 'kph', kph: 'kph', mph: 'mph', mps: 'm/s', knot: 'knot', kn: 'knot', kt: 'knot',
  ms: 'ms', milli: 'ms', millis: 'ms', millisecond: 'ms', sec: 's', second: 's', secs: 's',
  min: 'min', mins: 'min', minute: 'min', hr: 'h', hrs: 'h', hour: 'h', day: 'd', week: 'wk',
  km: 'km', mi: 'mi', mile: 'mi', meter: 'm', metre: 'm', ft: 'ft', feet: 'ft', foot: 'ft', cm: 'cm', mm: 'mm', inch: 'in',
  kg: 'kg', gram: 'g', lb: 'lb', lbs: 'lb', oz: 'oz', kb: 'kB', mb: 'MB', gb: 'GB', tb: 'TB',
  sqft: 'ft^2', sqm: 'm^2', m2: 'm^2', ft2: 'ft^2', liter: 'l', litre: 'l', ml: 'ml', gal: 'gal', gallon: 'gal',
};

/** The answer's written unit (specifics' `unit`) as a js-quantities unit. */
const ANSWER_UNIT: Readonly<Record<string, string>> = {
  C: 'tempC', F: 'tempF', s: 's', ms: 'ms', min: 'min', h: 'h', day: 'd', night: 'd', week: 'wk', km: 'km', mi: 'mi', m: 'm', cm: 'cm',
  kg: 'kg', g: 'g', lb: 'lb', 'km/h': 'kph', mph: 'mph', 'm/s': 'm/s', ft: 'ft', 'ft^2': 'ft^2', 'm^2': 'm^2', kB: 'kB', MB: 'MB', GB: 'GB', TB: 'TB',
};

const CURRENCY_WORDS: ReadonlySet<string> = new Set(['usd', 'eur', 'gbp', 'chf', 'jpy', 'cad', 'aud', 'inr', 'mxn', 'brl', 'sek', 'nok', 'dkk', 'pln', 'cny']);
const CURRENCY_KEYS: ReadonlySet<string> = new Set(['currency', 'currency_code', 'currencyCode', 'ccy']);
const PERCENT_WORDS: ReadonlySet<string> = new Set(['pct', 'percent', 'percentage']);
const CENT_WORDS: ReadonlySet<string> = new Set(['cent', 'cents', 'pence', 'penny']);
/** Keys of a multiplier that is not a count: an exchange rate, a discount. */
const RATE_WORDS: ReadonlySet<string> = new Set(['rate', 'fx', 'exchange', 'multiplier', 'factor', 'discount', 'off', 'markup', 'tax', 'vat', 'tip']);
const FRACTION_WORDS: ReadonlySet<string> = new Set(['rate', 'ratio', 'fraction', 'probability', 'chance', 'share', 'humidity', 'utilization', 'utilisation', 'usage', 'pct', 'percent', 'percentage', 'apr', 'apy', 'interest', 'discount', 'uptime', 'availability', 'precipitation', 'pop']);
/** Keys that count whatever the answer calls the things counted. */
const COUNT_WORDS: ReadonlySet<string> = new Set(['total', 'count', 'num', 'number', 'result', 'match', 'size', 'length', 'hit', 'found']);

/** Bounds: numbers per record paired, records per list read, derived values per run. */
const MAX_PAIRED = 12;
const MAX_LIST = 200;
const MAX_DERIVED = 4000;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);


/** A numeric string (`"14.99"`, `"-3"`), as a number. */
function numericString(s: string): number | undefined {
  const t = s.trim();
  if (!/^-?\d+(?:\.\d+)?$/.test(t)) return undefined;
  return Number(t);
}

/** Content words of a record's own string values (not its keys, not nested records), read when first asked for. */
const RECORD_WORDS = new WeakMap<object, ReadonlySet<string>>();
function recordWords(obj: Record<string, unknown>): ReadonlySet<string> {
  const known = RECORD_WORDS.get(obj);
  if (known) return known;
  const out = new Set<string>();
  RECORD_WORDS.set(obj, out);
  for (const v of Object.values(obj)) if (typeof v === 'string' && v.length <= 200 && numericString(v) === undefined) for (const w of contentWords(v)) out.add(w);
  return out;
}

/** The currency a record names in a `currency` field (`"EUR"`). */
function recordCurrency(obj: Record<string, unknown>): string | undefined {
  for (const k of CURRENCY_KEYS) {
    const v = obj[k];
    if (typeof v === 'string' && /^[A-Za-z]{3}$/.test(v.trim())) return v.trim().toUpperCase();
  }
  return undefined;
}

/** The unit a key names: its last unit word, the word after a `per` left out (`excess_rate_cents_per_km` is money). */
function unitOfKey(all: readonly string[]): string | undefined {
  const words = withoutDenominator(all);
  for (let i = words.length - 1; i >= 0; i--) {
    const u = KEY_UNIT[words[i] as string];
    if (u) return u;
  }
  return undefined;
}

/** The numbers of one run's tools, direct and derived. */
export class Evidence {
  readonly numbers: NumberEvidence[] = [];
  #derived = 0;

  /** ISO timestamps and dates the tools returned, in milliseconds. */
  readonly #times: { ms: number; source: string; path: string }[] = [];

  constructor(tools: readonly { toolName: string; args?: unknown; result: unknown }[]) {
    for (const t of tools) {
      const args: NumberEvidence[] = [];
      if (isObject(t.args)) this.#record(t.args, t.toolName, 'args', args, 0);
      const result = typeof t.result === 'string' ? (parseJsonString(t.result) ?? t.result) : t.result;
      this.#walk(result, t.toolName, '', [], 0, args);
    }
    this.#crossProducts();
    this.#timeDifferences();
  }

  /**
   * Amounts times the run's multipliers wherever they sit: a count (18 seats, 2 nights, 3 items) or a rate
   * (an exchange rate, a discount: 69.99 × 0.8, 89.99 × 0.25). Bounded by MAX_DERIVED.
   */
  #crossProducts(): void {
    const direct = this.numbers.filter((e) => e.derived === undefined);
    // How far one amount of the run is above or below another, as a share of it, across tools too (a
    // forecast 9.9 % over the budget another call returned).
    const money = direct.filter((e) => e.cents || e.currency !== undefined || e.words.some((w) => MONEY_WORDS.has(w))).slice(0, 12);
    for (let i = 0; i < money.length && !this.#full; i++) {
      for (let j = 0; j < money.length; j++) {
        const a = money[i] as NumberEvidence;
        const b = money[j] as NumberEvidence;
        if (i === j || a.source === b.source || b.value === 0 || a.cents !== b.cents) continue;
        this.#add({ value: Math.abs(a.value - b.value) / Math.abs(b.value), cents: false, fraction: true, words: [...a.words, ...b.words], anyNoun: false, source: a.source, path: a.path, derived: 'Δ÷' });
      }
    }
    const multipliers = direct.filter((e) => (Number.isInteger(e.value) && e.value >= 2 && e.value <= 100 && e.unit === undefined && !e.cents) || (e.value > 0 && e.value < 10 && !Number.isInteger(e.value) && e.words.some((w) => RATE_WORDS.has(w))) || (e.fraction && e.value > 0 && e.value < 1)).slice(0, 12);
    const amounts = direct.filter((e) => e.unit === undefined || e.currency !== undefined || e.cents).slice(0, 150);
    for (const m of multipliers) {
      if (this.#full) return;
      for (const a of amounts) {
        if (a === m) continue;
        const base = { cents: a.cents, fraction: false, words: [...a.words, ...m.words], anyNoun: false, source: a.source, path: a.path };
        const tag = (e: NumberEvidence): NumberEvidence => (a.currency ? { ...e, currency: a.currency } : e);
        this.#add(tag({ ...base, value: a.value * m.value, derived: '×' }));
        // A fraction or percentage off: 69.99 × (1 − 0.2).
        const off = m.value < 1 ? m.value : m.value <= 100 && m.words.some((w) => RATE_WORDS.has(w) || FRACTION_WORDS.has(w)) ? m.value / 100 : undefined;
        if (off !== undefined) this.#add(tag({ ...base, value: a.value * (1 - off), derived: '× (1 −)' }));
        if (m.value < 1 || m.value === 100) continue;
        if (off !== undefined) this.#add(tag({ ...base, value: a.value * off, derived: '× %' }));
      }
    }
  }

  /** How far apart two of the tools' times are, in minutes (09:05 → 11:20 is 135 minutes). */
  #timeDifferences(): void {
    const times = this.#times.slice(0, 30);
    for (let i = 0; i < times.length && !this.#full; i++) {
      for (let j = i + 1; j < times.length; j++) {
        const a = times[i] as { ms: number; source: string; path: string };
        const b = times[j] as { ms: number; source: string; path: string };
        this.#add({ value: Math.abs(a.ms - b.ms) / 60000, unit: 'min', cents: false, fraction: false, words: [], anyNoun: false, source: a.source, path: a.path, derived: 'time' });
      }
    }
  }

  #leaf(value: number, key: string, source: string, path: string, recordCurrency?: string, record?: Record<string, unknown>): NumberEvidence {
    const words = keyWords(key).map(singular);
    const unit = unitOfKey(words);
    const named = words.find((w) => CURRENCY_WORDS.has(w));
    const currency = named ? named.toUpperCase() : recordCurrency;
    const e: NumberEvidence = {
      value,
      cents: words.some((w) => CENT_WORDS.has(w)),
      fraction: Math.abs(value) <= 1 && (words.some((w) => FRACTION_WORDS.has(w)) || unit === undefined),
      words,
      anyNoun: words.some((w) => COUNT_WORDS.has(w)),
      source,
      path,
    };
    if (unit) e.unit = unit;
    if (currency) e.currency = currency;
    if (record) e.record = record;
    this.numbers.push(e);
    return e;
  }

  /** The numeric fields of one object (read, not walked deeper). */
  #record(obj: Record<string, unknown>, source: string, path: string, out: NumberEvidence[], depth: number): void {
    for (const [k, v] of Object.entries(obj)) {
      const n = typeof v === 'number' ? v : typeof v === 'string' ? numericString(v) : undefined;
      if (n !== undefined && Number.isFinite(n)) out.push(this.#leaf(n, k, source, path ? `${path}.${k}` : k));
      else if (depth === 0 && isObject(v)) this.#record(v, source, path ? `${path}.${k}` : k, out, depth + 1);
    }
  }

  #walk(value: unknown, source: string, path: string, keyPath: readonly string[], depth: number, extra: readonly NumberEvidence[]): void {
    // `extra`: the parent record's amounts of money, paired with this object's (an item and its modifiers).
    if (depth > 10 || value === null || value === undefined) return;
    if (typeof value === 'string') {
      const parsed = parseJsonString(value);
      if (parsed !== undefined) this.#walk(parsed, source, path, keyPath, depth + 1, extra);
      else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) {
        const ms = Date.parse(value);
        if (Number.isFinite(ms)) this.#times.push({ ms, source, path });
      }
      return;
    }
    if (Array.isArray(value)) {
      this.#list(value, source, path, keyPath);
      // The records of a short list inside a record are paired with that record's amounts (`price_cents` + each of its `modifiers`).
      const inherited = extra.length > 0 && value.length <= MAX_PAIRED ? extra : [];
      value.slice(0, MAX_LIST).forEach((item, i) => this.#walk(item, source, `${path}.${i}`, keyPath, depth + 1, isObject(item) ? inherited : []));
      return;
    }
    if (!isObject(value)) {
      if (typeof value === 'number' && depth === 0) this.#leaf(value, source, source, path);
      return;
    }
    const nums: NumberEvidence[] = [];
    const currency = recordCurrency(value);
    const record = value;
    const nested: [string, unknown][] = [];
    for (const [k, v] of Object.entries(value)) {
      const p = path ? `${path}.${k}` : k;
      const n = typeof v === 'number' ? v : typeof v === 'string' ? numericString(v) : undefined;
      if (n !== undefined && Number.isFinite(n)) nums.push(this.#leaf(n, k, source, p, currency, record));
      else nested.push([k, v]);
    }
    // What is left of a percentage (38 % of fuel left is 62 % to fill).
    for (const e of nums) if (e.value >= 0 && e.value <= 100 && e.words.some((w) => PERCENT_WORDS.has(w))) this.#add({ ...e, value: 100 - e.value, derived: '100 −' });
    // A nested object (not a list) is paired with its parent's amounts of money too: an installment and its
    // promo credit (`monthlyInstallmentCents` − `promoCredit.monthlyCents`).
    const money = nums.filter((e) => e.cents || e.currency !== undefined || e.words.some((w) => MONEY_WORDS.has(w))).slice(0, 4);
    for (const [k, v] of nested) {
      const p = path ? `${path}.${k}` : k;
      this.#walk(v, source, p, [...keyPath, k], depth + 1, isObject(v) || Array.isArray(v) ? money : []);
    }
    this.#pairs([...nums, ...extra].slice(0, MAX_PAIRED), source, path);
  }

  /** No more derived values fit (MAX_DERIVED). */
  get #full(): boolean {
    return this.#derived >= MAX_DERIVED;
  }

  #add(e: NumberEvidence): void {
    if (this.#full) return;
    this.#derived++;
    this.numbers.push(e);
  }

  /** A list: its length, how many records share each short string value, and each numeric column's sum. */
  #list(list: readonly unknown[], source: string, path: string, keyPath: readonly string[]): void {
    const listWords = keyPath.length > 0 ? keyWords(keyPath[keyPath.length - 1] as string).map(singular) : [];
    this.#add({ value: list.length, cents: false, fraction: false, words: listWords, anyNoun: true, source, path, derived: 'length' });
    const byValue = new Map<string, number>();
    const sums = new Map<string, { sum: number; n: number; words: string[] }>();
    for (const item of list.slice(0, MAX_LIST)) {
      if (!isObject(item)) continue;
      for (const [k, v] of Object.entries(item)) {
        if (typeof v === 'string' && v.length <= 40 && numericString(v) === undefined) {
          const key = `${k}\u0000${v.toLowerCase()}`;
          byValue.set(key, (byValue.get(key) ?? 0) + 1);
        } else if (typeof v === 'boolean' && v) {
          byValue.set(`${k}\u0000${k}`, (byValue.get(`${k}\u0000${k}`) ?? 0) + 1);
        } else if (typeof v === 'number' && Number.isFinite(v)) {
          const s = sums.get(k) ?? { sum: 0, n: 0, words: keyWords(k).map(singular) };
          s.sum += v;
          s.n += 1;
          sums.set(k, s);
        }
      }
    }
    for (const [key, n] of byValue) {
      const [k, v] = key.split('\u0000') as [string, string];
      const words = [...listWords, ...keyWords(k).map(singular), ...v.split(/[^\p{L}\p{N}]+/u).filter(Boolean).map(singular)];
      this.#add({ value: n, cents: false, fraction: false, words, anyNoun: false, source, path, derived: 'count' });
    }
    for (const s of sums.values()) {
      if (s.n < 2) continue;
      const unit = unitOfKey(s.words);
      const e: NumberEvidence = { value: s.sum, cents: s.words.some((w) => CENT_WORDS.has(w)), fraction: false, words: s.words, anyNoun: false, source, path, derived: 'sum' };
      if (unit) e.unit = unit;
      this.#add(e);
      this.#add({ ...e, value: s.sum / s.n, derived: 'mean' });
    }
  }

  /** Sums, differences, products and ratios of two numbers of one record. */
  #pairs(nums: readonly NumberEvidence[], source: string, path: string): void {
    for (let i = 0; i < nums.length && !this.#full; i++) {
      for (let j = i + 1; j < nums.length; j++) {
        const a = nums[i] as NumberEvidence;
        const b = nums[j] as NumberEvidence;
        const cents = a.cents || b.cents;
        const words = [...a.words, ...b.words];
        const base = { cents, fraction: false, words, anyNoun: false, source, path };
        const currency = a.currency ?? b.currency;
        const tag = (e: NumberEvidence, unit: string | undefined): NumberEvidence => {
          if (unit) e.unit = unit;
          if (currency) e.currency = currency;
          return e;
        };
        // Sums and differences only of one kind (same unit, same currency, both or neither in cents).
        if (a.unit === b.unit && a.cents === b.cents && (a.currency === undefined || b.currency === undefined || a.currency === b.currency)) {
          this.#add(tag({ ...base, value: a.value + b.value, derived: '+' }, a.unit));
          this.#add(tag({ ...base, value: Math.abs(a.value - b.value), derived: '−' }, a.unit));
          if (b.value !== 0) this.#add({ ...base, cents: false, value: a.value / b.value, fraction: true, derived: '÷' });
          if (a.value !== 0) this.#add({ ...base, cents: false, value: b.value / a.value, fraction: true, derived: '÷' });
          // How much one is above or below the other, as a share of it (a forecast 9.9 % over its budget).
          if (b.value !== 0) this.#add({ ...base, cents: false, value: Math.abs(a.value - b.value) / Math.abs(b.value), fraction: true, derived: 'Δ÷' });
          if (a.value !== 0) this.#add({ ...base, cents: false, value: Math.abs(a.value - b.value) / Math.abs(a.value), fraction: true, derived: 'Δ÷' });
        }
        // A quantity times (or per) a plain count keeps the quantity's unit: 2 nights × €184, $240 / 5 seats.
        // Never two amounts of money (a price times a price means nothing).
        const moneyA = a.cents || a.currency !== undefined || a.words.some((w) => MONEY_WORDS.has(w));
        const moneyB = b.cents || b.currency !== undefined || b.words.some((w) => MONEY_WORDS.has(w));
        if ((a.unit === undefined || b.unit === undefined) && !(moneyA && moneyB)) {
          const unit = a.unit ?? b.unit;
          this.#add(tag({ ...base, value: a.value * b.value, derived: '×' }, unit));
          if (b.unit === undefined && b.value !== 0 && a.unit === unit) this.#add(tag({ ...base, cents: a.cents, value: a.value / b.value, derived: '÷' }, unit));
          if (a.unit === undefined && a.value !== 0 && b.unit === unit) this.#add(tag({ ...base, cents: b.cents, value: b.value / a.value, derived: '÷' }, unit));
        }
      }
    }
  }
}

/** The answer's number as written (in its own unit) and that unit for js-quantities. */
export function written(a: NumberSpecific): { value: number; unit?: string } {
  const perFactor = a.dim === 'duration' || a.dim === 'length' || a.dim === 'mass' || a.dim === 'speed';
  const value = perFactor && a.factor !== 0 ? a.value / a.factor : a.value;
  const unit = a.unit ? ANSWER_UNIT[a.unit] : undefined;
  return unit ? { value, unit } : { value };
}

/** Half the last digit the answer wrote, widened for rounding it signals or that keeps 2–3 significant digits. */
export function tolerance(a: NumberSpecific, w: number): number {
  const scale = a.scale ?? 1;
  let step = 10 ** -a.decimals * scale;
  if (a.decimals === 0) {
    const digits = String(Math.round(Math.abs(w / scale)));
    const zeros = /0*$/.exec(digits)?.[0].length ?? 0;
    if (zeros > 0 && digits.length - zeros >= 2) step = Math.max(step, 10 ** zeros * scale);
  }
  if (a.approx) return Math.max(step, Math.abs(w) * 0.1);
  return step / 2 + 1e-9 * Math.max(1, Math.abs(w));
}

/** Unit converters by `from>to`, made once (js-quantities' swift converters); null for units that do not convert. */
const CONVERTERS = new Map<string, ((v: number) => number) | null>();

function converter(from: string, to: string): ((v: number) => number) | null {
  const key = `${from}>${to}`;
  let f = CONVERTERS.get(key);
  if (f === undefined) {
    try {
      f = Qty.swiftConverter(from, to);
    } catch {
      f = null;
    }
    CONVERTERS.set(key, f);
  }
  return f;
}

export function convert(value: number, from: string, to: string): number | undefined {
  if (from === to) return value;
  const f = converter(from, to);
  if (f === null) return undefined;
  try {
    return f(value);
  } catch {
    // a value the unit cannot hold (a temperature below absolute zero)
    return undefined;
  }
}

/** Whether two units measure the same kind of thing (`kph` and `mph`), known once per pair. */
const convertible = (from: string, to: string): boolean => from === to || converter(from, to) !== null;

/**
 * Calls `visit` with each value of one piece of evidence an answer in `unit` (and dimension `a.dim`) may have
 * written, until it returns true; returns whether one did. No array is made: this runs for every piece of
 * evidence against every number of an answer.
 */
function someReading(e: NumberEvidence, a: NumberSpecific, unit: string | undefined, visit: (v: number, converted: boolean) => boolean): boolean {
  if (a.dim === 'money' && a.unit && e.currency && e.currency !== a.unit) return false;
  // A debit shown as a charge: the sign of money only (a temperature's sign is never dropped).
  const signs = e.value < 0 && (a.dim === 'money' || a.dim === undefined || a.dim === 'count') ? 2 : 1;
  for (let i = 0; i < signs; i++) {
    const v = i === 0 ? e.value : -e.value;
    if (unit && e.unit) {
      const c = convert(v, e.unit, unit);
      if (c !== undefined && visit(c, e.unit !== unit)) return true;
      continue;
    }
    if (visit(v, false)) return true;
    if (a.dim === 'money' && (e.cents || (Number.isInteger(v) && Math.abs(v) >= 100 && e.unit === undefined)) && visit(v / 100, false)) return true;
    if (a.dim === 'percent' && e.fraction && visit(v * 100, false)) return true;
  }
  return false;
}

/** Small whole numbers name too many things: they need a word of the claim in the evidence's words. */
function needsWords(a: NumberSpecific, w: number): boolean {
  return (a.dim === undefined || a.dim === 'count') && Number.isInteger(w) && Math.abs(w) <= 12;
}

/**
 * The evidence that supports the answer's number, if any.
 *
 * @example
 * ```ts
 * numberSupport(specificOf('$4,823.50'), new Evidence([{ toolName: 'quote', result: { estimate_cents: 482350 } }]), new Set());
 * ```
 */
export function numberSupport(a: NumberSpecific, evidence: Evidence, claimWords: ReadonlySet<string>): NumberEvidence | undefined {
  const w = written(a);
  const tol = tolerance(a, w.value);
  // A converted figure may be cut rather than rounded (170 km → "105 mi"): the whole last digit either way.
  const convertedTol = Math.max(tol, 2 * tol - 1e-9 * Math.max(1, Math.abs(w.value)));
  const small = needsWords(a, w.value);
  for (const e of evidence.numbers) {
    if (small && !e.anyNoun && !e.words.some((x) => claimWords.has(x))) continue;
    if (someReading(e, a, w.unit, (v, converted) => Math.abs(v - w.value) <= (converted ? convertedTol : tol))) return e;
  }
  return undefined;
}

/** Key words of an amount of money. */
const MONEY_WORDS: ReadonlySet<string> = new Set(['amount', 'price', 'cost', 'fee', 'total', 'subtotal', 'balance', 'charge', 'payment', 'payout', 'refund', 'credit', 'debit', 'deductible', 'premium', 'salary', 'rent', 'hoa', 'tax', 'fare', 'limit', 'spend', 'budget', 'due', 'paid', 'owed', 'estimate', 'value']);

/** Key words too common to tie a number to a slot by themselves. */
const WEAK_KEY_WORDS: ReadonlySet<string> = new Set(['id', 'value', 'data', 'result', 'item', 'info', 'detail', 'type', 'status', 'name', 'code']);

/** Whether the evidence can hold the answer's kind of number (money in money, a speed in a speed). */
function compatible(a: NumberSpecific, unit: string | undefined, e: NumberEvidence): boolean {
  if (unit && e.unit) {
    return convertible(e.unit, unit);
  }
  if (e.unit) return a.dim === undefined;
  if (e.cents || e.currency !== undefined) return a.dim === 'money' || a.dim === undefined;
  if (a.dim === 'money') return e.words.some((w) => MONEY_WORDS.has(w));
  if (a.dim === 'percent') return e.fraction || Math.abs(e.value) > 1;
  // A quantity the answer gives in a unit is not held by a slot that names none.
  return unit === undefined && a.dim !== 'temperature' && a.dim !== 'speed' && a.dim !== 'length' && a.dim !== 'mass';
}

/**
 * The one slot the answer's own words tie its number to: a direct (not derived) number whose key the claim
 * names next to the specific, of a compatible unit; of several (one per record of a list), the one whose record
 * the claim names most. Undefined when none, or when several slots would still fit.
 *
 * @example
 * ```ts
 * numberTie(specificOf('built in 1962'), new Evidence([{ toolName: 't', result: { year_built: 1926 } }]), new Set(['built']));
 * ```
 */
export function numberTie(a: NumberSpecific, evidence: Evidence, near: ReadonlySet<string>, claim: ReadonlySet<string> = new Set(), claimText = ''): NumberEvidence | undefined {
  const w = written(a);
  const found = new Map<string, { e: NumberEvidence; named: number }>();
  for (const e of evidence.numbers) {
    if (e.derived !== undefined) continue;
    if (!e.words.some((x) => !WEAK_KEY_WORDS.has(x) && near.has(x))) continue;
    if (!compatible(a, w.unit, e)) continue;
    // The claim states this slot's own value elsewhere ("62% of the 55-liter tank is about 34 liters"): the
    // number is another quantity, derived or not, and the slot says nothing against it.
    if (statesValue(claimText, e)) continue;
    let named = 0;
    if (e.record) {
      const words = recordWords(e.record);
      for (const x of claim) if (words.has(x)) named++;
    }
    found.set(`${e.source}\u0000${e.path}`, { e, named });
  }
  if (found.size === 1) return [...found.values()][0]?.e;
  // One record of a list, named by the claim (`Evanston, Units in stock: 14`): the slot of that record.
  const most = Math.max(0, ...[...found.values()].map((f) => f.named));
  const named = [...found.values()].filter((f) => f.named === most);
  return most > 0 && named.length === 1 ? named[0]?.e : undefined;
}

/** Whether `text` writes the slot's value as a number (`55`, or `2.89` for 289 cents), not inside a longer one. */
function statesValue(text: string, e: NumberEvidence): boolean {
  if (text === '') return false;
  const forms = [String(Math.abs(e.value))];
  if (e.cents) forms.push((Math.abs(e.value) / 100).toFixed(2), String(Math.abs(e.value) / 100));
  const plain = text.replace(/(?<=\d),(?=\d{3}\b)/gu, '');
  return forms.some((f) => /^\d+(?:\.\d+)?$/.test(f) && plain.includes(f) && new RegExp(`(?<![\\d.])${f.replace('.', '\\.')}(?![\\d]|\\.\\d)`).test(plain));
}

/**
 * An amount the tools hold in another currency (`$129.50` for `amountEur: 129.5`): the same figure with the
 * wrong currency is a contradiction.
 */
export function currencyMismatch(a: NumberSpecific, evidence: Evidence): NumberEvidence | undefined {
  if (a.dim !== 'money' || !a.unit) return undefined;
  const w = written(a);
  const tol = tolerance(a, w.value);
  for (const e of evidence.numbers) {
    if (e.derived !== undefined || !e.currency || e.currency === a.unit) continue;
    if (Math.abs(Math.abs(e.value) - w.value) <= tol) return e;
  }
  return undefined;
}

const SLIP_DERIVED: ReadonlySet<string> = new Set(['+', '−', '×', 'sum', 'length', 'count']);

/** Whether two digit strings differ by one swap of adjacent digits, or (four digits or more) by one digit. */
function swapped(x: string, y: string): boolean {
  if (x.length !== y.length || x === y) return false;
  const diff: number[] = [];
  for (let i = 0; i < x.length && diff.length <= 2; i++) if (x[i] !== y[i]) diff.push(i);
  if (diff.length === 1) return x.length >= 4;
  return diff.length === 2 && diff[1] === (diff[0] as number) + 1 && x[diff[0] as number] === y[diff[1]] && x[diff[1]] === y[diff[0] as number];
}

/** Significant digits of a number (`1562.00` → `1562`, `350` → `35`). */
const significant = (v: number): string => Math.abs(v).toPrecision(12).replace('.', '').replace(/^0+/, '').replace(/0+$/, '');

/**
 * A direct amount the answer's money figure is off from by a power of ten, same digits (`$1,562.00` for
 * `total_cents: 1562000`, which is $15,620; `$350` for `$3,500`).
 */
export function scaleSlip(a: NumberSpecific, evidence: Evidence): NumberEvidence | undefined {
  if (a.dim !== 'money') return undefined;
  const w = written(a);
  const mine = significant(w.value);
  if (mine.length < 2) return undefined;
  for (const e of evidence.numbers) {
    if (e.derived !== undefined || !(e.cents || e.currency !== undefined || e.words.some((x) => MONEY_WORDS.has(x)))) continue;
    const v = Math.abs(e.cents ? e.value / 100 : e.value);
    if (v === 0 || significant(v) !== mine) continue;
    const ratio = w.value / v;
    if ([10, 100, 1000, 0.1, 0.01, 0.001].some((r) => Math.abs(ratio / r - 1) < 1e-6)) return e;
  }
  return undefined;
}

/**
 * A derived value (or any reading of the evidence) the answer's digits are a transposition of: `digits` is the
 * answer's number as written, without separators.
 */
export function transposedEvidence(a: NumberSpecific, evidence: Evidence, digits: string): NumberEvidence | undefined {
  const w = written(a);
  const decimals = Math.max(0, Math.min(a.decimals, 6));
  for (const e of evidence.numbers) {
    // Direct values, sums, differences and products only: a ratio or a mean lands near anything.
    if (e.derived !== undefined && !SLIP_DERIVED.has(e.derived)) continue;
    if (!compatible(a, w.unit, e)) continue;
    if (someReading(e, a, w.unit, (v) => swapped(digits, Math.abs(v / (a.scale ?? 1)).toFixed(decimals).replace('.', '')))) return e;
  }
  return undefined;
}

/**
 * The same figure in another unit of the same kind (`5 weeks` for `days: 5`, `19 mph` for `wind_kmh: 19`):
 * the unit is wrong.
 */
export function unitMismatch(a: NumberSpecific, evidence: Evidence): NumberEvidence | undefined {
  const w = written(a);
  if (!w.unit) return undefined;
  const tol = tolerance(a, w.value);
  for (const e of evidence.numbers) {
    if (e.derived !== undefined || !e.unit || e.unit === w.unit) continue;
    if (Math.abs(e.value - w.value) > tol) continue;
    if (convertible(e.unit, w.unit)) return e;
  }
  return undefined;
}
