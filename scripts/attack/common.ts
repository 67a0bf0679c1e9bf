/** Shared pieces of the attack suite: seeded randomness, the real `serve` binary as a child, tallies. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const BIN = path.join(ROOT, 'dist/cli.js');

/** mulberry32: small, seeded, reproducible. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function tempDir(label: string): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rp-attack-${label}-`));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface ServeChild {
  url: string;
  port: number;
  child: ChildProcess;
  /** stderr lines so far (JSON log lines). */
  logs: string[];
  exited: () => boolean;
  stop: () => Promise<void>;
  kill9: () => Promise<void>;
}

/** Starts `robot-parts-mcp serve` on 127.0.0.1, a free port, the given database; resolves once it listens. */
export function startServe(db: string, args: string[] = [], env: Record<string, string> = {}): Promise<ServeChild> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--host', '127.0.0.1', '--port', '0', '--db', db, '--log-level', 'info', ...args], {
      env: { ...process.env, ROBOT_PARTS_ALLOW_SANDBOX_PAYMENTS: '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const logs: string[] = [];
    let exited = false;
    let buf = '';
    const closed = new Promise<void>((res) => child.on('exit', () => {
      exited = true;
      res();
    }));
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${logs.join('\n')}`)), 30_000);
    child.stderr!.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        logs.push(line);
        if (line.includes('"msg":"listening"')) {
          clearTimeout(timer);
          const url = (JSON.parse(line) as { url: string }).url;
          resolve({
            url,
            port: Number(new URL(url).port),
            child,
            logs,
            exited: () => exited,
            stop: async () => {
              if (!exited) child.kill('SIGTERM');
              await closed;
            },
            kill9: async () => {
              if (!exited) child.kill('SIGKILL');
              await closed;
            },
          });
        }
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before listening: ${logs.join('\n')}`));
    });
  });
}

export class Tally {
  readonly counts = new Map<string, number>();
  add(key: string, n = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }
  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}
