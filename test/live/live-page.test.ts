/**
 * The live page in a real browser (issues 17 and 31): `tracejudge serve` as a child process on free loopback
 * ports with the bearer token on, real AI SDK runs (scripted mock models) exported by the real OTLP/protobuf
 * exporter, plus two OTLP/JSON traces made from fixtures of real OpenLLMetry output (an agent whose content was
 * not captured, so its run is skipped; an LLM call with no agent span), then headless Chromium (Debian's
 * `chromium`, driven by puppeteer-core) loads the page. It checks that failing agents come first, that a run
 * failing two scorers is one row with both reasons, that the filters work from the URL (and write it), that
 * skipped runs are shown with their reason and fix, that the LLM call is not listed as an agent, the full trace
 * id and its copy button, that `<script>` text injected in a trace is shown as text and never runs, that the
 * page updates itself without a reload, that it is printable, and saves screenshots (under the test's temp dir;
 * the first is copied to docs/images/live-page.png for the README when TRACEJUDGE_UPDATE_SCREENSHOT=1; all are
 * kept in TRACEJUDGE_SCREENSHOT_DIR when set).
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_AGENTS, type SampleAgent, type Scenario } from '../../src/demo/agents.js';
import { DemoDriver } from '../../src/demo/driver.js';
import { silentLogger } from '../../src/telemetry/log.js';
import { childEnv, removeDir, ServeProcess, tempDir, until } from '../e2e/serve-process.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const TOKEN = 'live-page-test-token-0123456789';
const TRACE_URL = 'http://127.0.0.1:16686/trace/{traceId}';
const README_SHOT = fileURLToPath(new URL('../../docs/images/live-page.png', import.meta.url));

/** Injected into a trace's input and output: must show up as text and never run. */
const SCRIPT = '<script>window.__tjInjected = 1</script>';
const IMG = '<img src=x onerror="window.__tjInjected = 2">';

/** A weather agent whose answer contradicts its tool (35 °C vs 18 °C) and carries markup in both texts. */
const INJECTION_AGENT: SampleAgent = {
  name: 'injection-agent',
  system: 'You are a weather assistant.',
  tools: { getWeather: { description: 'Current weather for a city', fields: ['city'] } },
  scenarios: [
    {
      kind: 'contradiction',
      question: `What is the weather in Porto? ${SCRIPT}`,
      calls: [{ toolName: 'getWeather', input: { city: 'Porto' }, outcome: { result: { city: 'Porto', temperatureC: 18, condition: 'cloudy' } } }],
      answer: `It is 35 °C in Porto. ${SCRIPT} ${IMG}`,
    },
  ],
};

/** Content attributes a default OpenLLMetry setup without TRACELOOP_TRACE_CONTENT leaves out. */
const CONTENT_KEYS = ['gen_ai.input.messages', 'gen_ai.output.messages', 'traceloop.entity.input', 'traceloop.entity.output'];

interface OtlpJsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: { stringValue?: string } }[];
}
interface OtlpJson {
  resourceSpans: { scopeSpans: { spans: OtlpJsonSpan[] }[] }[];
}

/**
 * A fixture trace as the app would send it now: a fresh trace id, times moved to the present; `edit` changes
 * each span (drop content, rename the agent).
 */
async function fixtureNow(name: string, edit: (s: OtlpJsonSpan) => void = () => undefined): Promise<{ body: OtlpJson; traceId: string }> {
  const body = JSON.parse(await readFile(fileURLToPath(new URL(`../fixtures/traces/${name}.json`, import.meta.url)), 'utf8')) as OtlpJson;
  const spans = body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  const traceId = randomBytes(16).toString('hex');
  const first = spans.reduce((m, s) => (BigInt(s.startTimeUnixNano) < m ? BigInt(s.startTimeUnixNano) : m), BigInt(spans[0]?.startTimeUnixNano ?? '0'));
  const shift = BigInt(Date.now()) * 1_000_000n - first;
  for (const s of spans) {
    s.traceId = traceId;
    s.startTimeUnixNano = String(BigInt(s.startTimeUnixNano) + shift);
    s.endTimeUnixNano = String(BigInt(s.endTimeUnixNano) + shift);
    edit(s);
  }
  return { body, traceId };
}

/** An agent that shows up only after the page was loaded (the page must update without a reload). */
const LATE_AGENT: SampleAgent = { ...SAMPLE_AGENTS[0]!, name: 'late-agent' };

interface ApiEvaluation {
  spanId: string;
  agent: string;
  scorer: string;
  score?: number;
  label?: string;
  reason?: string;
  traceId: string;
  traceUrl?: string;
  run: { input: string; output: string };
}

let dir: string;
const serve = new ServeProcess();
let driver: DemoDriver;
let base: string;
let browser: Browser | undefined;
let page: Page;

/** Where screenshots go: TRACEJUDGE_SCREENSHOT_DIR to keep them, else the test's temp dir (removed at the end). */
function shots(): string {
  return process.env.TRACEJUDGE_SCREENSHOT_DIR ?? join(dir, 'shots');
}
/** Errors thrown by the page's own script (none expected). */
const pageErrors: string[] = [];

const auth = { authorization: `Bearer ${TOKEN}` };

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${base}${path}`, { headers: auth });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

async function failing(): Promise<ApiEvaluation[]> {
  return (await api<{ evaluations: ApiEvaluation[] }>('api/evaluations?label=fail&limit=200')).evaluations;
}

/** Run each scenario once through the AI SDK and export the spans. */
async function runAll(pairs: readonly (readonly [SampleAgent, Scenario])[]): Promise<void> {
  for (const [agent, scenario] of pairs) await driver.run(agent, scenario);
  await driver.flush();
}

async function postOtlpJson(body: OtlpJson): Promise<void> {
  const res = await fetch(`${serve.otlpHttpUrl}/v1/traces`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`/v1/traces: HTTP ${res.status} ${await res.text()}`);
}

interface ApiSummary {
  traceLinks: boolean;
  agents: ApiAgent[];
  withoutAgent: ApiAgent[];
}
interface ApiAgent {
  name: string;
  runs: number;
  fails: number;
  skippedRuns: number;
  skipHints: { convention: string; hint: string }[];
  scorers: { name: string; fails: number; scored: number; unverified: number; skipped: Record<string, number> }[];
}

/** Failing evaluations grouped by run (trace and span id), as the page must show them. */
function failingRuns(fails: readonly ApiEvaluation[]): Map<string, ApiEvaluation[]> {
  const runs = new Map<string, ApiEvaluation[]>();
  for (const e of fails) runs.set(`${e.traceId}/${e.spanId}`, [...(runs.get(`${e.traceId}/${e.spanId}`) ?? []), e]);
  return runs;
}

/**
 * Evaluate `expression` in the page. The expressions are strings because the project compiles without the
 * DOM library (the page's own code is plain browser JavaScript in assets/live).
 */
function js<T>(expression: string): Promise<T> {
  return page.evaluate(expression) as Promise<T>;
}

/** Text of the element matching `selector` ('' when there is none). */
function textOf(selector: string): Promise<string> {
  return js<string>(`document.querySelector(${JSON.stringify(selector)})?.textContent ?? ''`);
}

describe.skipIf(!hasChromium)(`the live page in headless Chromium (skipped when ${CHROMIUM} is absent: apt-get install chromium)`, () => {
  beforeAll(async () => {
    dir = await tempDir('live-page');
    const yaml = [
      'sources:',
      '  otlp:',
      '    http: { port: 0 }',
      '    grpc: { enabled: false }',
      `    auth: { bearerToken: ${TOKEN} }`,
      'assembly: { decisionWaitMs: 200, tickMs: 50 }',
      // No scorers section: the embedded default (grounding = claim-grounding, answered, tool-errors).
      'emit:',
      '  stdout: { enabled: false }',
      '  prometheus: { port: 0 }',
      `live: { traceUrlTemplate: "${TRACE_URL}" }`,
      'telemetry: { shutdownTimeoutMs: 8000 }',
      '',
    ].join('\n');
    await serve.start(dir, 'serve.yaml', yaml, childEnv({}));
    expect(serve.ports.metrics, 'metrics port in the started log').toBeGreaterThan(0);
    base = `http://127.0.0.1:${serve.ports.metrics}/`;
    driver = new DemoDriver({ otlpUrl: serve.otlpHttpUrl, headers: auth, logger: silentLogger() });
    // Every scenario of every sample agent once: grounded answers and the failures the demo shows.
    await runAll(SAMPLE_AGENTS.flatMap((a) => a.scenarios.map((s) => [a, s] as const)));
    // An OpenLLMetry agent whose content was not captured (skipped: no output), and an LLM call with no agent.
    const silent = await fixtureNow('openllmetry-two-tools', (s) => {
      s.attributes = s.attributes.filter((a) => !CONTENT_KEYS.includes(a.key));
      for (const a of s.attributes) if (a.value.stringValue === 'support-agent') a.value = { stringValue: 'silent-agent' };
    });
    await postOtlpJson(silent.body);
    await postOtlpJson((await fixtureNow('handwritten-openllmetry-legacy-no-agent')).body);
    await until('failing evaluations of order-agent and billing-agent, the skipped run and the LLM call', 30_000, async () => {
      const fails = await failing();
      const summary = await api<ApiSummary>('api/summary');
      const done =
        ['order-agent', 'billing-agent'].every((a) => fails.some((e) => e.agent === a && e.reason)) &&
        summary.agents.some((a) => a.name === 'silent-agent' && a.skippedRuns > 0) &&
        summary.withoutAgent.some((a) => a.name === 'openai.chat');
      return done ? fails : undefined;
    });
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--no-default-browser-check'],
      timeout: 30_000,
      protocolTimeout: 30_000,
    });
    page = await browser.newPage();
    page.on('pageerror', (err) => pageErrors.push(err instanceof Error ? err.message : String(err)));
    page.setDefaultTimeout(20_000);
    await page.setViewport({ width: 1366, height: 900 });
  }, 120_000);

  afterAll(async () => {
    const b = browser;
    if (b) {
      const pid = b.process()?.pid;
      await Promise.race([b.close(), new Promise((r) => setTimeout(r, 5000))]).catch(() => undefined);
      if (pid !== undefined && b.process()?.exitCode === null) process.kill(pid, 'SIGKILL');
    }
    await serve.stop().catch(() => serve.kill());
    serve.kill();
    await removeDir(dir);
  });

  it('refuses the page and the API without the token, with a Basic challenge a browser answers', async () => {
    const page401 = await fetch(base);
    expect(page401.status).toBe(401);
    expect(page401.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    expect((await fetch(`${base}api/summary`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const basic = `Basic ${Buffer.from(`anyone:${TOKEN}`).toString('base64')}`;
    expect((await fetch(`${base}api/summary`, { headers: { authorization: basic } })).status).toBe(200);
    const bad = await fetch(`${base}api/evaluations?label=nope`, { headers: auth });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('label must be pass, fail or error');
  });

  it('lists failing agents first, one row each, and a run failing two scorers as one row with both reasons', async () => {
    await page.authenticate({ username: 'tracejudge', password: TOKEN });
    await page.browserContext().overridePermissions(base.replace(/\/$/, ''), ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    const response = await page.goto(base, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    await page.waitForSelector('body[data-loaded]', { timeout: 10_000 }).catch(async (err: unknown) => {
      throw new Error(`the page did not load: ${JSON.stringify(pageErrors)} ${await textOf('#problem')}`, { cause: err });
    });
    const headings = await js<string[]>(`[...document.querySelectorAll('h1, h2')].map((h) => h.textContent.trim())`);
    expect(headings).toEqual(['tracejudge live', 'Agents', 'Failing runs', 'Skipped runs', 'Runs without an agent span', 'Sampling and cost']);
    expect(await textOf('header .notice')).toMatch(/In memory only\..*gone when tracejudge restarts/s);

    // One row per agent, in the order of their fails in the window (most first), then by name.
    const summary = await api<ApiSummary>('api/summary');
    const rows = await js<{ agent: string; cells: string[] }[]>(
      `[...document.querySelectorAll('#agents tbody tr[data-agent]')].map((r) => ({ agent: r.getAttribute('data-agent'), cells: [...r.cells].map((c) => c.textContent.trim()) }))`,
    );
    const expected = [...summary.agents].sort((x, y) => y.fails - x.fails || x.name.localeCompare(y.name));
    expect(rows.map((r) => r.agent)).toEqual(expected.map((a) => a.name));
    for (const a of SAMPLE_AGENTS) expect(rows.map((r) => r.agent)).toContain(a.name);
    // The demo's failing agents come before the one that never fails.
    const at = (name: string): number => rows.findIndex((r) => r.agent === name);
    for (const failingAgent of ['order-agent', 'billing-agent', 'travel-agent']) expect(at(failingAgent), failingAgent).toBeLessThan(at('weather-agent'));
    expect(summary.agents.find((a) => a.name === 'weather-agent')?.fails).toBe(0);
    expect(rows[0]?.cells[2]).not.toBe('0');
    // Each row: the fails, the failing scorers with their counts, the other scorers compact, unverified where any.
    for (const agent of summary.agents) {
      const row = rows.find((r) => r.agent === agent.name);
      expect(row?.cells[2], agent.name).toBe(String(agent.fails));
      for (const s of agent.scorers) {
        const cell = s.fails > 0 ? row?.cells[3] : row?.cells[4];
        expect(cell, `${agent.name} ${s.name}`).toContain(s.name);
        if (s.fails > 0) expect(cell).toContain(`fail (${s.fails} of ${s.scored})`);
        if (s.unverified > 0) expect(cell).toMatch(new RegExp(`unverified [0-9.]+ % \\(${s.unverified}\\)`));
      }
    }
    // The LLM call with no agent span is no agent: it has its own table.
    expect(rows.map((r) => r.agent)).not.toContain('openai.chat');
    expect(await textOf('#without-agent')).toContain('openai.chat');
    expect(await js<boolean>(`document.querySelector('#without-agent-section').hidden`)).toBe(false);

    // Compact rows: the newest failing run starts on the first screen (1366 × 900), below every agent.
    const firstRunTop = await js<number>(`document.querySelector('#fails tbody tr[data-run]').getBoundingClientRect().top + window.scrollY`);
    expect(firstRunTop).toBeLessThan(900);

    // One row per failing run, with every failing scorer and its reason.
    const fails = await failing();
    const byRun = failingRuns(fails);
    const shownRuns = await js<{ run: string; scorers: string[]; text: string }[]>(
      `[...document.querySelectorAll('#fails tbody tr[data-run]')].map((r) => ({ run: r.getAttribute('data-run'), scorers: [...r.querySelectorAll('.verdict')].map((v) => v.getAttribute('data-scorer')), text: r.textContent }))`,
    );
    expect(shownRuns.map((r) => r.run)).toEqual([...byRun.keys()].slice(0, 50));
    const multi = [...byRun].filter(([, evs]) => evs.length > 1);
    // order-agent's contradiction fails both grounding and answered (the scripted answer says so every time).
    expect(multi.some(([, evs]) => evs[0]?.agent === 'order-agent'), JSON.stringify(fails.map((e) => [e.agent, e.scorer, e.traceId]))).toBe(true);
    for (const [key, evs] of multi) {
      const row = shownRuns.find((r) => r.run === key);
      expect(row?.scorers.sort()).toEqual(evs.map((e) => e.scorer).sort());
      for (const e of evs) if (e.reason) expect(row?.text).toContain(e.reason);
    }

    // The order agent's contradiction: its reason, the run's input and output, the full trace id and the link.
    const order = fails.find((e) => e.agent === 'order-agent' && e.scorer === 'grounding');
    expect(order, JSON.stringify(fails)).toBeDefined();
    expect(order?.score).toBe(0);
    expect(order?.reason).toMatch(/contradicted/);
    expect(order?.reason).toContain('shipped');
    const failsText = await textOf('#fails');
    expect(failsText).toContain(order?.reason ?? '<no reason>');
    expect(failsText).toContain('Has my order A-1042 shipped yet?');
    expect(failsText).toContain('89.90 EUR was refunded');
    const orderRow = `#fails tr[data-run="${order?.traceId ?? 'none'}/${order?.spanId ?? 'none'}"]`;
    expect(await textOf(`${orderRow} code.trace-id`)).toBe(order?.traceId);
    expect(order?.traceId).toMatch(/^[0-9a-f]{32}$/);
    const href = await js<string | null>(`document.querySelector('${orderRow} a[href]')?.getAttribute('href') ?? null`);
    expect(href).toBe(TRACE_URL.replace('{traceId}', order?.traceId ?? ''));
    // With the template set there is no hint about it.
    expect(summary.traceLinks).toBe(true);
    expect(await js<boolean>(`document.querySelector('#trace-hint').hidden`)).toBe(true);

    const sampling = await textOf('#sampling');
    expect(sampling).toContain('weather-agent');
    expect(sampling).toMatch(/\d+ \/ \d+/);

    await mkdir(shots(), { recursive: true });
    await page.screenshot({ path: join(shots(), 'live-page.png'), fullPage: true });
    expect((await stat(join(shots(), 'live-page.png'))).size).toBeGreaterThan(10_000);
    // TRACEJUDGE_UPDATE_SCREENSHOT=1 refreshes the README's copy; a normal run leaves the tree as it is.
    if (process.env.TRACEJUDGE_UPDATE_SCREENSHOT === '1') {
      await mkdir(fileURLToPath(new URL('../../docs/images/', import.meta.url)), { recursive: true });
      await copyFile(join(shots(), 'live-page.png'), README_SHOT);
    }

    // After the screenshot (the button says Copied for a while): the copy button puts the whole trace id on the clipboard.
    await page.click(`${orderRow} button.copy`);
    await page.waitForFunction(`document.querySelector('${orderRow} button.copy').getAttribute('data-copied') !== null`);
    expect(await js<string | null>(`document.querySelector('${orderRow} button.copy').getAttribute('data-copied')`)).toBe('true');
    expect(await js<string>('navigator.clipboard.readText()')).toBe(order?.traceId);
  });

  it('shows skipped runs with the reason per scorer and the fix for the convention', async () => {
    const summary = await api<ApiSummary>('api/summary');
    const silent = summary.agents.find((a) => a.name === 'silent-agent');
    expect(silent?.skippedRuns).toBe(1);
    expect(silent?.skipHints.map((h) => h.convention)).toEqual(['openllmetry']);
    const row = await js<string[]>(`[...(document.querySelector('#skipped tr[data-agent="silent-agent"]')?.cells ?? [])].map((c) => c.textContent.trim())`);
    expect(row[0]).toBe('silent-agent');
    expect(row[1]).toBe(`1 / ${silent?.runs ?? '?'}`);
    // Every scorer that skipped it is named under its reason, as the metric labels it (a scorer that judges
    // empty answers too stops at the missing input instead).
    const cells = await js<string[]>(`[...document.querySelectorAll('#skipped tr[data-agent="silent-agent"] .skip-reason')].map((c) => c.textContent)`);
    const expected = (silent?.scorers ?? []).flatMap((s) => Object.entries(s.skipped).map(([reason, n]) => [reason, `${s.name} ${n}`] as const));
    expect(expected.map(([reason]) => reason)).toContain('no_output');
    for (const [reason, text] of expected) expect(cells.find((c) => c.startsWith(`${reason}: `))).toContain(text);
    // The fix is extract --explain's for OpenLLMetry.
    expect(row[3]).toContain('TRACELOOP_TRACE_CONTENT=true');
    expect(row[3]).toContain('no output text');
    // And the agents table counts it.
    const agentRow = await js<string[]>(`[...(document.querySelector('#agents tr[data-agent="silent-agent"]')?.cells ?? [])].map((c) => c.textContent.trim())`);
    expect(agentRow[5]).toBe('1');
    await page.screenshot({ path: join(shots(), 'live-page-skipped.png'), fullPage: true });
  });

  it('updates itself without a reload, and shows injected markup as text without running it', async () => {
    await js('window.__sameDocument = true');
    await runAll([
      [INJECTION_AGENT, INJECTION_AGENT.scenarios[0]!],
      [LATE_AGENT, LATE_AGENT.scenarios[0]!],
    ]);
    await until('the injection run failing in the API', 30_000, async () => ((await failing()).some((e) => e.agent === 'injection-agent') ? true : undefined));
    // The page's own refresh (every 5 s) brings both in.
    await page.waitForFunction(`(document.querySelector('#agents')?.textContent ?? '').includes('late-agent')`, { timeout: 20_000 });
    await page.waitForFunction(`(document.querySelector('#fails')?.textContent ?? '').includes('injection-agent')`, { timeout: 20_000 });
    expect(await js<boolean | undefined>('window.__sameDocument')).toBe(true);

    const row = await js<string>(`[...document.querySelectorAll('#fails tbody tr')].map((r) => r.textContent).find((t) => t.includes('injection-agent')) ?? ''`);
    expect(row).toContain(SCRIPT);
    expect(row).toContain(IMG);
    const injected = await js<{ flag: string; scripts: number; images: number }>(
      `({ flag: typeof window.__tjInjected, scripts: document.querySelectorAll('main script').length, images: document.querySelectorAll('main img').length })`,
    );
    expect(injected).toEqual({ flag: 'undefined', scripts: 0, images: 0 });
    expect(await textOf('#announce')).toMatch(/new failing evaluation/);
    await page.screenshot({ path: join(shots(), 'live-page-injection.png'), fullPage: true });
  }, 60_000);

  it('applies the agent, scorer and outcome filters from the URL to every table, and writes them back', async () => {
    const fails = await failing();
    const matching = [...failingRuns(fails)].filter(([, evs]) => evs[0]?.agent === 'order-agent' && evs.some((e) => e.scorer === 'grounding'));
    expect(matching.length, JSON.stringify(fails.map((e) => [e.agent, e.scorer]))).toBeGreaterThan(0);
    await page.goto(`${base}?agent=order-agent&scorer=grounding&outcome=fail`, { waitUntil: 'load' });
    await page.waitForSelector('body[data-loaded]');
    expect(await js<string[]>(`['f-agent', 'f-scorer', 'f-outcome'].map((id) => document.getElementById(id).value)`)).toEqual(['order-agent', 'grounding', 'fail']);
    // Agents: order-agent alone, with grounding alone.
    const agents = await js<string[]>(`[...document.querySelectorAll('#agents tbody tr[data-agent]')].map((r) => r.getAttribute('data-agent'))`);
    expect(agents).toEqual(['order-agent']);
    const scorersShown = await js<string[]>(`[...document.querySelectorAll('#agents tbody [data-scorer]')].map((s) => s.getAttribute('data-scorer'))`);
    expect(scorersShown).toEqual(['grounding']);
    // Failing runs: exactly order-agent's runs that failed grounding (with their other failing scorers too).
    const runs = await js<{ run: string; agent: string; scorers: string[] }[]>(
      `[...document.querySelectorAll('#fails tbody tr[data-run]')].map((r) => ({ run: r.getAttribute('data-run'), agent: r.getAttribute('data-agent'), scorers: [...r.querySelectorAll('.verdict')].map((v) => v.getAttribute('data-scorer')) }))`,
    );
    expect(runs.map((r) => r.run)).toEqual(matching.map(([k]) => k));
    for (const r of runs) {
      expect(r.agent).toBe('order-agent');
      expect(r.scorers).toContain('grounding');
    }
    // Sampling: order-agent's grounding row alone. Skipped: not shown under outcome=fail.
    const sampling = await js<string[]>(`[...document.querySelectorAll('#sampling tbody tr')].map((r) => r.cells[0].textContent + '|' + r.cells[1].textContent)`);
    expect(sampling).toEqual([expect.stringMatching(/^order-agent\|grounding/)]);
    expect(await textOf('#skipped')).toContain('Not shown: the outcome filter is "fail"');
    expect(await textOf('#f-status')).toBe('Showing agent = order-agent, scorer = grounding, outcome = fail');
    await page.screenshot({ path: join(shots(), 'live-page-filtered.png'), fullPage: true });

    // Changing a filter in the page writes the URL (an alert link and a shared link are the same thing).
    await page.select('#f-scorer', '');
    await page.waitForFunction(`!location.search.includes('scorer=')`);
    expect(await js<string>('location.search')).toBe('?agent=order-agent&outcome=fail');
    await page.waitForFunction(`document.querySelectorAll('#agents tbody [data-scorer]').length > 1`);
    // An agent that never fails, with outcome=fail: nothing left in the agents or failing runs tables.
    await page.goto(`${base}?agent=weather-agent&outcome=fail`, { waitUntil: 'load' });
    await page.waitForSelector('body[data-loaded]');
    expect(await textOf('#agents tbody')).toBe('No agent matches the filters.');
    expect(await textOf('#fails tbody')).toBe('No failing run matches the filters.');
    // outcome=skipped: the skipped agent, and its fix.
    await page.goto(`${base}?outcome=skipped`, { waitUntil: 'load' });
    await page.waitForSelector('body[data-loaded]');
    expect(await js<string[]>(`[...document.querySelectorAll('#agents tbody tr[data-agent]')].map((r) => r.getAttribute('data-agent'))`)).toEqual(['silent-agent']);
    expect(await textOf('#skipped')).toContain('TRACELOOP_TRACE_CONTENT=true');
  }, 60_000);

  it('hints at live.traceUrlTemplate when the summary says it is not set', async () => {
    // This service has the template; the page's side of the hint is checked by answering its summary request
    // with traceLinks false (the ring's side is in ring.test.ts).
    await page.setRequestInterception(true);
    const rewrite = (req: import('puppeteer-core').HTTPRequest): void => {
      if (!req.url().includes('/api/summary')) {
        void req.continue();
        return;
      }
      void api<Record<string, unknown>>('api/summary').then((summary) =>
        req.respond({ status: 200, contentType: 'application/json', body: JSON.stringify({ ...summary, traceLinks: false }) }),
      );
    };
    page.on('request', rewrite);
    try {
      await page.goto(base, { waitUntil: 'load' });
      await page.waitForSelector('body[data-loaded]');
      expect(await js<boolean>(`document.querySelector('#trace-hint').hidden`)).toBe(false);
      expect(await textOf('#trace-hint')).toContain('live.traceUrlTemplate');
    } finally {
      page.off('request', rewrite);
      await page.setRequestInterception(false);
    }
  });

  it('prints without its controls, and its script threw nothing', async () => {
    expect(pageErrors).toEqual([]);
    await page.emulateMediaType('print');
    const display = await js<string>(`getComputedStyle(document.querySelector('#pause')).display`);
    expect(display).toBe('none');
    const pdf = await page.pdf({ format: 'A4', landscape: true, printBackground: false });
    expect(pdf.length).toBeGreaterThan(5000);
    await page.emulateMediaType('screen');
  });
});
