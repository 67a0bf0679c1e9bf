/**
 * The event store of one stateful 2025-era MCP session (the SDK's EventStore interface): every SSE
 * event the session's transport sends gets an id, and a client whose stream dropped reconnects
 * with Last-Event-ID (GET /mcp) to receive what it missed on that stream. Bounded: at most
 * `maxEvents` events and `maxBytes` of serialised messages per session (see messageBytes), the
 * oldest dropped first;
 * a Last-Event-ID older than what is kept is refused (the client starts over), never answered with
 * a partial replay. One store per session, so one session can never replay another's events.
 */
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';
import { outputJson } from '../wire/prepared.js';

interface Stored {
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

export const EVENT_STORE_MAX_EVENTS = 64;
export const EVENT_STORE_MAX_BYTES = 256 * 1024;

export class SessionEventStore implements EventStore {
  private readonly events = new Map<string, Stored>();
  private bytes = 0;
  private seq = 0;

  constructor(
    private readonly maxEvents = EVENT_STORE_MAX_EVENTS,
    private readonly maxBytes = EVENT_STORE_MAX_BYTES,
  ) {}

  /** Events and bytes kept now (for tests and diagnostics). */
  get size(): { events: number; bytes: number } {
    return { events: this.events.size, bytes: this.bytes };
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}:${++this.seq}`;
    const bytes = messageBytes(message);
    this.events.set(id, { streamId, message, bytes });
    this.bytes += bytes;
    // Drop the oldest until within bounds (the newest is kept even alone over maxBytes: it is being sent now).
    for (const [old, e] of this.events) {
      if (this.events.size <= 1 || (this.events.size <= this.maxEvents && this.bytes <= this.maxBytes)) break;
      this.events.delete(old);
      this.bytes -= e.bytes;
    }
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const from = this.events.get(lastEventId);
    if (!from) throw new Error(`event ${lastEventId} is not (or no longer) kept`);
    let after = false;
    for (const [id, e] of [...this.events]) {
      if (id === lastEventId) {
        after = true;
        continue;
      }
      // priming events carry no message (an empty object): nothing to resend
      if (after && e.streamId === from.streamId && Object.keys(e.message).length > 0) await send(id, e.message);
    }
    return from.streamId;
  }
}

/**
 * The size a message counts for: the UTF-8 length of JSON.stringify(message), except that
 * - a long string (over LONG_STRING characters: a tool result's text block) counts its UTF-8 length
 *   and two quotes, without the backslashes its escapes would add (one per quote in a JSON text
 *   block: ~14% of a page of search hits). Escaping a text block that holds CJK names (a two-byte
 *   string) costs more than the rest of the call's serialisation, and the transport escapes it
 *   again to send it;
 * - a tool result's structuredContent counts as the result's longest text block when it has one:
 *   every text block of this server's tool results carries the structured answer's whole JSON
 *   after a one-line summary (src/tools/text.ts), so the block is at least as long. Without a text
 *   block it is measured exactly, through outputJson.
 * The bound is one of memory, which holds the unescaped strings and the objects behind them.
 */
export function messageBytes(message: JSONRPCMessage): number {
  const result = (message as { result?: { content?: unknown } }).result;
  const text = result !== null && typeof result === 'object' ? longestText(result.content) : null;
  const textBytes = text === null ? 0 : Buffer.byteLength(text, 'utf8');
  let extra = 0;
  const rest = JSON.stringify(message, function (this: unknown, key: string, value: unknown) {
    if (key === 'structuredContent' && this === result && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      extra += (text === null ? Buffer.byteLength(outputJson(value as Record<string, unknown>), 'utf8') : textBytes) - 1;
      return 0;
    }
    if (typeof value === 'string' && value.length > LONG_STRING) {
      extra += (value === text ? textBytes : Buffer.byteLength(value, 'utf8')) + 2 - 1;
      return 0;
    }
    return value;
  });
  return Buffer.byteLength(rest, 'utf8') + extra;
}

/** The longest text of a result's text blocks, or null when it has none. */
function longestText(content: unknown): string | null {
  if (!Array.isArray(content)) return null;
  let text: string | null = null;
  for (const b of content) {
    const t = (b as { type?: unknown; text?: unknown } | null)?.text;
    if ((b as { type?: unknown } | null)?.type === 'text' && typeof t === 'string' && (text === null || t.length > text.length)) text = t;
  }
  return text;
}

/** Strings longer than this count without their escapes (see messageBytes). */
export const LONG_STRING = 256;
