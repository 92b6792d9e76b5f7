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
  format: z.enum(['openai', 'anthropic', 'ai-sdk']),
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

/** The zod schema of a Message: used where messages cross a boundary (user input, store reads). */
export const messageSchema = z.object({
  id: z.string().min(1).max(256),
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
