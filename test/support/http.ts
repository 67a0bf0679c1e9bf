import http from 'node:http';
import type { Config } from '../../src/config.js';
import type { Deps } from '../../src/deps.js';
import type { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { startHttpServer, type AppOptions, type RunningServer } from '../../src/http/app.js';
import { realDeps, testDeps } from './deps.js';

type TestServer = RunningServer & { deps: Deps; stop: () => Promise<void> };

/** A server on these deps on a free loopback port; stop() closes both. */
async function serveDeps(deps: Deps, opts: AppOptions = {}): Promise<TestServer> {
  const s = await startHttpServer(deps, opts);
  return { ...s, deps, stop: async () => { await s.close(); deps.close(); } };
}

export function startTestServer(entities?: StoredEntity[], overrides: Partial<Config> = {}, opts: AppOptions = {}): Promise<TestServer> {
  return serveDeps(testDeps(entities, overrides), opts);
}

/** A server over the shipped data/ on a free loopback port. */
export function startRealServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  return serveDeps(realDeps(overrides));
}

/** A raw HTTP request (fetch forbids setting Host). */
export function rawRequest(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString('utf8'), bytes });
      });
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}
