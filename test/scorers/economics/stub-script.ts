/** A deterministic stub-judge script for hallucination + faithfulness: claims are the output's sentences; claims mentioning Lyon are wrong. */
import { reply, type StubReply, type StubRequest } from '../../../src/testing/stub-judge/index.js';

function block(text: string, label: string): string | undefined {
  const m = new RegExp(`<<<DATA ${label} [0-9a-f]+>>>\\n([\\s\\S]*?)\\n<<<END DATA ${label} `).exec(text);
  return m?.[1];
}

export function claimsScript(req: StubRequest): StubReply {
  const usage = { promptTokens: 100, completionTokens: 10 };
  if (req.jsonSchema === undefined) return reply.text(`The score is given because of ${req.user.length} characters.`, usage);
  if (req.user.includes('Extract all claims')) {
    const out = block(req.user, 'AGENT OUTPUT') ?? '';
    return reply.json({ claims: out.split(/(?<=\.)\s+/).filter((s) => s.trim() !== '') }, usage);
  }
  const claims = (block(req.user, 'CLAIMS') ?? '').split('\n').filter((c) => c !== '' && c !== '(none)');
  const hallucination = req.system.includes('hallucination');
  const verdicts = claims.map((c) => {
    const wrong = c.includes('Lyon');
    return hallucination
      ? { statement: c, verdict: wrong ? 'yes' : 'no', reason: 'checked' }
      : { verdict: wrong ? 'no' : 'yes', reason: 'checked' };
  });
  return reply.json({ verdicts }, usage);
}
