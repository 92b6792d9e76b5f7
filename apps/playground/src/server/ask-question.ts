import type { AskRequest, ErrorDetails, Unchecked } from './contract.ts';
import { HttpError } from './http-json.ts';

/** Longest question `POST /api/ask` takes, in characters (UTF-16 code units). */
export const MAX_QUESTION_CHARS = 4_000;

/** The answer when there is no replayed thread to ask (none yet, or the last one failed). */
export const NO_REPLAY_TO_ASK =
  'No replay yet: POST /api/replay first; the question is asked against the memory the last replay left.';

/** `body.question`, checked: a non-empty string of at most MAX_QUESTION_CHARS. @throws HttpError 400 naming the field. */
export function readQuestion(body: Unchecked<AskRequest>): string {
  const question = body.question;
  const bad = (message: string, extra: ErrorDetails = {}) =>
    new HttpError(400, message, { field: 'question', ...extra });
  if (question === undefined) throw bad('"question" is missing: send { "question": "..." }.');
  if (typeof question !== 'string') {
    const got = question === null ? 'null' : Array.isArray(question) ? 'an array' : typeof question;
    throw bad(`"question" must be a string, got ${got}.`);
  }
  if (question.trim() === '') throw bad('"question" is empty: ask something.');
  if (question.length > MAX_QUESTION_CHARS) {
    throw bad(
      `"question" is ${question.length.toLocaleString('en-US')} characters long; the playground takes at most ${MAX_QUESTION_CHARS.toLocaleString('en-US')}.`,
      { limit: 'question', maxChars: MAX_QUESTION_CHARS },
    );
  }
  return question;
}
