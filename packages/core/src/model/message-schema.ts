import { z } from 'zod';

const textPart = z.object({ type: z.literal('text'), text: z.string() });
const imagePart = z.object({
  type: z.literal('image'),
  image: z.string(),
  mediaType: z.string().optional(),
  detail: z.enum(['auto', 'low', 'high']).optional(),
});
const filePart = z.object({
  type: z.literal('file'),
  data: z.string(),
  mediaType: z.string(),
  filename: z.string().optional(),
});
const reasoningPart = z.object({
  type: z.literal('reasoning'),
  text: z.string(),
  signature: z.string().optional(),
  redacted: z.string().optional(),
});
const providerPart = z.object({
  type: z.literal('provider'),
  format: z.enum(['openai', 'openai-responses', 'anthropic', 'ai-sdk']),
  value: z.unknown(),
});

export const contentPartSchema = z.discriminatedUnion('type', [
  textPart,
  imagePart,
  filePart,
  reasoningPart,
  providerPart,
]);

export const toolCallSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
});

/**
 * A message id: 1 to 256 UTF-16 code units of well-formed Unicode. Stores index ids as UTF-8,
 * where a lone surrogate would become U+FFFD and two distinct ids would collide, so such ids are
 * rejected rather than silently merged.
 */
const messageId = z
  .string()
  .min(1)
  .max(256)
  .refine((id) => id.isWellFormed(), {
    message: 'contains a lone UTF-16 surrogate (not valid Unicode); pass well-formed text',
  });

/** The zod schema of a Message: used where messages cross a boundary (user input, store reads). */
export const messageSchema = z.object({
  id: messageId,
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(contentPartSchema)]),
  toolCalls: z.array(toolCallSchema).optional(),
  toolCallId: z.string().min(1).optional(),
  toolName: z.string().optional(),
  isError: z.boolean().optional(),
  name: z.string().optional(),
  createdAt: z.number().finite(),
  tokenCount: z.number().int().nonnegative().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
