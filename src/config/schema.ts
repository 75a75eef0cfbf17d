/**
 * The whole configuration as one zod schema (docs/configuration.md). Defaults live here; every key is documented in
 * `config/tracejudge.example.yaml`, which a test loads.
 */
import { z } from 'zod';
import { assemblySection } from './sections/assembly.js';
import { economicsSection } from './sections/economics.js';
import { emitSection } from './sections/emit.js';
import { extractSection } from './sections/extract.js';
import { judgeSection } from './sections/judge.js';
import { liveSection } from './sections/live.js';
import { samplingSection } from './sections/sampling.js';
import { scorersSection } from './sections/scorers.js';
import { sourcesSection } from './sections/sources.js';
import { telemetrySection } from './sections/telemetry.js';

export const configSchema = z
  .strictObject({
    sources: sourcesSection,
    assembly: assemblySection,
    extract: extractSection,
    judge: judgeSection,
    scorers: scorersSection,
    sampling: samplingSection,
    emit: emitSection,
    telemetry: telemetrySection,
    economics: economicsSection,
    live: liveSection,
  })
  .prefault({});

/** The validated, frozen configuration. */
export type Config = z.output<typeof configSchema>;
