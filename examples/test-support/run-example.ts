import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** What one run of an example printed. */
export interface ExampleRun {
  stdout: string;
  stderr: string;
}

/**
 * Runs `examples/<name>.ts` in a child Node process (TypeScript through tsx, workspace packages
 * from source) in `cwd`, with the OpenAI SDK pointed at `baseURL` when one is given.
 * Rejects when the example exits with an error.
 */
export function runExample(name: string, cwd: string, baseURL?: string): Promise<ExampleRun> {
  const file = fileURLToPath(new URL(`../${name}.ts`, import.meta.url));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--conditions=@mem/source', '--import', tsx, file],
      {
        cwd,
        env: {
          ...process.env,
          ...(baseURL === undefined
            ? {}
            : { OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: 'sk-loopback-test' }),
        },
        timeout: 30_000,
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${name}.ts failed: ${error.message}\n${stderr}`));
        else resolve({ stdout, stderr });
      },
    );
  });
}
