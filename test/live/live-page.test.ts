/**
 * The live page in a real browser (issue 17): `tracejudge serve` as a child process on free loopback ports with
 * the bearer token on, real AI SDK runs (scripted mock models) exported by the real OTLP/protobuf exporter,
 * then headless Chromium (Debian's `chromium`, driven by puppeteer-core) loads the page. It checks that the
 * agents and a failing run's reason are on it, that `<script>` text injected in a trace is shown as text and
 * never runs, that the page updates itself without a reload, that it is printable, and saves screenshots (one
 * under the test's temp dir, copied to docs/images/live-page.png for the README when TRACEJUDGE_UPDATE_SCREENSHOT=1).
 */
import { copyFile, mkdir, stat } from 'node:fs/promises';
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

/** An agent that shows up only after the page was loaded (the page must update without a reload). */
const LATE_AGENT: SampleAgent = { ...SAMPLE_AGENTS[0]!, name: 'late-agent' };

interface ApiEvaluation {
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
    await until('failing evaluations of order-agent and billing-agent', 30_000, async () => {
      const fails = await failing();
      return ['order-agent', 'billing-agent'].every((a) => fails.some((e) => e.agent === a && e.reason)) ? fails : undefined;
    });
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--no-default-browser-check'],
      timeout: 30_000,
      protocolTimeout: 30_000,
    });
    page = await browser.newPage();
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

  it('shows every agent seen and each failing run with its reason, excerpts and trace link', async () => {
    await page.authenticate({ username: 'tracejudge', password: TOKEN });
    const response = await page.goto(base, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    await page.waitForSelector('body[data-loaded]');
    const headings = await js<string[]>(`[...document.querySelectorAll('h1, h2')].map((h) => h.textContent.trim())`);
    expect(headings).toEqual(['tracejudge live', 'Agents', 'Failing evaluations', 'Sampling and cost']);
    expect(await textOf('header .notice')).toMatch(/In memory only\..*gone when tracejudge restarts/s);

    const agentsText = await textOf('#agents');
    for (const a of SAMPLE_AGENTS) expect(agentsText).toContain(a.name);
    // The Unverified column: per scorer, the scored runs that left specifics unchecked, as the summary API says.
    const columns = await js<string[]>(`[...document.querySelectorAll('#agents thead th')].map((h) => h.textContent.trim())`);
    expect(columns).toContain('Unverified');
    const summary = (await (await fetch(`${base}api/summary`, { headers: auth })).json()) as { agents: { name: string; scorers: { name: string; unverified: number }[] }[] };
    const groups = await js<string[][][]>(`[...document.querySelectorAll('#agents tbody')].map((b) => [...b.rows].map((r) => [...r.cells].map((c) => c.textContent.trim())))`);
    const offset = columns.indexOf('Unverified') - columns.indexOf('Scorer');
    for (const agent of summary.agents) {
      // One tbody per agent; its first row starts with the agent's three cells, the others with the scorer.
      const group = groups.find((g) => g[0]?.[0] === agent.name);
      expect(group, agent.name).toBeDefined();
      for (const s of agent.scorers) {
        expect(typeof s.unverified, `${agent.name} ${s.name}`).toBe('number');
        // The scorer's cell is its name, then "fails below …" in small print.
        const isScorer = (cell: string | undefined): boolean => cell === s.name || (cell?.startsWith(`${s.name}fails`) ?? false);
        const row = group?.find((cells, i) => isScorer(cells[i === 0 ? 3 : 0]));
        const at = row ? row.findIndex(isScorer) + offset : -1;
        expect(row?.[at], `${agent.name} ${s.name} ${JSON.stringify(group)}`).toEqual(s.unverified > 0 ? expect.stringMatching(new RegExp(`\\(${s.unverified}\\)$`)) : '–');
      }
    }

    // The order agent's contradiction: its reason (from the record, as the API serves it) is on the page,
    // with the run's input and output and the trace link built from the template.
    const fails = await failing();
    const order = fails.find((e) => e.agent === 'order-agent' && e.scorer === 'grounding');
    expect(order, JSON.stringify(fails)).toBeDefined();
    // The tool said status "shipped"; the answer says it was cancelled: a contradicted specific, with the tool value.
    expect(order?.score).toBe(0);
    expect(order?.reason).toMatch(/contradicted/);
    expect(order?.reason).toContain('shipped');
    const failsText = await textOf('#fails');
    expect(failsText).toContain(order?.reason ?? '<no reason>');
    expect(failsText).toContain('Has my order A-1042 shipped yet?');
    expect(failsText).toContain('89.90 EUR was refunded');
    const href = await js<string | null>(`document.querySelector('#fails a[href*="${order?.traceId ?? 'none'}"]')?.getAttribute('href') ?? null`);
    expect(href).toBe(TRACE_URL.replace('{traceId}', order?.traceId ?? ''));

    const sampling = await textOf('#sampling');
    expect(sampling).toContain('weather-agent');
    expect(sampling).toMatch(/\d+ \/ \d+/);

    await mkdir(join(dir, 'shots'), { recursive: true });
    await page.screenshot({ path: join(dir, 'shots', 'live-page.png'), fullPage: true });
    expect((await stat(join(dir, 'shots', 'live-page.png'))).size).toBeGreaterThan(10_000);
    // TRACEJUDGE_UPDATE_SCREENSHOT=1 refreshes the README's copy; a normal run leaves the tree as it is.
    if (process.env.TRACEJUDGE_UPDATE_SCREENSHOT === '1') {
      await mkdir(fileURLToPath(new URL('../../docs/images/', import.meta.url)), { recursive: true });
      await copyFile(join(dir, 'shots', 'live-page.png'), README_SHOT);
    }
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
    await page.screenshot({ path: join(dir, 'shots', 'live-page-injection.png'), fullPage: true });
  }, 60_000);

  it('prints without its controls', async () => {
    await page.emulateMediaType('print');
    const display = await js<string>(`getComputedStyle(document.querySelector('#pause')).display`);
    expect(display).toBe('none');
    const pdf = await page.pdf({ format: 'A4', landscape: true, printBackground: false });
    expect(pdf.length).toBeGreaterThan(5000);
    await page.emulateMediaType('screen');
  });
});
