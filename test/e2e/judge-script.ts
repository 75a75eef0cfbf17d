/**
 * Scripted verdicts for the stub OpenAI-compatible judge, routed by the prompt markers of the hallucination
 * scorer (claim extraction, per-claim verdicts, reason). Anything else gets a 500, so an unexpected judge call
 * shows up as an error record instead of a silent pass.
 */
import { byMarker, reply, type StubJudge } from '../../src/testing/stub-judge/index.js';

export const CLAIMS_MARKER = 'Extract all claims';
export const VERDICTS_MARKER = 'hallucination with respect to the context';
export const REASON_MARKER = 'Explain a hallucination score';

export interface HallucinationScript {
  claims: string[];
  /** One verdict per claim: "yes" = hallucinated (docs/scorers.md). */
  verdicts: string[];
  reason: string;
}

export function scriptHallucination(stub: StubJudge, s: HallucinationScript): void {
  stub.setScript(
    byMarker([
      [CLAIMS_MARKER, reply.json({ claims: s.claims })],
      [VERDICTS_MARKER, reply.json({ verdicts: s.claims.map((statement, i) => ({ statement, verdict: s.verdicts[i] ?? 'no', reason: `verdict ${i}` })) })],
      [REASON_MARKER, reply.text(s.reason)],
    ]),
  );
}

/** docs/scorers.md: round2(count("yes") / n × scale); 0 without verdicts. The test oracle. */
export function expectedHallucinationScore(verdicts: readonly string[], scale = 1): number {
  if (verdicts.length === 0) return 0;
  const yes = verdicts.filter((v) => v === 'yes').length;
  return Math.round((yes / verdicts.length) * scale * 100) / 100;
}
