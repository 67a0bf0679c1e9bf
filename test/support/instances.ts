/**
 * Real `robot-parts-mcp serve` processes (the built dist/cli.js) for multi-instance tests and
 * the scale benchmark. Each listens on a free loopback port (--port 0) and is found through
 * its "listening" log line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const CLI = path.resolve(import.meta.dirname, '../../dist/cli.js');

export interface Instance {
  url: string;
  proc: ChildProcess;
  /** stderr so far (JSON log lines). */
  log(): string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL (kill -9) and wait for exit. */
  kill9(): Promise<void>;
}

export interface InstanceOptions {
  args?: string[];
  /** Options of node itself, before the CLI (a V8 flag, say). */
  nodeArgs?: string[];
  /**
   * Write stdout and stderr, in the order the process writes them, to this file instead of piping
   * stderr (what V8 prints goes to stdout): log() reads it.
   */
  outputFile?: string;
  env?: Record<string, string>;
  /** Working folder of the process (default: this one). */
  cwd?: string;
  /** Rejects when the process has not logged "listening" in this time (ms, default 60 s). */
  startTimeoutMs?: number;
}

const exited = (p: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (p.exitCode !== null || p.signalCode !== null) resolve();
    else p.once('exit', () => resolve());
  });

/** Starts `serve`; resolves once it listens, rejects with its log when it exits first. */
export function startInstance(opts: InstanceOptions = {}): Promise<Instance> {
  const fd = opts.outputFile === undefined ? null : fs.openSync(opts.outputFile, 'w');
  const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), CLI, 'serve', '--host', '127.0.0.1', '--port', '0', ...(opts.args ?? [])], {
    env: { ...process.env, ROBOT_PARTS_LOG_LEVEL: 'info', ...opts.env },
    stdio: fd === null ? ['ignore', 'ignore', 'pipe'] : ['ignore', fd, fd],
    cwd: opts.cwd,
  });
  if (fd !== null) fs.closeSync(fd);
  let stderr = '';
  const log = () => (opts.outputFile === undefined ? stderr : fs.readFileSync(opts.outputFile, 'utf8'));
  const instance = (url: string): Instance => ({
    url,
    proc,
    log,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited(proc);
    },
    kill9: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited(proc);
    },
  });
  return new Promise((resolve, reject) => {
    let poll: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      clearInterval(poll);
      proc.kill('SIGKILL');
      reject(new Error(`serve did not start in time:\n${log()}`));
    }, opts.startTimeoutMs ?? 60_000);
    const listening = () => {
      const m = /"msg":"listening","url":"([^"]+)"/.exec(log());
      if (m) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve(instance(m[1]!));
      }
    };
    if (opts.outputFile === undefined) {
      proc.stderr!.setEncoding('utf8');
      proc.stderr!.on('data', (chunk: string) => {
        stderr += chunk;
        listening();
      });
    } else poll = setInterval(listening, 50);
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      clearInterval(poll);
      reject(new Error(`serve exited (${code ?? signal}) before listening:\n${log()}`));
    });
  });
}
