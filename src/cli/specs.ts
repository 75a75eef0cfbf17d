/**
 * The commands of the `tracejudge` CLI, each described once: the command parses its arguments with this
 * description and `tracejudge COMMAND --help` prints it, so the two cannot drift.
 */
import { configFlag, defineCommand, type CommandSpec } from './usage.js';

export const SERVE = defineCommand({
  name: 'serve',
  synopsis: ['serve [-c FILE]'],
  summary: 'run the service: sources, scoring, emitters, /metrics, /healthz, /readyz',
  description: [
    'Runs until SIGTERM or SIGINT, then stops intake, scores what is buffered, flushes every emitter, commits',
    'Kafka offsets and exits 0 within telemetry.shutdownTimeoutMs (1 if the deadline passes). SIGHUP or a change',
    'of the config file reloads the sampling policy and the bearer token; other changed keys are logged as',
    'needing a restart.',
  ].join('\n'),
  flags: { ...configFlag },
});

export const SCORE = defineCommand({
  name: 'score',
  synopsis: [
    'score [-c FILE] [--all] [--format jsonl|table] FILE...',
    'score [-c FILE] --dataset FILE.jsonl',
    'score [-c FILE] --kafka TOPIC [--from-beginning] [--until-end]',
  ],
  summary: 'score trace files, a dataset or a Kafka topic offline with the engine of serve',
  description: [
    'Writes one score record per line on stdout (or a table at the end); records also go to every configured',
    'emitter. Sampling is honoured unless --all. A progress line goes to stderr on a terminal.',
    'FILE is an OTLP/JSON document or JSON lines (.json), OTLP/protobuf (.pb, .binpb), optionally gzipped',
    '(.gz), or - for stdin.',
  ].join('\n'),
  flags: {
    ...configFlag,
    all: { type: 'boolean', help: 'score every run, ignoring the sampling policy' },
    format: { type: 'string', choices: ['jsonl', 'table'], default: 'jsonl', help: 'one JSON record per line, or a table at the end' },
    dataset: { type: 'string', value: 'FILE', help: 'score JSON lines of {input, output?, groundTruth?} instead of traces' },
    kafka: { type: 'string', value: 'TOPIC', help: "replay a topic's history in its own consumer group (sources.kafka)" },
    'from-beginning': { type: 'boolean', help: 'with --kafka: start at the earliest offsets (default: the end)' },
    'until-end': { type: 'boolean', help: 'with --kafka: stop at the end offsets seen at start (else follow until SIGINT/SIGTERM)' },
  },
});

export const EXTRACT = defineCommand({
  name: 'extract',
  synopsis: ['extract [-c FILE] [--explain] FILE...'],
  summary: 'print the agent runs found in trace files, one JSON object per line',
  description: [
    'Prints every agent run found (shape in docs/records.md), one JSON object per line on stdout.',
    'FILE is an OTLP/JSON document or JSON lines (.json), OTLP/protobuf (.pb, .binpb), optionally gzipped',
    '(.gz), or - for stdin.',
  ].join('\n'),
  flags: {
    ...configFlag,
    explain: { type: 'boolean', help: 'also write, per trace, the conventions and spans seen and why no run was found, to stderr' },
  },
});

export const CHECK_CONFIG = defineCommand({
  name: 'check-config',
  synopsis: ['check-config [-c FILE] [--explain-sampling AGENT]'],
  summary: 'validate a config and print every error with its key path',
  description: [
    'Checks the whole config in one pass (every section, scorer options and thresholds, globs, custom scorer',
    'modules, cross-section references) and prints every problem on stderr as FILE: key.path: message; exit 2',
    'when there is any.',
  ].join('\n'),
  flags: {
    ...configFlag,
    'explain-sampling': { type: 'string', value: 'AGENT', help: 'print the effective sampling rate and rules per scorer for this agent name' },
  },
});

/**
 * Every command of the CLI, in the order `tracejudge --help` lists them. `demo` and `calibrate` are described
 * beside their code (src/cli/commands/demo.ts, calibrate.ts) and listed here with the others, so every
 * `tracejudge COMMAND --help` comes from this one list.
 */
export const DEMO = defineCommand({
  name: 'demo',
  synopsis: ['demo [--duration SECONDS] [-c FILE]'],
  summary: 'sample AI SDK agents scored live, with a terminal summary and the live page; no key or services needed',
  description: [
    'Starts the service on free loopback ports (the embedded default, or -c FILE), drives built-in sample agents',
    'through the AI SDK with scripted mock models over OTLP, and shows per agent the runs, the mean score and fail',
    'rate per scorer and the last failing run with its reason. Prints the OTLP endpoint to point your own app at',
    'and the live page URL. Ends after --duration, or at Ctrl-C, with a final summary (exit 0).',
  ].join('\n'),
  flags: {
    ...configFlag,
    duration: { type: 'string', value: 'SECONDS', help: 'stop by itself after this many seconds (default: run until Ctrl-C)' },
  },
});

export const CALIBRATE = defineCommand({
  name: 'calibrate',
  synopsis: ['calibrate [--labels FILE] [-c FILE] [--precision P] [--label-attribute KEY] [--format table|json] FILE...'],
  summary: 'measure the configured scorers against human pass/fail labels: precision, recall, F1, thresholds',
  description: [
    'Scores every run of the trace files with the configured scorers (the engine of score, sampling off) and',
    'compares with human labels: per scorer the confusion matrix, precision, recall and F1 for "fail", the',
    'threshold that maximises F1 and the one that reaches --precision; and the verdict accuracy of the whole set.',
    'Labels: JSON lines keyed by trace id (docs/calibration.md), else the agent span attribute --label-attribute.',
  ].join('\n'),
  flags: {
    ...configFlag,
    labels: { type: 'string', value: 'FILE', help: 'JSON lines of {traceId, spanId?, agent?, label, scorers?, split?}' },
    precision: { type: 'string', value: 'P', default: '0.9', help: 'target precision for "fail": report the threshold that reaches it' },
    'label-attribute': { type: 'string', value: 'KEY', default: 'tracejudge.label', help: 'agent span attribute holding the label of runs the file does not list' },
    format: { type: 'string', choices: ['table', 'json'], default: 'table', help: 'a text report, or one JSON object' },
  },
});

export const COMMAND_SPECS: readonly CommandSpec[] = [SERVE, SCORE, EXTRACT, CHECK_CONFIG, DEMO, CALIBRATE];
