// The "new user" test (run by scripts/new-user-test.sh, after the packages are built): packs the
// published packages with `pnpm pack`, installs the tarballs with npm into a fresh project outside
// the workspace (third-party dependencies from the npm registry), type-checks and runs the root
// README's quick start (examples/quick-start.ts, verbatim) twice against a loopback server that
// speaks the OpenAI Chat Completions wire format, and checks the SQLite file it leaves, read back
// from CommonJS through `require()` and `import()`. Exits non-zero on the first failure.
// MEM_NEW_USER_KEEP=1 keeps the temporary project for a look.
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/**
 * What the example needs (core, the SQLite store), the packages a new user adds next, and one
 * integration (@mem/ai-sdk, whose README quick start runs after the root one).
 */
const PACKAGES = ['core', 'store-sqlite', 'summarizers', 'store-redis', 'ai-sdk'];
const QUESTION = 'My order AF-1042 arrived broken. What now?';
const API_KEY = 'sk-new-user-test';
const [major, minor] = process.versions.node.split('.').map(Number);

let checks = 0;
function check(ok, what, detail) {
  if (!ok) throw new Error(`${what}${detail === undefined ? '' : `\n${detail}`}`);
  checks++;
  console.log(`  ok  ${what}`);
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Runs a command; rejects with its output when it fails or runs past `timeoutMs`. */
function run(command, args, { cwd, env = {}, timeoutMs }) {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd,
        env: { ...process.env, ...env },
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error) {
          const why = error.killed ? `timed out after ${timeoutMs / 1000} s` : error.message;
          reject(new Error(`${command} ${args.join(' ')} (in ${cwd}): ${why}\n${stdout}${stderr}`));
        } else resolve({ stdout, stderr });
      },
    );
  });
}

/** A loopback server for `POST /v1/chat/completions`: answers "Reply n." and records requests. */
async function startOpenAIServer() {
  const requests = [];
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    let status = 404;
    let body = { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid' } };
    if (req.method === 'POST' && req.url?.split('?')[0] === '/v1/chat/completions') {
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      requests.push({ authorization: req.headers.authorization, ...request });
      status = 200;
      body = {
        id: `chatcmpl-new-user-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: request.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: `Reply ${requests.length}.`, refusal: null },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
      };
    }
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(text);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    baseURL: `http://127.0.0.1:${server.address().port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The CommonJS files a user of `require()` (Node 20.19+, 22.12+) or `import()` would write. */
const READ_WITH_REQUIRE = `'use strict';
const { createMemoryEngine, messageText } = require('@mem/core');
const { createSqliteStore } = require('@mem/store-sqlite');
const { createChainOfDensitySummarizer } = require('@mem/summarizers');
const { openAIChatModel } = require('@mem/summarizers/openai');
const { createRedisStore } = require('@mem/store-redis');

async function main() {
  const store = createSqliteStore({ path: 'mem.db' });
  const engine = createMemoryEngine({ store, profile: {} });
  const history = await engine.session('user-42').history();
  await store.close();
  console.log(JSON.stringify({
    messages: history.map((m) => [m.role, messageText(m)]),
    loaded: [typeof createChainOfDensitySummarizer, typeof openAIChatModel, typeof createRedisStore],
  }));
}
main().catch((error) => { console.error(error); process.exitCode = 1; });
`;
const READ_WITH_IMPORT = `'use strict';
async function main() {
  const { createMemoryEngine, messageText } = await import('@mem/core');
  const { createSqliteStore } = await import('@mem/store-sqlite');
  const store = createSqliteStore({ path: 'mem.db' });
  const history = await createMemoryEngine({ store, profile: {} }).session('user-42').history();
  await store.close();
  console.log(JSON.stringify({ messages: history.map((m) => [m.role, messageText(m)]) }));
}
main().catch((error) => { console.error(error); process.exitCode = 1; });
`;

async function main() {
  const started = Date.now();
  const work = await mkdtemp(join(tmpdir(), 'mem-new-user-'));
  // Stopped from outside (the shell script's time limit, Ctrl-C): remove the project anyway.
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.once(signal, () => {
      console.error(`new-user test FAILED: stopped by ${signal} after ${checks} checks`);
      rmSync(work, { recursive: true, force: true });
      process.exit(1);
    });
  }
  const server = await startOpenAIServer();
  try {
    console.log(`new-user test in ${work} (Node ${process.versions.node})`);
    const tarballs = join(work, 'tarballs');
    await mkdir(tarballs);
    const manifests = {};
    for (const name of PACKAGES) {
      const dir = join(ROOT, 'packages', name);
      await run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: dir, timeoutMs: 120_000 });
      manifests[name] = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    }
    const packed = (await readdir(tarballs)).filter((f) => f.endsWith('.tgz')).sort();
    check(packed.length === PACKAGES.length, `pnpm pack made ${PACKAGES.length} tarballs`, packed);

    // A fresh project, as a user would start one: only the registry and the tarballs.
    const app = join(work, 'app');
    await mkdir(app);
    const rootManifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
    const examples = JSON.parse(await readFile(join(ROOT, 'examples/package.json'), 'utf8'));
    const dependencies = { openai: examples.dependencies.openai };
    // The AI SDK as a new user gets it: the current major (ai 7 needs Node 22); on Node 20 the
    // ai 6 line the integration also supports.
    const exampleDep = (name) => examples.dependencies?.[name] ?? examples.devDependencies?.[name];
    dependencies.ai = major >= 22 ? 'latest' : exampleDep('ai');
    dependencies['@ai-sdk/openai'] = major >= 22 ? 'latest' : exampleDep('@ai-sdk/openai');
    for (const name of PACKAGES) {
      const file = packed.find((f) => f.startsWith(`mem-${name}-`));
      dependencies[manifests[name].name] = `file:../tarballs/${file}`;
    }
    // better-sqlite3 13 needs Node 22: on Node 20 a user pins the 12 line the store accepts.
    const sqlite = manifests['store-sqlite'];
    if (sqlite.peerDependencies?.['better-sqlite3'] !== undefined && major < 22) {
      dependencies['better-sqlite3'] =
        sqlite.devDependencies?.['better-sqlite3'] ??
        rootManifest.devDependencies['better-sqlite3'];
    }
    await writeFile(
      join(app, 'package.json'),
      `${JSON.stringify(
        {
          name: 'mem-new-user-app',
          private: true,
          type: 'module',
          dependencies,
          devDependencies: {
            '@types/node': rootManifest.devDependencies['@types/node'],
            tsx: rootManifest.devDependencies.tsx,
            typescript: rootManifest.devDependencies.typescript,
          },
        },
        null,
        2,
      )}\n`,
    );
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
        },
        include: ['quick-start.ts', 'ai-sdk-middleware.ts'],
      }),
    );
    await copyFile(join(ROOT, 'examples/quick-start.ts'), join(app, 'quick-start.ts'));
    await copyFile(join(ROOT, 'examples/ai-sdk-middleware.ts'), join(app, 'ai-sdk-middleware.ts'));
    await writeFile(join(app, 'read-with-require.cjs'), READ_WITH_REQUIRE);
    await writeFile(join(app, 'read-with-import.cjs'), READ_WITH_IMPORT);

    const t0 = Date.now();
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
      { cwd: app, env: await nativeBuildEnv(), timeoutMs: 600_000 },
    );
    const installed = JSON.parse(
      await readFile(join(app, 'node_modules/better-sqlite3/package.json'), 'utf8'),
    ).version;
    check(
      true,
      `npm install of the tarballs and their dependencies, better-sqlite3 ${installed} (${secs(t0)} s)`,
    );

    await run(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', '.'], {
      cwd: app,
      timeoutMs: 120_000,
    });
    check(true, 'quick-start.ts and ai-sdk-middleware.ts type-check against the published types');

    // Node 22.18+ runs TypeScript as it is; older Node through tsx.
    const strips = major > 22 || (major === 22 && minor >= 18);
    const runArgs = strips
      ? ['--no-warnings', 'quick-start.ts']
      : ['--import', 'tsx', 'quick-start.ts'];
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: API_KEY };
    console.log(`  run node ${runArgs.join(' ')}`);
    const first = await run(process.execPath, runArgs, { cwd: app, env, timeoutMs: 60_000 });
    check(first.stdout.trim() === 'Reply 1.', 'the first run prints the reply', first.stdout);
    const [request1] = server.requests;
    check(request1?.authorization === `Bearer ${API_KEY}`, 'it calls the server with the key');
    check(
      same(request1?.messages, [{ role: 'user', content: QUESTION }]),
      'the first request carries the user message',
      JSON.stringify(request1?.messages),
    );
    const second = await run(process.execPath, runArgs, { cwd: app, env, timeoutMs: 60_000 });
    check(second.stdout.trim() === 'Reply 2.', 'the second run prints the next reply');
    const messages2 = server.requests[1]?.messages.map((m) => [m.role, m.content]);
    check(
      same(messages2, [
        ['user', QUESTION],
        ['assistant', 'Reply 1.'],
        ['user', QUESTION],
      ]),
      'the second request carries the first turn from mem.db',
      JSON.stringify(messages2),
    );

    const header = (await readFile(join(app, 'mem.db'))).subarray(0, 16).toString('latin1');
    check(header === 'SQLite format 3\0', 'mem.db is a SQLite file');
    const stored = [
      ['user', QUESTION],
      ['assistant', 'Reply 1.'],
      ['user', QUESTION],
      ['assistant', 'Reply 2.'],
    ];
    const required = await run(process.execPath, ['read-with-require.cjs'], {
      cwd: app,
      timeoutMs: 60_000,
    });
    const viaRequire = JSON.parse(required.stdout);
    check(
      same(viaRequire.messages, stored),
      'CommonJS require() of the ESM packages reads both turns back from mem.db',
      required.stdout,
    );
    check(
      same(viaRequire.loaded, ['function', 'function', 'function']),
      'CommonJS require() loads @mem/summarizers, its /openai entry and @mem/store-redis',
    );
    const imported = await run(process.execPath, ['read-with-import.cjs'], {
      cwd: app,
      timeoutMs: 60_000,
    });
    check(
      same(JSON.parse(imported.stdout).messages, stored),
      'CommonJS import() reads the same turns',
      imported.stdout,
    );

    // One integration's README quick start: @mem/ai-sdk's middleware around @ai-sdk/openai, in a
    // directory of its own (its own mem.db), two generateText calls.
    const aiVersion = JSON.parse(
      await readFile(join(app, 'node_modules/ai/package.json'), 'utf8'),
    ).version;
    const aiRun = join(app, 'ai-sdk-run');
    await mkdir(aiRun);
    const aiArgs = strips
      ? ['--no-warnings', '../ai-sdk-middleware.ts']
      : ['--import', 'tsx', '../ai-sdk-middleware.ts'];
    const before = server.requests.length;
    const viaMiddleware = await run(process.execPath, aiArgs, {
      cwd: aiRun,
      env,
      timeoutMs: 60_000,
    });
    check(
      viaMiddleware.stdout.trim() === `Reply ${before + 2}.`,
      `the @mem/ai-sdk quick start runs on ai ${aiVersion} and prints the second reply`,
      viaMiddleware.stdout,
    );
    const secondCall = server.requests[before + 1]?.messages.map((m) => [m.role, m.content]);
    check(
      same(secondCall, [
        ['user', 'My order AF-1042 arrived broken.'],
        ['assistant', `Reply ${before + 1}.`],
        ['user', 'Which order was that about?'],
      ]),
      'its second call carries the first exchange, from the middleware',
      JSON.stringify(secondCall),
    );
    console.log(`new-user test: ${checks} checks passed in ${secs(started)} s`);
  } finally {
    await server.close();
    if (process.env.MEM_NEW_USER_KEEP === '1') console.log(`kept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

/**
 * better-sqlite3 12 (Node 20) downloads prebuilt binaries from GitHub, which is not the npm
 * registry: build it from source instead, against this Node's own headers (never downloaded).
 * better-sqlite3 13 (Node 22+) ships its binaries in the npm package and needs neither.
 */
async function nativeBuildEnv() {
  if (major >= 22) return {};
  const env = { npm_config_build_from_source: 'true', JOBS: 'max' };
  for (const dir of [join(dirname(process.execPath), '..'), '/usr']) {
    try {
      const header = await readFile(join(dir, 'include/node/node_version.h'), 'utf8');
      const part = (name) => new RegExp(`#define NODE_${name}_VERSION (\\d+)`).exec(header)?.[1];
      if (`${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}` === process.versions.node) {
        return { ...env, npm_config_nodedir: dir };
      }
    } catch {
      // no headers there
    }
  }
  return env;
}

function secs(since) {
  return ((Date.now() - since) / 1000).toFixed(1);
}

main().catch((error) => {
  console.error(`new-user test FAILED after ${checks} checks: ${error.message}`);
  process.exitCode = 1;
});
