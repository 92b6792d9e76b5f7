import { type ConfigIssue, type MemConfigError, MemError, parseProfile } from '@mem/core';

/** A profile the page sent: parsed JSON, or the editor's text (then JSON errors are issues too). */
export type ProfileCheck = { ok: true; profile: unknown } | { ok: false; issues: ConfigIssue[] };

/** Reads the editor text if it is one, then checks the profile with core's own parser. */
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
    parseProfile(profile);
    return { ok: true, profile };
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
