import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';

/** The page's folder: `apps/playground/web`. */
export const WEB_DIR = fileURLToPath(new URL('../../web/', import.meta.url));

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

/** Only plain file names in web/ are served, so no path can leave the folder. */
const NAME = /^\/([a-z0-9][a-z0-9-]*)\.(html|js|css|svg)$/;

/** The static file for a URL path, or undefined when there is none (→ 404). */
export async function staticFile(
  path: string,
): Promise<{ body: Buffer; type: string } | undefined> {
  const match = NAME.exec(path === '/' ? '/index.html' : path);
  if (match === null) return undefined;
  const [, name, ext] = match as unknown as [string, string, string];
  try {
    const body = await readFile(`${WEB_DIR}${name}.${ext}`);
    return { body, type: TYPES[ext] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}

export function sendStatic(res: ServerResponse, file: { body: Buffer; type: string }): void {
  res.writeHead(200, {
    'content-type': file.type,
    'content-length': file.body.length,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'content-security-policy':
      "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
  });
  res.end(file.body);
}
