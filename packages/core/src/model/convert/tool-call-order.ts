/**
 * Where tool calls sat among a wire message's blocks, for formats that interleave them with
 * text (Anthropic `tool_use`, AI SDK `tool-call`). Undefined when every call comes after all
 * other blocks, the order mem rebuilds by default.
 */
export function toolCallPositions(isCall: readonly boolean[]): number[] | undefined {
  const positions: number[] = [];
  isCall.forEach((call, i) => {
    if (call) positions.push(i);
  });
  const trailing = positions.every((p, k) => p === isCall.length - positions.length + k);
  return trailing ? undefined : positions;
}

/**
 * Puts `calls` back at `positions` (read from metadata) among `parts`. Falls back to parts
 * first, then calls, when the positions do not fit the lists (e.g. parts were dropped).
 */
export function interleave<P, C>(
  parts: readonly P[],
  calls: readonly C[],
  positions: unknown,
): (P | C)[] {
  const total = parts.length + calls.length;
  const fits =
    Array.isArray(positions) &&
    positions.length === calls.length &&
    positions.every(
      (p, k) => Number.isInteger(p) && p >= 0 && p < total && (k === 0 || p > positions[k - 1]),
    );
  if (!fits) return [...parts, ...calls];
  const out: (P | C)[] = [];
  let part = 0;
  let call = 0;
  for (let i = 0; i < total; i++) {
    if (call < calls.length && positions[call] === i) out.push(calls[call++]!);
    else out.push(parts[part++]!);
  }
  return out;
}
