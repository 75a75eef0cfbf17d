/**
 * Sørensen–Dice similarity over character bigrams, exactly as `string-similarity` 4.0.4's
 * `compareTwoStrings` computes it (whitespace removed first, bigrams of UTF-16 code units counted with
 * multiplicity, identical strings 1, a string under two units 0), without a substring per bigram: a bigram
 * is the number `first unit × 65536 + second unit`. test/scorers/code/dice.test.ts compares both. Content
 * similarity and the `similarity` check both use it.
 */
export function diceBigrams(a: string, b: string): number {
  const first = a.replace(/\s+/g, '');
  const second = b.replace(/\s+/g, '');
  if (first === second) return 1;
  if (first.length < 2 || second.length < 2) return 0;
  const counts = new Map<number, number>();
  for (let i = 0; i < first.length - 1; i++) {
    const bigram = first.charCodeAt(i) * 65536 + first.charCodeAt(i + 1);
    counts.set(bigram, (counts.get(bigram) ?? 0) + 1);
  }
  let intersection = 0;
  for (let i = 0; i < second.length - 1; i++) {
    const bigram = second.charCodeAt(i) * 65536 + second.charCodeAt(i + 1);
    const count = counts.get(bigram);
    if (count !== undefined && count > 0) {
      counts.set(bigram, count - 1);
      intersection++;
    }
  }
  return (2.0 * intersection) / (first.length + second.length - 2);
}
