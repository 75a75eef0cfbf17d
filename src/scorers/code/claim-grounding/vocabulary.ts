/**
 * The fixed word lists of claim grounding: status and enum words (with their families, canonical values and
 * polarity), units, number words, classes of named entities, and the words that never start an entity.
 * Everything is lowercase; matching is on whole words.
 */

/** One status term: what it means (`canonical` within `family`) and whether it says the opposite (`un-`, `out of`). */
export interface StatusTerm {
  family: string;
  canonical: string;
  /** True for terms that deny the canonical value: `unavailable` = not `available`. */
  negative: boolean;
}

/** family → canonical → the terms that say it (negative terms prefixed with `!`). */
const STATUS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  fulfilment: {
    pending: ['pending', 'awaiting shipment', 'not yet shipped'],
    processing: ['being prepared', 'being processed'],
    'on hold': ['on hold'],
    shipped: ['shipped', 'dispatched', 'in transit', 'on its way', 'on the way', 'out for delivery', 'in_transit', 'out_for_delivery'],
    delivered: ['delivered', 'arrived'],
    cancelled: ['cancelled', 'canceled'],
    returned: ['returned'],
    delayed: ['delayed'],
  },
  payment: {
    paid: ['paid', 'settled', 'cleared', 'paid in full', '!unpaid', '!outstanding'],
    processing: ['processing', 'pending settlement'],
    overdue: ['overdue', 'past due'],
    refunded: ['refunded', 'refund issued', 'reimbursed'],
    authorized: ['authorized', 'authorised'],
    failed: ['failed', 'declined'],
  },
  availability: {
    available: ['available', 'in stock', 'instock', 'in_stock', 'on the market', 'for sale', '!unavailable', '!out of stock', '!sold out', '!out_of_stock', '!fully booked', '!sold', '!off the market', '!off market', '!off_market'],
  },
  ticket: {
    open: ['open', 'opened'],
    closed: ['closed'],
    resolved: ['resolved'],
    escalated: ['escalated'],
    'in progress': ['in progress', 'in_progress', 'being worked on'],
  },
  approval: {
    approved: ['approved', '!rejected', '!denied'],
    'under review': ['under review', 'in review', 'under_review'],
  },
  account: {
    active: ['active', 'activated', '!inactive', '!deactivated'],
    'good standing': ['good standing', '!pending cancellation', '!pending_cancellation', '!lapsed'],
    suspended: ['suspended', 'locked', 'blocked'],
    expired: ['expired'],
  },
  weather: {
    clear: ['sunny', 'clear skies', 'clear sky', 'sunshine'],
    cloudy: ['cloudy', 'overcast', 'partly cloudy', 'mostly cloudy', 'clouds'],
    rain: ['rain', 'rainy', 'raining', 'light rain', 'heavy rain', 'showers', 'drizzle', 'drizzling', 'light_rain', 'heavy_rain'],
    snow: ['snow', 'snowing', 'snowy', 'light snow', 'heavy snow', 'sleet'],
    storm: ['storm', 'stormy', 'thunderstorm', 'thunderstorms', 'thunder'],
    fog: ['fog', 'foggy', 'mist', 'misty', 'haze'],
  },
  flight: {
    'on time': ['on time', 'on schedule', 'on_time'],
    boarding: ['boarding'],
    departed: ['departed'],
    landed: ['landed'],
  },
};

/** Progressive states that imply earlier ones (a delivered order was shipped). */
export const IMPLIES: Readonly<Record<string, readonly string[]>> = {
  delivered: ['shipped'],
  refunded: ['paid'],
  landed: ['departed'],
};

/** Family shared by the same canonical value in several families is resolved by the slot. */
export const STATUS_TERMS: ReadonlyMap<string, readonly StatusTerm[]> = (() => {
  const map = new Map<string, StatusTerm[]>();
  for (const [family, values] of Object.entries(STATUS)) {
    for (const [canonical, terms] of Object.entries(values)) {
      for (const raw of terms) {
        const negative = raw.startsWith('!');
        const term = negative ? raw.slice(1) : raw;
        const list = map.get(term) ?? [];
        list.push({ family, canonical, negative });
        map.set(term, list);
      }
    }
  }
  // `cancelled` also ends flights; `delayed` too.
  for (const t of ['cancelled', 'canceled']) map.get(t)?.push({ family: 'flight', canonical: 'cancelled', negative: false });
  map.get('delayed')?.push({ family: 'flight', canonical: 'delayed', negative: false });
  return map;
})();

/** Longest terms first, so `light rain` wins over `rain` and `out of stock` over `stock`. */
export const STATUS_TERM_LIST: readonly string[] = [...STATUS_TERMS.keys()].sort((a, b) => b.length - a.length);

/** Key words of a boolean slot that name a canonical status (`isAvailable`, `inStock`, `paid`). */
export const BOOLEAN_KEY_STATUS: Readonly<Record<string, { family: string; canonical: string }>> = {
  available: { family: 'availability', canonical: 'available' },
  availability: { family: 'availability', canonical: 'available' },
  'in stock': { family: 'availability', canonical: 'available' },
  instock: { family: 'availability', canonical: 'available' },
  stock: { family: 'availability', canonical: 'available' },
  paid: { family: 'payment', canonical: 'paid' },
  refunded: { family: 'payment', canonical: 'refunded' },
  shipped: { family: 'fulfilment', canonical: 'shipped' },
  delivered: { family: 'fulfilment', canonical: 'delivered' },
  cancelled: { family: 'fulfilment', canonical: 'cancelled' },
  canceled: { family: 'fulfilment', canonical: 'cancelled' },
  open: { family: 'ticket', canonical: 'open' },
  resolved: { family: 'ticket', canonical: 'resolved' },
  approved: { family: 'approval', canonical: 'approved' },
  active: { family: 'account', canonical: 'active' },
  delayed: { family: 'flight', canonical: 'delayed' },
};

/** Words that turn the status term after them into its opposite (within a few words, same clause). */
export const NEGATORS: ReadonlySet<string> = new Set([
  'not', 'never', 'no', "isn't", "aren't", "wasn't", "weren't", "hasn't", "haven't", "hadn't", "won't", "doesn't", "don't", "didn't",
  "can't", 'cannot', 'nor', 'neither', 'none', 'nothing', 'nobody', 'without', 'isnt', 'arent', 'wasnt', 'hasnt', 'havent', 'doesnt', 'dont', 'didnt', 'wont', 'cant',
]);

/** Units after (or before) a number: dimension, unit, factor to the dimension's base unit. */
export interface UnitInfo {
  dim: 'temperature' | 'money' | 'percent' | 'duration' | 'length' | 'mass' | 'speed';
  unit: string;
  /** Multiply by this to get the base unit (days, km, kg; temperature and money: 1). */
  factor: number;
}

const u = (dim: UnitInfo['dim'], unit: string, factor = 1): UnitInfo => ({ dim, unit, factor });

/** Unit words and symbols (lowercase), longest first when matched. */
export const UNIT_WORDS: Readonly<Record<string, UnitInfo>> = {
  '°c': u('temperature', 'C'), '° c': u('temperature', 'C'), 'ºc': u('temperature', 'C'), 'degrees celsius': u('temperature', 'C'), 'degrees c': u('temperature', 'C'),
  celsius: u('temperature', 'C'), '°f': u('temperature', 'F'), '° f': u('temperature', 'F'), 'degrees fahrenheit': u('temperature', 'F'), 'degrees f': u('temperature', 'F'),
  fahrenheit: u('temperature', 'F'), degrees: u('temperature', ''), degree: u('temperature', ''), '°': u('temperature', ''),
  '%': u('percent', '%'), percent: u('percent', '%'), 'per cent': u('percent', '%'), pct: u('percent', '%'),
  usd: u('money', 'USD'), dollars: u('money', 'USD'), dollar: u('money', 'USD'), eur: u('money', 'EUR'), euros: u('money', 'EUR'), euro: u('money', 'EUR'),
  gbp: u('money', 'GBP'), pounds: u('money', 'GBP'), chf: u('money', 'CHF'), jpy: u('money', 'JPY'), yen: u('money', 'JPY'),
  ms: u('duration', 'ms', 1 / 86400000), milliseconds: u('duration', 'ms', 1 / 86400000), s: u('duration', 's', 1 / 86400), sec: u('duration', 's', 1 / 86400),
  seconds: u('duration', 's', 1 / 86400), second: u('duration', 's', 1 / 86400), secs: u('duration', 's', 1 / 86400),
  minutes: u('duration', 'min', 1 / 1440), minute: u('duration', 'min', 1 / 1440), mins: u('duration', 'min', 1 / 1440), min: u('duration', 'min', 1 / 1440),
  h: u('duration', 'h', 1 / 24), hours: u('duration', 'h', 1 / 24), hour: u('duration', 'h', 1 / 24), hrs: u('duration', 'h', 1 / 24), hr: u('duration', 'h', 1 / 24),
  'business days': u('duration', 'business day', 1), 'working days': u('duration', 'business day', 1), 'business day': u('duration', 'business day', 1),
  days: u('duration', 'day', 1), day: u('duration', 'day', 1), nights: u('duration', 'night', 1), night: u('duration', 'night', 1),
  weeks: u('duration', 'week', 7), week: u('duration', 'week', 7), months: u('duration', 'month', 30), month: u('duration', 'month', 30),
  years: u('duration', 'year', 365), year: u('duration', 'year', 365),
  km: u('length', 'km'), kilometres: u('length', 'km'), kilometers: u('length', 'km'), kilometre: u('length', 'km'), kilometer: u('length', 'km'),
  miles: u('length', 'mi', 1.609344), mile: u('length', 'mi', 1.609344), mi: u('length', 'mi', 1.609344), m: u('length', 'm', 0.001),
  meters: u('length', 'm', 0.001), metres: u('length', 'm', 0.001), cm: u('length', 'cm', 0.00001),
  kg: u('mass', 'kg'), kilograms: u('mass', 'kg'), kilos: u('mass', 'kg'), g: u('mass', 'g', 0.001), grams: u('mass', 'g', 0.001), lb: u('mass', 'lb', 0.45359237),
  lbs: u('mass', 'lb', 0.45359237), pounds_mass: u('mass', 'lb', 0.45359237),
  'km/h': u('speed', 'km/h'), kph: u('speed', 'km/h'), mph: u('speed', 'mph', 1.609344), 'm/s': u('speed', 'm/s', 3.6),
};

/** Currency symbols before a number. */
export const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', 'us$': 'USD' };

/** Key words of a numeric slot that say its dimension (`temperatureC`, `amountEur`, `warrantyMonths`). */
export const KEY_UNITS: Readonly<Record<string, UnitInfo>> = {
  c: u('temperature', 'C'), celsius: u('temperature', 'C'), f: u('temperature', 'F'), fahrenheit: u('temperature', 'F'),
  temperature: u('temperature', ''), temp: u('temperature', ''), feelslike: u('temperature', ''),
  humidity: u('percent', '%'), percent: u('percent', '%'), percentage: u('percent', '%'), pct: u('percent', '%'), probability: u('percent', '%'),
  chance: u('percent', '%'),
  amount: u('money', ''), price: u('money', ''), total: u('money', ''), cost: u('money', ''), fee: u('money', ''), balance: u('money', ''),
  subtotal: u('money', ''), tax: u('money', ''), refund: u('money', ''), charge: u('money', ''), charged: u('money', ''), due: u('money', ''),
  fare: u('money', ''), credit: u('money', ''), eur: u('money', 'EUR'), usd: u('money', 'USD'), gbp: u('money', 'GBP'), shipping: u('money', ''),
  seconds: UNIT_WORDS.seconds as UnitInfo, minutes: UNIT_WORDS.minutes as UnitInfo, mins: UNIT_WORDS.minutes as UnitInfo, hours: UNIT_WORDS.hours as UnitInfo,
  days: UNIT_WORDS.days as UnitInfo, weeks: UNIT_WORDS.weeks as UnitInfo, months: UNIT_WORDS.months as UnitInfo, years: UNIT_WORDS.years as UnitInfo,
  nights: UNIT_WORDS.nights as UnitInfo, km: UNIT_WORDS.km as UnitInfo, miles: UNIT_WORDS.miles as UnitInfo, kg: UNIT_WORDS.kg as UnitInfo,
  kmh: UNIT_WORDS['km/h'] as UnitInfo, mph: UNIT_WORDS.mph as UnitInfo,
};

/** Money keys given in cents. */
export const CENT_KEYS: ReadonlySet<string> = new Set(['cents', 'pence']);

/** Number words the answer may use instead of digits. */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, hundred: 100,
};

export const MONTHS: Readonly<Record<string, number>> = {
  january: 1, jan: 1, february: 2, feb: 2, march: 3, mar: 3, april: 4, apr: 4, may: 5, june: 6, jun: 6, july: 7, jul: 7,
  august: 8, aug: 8, september: 9, sep: 9, sept: 9, october: 10, oct: 10, november: 11, nov: 11, december: 12, dec: 12,
};

export const WEEKDAYS: Readonly<Record<string, number>> = {
  sunday: 0, monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6,
};

/** Classes of named entities whose members contradict each other in one slot (a carrier is not another carrier). */
export const ENTITY_CLASSES: Readonly<Record<string, readonly string[]>> = {
  carrier: [
    'dhl', 'fedex', 'ups', 'usps', 'royal mail', 'dpd', 'gls', 'hermes', 'evri', 'tnt', 'canada post', 'la poste', 'deutsche post', 'aramex',
    'amazon logistics', 'postnl', 'colissimo', 'chronopost', 'correos', 'ctt', 'purolator', 'ontrac', 'yodel', 'parcelforce', 'australia post',
  ],
  city: [
    'paris', 'london', 'berlin', 'madrid', 'lisbon', 'porto', 'rome', 'milan', 'vienna', 'prague', 'amsterdam', 'brussels', 'dublin', 'oslo',
    'stockholm', 'copenhagen', 'helsinki', 'warsaw', 'budapest', 'athens', 'zurich', 'geneva', 'munich', 'hamburg', 'frankfurt', 'barcelona',
    'valencia', 'seville', 'lyon', 'marseille', 'edinburgh', 'manchester', 'new york', 'boston', 'chicago', 'seattle', 'san francisco',
    'los angeles', 'miami', 'austin', 'denver', 'toronto', 'montreal', 'vancouver', 'mexico city', 'tokyo', 'osaka', 'kyoto', 'seoul', 'beijing',
    'shanghai', 'singapore', 'hong kong', 'sydney', 'melbourne', 'auckland', 'dubai', 'istanbul', 'cairo', 'cape town', 'nairobi', 'mumbai',
    'delhi', 'bangalore', 'bangkok', 'jakarta', 'buenos aires', 'sao paulo', 'rio de janeiro', 'lima', 'bogota', 'santiago', 'reykjavik',
  ],
  country: [
    'france', 'germany', 'spain', 'portugal', 'italy', 'austria', 'netherlands', 'belgium', 'ireland', 'norway', 'sweden', 'denmark', 'finland',
    'poland', 'hungary', 'greece', 'switzerland', 'united kingdom', 'uk', 'usa', 'united states', 'canada', 'mexico', 'japan', 'china', 'korea',
    'india', 'australia', 'brazil', 'argentina', 'egypt', 'kenya', 'turkey',
  ],
  airline: ['lufthansa', 'air france', 'klm', 'british airways', 'iberia', 'ryanair', 'easyjet', 'american airlines', 'emirates', 'air canada'],
};

export const ENTITY_CLASS_OF: ReadonlyMap<string, string> = (() => {
  const m = new Map<string, string>();
  for (const [cls, names] of Object.entries(ENTITY_CLASSES)) for (const n of names) m.set(n, cls);
  return m;
})();

/**
 * Capitalised words that are not names when they start a sentence (or anywhere): pronouns, greetings,
 * discourse words, units and codes that other extractors already handle.
 */
export const NOT_ENTITIES: ReadonlySet<string> = new Set([
  'i', 'it', "it's", 'its', 'the', 'a', 'an', 'your', 'you', "you're", "you'll", 'yes', 'no', 'good', 'great', 'sorry', 'thanks', 'thank', 'unfortunately',
  'hello', 'hi', 'hey', 'sure', 'there', "there's", 'this', 'that', 'these', 'those', 'we', "we're", "we've", "we'll", 'our', 'he', 'she', 'they', 'please', 'here', "here's",
  'note', 'also', 'however', 'and', 'but', 'so', 'if', 'let', "let's", 'today', 'tomorrow', 'yesterday', 'tonight', 'currently', 'right', 'as', 'in', 'on', 'at',
  'for', 'with', 'based', 'according', 'okay', 'ok', 'absolutely', 'certainly', 'of', 'my', 'me', 'is', 'are', 'was', 'were', 'do', 'does', 'did', 'can',
  'could', 'would', 'should', 'will', 'what', 'when', 'where', 'which', 'who', 'how', 'why', 'all', 'any', 'each', 'every', 'some', 'both', 'just',
  'now', 'then', 'once', 'after', 'before', 'since', 'until', 'while', 'from', 'to', 'by', 'or', 'not', 'only', 'even', 'still', 'well', 'welcome',
  'enjoy', 'have', 'has', 'had', 'be', 'been', 'being', 'to', 'good news', 'bad news', 'news', 'ah', 'oh', 'wow', 'perfect', 'done', 'got', 'looks',
  'seems', 'unless', 'otherwise', 'meanwhile', 'alternatively', 'finally', 'first', 'second', 'next', 'last', 'total', 'order', 'orders', 'status',
  'am', 'pm', 'c', 'f', 'usd', 'eur', 'gbp', 'chf', 'id', 'faq', 'ai', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december', 'jan', 'feb', 'mar', 'apr',
  'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'celsius', 'fahrenheit', 'dear', 'regards', 'best', 'cheers', 'happy', 'glad', 'nice',
  'pleasure', 'bye', 'goodbye', 'morning', 'afternoon', 'evening', 'hope', 'feel', 'free', 'just', 'maybe', 'perhaps', 'remember', 'keep', 'make',
  'take', 'check', 'try', 'see', 'call', 'contact', 'reply', 'ask', 'tell', 'visit', 'go', 'use', 'note:', 'tip', 'tips', 'step', 'steps', 'option',
  'options', 'summary', 'details', 'update', 'reminder', 'important', 'warning', 'fyi', 'tl;dr', 'p.s.', 'ps', 'etc', 'e.g.', 'i.e.', 'vs', 'mr', 'mrs', 'ms', 'dr',
]);

/** Words that carry no topic (off-topic and affinity checks ignore them). */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  ...NOT_ENTITIES,
  'about', 'above', 'again', 'against', 'am', 'an', 'because', 'below', 'between', 'during', 'few', 'further', 'into', 'more', 'most', 'other',
  'over', 'own', 'same', 'than', 'too', 'under', 'up', 'very', 'down', 'out', 'off', 'through', 'them', 'their', 'theirs', 'him', 'her', 'his', 'hers',
  'yours', 'ours', 'myself', 'yourself', 'itself', 'us', 'also', 'like', 'get', 'gets', 'getting', 'want', 'need', 'know', 'think', 'help', 'helps',
  'thing', 'things', 'way', 'lot', 'much', 'many', 'really', 'quite', 'bit', 'something', 'anything', 'everything', 'nothing', 'someone', 'anyone',
  'everyone', 'one', 'two', 'three', 'able', 'sure', 'yet', 'already', 'soon', 'may', 'might', 'must', 'shall', 'let', 'say', 'said', 'says', 'new',
  'time', 'times', 'day', 'days', 'week', 'weeks', 'today', 'right', 'now', 'currently', 'please', 'thanks', 'thank', 'happy', 'help', 'assist',
  'information', 'info', 'question', 'questions', 'answer', 'looking', 'look', 'find', 'found', 'show', 'give', 'provide', 'let', 'hear', 'glad',
  "i'm", "i've", "i'll", "i'd", "that's", "what's", "don't", "can't", "won't", "isn't", 'there', 'here',
]);
