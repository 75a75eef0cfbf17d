/**
 * What each trace fixture's scenario did, per agent run in extraction order, written from the fixture
 * generators (scripts/fixtures/*.mjs, scripts/fixtures/lib/openai-agent.mjs, scripts/fixtures/mastra-legacy)
 * and, for the hand-written fixtures, from their spans. Independent of the extractor: these are the user
 * turns, system prompts, tool calls, tool results and final answers that the scripts put in.
 */

export interface RunIntent {
  /** The user turn. */
  user: string;
  /** The system prompt(s). */
  system: string[];
  /** The final answer. */
  answer: string;
  /** Every tool called, in order, including calls that threw. */
  calls: string[];
  /** The calls that returned: tool name, arguments, result. */
  results: Array<[string, unknown, unknown]>;
}

const SUPPORT = 'You are a helpful customer-support agent for Acme. Use tools when needed.';
const PARIS_WEATHER = { city: 'Paris', temperatureC: 18, condition: 'light rain' };
const KB_DOCUMENTS = [
  { id: 'kb-17', title: 'Refund policy', score: 0.92, content: 'Refunds are issued within 14 days of purchase for unused items.' },
  { id: 'kb-04', title: 'Returns shipping', score: 0.81, content: 'Return shipping is free for orders above 50 EUR.' },
];
const INNER_ANSWER = 'Invoice INV-2025-118 for 129.50 EUR was paid on 2025-12-03.';

const twoTools = (): RunIntent[] => [
  {
    user: 'What is the weather in Paris, in Fahrenheit?',
    system: [SUPPORT],
    answer: 'It is 18°C (64.4°F) with light rain in Paris right now.',
    calls: ['getWeather', 'convertTemperature'],
    results: [
      ['getWeather', { city: 'Paris' }, PARIS_WEATHER],
      ['convertTemperature', { celsius: 18 }, { fahrenheit: 64.4 }],
    ],
  },
];

/** `lookupOrder` throws "Order database unavailable (timeout after 5000 ms)": a call, never a result. */
const toolError = (): RunIntent[] => [
  { user: 'Where is my order A-1001?', system: [SUPPORT], answer: 'Sorry, I could not look up order A-1001 right now. Please try again later.', calls: ['lookupOrder'], results: [] },
];

/** The support agent delegates to the billing agent through the `askBillingAgent` tool; the inner agent is a run of its own. */
const nestedAgents = (): RunIntent[] => [
  {
    user: 'Did you receive my payment for invoice INV-2025-118?',
    system: [SUPPORT],
    answer: 'Good news: invoice INV-2025-118 (129.50 EUR) was paid on 3 December 2025.',
    calls: ['askBillingAgent'],
    results: [['askBillingAgent', { question: 'Has invoice INV-2025-118 been paid?' }, INNER_ANSWER]],
  },
  {
    user: 'Has invoice INV-2025-118 been paid?',
    system: ['You are the billing specialist. Answer from invoice data only.'],
    answer: INNER_ANSWER,
    calls: ['getInvoice'],
    results: [['getInvoice', { invoiceNumber: 'INV-2025-118' }, { invoiceNumber: 'INV-2025-118', amountEur: 129.5, status: 'paid', paidOn: '2025-12-03' }]],
  },
];

const rag = (): RunIntent[] => [
  {
    user: 'Can I get a refund for something I bought last week?',
    system: [SUPPORT],
    answer: 'You can get a refund within 14 days of purchase for unused items; return shipping is free above 50 EUR.',
    calls: ['searchKnowledgeBase'],
    results: [['searchKnowledgeBase', { query: 'refund policy', topK: 2 }, KB_DOCUMENTS]],
  },
];

const twoRunsOneTrace = (): RunIntent[] => [
  { user: 'I was charged twice for my subscription.', system: ['Classify the ticket as billing, shipping or other. Answer with one word.'], answer: 'billing', calls: [], results: [] },
  {
    user: 'Is it raining in Berlin?',
    system: [SUPPORT],
    answer: 'It is 18°C with light rain in Berlin.',
    calls: ['getWeather'],
    results: [['getWeather', { city: 'Berlin' }, { city: 'Berlin', temperatureC: 18, condition: 'light rain' }]],
  },
];

/** One weather call, then a scripted answer that contradicts it (`contradiction`) or ignores it (`off-topic`). */
const weatherAnswer = (answer: string): RunIntent[] => [
  { user: 'What is the weather in Paris?', system: [SUPPORT], answer, calls: ['getWeather'], results: [['getWeather', { city: 'Paris' }, PARIS_WEATHER]] },
];
const CONTRADICTION = 'It is 25°C and sunny in Paris right now.';
const OFF_TOPIC = 'Our Acme loyalty programme gives members free shipping on every order.';
const weatherAnswers = (family: string): Array<[string, RunIntent[]]> => [
  [`${family}-contradiction`, weatherAnswer(CONTRADICTION)],
  [`${family}-off-topic`, weatherAnswer(OFF_TOPIC)],
];

/** Per fixture name (file name without `.json`): its runs. A fixture without an entry fails the test that uses this. */
export const FIXTURE_INTENTS: Record<string, RunIntent[]> = {
  ...Object.fromEntries(['aisdk6', 'aisdk7-otel', 'mastra', 'mastra0', 'openinference', 'openllmetry', 'otel-openai'].flatMap(weatherAnswers)),
  'aisdk6-nested-agents': nestedAgents(),
  'aisdk6-rag': rag(),
  'aisdk6-tool-error': toolError(),
  'aisdk6-two-runs-one-trace': twoRunsOneTrace(),
  'aisdk6-two-tools': twoTools(),
  'aisdk7-otel-nested-agents': nestedAgents(),
  'aisdk7-otel-tool-error': toolError(),
  'aisdk7-otel-two-runs-one-trace': twoRunsOneTrace(),
  'aisdk7-otel-two-tools': twoTools(),
  'mastra-tool-error': toolError(),
  'mastra-two-tools': twoTools(),
  'mastra0-one-tool': [
    { user: 'What is the weather in Paris?', system: [SUPPORT], answer: 'It is 18°C with light rain in Paris right now.', calls: ['getWeather'], results: [['getWeather', { city: 'Paris' }, PARIS_WEATHER]] },
  ],
  'mastra0-tool-error': toolError(),
  'openinference-nested-agents': nestedAgents(),
  'openinference-rag': rag(),
  'openinference-tool-error': toolError(),
  'openinference-two-tools': twoTools(),
  'openllmetry-nested-agents': nestedAgents(),
  'openllmetry-tool-error': toolError(),
  'openllmetry-two-tools': twoTools(),
  'otel-openai-tool-error': toolError(),
  'otel-openai-two-tools': twoTools(),
  'otel-openai-two-tools-stream': twoTools(),
  // Hand-written: read from the spans themselves.
  /** Only LLM spans; the tool result is in the second call's `gen_ai.tool.message` event (no tool span). */
  'handwritten-genai-span-events-one-tool': [
    { user: 'Is it raining in Paris?', system: [SUPPORT], answer: 'Yes, there is light rain in Paris.', calls: ['getWeather'], results: [['getWeather', { city: 'Paris' }, { city: 'Paris', condition: 'light rain' }]] },
  ],
  /** The tool span's parent is missing; it belongs to the trace's only agent. */
  'handwritten-genai-v126-events-orphan-tool': [
    { user: 'How long do refunds take?', system: ['Answer from the FAQ.'], answer: 'Refunds take up to 14 days.', calls: ['searchFaq'], results: [['searchFaq', { q: 'refund' }, { content: [{ type: 'text', text: 'Refunds: 14 days.' }] }]] },
  ],
  /**
   * `tool:refund` failed with status ERROR "refund service down". Tools are named by their span names: the
   * fixture's mapping (IN_HOUSE_MAPPING in test/extract/fixture-io.ts) reads the tool name from `$name`.
   */
  'handwritten-mapping-two-tools': [
    {
      user: 'Why was I charged twice? My card is 4111 1111 1111 1111, mail me at jo@example.com',
      system: ['You are the billing bot.'],
      answer: 'The second charge was a pre-authorisation and will be released.',
      calls: ['tool:lookupCharges', 'tool:refund'],
      results: [['tool:lookupCharges', { customer: 'jo' }, { charges: [{ amount: 20, kind: 'capture' }, { amount: 20, kind: 'preauth' }] }]],
    },
  ],
  'handwritten-openllmetry-legacy-no-agent': [{ user: 'Say hi.', system: [SUPPORT], answer: 'Hi!', calls: [], results: [] }],
  /** A chat span without any content: no run. */
  'handwritten-genai-no-content-no-run': [],
};
