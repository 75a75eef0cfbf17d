/**
 * The demo's sample agents: what each is asked, what its tools return, and what its scripted model answers.
 * Each agent cycles through its scenarios, so a demo shows grounded answers next to the failures the scorers
 * are there to catch: a contradiction of a tool result, an off-topic answer, and an answer made up after a
 * tool error. Pure data; src/demo/run-agent.ts drives them through the AI SDK.
 */

/** One tool call the scripted model makes, and what the tool does. */
export interface ScriptedToolCall {
  toolName: string;
  /** The call's arguments (the tool's input). */
  input: Record<string, unknown>;
  /** What the tool returns, or `{ error }`: the tool throws this message. */
  outcome: { result: unknown } | { error: string };
}

/** One scripted run: the user's question, the tool calls, then the final answer. */
export interface Scenario {
  /** What the scenario shows (for people reading the code and the docs). */
  kind: 'grounded' | 'contradiction' | 'off-topic' | 'tool-error';
  question: string;
  calls: ScriptedToolCall[];
  answer: string;
}

export interface SampleAgent {
  /** The agent name (`ai.telemetry.functionId`, which becomes `gen_ai.agent.name`). */
  name: string;
  system: string;
  /** Tool name → description; the tools' inputs are string fields named as in the scenarios. */
  tools: Record<string, { description: string; fields: string[] }>;
  scenarios: Scenario[];
}

const weather = (city: string, temperatureC: number, condition: string): Scenario => ({
  kind: 'grounded',
  question: `What is the weather in ${city} right now?`,
  calls: [{ toolName: 'getWeather', input: { city }, outcome: { result: { city, temperatureC, condition } } }],
  answer: `It is ${temperatureC} °C and ${condition} in ${city} right now.`,
});

const ORDER = { orderId: 'A-1042', status: 'shipped', carrier: 'DHL', items: 2, deliveryDate: '2026-05-14' };
const POLICY = 'Travellers from Portugal to Canada need a valid passport and an electronic travel authorisation (eTA) before boarding.';
const CUSTOMER = { customerId: 'C-77', name: 'Ana Silva', plan: 'Pro' };

export const SAMPLE_AGENTS: readonly SampleAgent[] = [
  {
    name: 'weather-agent',
    system: 'You are a weather assistant. Always call getWeather and answer from its result.',
    tools: { getWeather: { description: 'Current weather for a city', fields: ['city'] } },
    scenarios: [weather('Lisbon', 21, 'sunny'), weather('Oslo', 4, 'snowing'), weather('Nairobi', 24, 'partly cloudy')],
  },
  {
    name: 'order-agent',
    system: 'You are a support agent for an online shop. Look orders up with getOrder before answering.',
    tools: { getOrder: { description: 'Look an order up by id', fields: ['orderId'] } },
    scenarios: [
      {
        kind: 'grounded',
        question: 'Where is my order A-1042?',
        calls: [{ toolName: 'getOrder', input: { orderId: 'A-1042' }, outcome: { result: ORDER } }],
        answer: 'Your order A-1042 has shipped with DHL: 2 items, arriving on 2026-05-14.',
      },
      {
        kind: 'contradiction',
        question: 'Has my order A-1042 shipped yet?',
        calls: [{ toolName: 'getOrder', input: { orderId: 'A-1042' }, outcome: { result: ORDER } }],
        answer: 'Your order A-1042 was cancelled on 3 March and 89.90 EUR was refunded, so none of its 7 items will ship.',
      },
    ],
  },
  {
    name: 'travel-agent',
    system: 'You answer travel questions from the policy documents returned by searchPolicies.',
    tools: { searchPolicies: { description: 'Search the travel policy documents', fields: ['query'] } },
    scenarios: [
      {
        kind: 'grounded',
        question: 'Which documents do I need to fly from Portugal to Canada?',
        calls: [{ toolName: 'searchPolicies', input: { query: 'documents Portugal Canada' }, outcome: { result: [POLICY] } }],
        answer: 'To fly from Portugal to Canada you need a valid passport and an electronic travel authorisation (eTA).',
      },
      {
        kind: 'off-topic',
        question: 'Which documents do I need to fly from Portugal to Canada?',
        calls: [{ toolName: 'searchPolicies', input: { query: 'documents Portugal Canada' }, outcome: { result: [POLICY] } }],
        answer: 'Here is a quick banana bread recipe: mash ripe bananas, stir in flour, butter and sugar, and bake until golden.',
      },
    ],
  },
  {
    name: 'billing-agent',
    system: 'You are a billing assistant. Use getCustomer and getInvoice; never guess amounts.',
    tools: {
      getCustomer: { description: 'Look a customer up by id', fields: ['customerId'] },
      getInvoice: { description: "The customer's latest invoice", fields: ['customerId'] },
    },
    scenarios: [
      {
        kind: 'tool-error',
        question: 'How much is my latest invoice? My customer id is C-77.',
        calls: [
          { toolName: 'getCustomer', input: { customerId: 'C-77' }, outcome: { result: CUSTOMER } },
          { toolName: 'getInvoice', input: { customerId: 'C-77' }, outcome: { error: 'invoice service unavailable (HTTP 503)' } },
        ],
        answer: 'Ana, your latest invoice is 129.40 EUR, due on 12 June.',
      },
      {
        kind: 'grounded',
        question: 'Which plan am I on? My customer id is C-77.',
        calls: [{ toolName: 'getCustomer', input: { customerId: 'C-77' }, outcome: { result: CUSTOMER } }],
        answer: 'Ana Silva, you are on the Pro plan.',
      },
    ],
  },
];
