import type { UserFact } from '@mem/core/backend';

/*
 * The data the forgetUser crash test gives each user (workers/user-forgetter.ts writes it, the
 * test checks it).
 */

/** The id of the user's session number `index`. */
export function forgetUserSessionId(userId: string, index: number): string {
  return `${userId}/s${index}`;
}

/** The user's three facts. */
export function forgetUserFacts(userId: string): UserFact[] {
  return ['lives in Lisbon', 'likes green tea', 'works as a nurse'].map((text, i) => ({
    id: `${userId}/f${i}`,
    text: `${userId} ${text}`,
    about: `topic-${i}`,
    sourceMessageIds: [`${forgetUserSessionId(userId, i)}:0.0`],
    createdAt: 1_700_000_000_000 + i,
    updatedAt: 1_700_000_000_000 + i,
  }));
}
