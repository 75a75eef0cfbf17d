/**
 * Answered: after a tool returned something, did the agent answer with it? Code only, no judge
 * (docs/scorers.md, `answered`).
 *
 * Applicable when at least one tool returned a substantive result (not empty, not an error object, not
 * "not found") or the run retrieved documents; otherwise not applicable (`no-successful-tool`). The answer
 * fails (score 0) when it is:
 * - **empty**: blank, or no word of two letters or digits (`...`, `OK`);
 * - **a stall**: a short promise to look instead of an answer (`Let me check that for you.`);
 * - **a refusal**: it declines or claims it has no access or found nothing (`I can't access…`,
 *   `I don't have information…`, `I'm unable to…`, `I couldn't find…`) and uses nothing the tools returned;
 * - **off-topic**: at least three content words, none of them shared with the question or the tool results.
 * Otherwise 1. Higher is better; threshold 0.5.
 */
import { createScorer } from '../../core/scorer.js';
import { notScorable } from '../../core/not-scorable.js';
import { runSources, substantive } from '../claim-grounding/run-sources.js';
import { contentWords, groundingTerms } from '../claim-grounding/sources.js';

export type NonAnswer = 'empty' | 'stall' | 'refusal' | 'off-topic';

export interface AnsweredResult {
  /** Why the answer is not an answer; absent when it is one. */
  nonAnswer?: NonAnswer;
  /** The words that showed it (the refusal phrase, or the answer's words for off-topic). */
  evidence?: string;
  /** Tools whose result the answer should have used. */
  tools: string[];
  documents: number;
}

const REFUSALS: readonly RegExp[] = [
  /\b(?:i|we)\s*(?:am|'m|are|'re)?\s*(?:not able|unable|not allowed|not permitted)\s+to\b/i,
  /\b(?:i|we)\s+(?:can(?:no|')t|cannot|could(?:n't| not)|was(?:n't| not) able to|were(?:n't| not) able to|won't|will not)\s+(?:access|see|view|look(?:\s+\w+)?\s+up|check|retrieve|find|locate|get|pull|open|provide|share|give|help|assist|confirm|tell)\b/i,
  /\b(?:i|we)\s+(?:do(?:n't| not)|did(?:n't| not))\s+have\s+(?:any\s+)?(?:access|information|info|details|data|records?|visibility|the ability|real[- ]time|a way|that)\b/i,
  /\b(?:i|we)\s+have\s+no\s+(?:access|information|info|details|data|records?|way|visibility)\b/i,
  /\bno\s+(?:information|info|details|data|records?|results?)\s+(?:is\s+|are\s+)?(?:available\s+)?(?:about|on|for|regarding)\b/i,
  /\b(?:as an ai|as a language model|i'm just an ai|i am just an ai)\b/i,
  /\b(?:beyond|outside(?:\s+of)?)\s+(?:my|the)\s+(?:capabilit|abilit|scope|knowledge)/i,
  /\b(?:unable|not able)\s+to\s+(?:access|retrieve|find|locate|look(?:\s+\w+)?\s+up|check|provide|share|help|assist)\b/i,
  /\bi(?:'m| am)\s+(?:sorry|afraid)\b[^.!?]{0,20}\b(?:can(?:no|')t|cannot|don't|do not|am unable|won't)\b/i,
];

/** Pleasantries that carry no answer. */
const FILLER = /\b(?:of course|sure(?: thing)?|certainly|absolutely|no problem|happy to help(?: (?:with that|you))?|glad to help|i(?:'d| would) be happy to help|let me know(?: if (?:you need anything else|there(?:'s| is) anything else(?: (?:i|we) can (?:help|assist|do)(?: you)?(?: with| for you)?)?|you(?:'d| would) like (?:anything else|more help)|you have (?:any )?(?:other |more )?questions))?|(?:is there )?anything else (?:i|we) can (?:help|assist|do)(?: you)?(?: with| for you)?|feel free to (?:ask|reach out)(?: anytime)?|(?:i'm|i am|we're|we are) (?:here|always here|happy|glad) to help|thanks?(?: you)?(?: for (?:asking|your patience))?|great question|you're welcome|with that|okay|ok|alright|hi|hello|hey)\b/giu;

/** Capitalised words of the question past its first word, lowercase: the names it asks about. */
function questionNames(question: string): Set<string> {
  const out = new Set<string>();
  const words = question.split(/\s+/).slice(1);
  for (const w of words) if (/^\p{Lu}/u.test(w)) for (const c of contentWords(w)) out.add(c);
  return out;
}

const STALL = /^\s*(?:(?:sure|okay|ok|alright|of course)[,!.]?\s*)?(?:let me (?:check|look|see|find|get|pull|take a look|dig|have a look)|i(?:'ll| will) (?:check|look|find|get back|pull|take a look|have a look)|one moment|just a (?:moment|second|sec)|give me a (?:moment|second|sec)|please (?:wait|hold)|hold on|checking)\b/i;

/**
 * Classify an answer (the scorer's preprocess step, usable alone).
 *
 * @example
 * ```ts
 * nonAnswerOf("I'm sorry, I can't access order details.", 'Where is A-1009?', [{ toolName: 'lookupOrder', result: { status: 'shipped' } }]);
 * // { nonAnswer: 'refusal', evidence: "I can't access", … }
 * ```
 */
export function nonAnswerOf(answer: string, question: string, tools: readonly { toolName: string; result: unknown }[], documents: readonly string[] = []): AnsweredResult {
  const useful = tools.filter((t) => substantive(t.result));
  const base: AnsweredResult = { tools: useful.map((t) => t.toolName), documents: documents.length };
  const text = answer.trim();
  if ((text.match(/[\p{L}\p{N}]{2,}/gu) ?? []).length === 0 || /^(?:ok|okay|sure|done|yes|no|hmm+|n\/a|none|null|undefined)[.!]?$/i.test(text)) {
    return { ...base, nonAnswer: 'empty', evidence: text };
  }
  // Only pleasantries ("Of course! Happy to help with that. 😊"): nothing said.
  if (text.replace(FILLER, ' ').replace(/[^\p{L}\p{N}]+/gu, '').length === 0) return { ...base, nonAnswer: 'empty', evidence: text };
  const sources = groundingTerms(useful, documents);
  const questionTerms = new Set(contentWords(question));
  const answerTerms = contentWords(text);
  const fromTools = answerTerms.filter((w) => sources.valueTerms.has(w) && !questionTerms.has(w));
  const words = text.split(/\s+/).length;
  if (STALL.test(text) && words <= 14 && fromTools.length === 0) return { ...base, nonAnswer: 'stall', evidence: text };
  for (const re of REFUSALS) {
    const m = re.exec(text);
    if (m && fromTools.length === 0) return { ...base, nonAnswer: 'refusal', evidence: m[0] };
  }
  const distinct = new Set(answerTerms);
  const shared = [...distinct].filter((w) => sources.terms.has(w) || questionTerms.has(w));
  if (distinct.size >= 3 && shared.length === 0) return { ...base, nonAnswer: 'off-topic', evidence: [...distinct].slice(0, 8).join(', ') };
  // Talks about the place or thing asked about, but about something else: it shares only the question's names
  // (Denver, the store's name) and no other word with the question or with what the tools returned.
  const names = questionNames(question);
  const onTopic = [...distinct].filter((w) => !names.has(w) && (questionTerms.has(w) || sources.valueTerms.has(w)));
  if (distinct.size >= 8 && onTopic.length === 0) return { ...base, nonAnswer: 'off-topic', evidence: [...distinct].slice(0, 8).join(', ') };
  return base;
}

const WHAT: Readonly<Record<NonAnswer, string>> = {
  empty: 'the answer is empty',
  stall: 'the answer only promises to look',
  refusal: 'the answer declines or says it has no access',
  'off-topic': 'the answer shares no word with the question or the tool results',
};

/**
 * Create the answered scorer.
 *
 * @example
 * ```ts
 * const r = await createAnsweredScorer().run({ input, output: [assistantWithToolResult] });
 * r.score; // 1, or 0 for a refusal / empty / off-topic answer after a successful tool
 * ```
 */
export function createAnsweredScorer() {
  return createScorer({
    id: 'answered-scorer',
    name: 'Answered Scorer',
    description: 'Fails refusals, empty answers, stalls and off-topic answers after a tool returned a result',
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const s = runSources(run);
      const result = nonAnswerOf(s.answer, s.question, s.tools, s.documents);
      if (result.tools.length === 0 && result.documents === 0) return notScorable('no-successful-tool');
      return result;
    })
    .generateScore(({ results }) => (results.preprocessStepResult.nonAnswer === undefined ? 1 : 0))
    .generateReason(({ results, score }) => {
      const r = results.preprocessStepResult;
      const had = [...r.tools, ...(r.documents > 0 ? [`${r.documents} retrieved document(s)`] : [])].join(', ');
      if (r.nonAnswer === undefined) return `The score is ${score} because the answer responds after ${had} returned a result.`;
      return `The score is ${score} because ${WHAT[r.nonAnswer]} (${r.nonAnswer}: ${JSON.stringify(r.evidence ?? '')}) although ${had} returned a result.`;
    });
}
