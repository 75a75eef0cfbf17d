/** The command line of `bench/run.ts` (bench/lib/args.ts): what it accepts, and what it refuses by name. */
import { describe, expect, it } from 'vitest';
import { BenchUsageError, checkScenarioNames, parseBenchArgs } from '../../bench/lib/args.js';

describe('parseBenchArgs', () => {
  it('a full run builds and writes; --quick, --no-build and --no-write each change one thing', () => {
    expect(parseBenchArgs([])).toEqual({ quick: false, write: true, build: true });
    expect(parseBenchArgs(['--quick', '--no-build'])).toEqual({ quick: true, write: true, build: false });
    expect(parseBenchArgs(['--no-write'])).toEqual({ quick: false, write: false, build: true });
  });

  it('reads --only NAMES and --only=NAMES, and never writes RESULTS.md then', () => {
    expect(parseBenchArgs(['--only', 'scorers,pipeline', '--no-build'])).toEqual({ quick: false, write: false, build: false, only: ['scorers', 'pipeline'] });
    expect(parseBenchArgs(['--quick', '--only=kafka'])).toEqual({ quick: true, write: false, build: true, only: ['kafka'] });
  });

  it.each([
    [['--quik'], 'unknown argument "--quik"'],
    [['--onlyx', 'scorers'], 'unknown argument "--onlyx"'],
    [['scorers'], 'unknown argument "scorers"'],
    [['--only'], '--only needs scenario names'],
    [['--only='], '--only needs scenario names'],
    [['--only', '--no-build'], '--only needs scenario names'],
    [['--only', 'scorers,'], '--only needs scenario names'],
    [['--only', 'a', '--only', 'b'], '--only given twice'],
  ])('refuses %j: %s', (args, message) => {
    expect(() => parseBenchArgs(args)).toThrow(BenchUsageError);
    expect(() => parseBenchArgs(args)).toThrow(message);
  });
});

describe('checkScenarioNames', () => {
  it('names every unknown scenario and lists the known ones', () => {
    expect(() => checkScenarioNames(['scorers', 'nope', 'neither'], ['ingest', 'scorers'])).toThrow('--only: no scenario "nope", "neither" (scenarios: ingest, scorers)');
    expect(() => checkScenarioNames(['scorers'], ['ingest', 'scorers'])).not.toThrow();
    expect(() => checkScenarioNames(undefined, ['ingest'])).not.toThrow();
  });
});
