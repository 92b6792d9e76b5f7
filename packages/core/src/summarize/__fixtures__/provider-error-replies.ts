/** The replies of issue 10, case 4, as providers, SDKs and proxies really word them. */
export const PROVIDER_ERROR_REPLIES = [
  'fetch failed',
  'Request failed with status code 500',
  '{"detail":"Internal Server Error"}',
  'The server had an error while processing your request. Sorry about that!',
  'HTTP 502 Bad Gateway',
  'Connection error.',
  'Incorrect API key provided: sk-proj-Ab12************************************wXyZ. You can find your API key at https://platform.openai.com/account/api-keys.',
  'upstream connect error or disconnect/reset before headers. reset reason: connection failure',
  'connect ECONNREFUSED 127.0.0.1:11434',
  'Failed to fetch',
  'The service is temporarily unavailable',
] as const;

/**
 * Error replies no phrase list in mem names: only the grounding check (is the summary about its
 * conversation?) can tell them from a summary.
 */
export const UNLISTED_ERROR_REPLIES = [
  'Model overloaded, please retry later.',
  'Socket closed unexpectedly',
  'Invalid URL',
  'Quota exhausted for project 4411. Contact your administrator.',
  'Your organization has been disabled.',
  'The model `gpt-5-turbo` does not exist or you do not have access to it.',
  "This model's maximum context length is 128000 tokens. However, your messages resulted in 190012 tokens.",
  'Please verify you are a human. Cloudflare Ray ID: 8a1b2c3d4e5f6789',
  'Deployment not found: the resource you requested could not be located on this endpoint.',
  'Unexpected token < in JSON at position 0',
  'Bitte versuchen Sie es später erneut.',
] as const;
