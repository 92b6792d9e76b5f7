import { z } from 'zod';

/** A zod check of a plugged-in part (store, summarizer…), giving the engine's reason on refusal. */
export const partSchema = <T>(problem: (value: unknown) => string | undefined) =>
  z.custom<T>().superRefine((value, ctx) => {
    const reason = problem(value);
    if (reason !== undefined) ctx.addIssue({ code: 'custom', message: reason });
  });
