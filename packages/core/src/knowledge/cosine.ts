/** Scales `vector` to length 1 in place; returns false (leaving it) when it is all zeros. */
export function normalizeVector(vector: Float32Array): boolean {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] as number) ** 2;
  if (!(sum > 0)) return false;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) * scale;
  return true;
}

/** The dot product of two vectors of one length (the cosine similarity when both are unit). */
export function dotProduct(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

/**
 * Whether a semantic hit of cosine `similarity` is kept: at least `minSimilarity` when given,
 * else above 0 (an unrelated or opposite text is no hit).
 */
export function keepsSimilarity(similarity: number, minSimilarity: number | undefined): boolean {
  return minSimilarity === undefined ? similarity > 0 : similarity >= minSimilarity;
}
