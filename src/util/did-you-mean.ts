/** The closest candidate by edit distance, when it is close enough to be a likely typo. */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(input.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined && bestDistance <= Math.max(2, Math.floor(input.length / 3))) return best;
  return prefixMatch(input.toLowerCase(), candidates);
}

/** `outDir` → `out`, `lock` → `lockfile`: one name starts with the other (three letters at least). */
function prefixMatch(input: string, candidates: readonly string[]): string | undefined {
  const matches = candidates.filter((candidate) => {
    const lower = candidate.toLowerCase();
    return (lower.length >= 3 && input.startsWith(lower)) || (input.length >= 3 && lower.startsWith(input));
  });
  return matches.sort((a, b) => b.length - a.length)[0];
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}
