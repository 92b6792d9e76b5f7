// One fresh process of the cold-start bench (cold-start-bench.ts); plain JavaScript, so nothing
// but Node itself runs before the measured import. Prints one JSON line.
// Usage: node cold-start-child.mjs <import|count|trace> <module specifier or file URL>
import { Session } from 'node:inspector';

const [mode, specifier] = process.argv.slice(2);
const MB = 1024 * 1024;
const parsed = [];
if (mode === 'trace') {
  // Which tokenizer data files V8 parses, however they are loaded; not timed.
  const session = new Session();
  session.connect();
  session.on('Debugger.scriptParsed', ({ params }) => {
    const at = params.url.indexOf('gpt-tokenizer/');
    if (at >= 0 && params.url.includes('/bpeRanks/')) parsed.push(params.url.slice(at));
  });
  session.post('Debugger.enable');
}
const rss0 = process.memoryUsage().rss;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const module = await import(specifier);
const importMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const out = {
  importMs,
  // CPU time of this process (all its threads): less disturbed than wall time on a busy machine.
  importCpuMs: (cpu.user + cpu.system) / 1000,
  importRssMB: (process.memoryUsage().rss - rss0) / MB,
};
if (mode === 'count' || mode === 'trace') {
  const counter = module.createTokenCounter(); // o200k_base
  const t1 = performance.now();
  out.tokens = counter.countText('How many tokens does this first sentence cost? About ten.');
  out.firstCountMs = performance.now() - t1;
  out.countRssMB = (process.memoryUsage().rss - rss0) / MB;
}
if (mode === 'trace') out.tokenizerData = parsed;
console.log(JSON.stringify(out));
