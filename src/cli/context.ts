/** What `main` gives every command: its logger and secrets (handed on to the service settings) and its output. */
import type { Logger } from 'pino';
import type { Secrets } from '../telemetry/log.js';
import type { RecordOutput } from './output.js';

export interface CliContext {
  readonly logger: Logger;
  readonly secrets: Secrets;
  readonly output: RecordOutput;
}
