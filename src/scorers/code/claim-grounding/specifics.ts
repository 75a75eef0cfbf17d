/**
 * The checkable specifics of a text: numbers with their units (money, percentages, temperatures, durations,
 * counts of things), dates (relative ones resolved against the run's day), times, identifiers, named
 * entities and status words with their negation. Precise regular expressions do the work; matched spans are
 * masked so one piece of text yields one specific.
 */
import { addDays, makeDay, relativeDay } from './dates.js';
import {
  CURRENCY_SYMBOLS,
  ENTITY_CLASS_OF,
  MONTHS,
  NEGATORS,
  NOT_ENTITIES,
  NUMBER_WORDS,
  STATUS_TERMS,
  STATUS_TERM_LIST,
  STOP_WORDS,
  UNIT_WORDS,
  WEEKDAYS,
  type StatusTerm,
  type UnitInfo,
} from './vocabulary.js';

export type Dimension = UnitInfo['dim'] | 'count';

interface Base {
  /** The text as written. */
  text: string;
  /** Index of the claim (sentence) it was found in. */
  claim: number;
  /** Offset of `text` in its claim. */
  at: number;
}

export interface NumberSpecific extends Base {
  kind: 'number';
  /** In the dimension's base unit (days, km, kg); temperatures and money as written. */
  value: number;
  /** The written unit's size in the base unit (`months` → 30): the rounding tolerance scales with it. */
  factor: number;
  /** Digits after the decimal point as written (rounding tolerance). */
  decimals: number;
  /** Preceded by about / around / roughly / up to …. */
  approx: boolean;
  /** An abbreviation's multiplier as written (`$625k` → 1000, `1.2M` → 1e6): the rounding tolerance scales with it. */
  scale?: number;
  dim?: Dimension;
  /** C/F for temperatures, the currency code for money. */
  unit?: string;
  /** For counts: the thing counted, singular (`item`, `room`). */
  noun?: string;
  /** For `in 3 days`: the day it names, from the run's day. */
  day?: string;
}

export interface DateSpecific extends Base {
  kind: 'date';
  /** `YYYY-MM-DD` when the year is known (written or relative). */
  day?: string;
  /** `MM-DD` when written without a year. */
  monthDay?: string;
  /** 0–6 for a bare weekday (`on Friday`). */
  weekday?: number;
  /** 0–6: the weekday written with the date (`Friday, November 19`), to check against the date itself. */
  stated?: number;
  /** For a UTC timestamp (`2026-12-20T01:00:00Z`): its instant, whose local date may be the day before or after. */
  utcAt?: number;
}

export interface TimeSpecific extends Base {
  kind: 'time';
  /** Minutes after midnight. */
  minutes: number;
}

export interface IdSpecific extends Base {
  kind: 'id';
  /** Uppercase, without separators. */
  norm: string;
  /** Letters prefix + digit count, e.g. `A#4`: ids of one shape name things of one kind. */
  shape: string;
}

export interface EntitySpecific extends Base {
  kind: 'entity';
  /** Lowercase. */
  norm: string;
  /** `carrier`, `city`, `country`, `airline` for known names. */
  cls?: string;
  /** A sentence-initial capitalised word that may be an ordinary word: counted only when a source has it. */
  weak: boolean;
}

export interface StatusSpecific extends Base {
  kind: 'status';
  /** Every reading of the term (a term may belong to several families). */
  terms: readonly StatusTerm[];
  /** The claim says the opposite: `not available`, `unavailable`, `hasn't shipped`. */
  negated: boolean;
}

export type Specific = NumberSpecific | DateSpecific | TimeSpecific | IdSpecific | EntitySpecific | StatusSpecific;

export interface ExtractOptions {
  /** The run's day (`YYYY-MM-DD`), to resolve `yesterday`, `next Monday`, `in 3 days`. */
  ref?: string;
  /** Source mode: every capitalised word is a name (data has no sentence starts), status words are not negated by context. */
  source?: boolean;
  /**
   * Only what numbers, dates and times need: the name and status passes, which come last and read what
   * the others left, are skipped (the result lacks entities and statuses; the rest is the same).
   */
  quantities?: boolean;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const alt = (words: Iterable<string>): string => [...words].sort((a, b) => b.length - a.length).map((w) => escape(w).replace(/\s+|_/g, '[\\s_-]+')).join('|');

const NUM_WORDS = alt(Object.keys(NUMBER_WORDS));
const NUM = `(?:[-−]?\\d(?:[\\d,]*\\d)?(?:\\.\\d+)?|\\.\\d+|(?:${NUM_WORDS})(?![\\p{L}]))`;
const MONTH = alt(Object.keys(MONTHS));
const WEEKDAY = alt(Object.keys(WEEKDAYS));
const UNIT = alt(Object.keys(UNIT_WORDS).filter((k) => !k.includes('_')));
/** Abbreviated multipliers after an amount (`$625k`, `€1.2M`, `$3 billion`). */
const SCALE = 'k|K|thousand|m|M|mn|MM|million|bn|B|billion';
const SCALES: Readonly<Record<string, number>> = { k: 1e3, thousand: 1e3, m: 1e6, mn: 1e6, mm: 1e6, million: 1e6, bn: 1e9, b: 1e9, billion: 1e9 };
const PLACE_WORDS = 'gate|seat|room|terminal|platform|row|suite|locker|dock|bay|desk|unit|apartment|table|pin|code';

const RE = {
  url: /\bhttps?:\/\/[^\s)]+/giu,
  email: /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/giu,
  isoDate: /(?<![\w-])(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w-])/gu,
  slashDate: /(?<![\w/])(\d{4})\/(\d{1,2})\/(\d{1,2})(?![\w/])/gu,
  dayMonth: new RegExp(`(?<![\\p{L}\\d])(?:(?:${WEEKDAY}),?\\s+)?(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH})\\.?(?:,?\\s+(\\d{4}))?(?![\\p{L}\\d])`, 'giu'),
  monthDay: new RegExp(`(?<![\\p{L}\\d])(?:(?:${WEEKDAY}),?\\s+)?(${MONTH})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?(?![\\p{L}\\d])`, 'giu'),
  relative: new RegExp(`(?<![\\p{L}])(the day after tomorrow|the day before yesterday|yesterday|today|tonight|tomorrow|this (?:morning|afternoon|evening)|(?:last|next|this|coming) (?:${WEEKDAY}))(?![\\p{L}])`, 'giu'),
  weekday: new RegExp(`(?<![\\p{L}])(${WEEKDAY})(?![\\p{L}])`, 'giu'),
  time: /(?<![\w:.])(\d{1,2})(?::(\d{2}))?\s*(a\.?m\b\.?|p\.?m\b\.?)(?![\p{L}])|(?<![\w:.])([01]?\d|2[0-3]):([0-5]\d)(?![\w:])|\b(noon|midnight)\b/giu,
  phone: /(?<![\w])(?:\+?\d{1,3}[\s.-])?(?:\(\d{2,4}\)[\s.-]?)?\d{3,4}[\s.-]\d{3,4}(?:[\s.-]\d{2,4})?(?![\w])/gu,
  money: new RegExp(
    `(?:(us\\$|\\$|€|£|¥)\\s?(${NUM})(?:\\s?(${SCALE})(?![\\p{L}]))?)|(?:(?<![\\p{L}])(usd|eur|gbp|chf|jpy)\\s?(${NUM})(?:\\s?(${SCALE})(?![\\p{L}]))?)|(?:(${NUM})(?:\\s?(${SCALE}))?\\s?(usd|eur|gbp|chf|jpy|dollars?|euros?|pounds|yen)(?![\\p{L}]))`,
    'giu',
  ),
  dashedId: /(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+(?![\w-])/gu,
  capsId: /(?<![\w-])(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{5,}(?![\w-])/gu,
  hashId: /#\s?([A-Za-z0-9-]{3,})\b/gu,
  placeId: new RegExp(`\\b(?:${PLACE_WORDS})\\s+([A-Z]{0,2}\\d{1,4}[A-Z]{0,2})\\b`, 'giu'),
  longDigits: /(?<![\w.,])\d{6,}(?![\w.,])/gu,
  compoundDuration: /(?<![\w.,])(\d{1,3})\s?(?:h|hrs?|hours?)\s*(?:and\s+)?(\d{1,2})\s?(?:m|mins?|minutes?)(?![\p{L}])/giu,
  numberUnit: new RegExp(`(?<![\\p{L}\\d.,])(${NUM})(?:\\s?(?:-|–|to)\\s?(${NUM}))?(?:\\s?|-)(${UNIT})(?![\\p{L}])`, 'giu'),
  attachedTemp: /(?<![\w.,])([-−]?\d+(?:\.\d+)?)([CF])(?![\w])/gu,
  numberNoun: new RegExp(`(?<![\\p{L}\\d.,])(${NUM})\\s+([\\p{L}][\\p{L}'-]+)`, 'giu'),
  plainNumber: /(?<![\w.,])[-−]?\d[\d,]*(?:\.\d+)?(?![\w])/gu,
  status: new RegExp(`(?<![\\p{L}])(${alt(STATUS_TERM_LIST)})(?![\\p{L}])`, 'giu'),
  entity: /(?<![\p{L}\p{N}])\p{Lu}[\p{L}\p{N}'’&-]*(?:[ ]\p{Lu}[\p{L}\p{N}'’&-]*)*/gu,
  gazetteer: new RegExp(`(?<![\\p{L}])(${alt(ENTITY_CLASS_OF.keys())})(?![\\p{L}])`, 'giu'),
} as const;

/** Prefilters: what a pass needs somewhere in the text to match at all (same flags as the pass). */
const HAS_DIGIT = /\d/u;
const HAS_HTTP = /http/iu;
const HAS_NOON = /noon|midnight/iu;

/**
 * Prefilters tested on the masked text just before their pass, for passes whose matches may span white
 * space (masking can join a number and `pm` across a blanked span): each is a part every match of the pass
 * contains, with the pass's case folding.
 */
const MAY_TIME = /\d\s*[ap]|\d:\d|noon|midnight/iu;
/** An id of capitals and digits has a capital next to a digit somewhere. */
const MAY_CAPS_ID = /[A-Z]\d|\d[A-Z]/u;

/**
 * Literal prefilters, read from the lowercase claim: every match of the pass contains one of these words or
 * symbols. Masking cannot make one (they hold no space), and lowercasing finds what the passes' `i` flag
 * finds except `ſ`, which folds to `s`: a claim with an `ſ` is always searched (see `Hints`).
 */
const anyOf = (words: readonly string[]): RegExp => new RegExp(words.map(escape).join('|'));
/** The first word of a vocabulary key: `alt` lets a key's spaces match `-` and `_` too, its first word stays literal. */
const lead = (key: string): string => key.split(/[\s_]/)[0] as string;
const HINTS = {
  /** `RE.money`: its symbols, codes and currency words. */
  money: anyOf(['$', '€', '£', '¥', 'usd', 'eur', 'gbp', 'chf', 'jpy', 'dollar', 'euro', 'pound', 'yen']),
  place: anyOf(PLACE_WORDS.split('|')),
  /** The first three letters of every month name (`sept` starts with `sep`). */
  month: anyOf([...new Set(Object.keys(MONTHS).map((k) => lead(k).slice(0, 3)))]),
  /** A number without digits is a number word. */
  numberWord: anyOf(Object.keys(NUMBER_WORDS).map(lead)),
  weekday: anyOf(Object.keys(WEEKDAYS).map(lead)),
  /** `RE.relative`: each of its phrases holds one of these words or a weekday name. */
  relative: anyOf(['yesterday', 'today', 'tonight', 'tomorrow', 'this', ...Object.keys(WEEKDAYS).map(lead)]),
} as const;

/** The literal prefilters of one claim. */
class Hints {
  readonly #lower: string;
  /** `ſ` matches `s` in an `iu` pattern but stays `ſ` lowercased. */
  readonly #longS: boolean;
  constructor(claim: string) {
    this.#lower = claim.toLowerCase();
    this.#longS = this.#lower.includes('ſ');
  }
  /** False only when no match of the pass can be in the claim. */
  may(hint: keyof typeof HINTS): boolean {
    return this.#longS || HINTS[hint].test(this.#lower);
  }
}

const APPROX = /(?:about|around|approximately|approx\.?|roughly|nearly|almost|~|over|under|more than|less than|up to|at least|at most|close to|some)\s*$/i;

/** Parse a number as written: digits with thousands commas, or a number word. */
export function parseNumber(raw: string): { value: number; decimals: number } | undefined {
  const t = raw.replace(/−/g, '-').toLowerCase();
  const word = NUMBER_WORDS[t];
  if (word !== undefined) return { value: word, decimals: 0 };
  const clean = t.replace(/,/g, '');
  const value = Number(clean);
  if (!Number.isFinite(value)) return undefined;
  const dot = clean.indexOf('.');
  return { value, decimals: dot < 0 ? 0 : clean.length - dot - 1 };
}

/** `items` → `item`, `boxes` → `box`, `nights` → `night`. */
export function singular(word: string): string {
  return singularOfLower(word.toLowerCase());
}

/** `singular` of a word already lowercase. */
export function singularOfLower(w: string): string {
  if (w.length <= 3 || !w.endsWith('s')) return w;
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && w.endsWith('es') && /(?:ss|x|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (!w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** An id's comparable form and shape. */
export function idOf(raw: string): { norm: string; shape: string } {
  const norm = raw.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const prefix = /^[A-Z]*/.exec(norm)?.[0] ?? '';
  return { norm, shape: `${prefix}#${norm.replace(/[^0-9]/g, '').length}` };
}

/** Splits an answer into claims: sentences, lines, and `;`-separated clauses. */
export function splitClaims(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\d"'“(*•-])|\n+|;\s+/u)
    .map((c) => c.replace(/^\s*(?:[-*•]|\d+[.)])\s+/u, '').trim())
    .filter((c) => /[\p{L}\p{N}]/u.test(c));
}

/** A claim whose matched spans are blanked (same length, so offsets stay valid). */
class Masked {
  text: string;
  constructor(readonly original: string) {
    this.text = original;
  }
  /** Blanks the spans `[a, b)`, given in increasing order, in one rebuild of the text. */
  maskAll(spans: readonly (readonly [number, number])[]): void {
    if (spans.length === 0) return;
    const text = this.text;
    let out = '';
    let at = 0;
    for (const [from, b] of spans) {
      const a = Math.max(from, at);
      if (b <= a) continue;
      out += text.slice(at, a) + ' '.repeat(b - a);
      at = b;
    }
    this.text = out + text.slice(at);
  }
  /** Runs `re` on the masked text, masking each match `fn` accepts. */
  each(re: RegExp, fn: (m: RegExpExecArray) => boolean | void): void {
    const text = this.text;
    re.lastIndex = 0;
    const hits: [number, number][] = [];
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0] === '') {
        re.lastIndex += 1;
        continue;
      }
      if (fn(m) !== false) hits.push([m.index, m.index + m[0].length]);
    }
    this.maskAll(hits);
  }
}

function approxBefore(text: string, index: number): boolean {
  return APPROX.test(text.slice(Math.max(0, index - 24), index));
}

/** Where the clause a negator must share with its word starts (classify.ts splits clauses for affinity differently). */
const NEGATION_CLAUSE_BREAK = /[,;:.!?()]|\b(?:but|however|although|though|while|whereas|and)\b/gu;
const WHITE_SPACE = /\s/u;

/** Whether the UTF-16 unit at `i` is white space (`\s`). */
function spaceAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return WHITE_SPACE.test(text.charAt(i));
}

/** True when a negator stands within the four words before `index`, in the same clause. */
function negatedBefore(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 48), index).toLowerCase();
  // The clause: what follows the last break.
  let start = 0;
  NEGATION_CLAUSE_BREAK.lastIndex = 0;
  for (let m = NEGATION_CLAUSE_BREAK.exec(before); m !== null; m = NEGATION_CLAUSE_BREAK.exec(before)) start = m.index + m[0].length;
  // Its last four words, from the end.
  let end = before.length;
  for (let n = 0; n < 4; n++) {
    while (end > start && spaceAt(before, end - 1)) end--;
    if (end === start) return false;
    let from = end;
    while (from > start && !spaceAt(before, from - 1)) from--;
    if (NEGATORS.has(before.slice(from, end).replace(/[^a-z']/g, ''))) return true;
    end = from;
  }
  return false;
}

function dayFromParts(year: string | undefined, month: string, day: string): { day?: string; monthDay?: string } | undefined {
  const m = MONTHS[month.toLowerCase().replace(/\.$/, '')];
  const d = Number(day);
  if (m === undefined) return undefined;
  if (year !== undefined) {
    const full = makeDay(Number(year), m, d);
    return full ? { day: full } : undefined;
  }
  if (!makeDay(2000, m, d)) return undefined;
  return { monthDay: `${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}` };
}

function temperatureUnit(info: UnitInfo): string | undefined {
  return info.unit === '' ? undefined : info.unit;
}

/** The words of a capitalised sequence (without a trailing `'s`), and the range of them that are not ordinary words. */
function nameWords(seq: string): { words: string[]; first: number; end: number } {
  const words = (seq.endsWith("'s") || seq.endsWith('’s') ? seq.slice(0, -2) : seq).split(' ');
  let first = 0;
  let end = words.length;
  while (first < end && NOT_ENTITIES.has((words[first] as string).toLowerCase())) first++;
  while (end > first && NOT_ENTITIES.has((words[end - 1] as string).toLowerCase())) end--;
  return { words, first, end };
}

/** The words of a capitalised sequence without leading / trailing ordinary words ("Your DHL" → DHL). */
function trimNames(seq: string): string[] {
  const { words, first, end } = nameWords(seq);
  return first === 0 && end === words.length ? words : words.slice(first, end);
}

/** `^[\s"'“(*•-]*$` on `text` before `index`: only quotes, brackets, bullets and space before it. */
function onlyLeadBefore(text: string, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const c = text.charAt(i);
    if (!(spaceAt(text, i) || c === '"' || c === "'" || c === '“' || c === '(' || c === '*' || c === '•' || c === '-')) return false;
  }
  return true;
}

/** `[.!?:]\s+$` on `text` before `index`: a sentence stop and space just before it. */
function stopBefore(text: string, index: number): boolean {
  let i = index;
  while (i > 0 && spaceAt(text, i - 1)) i--;
  if (i === index || i === 0) return false;
  const c = text.charAt(i - 1);
  return c === '.' || c === '!' || c === '?' || c === ':';
}

/** Every specific of one claim. */
function claimSpecifics(claim: string, index: number, options: ExtractOptions): Specific[] {
  const out: Specific[] = [];
  const m = new Masked(claim);
  const { ref } = options;
  // Passes that cannot match are skipped: masking only removes characters, so what the claim lacks the
  // masked text lacks too.
  const digits = HAS_DIGIT.test(claim);
  const hints = new Hints(claim);
  const push = (s: Specific): void => {
    out.push(s);
  };

  if (HAS_HTTP.test(claim)) m.each(RE.url, (x) => push({ kind: 'id', text: x[0], claim: index, at: x.index, norm: x[0].toLowerCase(), shape: 'url' }));
  if (claim.includes('@')) m.each(RE.email, (x) => push({ kind: 'id', text: x[0], claim: index, at: x.index, norm: x[0].toLowerCase(), shape: 'email' }));
  if (digits && claim.includes('-')) m.each(RE.isoDate, (x) => {
    const day = makeDay(Number(x[1]), Number(x[2]), Number(x[3]));
    if (!day) return false;
    const utcAt = x[4] !== undefined && /Z$/i.test(x[0]) ? Date.parse(x[0].replace(' ', 'T')) : undefined;
    push({ kind: 'date', text: x[0], claim: index, at: x.index, day, ...(utcAt !== undefined && Number.isFinite(utcAt) ? { utcAt } : {}) });
    if (x[4] !== undefined) push({ kind: 'time', text: x[0], claim: index, at: x.index, minutes: Number(x[4]) * 60 + Number(x[5]) });
    return true;
  });
  if (digits && claim.includes('/')) m.each(RE.slashDate, (x) => {
    const day = makeDay(Number(x[1]), Number(x[2]), Number(x[3]));
    if (!day) return false;
    push({ kind: 'date', text: x[0], claim: index, at: x.index, day });
    return true;
  });
  const writtenDate = (x: RegExpExecArray, monthAt: number, dayAt: number, yearAt: number): boolean => {
    const month = x[monthAt] as string;
    // "may" is a month only when capitalised.
    if (month.toLowerCase() === 'may' && month !== 'May') return false;
    const parts = dayFromParts(x[yearAt], month, x[dayAt] as string);
    if (!parts) return false;
    const lead = /^\s*([\p{L}]+)/u.exec(x[0])?.[1]?.toLowerCase();
    const stated = lead === undefined ? undefined : WEEKDAYS[lead];
    push({ kind: 'date', text: x[0].trim(), claim: index, at: x.index, ...parts, ...(stated !== undefined ? { stated } : {}) });
    return true;
  };
  if (digits && hints.may('month')) {
    m.each(RE.dayMonth, (x) => writtenDate(x, 2, 1, 3));
    m.each(RE.monthDay, (x) => writtenDate(x, 1, 2, 3));
  }
  if (hints.may('relative')) m.each(RE.relative, (x) => {
    if (!ref) return true;
    const day = relativeDay(x[1] as string, ref);
    if (day) push({ kind: 'date', text: x[0], claim: index, at: x.index, day });
    return true;
  });
  if (hints.may('weekday')) m.each(RE.weekday, (x) => push({ kind: 'date', text: x[0], claim: index, at: x.index, weekday: WEEKDAYS[(x[1] as string).toLowerCase()] as number }));
  if ((digits || HAS_NOON.test(claim)) && MAY_TIME.test(m.text)) m.each(RE.time, (x) => {
    if (x[6] !== undefined) {
      push({ kind: 'time', text: x[0], claim: index, at: x.index, minutes: x[6].toLowerCase() === 'noon' ? 720 : 0 });
      return true;
    }
    if (x[3] !== undefined) {
      const h = Number(x[1]);
      if (h < 1 || h > 12) return false;
      const pm = x[3].toLowerCase().startsWith('p');
      push({ kind: 'time', text: x[0], claim: index, at: x.index, minutes: ((h % 12) + (pm ? 12 : 0)) * 60 + Number(x[2] ?? 0) });
      return true;
    }
    push({ kind: 'time', text: x[0], claim: index, at: x.index, minutes: Number(x[4]) * 60 + Number(x[5]) });
    return true;
  });
  if (hints.may('money')) m.each(RE.money, (x) => {
    const raw = x[2] ?? x[5] ?? x[7];
    const n = raw === undefined ? undefined : parseNumber(raw);
    if (!n) return false;
    const sym = (x[1] ?? x[4] ?? x[9] ?? '').toLowerCase();
    const unit = CURRENCY_SYMBOLS[sym] ?? UNIT_WORDS[sym]?.unit ?? sym.toUpperCase();
    const abbrev = x[3] ?? x[6] ?? x[8];
    const scale = abbrev === undefined ? 1 : (SCALES[abbrev.toLowerCase()] ?? 1);
    const money: NumberSpecific = { kind: 'number', text: x[0], claim: index, at: x.index, value: n.value * scale, decimals: n.decimals, approx: approxBefore(claim, x.index), dim: 'money', unit, factor: 1 };
    if (scale !== 1) money.scale = scale;
    push(money);
    return true;
  });
  const id = (text: string, at: number): void => {
    const { norm, shape } = idOf(text);
    push({ kind: 'id', text, claim: index, at, norm, shape });
  };
  if (m.text.includes('#')) m.each(RE.hashId, (x) => id(x[1] as string, x.index));
  if (digits && hints.may('place')) m.each(RE.placeId, (x) => id(x[1] as string, x.index + x[0].length - (x[1] as string).length));
  if (digits && (m.text.includes('-') || m.text.includes('_'))) m.each(RE.dashedId, (x) => {
    // "5-7" and "18-20" are ranges, "24-month" and "3-pack" a number with its unit or noun: not ids.
    if (/^[\d-]+$/.test(x[0]) || /^\d+(?:\.\d+)?-[a-z]+$/.test(x[0])) return false;
    id(x[0], x.index);
    return true;
  });
  if (digits && MAY_CAPS_ID.test(m.text)) m.each(RE.capsId, (x) => id(x[0], x.index));
  if (digits) m.each(RE.phone, (x) => {
    const { norm } = idOf(x[0]);
    if (norm.length < 7) return false;
    push({ kind: 'id', text: x[0], claim: index, at: x.index, norm, shape: 'phone' });
    return true;
  });
  if (digits) m.each(RE.longDigits, (x) => id(x[0], x.index));
  // "6 h 55 min", "1 hour 35 minutes": one duration, in minutes.
  if (digits) m.each(RE.compoundDuration, (x) => {
    const minutes = Number(x[1]) * 60 + Number(x[2]);
    push({ kind: 'number', text: x[0], claim: index, at: x.index, value: minutes / 1440, decimals: 0, approx: approxBefore(claim, x.index), dim: 'duration', unit: 'min', factor: 1 / 1440 });
    return true;
  });
  const numbers = digits || hints.may('numberWord');
  if (numbers) m.each(RE.numberUnit, (x) => {
    const unitWord = (x[3] as string).toLowerCase().replace(/\s+/g, ' ');
    const info = UNIT_WORDS[unitWord];
    if (!info) return false;
    // "m" after a number is metres only when nothing else reads it ("5 m"); "3 min" is minutes.
    const values = [x[1], x[2]].filter((v): v is string => v !== undefined);
    for (const v of values) {
      const n = parseNumber(v);
      if (!n) continue;
      const base: NumberSpecific = {
        kind: 'number',
        text: x[0],
        claim: index, at: x.index,
        value: info.dim === 'temperature' || info.dim === 'money' || info.dim === 'percent' ? n.value : n.value * info.factor,
        decimals: n.decimals,
        approx: approxBefore(claim, x.index),
        dim: info.dim,
        factor: info.dim === 'temperature' || info.dim === 'money' || info.dim === 'percent' ? 1 : info.factor,
      };
      const unit = info.dim === 'temperature' ? temperatureUnit(info) : info.dim === 'money' ? info.unit : info.unit;
      if (unit !== undefined) base.unit = unit;
      if (info.dim === 'duration' && ref && /\bin\s*$/i.test(claim.slice(Math.max(0, x.index - 4), x.index)) && info.factor >= 1) {
        base.day = addDays(ref, Math.round(base.value));
      }
      push(base);
    }
    return values.length > 0;
  });
  if (digits && (claim.includes('C') || claim.includes('F'))) m.each(RE.attachedTemp, (x) => {
    const n = parseNumber(x[1] as string);
    if (!n) return false;
    push({ kind: 'number', text: x[0], claim: index, at: x.index, value: n.value, decimals: n.decimals, approx: approxBefore(claim, x.index), dim: 'temperature', unit: x[2] as string, factor: 1 });
    return true;
  });
  if (numbers) {
    // Counts: mask only the number, so the noun stays visible to the name and status passes.
    const text = m.text;
    RE.numberNoun.lastIndex = 0;
    const spans: [number, number][] = [];
    for (let x = RE.numberNoun.exec(text); x !== null; x = RE.numberNoun.exec(text)) {
      const word = (x[2] as string).toLowerCase();
      RE.numberNoun.lastIndex = x.index + (x[1] as string).length;
      if (STOP_WORDS.has(word) || UNIT_WORDS[word] || MONTHS[word] !== undefined) continue;
      const n = parseNumber(x[1] as string);
      if (!n) continue;
      push({ kind: 'number', text: x[0], claim: index, at: x.index, value: n.value, decimals: n.decimals, approx: approxBefore(claim, x.index), dim: 'count', noun: singular(word), factor: 1 });
      spans.push([x.index, x.index + (x[1] as string).length]);
    }
    m.maskAll(spans);
  }
  if (digits) m.each(RE.plainNumber, (x) => {
    const n = parseNumber(x[0]);
    if (!n) return false;
    push({ kind: 'number', text: x[0], claim: index, at: x.index, value: n.value, decimals: n.decimals, approx: approxBefore(claim, x.index), factor: 1 });
    return true;
  });
  if (options.quantities) return out;

  // Names of several capitalised words first ("Nimbus Rain Jacket"), so their words are not read as statuses.
  m.each(RE.entity, (x) => {
    const words = trimNames(x[0]);
    if (words.length < 2) return false;
    const text = words.join(' ');
    const cls = ENTITY_CLASS_OF.get(text.toLowerCase());
    push({ kind: 'entity', text, claim: index, at: x.index + x[0].indexOf(words[0] as string), norm: text.toLowerCase(), ...(cls ? { cls } : {}), weak: false });
    return true;
  });
  m.each(RE.status, (x) => {
    const term = (x[1] as string).toLowerCase().replace(/[\s_-]+/g, ' ');
    const terms = STATUS_TERMS.get(term) ?? STATUS_TERMS.get(term.replace(/ /g, '_'));
    if (!terms) return false;
    const before = claim.slice(Math.max(0, x.index - 12), x.index).toLowerCase();
    const after = claim.slice(x.index + x[0].length, x.index + x[0].length + 8).toLowerCase();
    // Verbs, not states: "to open", "open the app", "failed to load".
    if (/\bto\s+$/.test(before) || (/^(?:open|closed)$/.test(term) && /^\s+(?:the|your|a|an|it)\b/.test(after)) || /^\s+to\b/.test(after)) return false;
    // A state announced for later ("back in stock on the 15th", "will be available") is not a claim about now.
    if (!options.source && /\b(?:back|again|will|would|should|expected?|soon|once|when|after|until|restock(?:ed)?)\b(?:\s+\S+){0,3}\s*$/i.test(claim.slice(Math.max(0, x.index - 40), x.index))) return true;
    // "no open incidents" counts things (none), it does not state a state; "arrived in Cincinnati" is a move.
    if (!options.source && /(?:^|[^\p{L}])no\s+$/iu.test(claim.slice(Math.max(0, x.index - 4), x.index))) return true;
    if (!options.source && /^(?:arrived|departed)$/.test(term) && /^\s+(?:in|at|from)\b/i.test(after)) return true;
    // A state weighed, not stated ("a 10% chance of rain", "risk of snow", "if it fails") is not a claim either.
    if (!options.source && /\b(?:chance|chances|risk|probability|likelihood|possibility|odds|forecast|in case|if|unless|whether)\b(?:\s+of)?(?:\s+\S+){0,2}\s*$/i.test(claim.slice(Math.max(0, x.index - 30), x.index))) return true;
    // "none of the three stores has it available": the quantifier negates the whole clause.
    const clauseBefore = claim.slice(0, x.index).split(/[.;!?]|,\s+(?:but|and)\b/).pop() ?? '';
    const noneOf = !options.source && /\b(?:none|neither|nobody)\s+of\b/i.test(clauseBefore);
    push({ kind: 'status', text: x[0], claim: index, at: x.index, terms, negated: noneOf || negatedBefore(claim, x.index) });
    return true;
  });

  m.each(RE.gazetteer, (x) => {
    const norm = (x[1] as string).toLowerCase().replace(/\s+/g, ' ');
    const cls = ENTITY_CLASS_OF.get(norm);
    push({ kind: 'entity', text: x[0], claim: index, at: x.index, norm, ...(cls ? { cls } : {}), weak: false });
    return true;
  });
  m.each(RE.entity, (x) => {
    const { words, first, end } = nameWords(x[0]);
    if (first === end) return true;
    const kept = first === 0 && end === words.length ? words : words.slice(first, end);
    const text = kept.join(' ');
    if (text.length < 2) return true;
    const distinctive = /\p{Lu}.*\p{Lu}/u.test(text) || kept.length > 1;
    // A single capitalised word that starts a sentence (nothing dropped before it) may be an ordinary word.
    const weak = !options.source && first === 0 && !distinctive && (onlyLeadBefore(m.text, x.index) || stopBefore(claim, x.index));
    push({ kind: 'entity', text, claim: index, at: x.index, norm: text.toLowerCase(), weak });
    return true;
  });
  return out;
}

/**
 * The claims of a text and the specifics of each.
 *
 * @example
 * ```ts
 * const { specifics } = extractSpecifics('Order A-1009 shipped yesterday via DHL for $1,276.40.', { ref: '2026-01-01' });
 * // id A1009, status shipped, date 2025-12-31, entity dhl (carrier), number 1276.4 money USD
 * ```
 */
export function extractSpecifics(text: string, options: ExtractOptions = {}): { claims: string[]; specifics: Specific[] } {
  const claims = options.source ? [text] : splitClaims(text);
  const specifics = claims.flatMap((c, i) => claimSpecifics(c, i, options));
  return { claims, specifics };
}
