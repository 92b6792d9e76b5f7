import { type ConfigIssue, type MemConfigError, MemError, parseProfile } from '@mem/core';
import { profileBoundIssues } from './replay-limits.ts';

/** A profile the page sent: parsed JSON, or the editor's text (then JSON errors are issues too). */
export type ProfileCheck = { ok: true; profile: unknown } | { ok: false; issues: ConfigIssue[] };

/**
 * Reads the editor text if it is one, then checks the profile with core's own parser and the
 * playground's bounds (replay-limits.ts): what passes here, a replay accepts.
 */
export function checkProfile(input: unknown): ProfileCheck {
  let profile = input;
  if (typeof input === 'string') {
    try {
      profile = JSON.parse(input);
    } catch (error) {
      return {
        ok: false,
        issues: [{ path: '', message: `invalid JSON: ${(error as Error).message}` }],
      };
    }
  }
  if (profile === undefined) {
    return { ok: false, issues: [{ path: '', message: 'no profile: send { "profile": {...} }' }] };
  }
  try {
    const parsed = parseProfile(profile);
    const wrapped = isWrapped(profile);
    const issues = profileBoundIssues(parsed, wrapped ? 'profile.' : '');
    return issues.length === 0 ? { ok: true, profile } : { ok: false, issues };
  } catch (error) {
    const issues = configIssues(error);
    if (issues === undefined) throw error;
    return { ok: false, issues };
  }
}

/** The issues of a MemConfigError (undefined for any other error). */
export function configIssues(error: unknown): ConfigIssue[] | undefined {
  if (!MemError.isInstance(error) || error.code !== 'MEM_CONFIG') return undefined;
  return [...(error as MemConfigError).issues];
}

/** `{ "profile": {...} }`, which core accepts as well as the bare profile. */
function isWrapped(input: unknown): boolean {
  return (
    typeof input === 'object' &&
    input !== null &&
    !Array.isArray(input) &&
    Object.keys(input).length === 1 &&
    'profile' in input
  );
}
