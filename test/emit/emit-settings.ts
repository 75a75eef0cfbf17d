/** Settings for `createEmitters` in tests: silent logger, no-op telemetry (unless given), and a `tracejudge` resource. */
import { resourceFromAttributes } from '@opentelemetry/resources';
import { componentSettings, type ComponentSettings } from '../../src/component.js';
import type { CreateEmittersOptions } from '../../src/emit/create-emitters.js';
import type { Emitter } from '../../src/emit/emitter.js';

export function emitSettings(env: Readonly<Record<string, string | undefined>> = {}, overrides: Partial<ComponentSettings> = {}): CreateEmittersOptions['settings'] {
  return { ...componentSettings(overrides), env, resource: resourceFromAttributes({ 'service.name': 'tracejudge' }) };
}

/** The emitters without the metrics emitter (the old `createEmitters(config, { metrics: false })`). */
export function withoutMetrics(emitters: readonly Emitter[]): Emitter[] {
  return emitters.filter((e) => e.name !== 'metrics');
}
