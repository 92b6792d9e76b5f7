/**
 * Run in a fresh process (`node --import tsx encoding-probe.ts <mode> <encoding> <text>`): imports
 * `@mem/core` from source, counts `text`, and prints JSON with the count and which
 * gpt-tokenizer files V8 parsed (seen through the inspector, so every way of loading shows:
 * `import()`, `require()` of an ES module, CommonJS).
 * Modes: `import` (import only), `sync` (count before `ready()`), `ready` (await it first),
 * `no-require` (as a runtime without Node's `process.getBuiltinModule`, e.g. a browser bundle),
 * `claude` (a counter for a Claude model, after `ready()`). Files of ai-tokenizer parsed are
 * listed apart (`aiTokenizer`).
 */
import { Session } from 'node:inspector';

const [mode = 'sync', encoding = 'o200k_base', text = 'hello'] = process.argv.slice(2);

const session = new Session();
session.connect();
const parsed: string[] = [];
const aiTokenizer: string[] = [];
session.on('Debugger.scriptParsed', ({ params }) => {
  const at = params.url.indexOf('gpt-tokenizer/');
  if (at >= 0) parsed.push(params.url.slice(at + 'gpt-tokenizer/'.length));
  const ai = params.url.indexOf('ai-tokenizer/');
  if (ai >= 0) aiTokenizer.push(params.url.slice(ai + 'ai-tokenizer/'.length));
});
session.post('Debugger.enable');

if (mode === 'no-require') {
  // What a browser or edge runtime lacks: the way to Node's require.
  Reflect.deleteProperty(process, 'getBuiltinModule');
}
const { createTokenCounter, MemError } = await import('../../index.ts');
const result: Record<string, unknown> = { mode, encoding };
if (mode === 'claude') {
  const counter = createTokenCounter({ model: 'claude-sonnet-4-5' });
  await counter.ready();
  result.count = counter.countText(text);
} else if (mode !== 'import') {
  const counter = createTokenCounter({ encoding: encoding as 'o200k_base' | 'cl100k_base' });
  if (mode === 'ready') await counter.ready?.();
  if (mode === 'no-require') {
    try {
      counter.countText(text);
      result.beforeReady = 'counted';
    } catch (error) {
      result.beforeReady = MemError.isInstance(error)
        ? { code: error.code, message: error.message }
        : String(error);
    }
    await counter.ready?.();
  }
  result.count = counter.countText(text);
}
result.parsed = parsed;
result.aiTokenizer = aiTokenizer;
session.disconnect();
console.log(JSON.stringify(result));
