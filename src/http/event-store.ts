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
  id: string;
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

export const EVENT_STORE_MAX_EVENTS = 64;
export const EVENT_STORE_MAX_BYTES = 256 * 1024;

export class SessionEventStore implements EventStore {
  /** Oldest first: events[i] is the event numbered first + i (ids end in ':' and that number). */
  private events: Stored[] = [];
  private first = 1;
  private bytes = 0;
  private seq = 0;

  constructor(
    private readonly maxEvents = EVENT_STORE_MAX_EVENTS,
    private readonly maxBytes = EVENT_STORE_MAX_BYTES,
  ) {}

  /** Events and bytes kept now (for tests and diagnostics). */
  get size(): { events: number; bytes: number } {
    return { events: this.events.length, bytes: this.bytes };
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}:${++this.seq}`;
    const bytes = messageBytes(message);
    const events = this.events;
    events.push({ id, streamId, message, bytes });
    this.bytes += bytes;
    // Drop the oldest until within bounds (the newest is kept even alone over maxBytes: it is being sent now).
    let drop = 0;
    while (events.length - drop > 1 && (events.length - drop > this.maxEvents || this.bytes > this.maxBytes)) this.bytes -= events[drop++]!.bytes;
    if (drop > 0) {
      this.events = events.slice(drop);
      this.first += drop;
    }
    return id;
  }

  /** The kept event of this id, or undefined (unknown, or no longer kept). */
  private find(eventId: string): { at: number; event: Stored } | undefined {
    const n = Number(eventId.slice(eventId.lastIndexOf(':') + 1));
    const at = n - this.first;
    const event = Number.isInteger(at) && at >= 0 ? this.events[at] : undefined;
    return event?.id === eventId ? { at, event } : undefined;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.find(eventId)?.event.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const from = this.find(lastEventId);
    if (!from) throw new Error(`event ${lastEventId} is not (or no longer) kept`);
    const { streamId } = from.event;
    // A copy: sending yields, and events stored meanwhile belong to the live stream, not this replay.
    for (const e of this.events.slice(from.at + 1)) {
      // priming events carry no message (an empty object): nothing to resend
      if (e.streamId === streamId && Object.keys(e.message).length > 0) await send(e.id, e.message);
    }
    return streamId;
  }
}

/**
 * The size a message counts for: the UTF-8 length of JSON.stringify(message), except that
 * - a long string (over LONG_STRING characters: a tool result's text block) counts two bytes per
 *   UTF-16 code unit, the most V8 holds in memory for it, without reading it: measuring its
 *   UTF-8 length would walk every character of it (a CJK text block is a two-byte string), and
 *   escaping it, as its JSON would, costs more than the rest of the call's serialisation (the
 *   transport escapes it once, to send it);
 * - a tool result's structuredContent counts as the result's longest text block when it has one:
 *   every text block of this server's tool results carries the structured answer's whole JSON
 *   after a one-line summary (src/tools/text.ts), so the block is at least as long. Without a text
 *   block it is measured exactly, through outputJson.
 * The bound is one of memory, which holds the unescaped strings and the objects behind them.
 */
export function messageBytes(message: JSONRPCMessage): number {
  const result = (message as { result?: { content?: unknown } }).result;
  const text = result !== null && typeof result === 'object' ? longestText(result.content) : null;
  const textBytes = text === null ? 0 : 2 * text.length;
  let extra = 0;
  const rest = JSON.stringify(message, function (this: unknown, key: string, value: unknown) {
    if (key === 'structuredContent' && this === result && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      extra += (text === null ? Buffer.byteLength(outputJson(value as Record<string, unknown>), 'utf8') : textBytes) - 1;
      return 0;
    }
    if (typeof value === 'string' && value.length > LONG_STRING) {
      extra += 2 * value.length + 2 - 1;
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

/** Strings longer than this count two bytes per UTF-16 code unit, unread (see messageBytes). */
export const LONG_STRING = 256;
