/**
 * A stand-in for the Workflow the docs reach as `mastra.getWorkflow('myWorkflow')` or `myWorkflow` (Mastra's
 * `Workflow` from `@mastra/core/workflows`, not a dependency of tracejudge). `createRun()` resolves to a run whose
 * `start({ inputData })` resolves to Mastra's workflow result: `status`, `result`, `steps` (one step result per
 * step id) and `stepExecutionPath`.
 *
 * The steps a run goes through are the ones the doc that uses the input names: `{ query, priority }` →
 * `validation-step`, `processing-step` (runEvals "workflow scorers"); `{ userId }` → `validate`, `process`,
 * `notify`; `{ data }` → `validate-input`, `process-data`, `save-result`; anything else → `validate`, `process`,
 * `output`. Each step's output is its input with `<stepId>: true` added, so the result is known in advance.
 */

/** A step result as Mastra records it. */
export interface StandInStepResult {
  status: 'success';
  payload: unknown;
  output: Record<string, unknown>;
  startedAt: number;
  endedAt: number;
}

/** The step ids a run with `inputData` goes through (see the module comment). */
export function stepsFor(inputData: unknown): string[] {
  const o = inputData !== null && typeof inputData === 'object' ? (inputData as Record<string, unknown>) : {};
  if ('priority' in o) return ['validation-step', 'processing-step'];
  if ('userId' in o) return ['validate', 'process', 'notify'];
  if ('data' in o) return ['validate-input', 'process-data', 'save-result'];
  return ['validate', 'process', 'output'];
}

/** What a run was started with. */
export interface WorkflowStart {
  inputData: unknown;
  options: Record<string, unknown>;
}

export class Workflow {
  readonly id: string;
  readonly starts: WorkflowStart[] = [];

  constructor(id: string) {
    this.id = id;
  }

  async createRun(_options?: Record<string, unknown>): Promise<{ start(args: Record<string, unknown>): Promise<Record<string, unknown>> }> {
    await Promise.resolve();
    return {
      start: async (args) => {
        await Promise.resolve();
        const { inputData, ...options } = args;
        this.starts.push({ inputData, options });
        const steps: Record<string, StandInStepResult> = {};
        let value: Record<string, unknown> = { ...(inputData as Record<string, unknown>) };
        let t = 1_700_000_000_000;
        for (const id of stepsFor(inputData)) {
          const output = { ...value, [id]: true };
          steps[id] = { status: 'success', payload: value, output, startedAt: t, endedAt: t + 10 };
          t += 10;
          value = output;
        }
        return { status: 'success', result: value, steps, stepExecutionPath: Object.keys(steps) };
      },
    };
  }
}

export const myWorkflow = new Workflow('myWorkflow');
