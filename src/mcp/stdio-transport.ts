/**
 * MCP over stdio, one JSON-RPC message per line. Unlike the SDK's transport, a line that is not
 * JSON, a batch (JSON array: batching was removed in 2025-06-18) or a value that is not a
 * JSON-RPC message is answered with a JSON-RPC error on stdout instead of being dropped
 * silently. Everything else is passed on unchanged.
 */
import type { Readable, Writable } from 'node:stream';
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { messageJson } from './prepared-message.js';

/** Lines longer than this are refused (and the rest of the line skipped) rather than buffered. */
export const STDIO_MAX_LINE_BYTES = 16 * 1024 * 1024;

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private buffer = '';
  private skipping = false;
  private started = false;
  private closed = false;
  /** Messages held back (in arrival order) until what the first of them waits for has settled. */
  private queue: Promise<void> | null = null;
  private queued = 0;

  /**
   * @param opts.hold asked for each message before it is passed on: a promise makes the message
   *   (and every later one, to keep their order) wait until it settles; undefined passes it on.
   */
  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly opts: { hold?: (message: JSONRPCMessage) => Promise<unknown> | undefined } = {},
  ) {}

  private deliver(message: JSONRPCMessage): void {
    const wait = this.opts.hold?.(message);
    if (wait === undefined && this.queue === null) {
      this.onmessage?.(message);
      return;
    }
    this.queued++;
    const after = this.queue ?? Promise.resolve();
    this.queue = after
      .then(() => wait)
      .then(
        () => undefined,
        () => undefined, // what it waited for failed: the message is still passed on (its handler reports the failure)
      )
      .then(() => {
        if (!this.closed) this.onmessage?.(message);
        if (--this.queued === 0) this.queue = null;
      });
  }

  private readonly onData = (chunk: Buffer | string) => {
    this.buffer += chunk.toString();
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      this.handleLine(line);
    }
    if (this.buffer.length > STDIO_MAX_LINE_BYTES) {
      this.buffer = '';
      this.skipping = true;
      this.reject(null, -32600, `Invalid Request: message longer than ${STDIO_MAX_LINE_BYTES} bytes`);
    }
  };

  private readonly onEnd = () => {
    void this.close();
  };

  private readonly onError = (err: Error) => {
    this.onerror?.(err);
  };

  private reject(id: string | number | null, code: number, message: string): void {
    void this.write({ jsonrpc: '2.0', id, error: { code, message } }).catch(() => {});
  }

  private handleLine(line: string): void {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.reject(null, -32700, 'Parse error: the line is not valid JSON (one JSON-RPC message per line)');
      return;
    }
    if (Array.isArray(value)) {
      this.reject(null, -32600, 'Invalid Request: JSON-RPC batches are not supported; send one message per line');
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      const id = value && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
      this.reject(typeof id === 'string' || typeof id === 'number' ? id : null, -32600, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response');
      return;
    }
    this.deliver(message);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('LineStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('close', this.onEnd);
  }

  private write(message: unknown): Promise<void> {
    if (this.closed) return Promise.reject(new Error('stdio transport is closed'));
    return new Promise((resolve, reject) => {
      this.stdout.write(messageJson(message) + '\n', (err) => (err ? reject(err) : resolve()));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    this.stdin.pause();
    this.onclose?.();
  }
}
