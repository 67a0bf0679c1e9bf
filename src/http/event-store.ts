/**
 * The event store of one stateful 2025-era MCP session (the SDK's EventStore interface): every SSE
 * event the session's transport sends gets an id, and a client whose stream dropped reconnects
 * with Last-Event-ID (GET /mcp) to receive what it missed on that stream. Bounded: at most
 * `maxEvents` events and `maxBytes` of serialised messages per session (see messageBytes), the
 * oldest dropped first, except the last two events of the most recently written streams (an answer
 * of any allowed size and the event before it, so a stream dropped before the largest answer still
 * resumes); a Last-Event-ID no longer kept is refused as expired (the client starts over), never
 * answered with a partial replay. One store per session, so one session can never replay another's events.
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
/** Streams whose last two events are kept whatever their size (the most recently written). */
export const EVENT_STORE_PROTECTED_STREAMS = 4;

/** What a session knows of an event id a client resumes from. */
export type EventIdState = 'kept' | 'expired' | 'unknown';

export class SessionEventStore implements EventStore {
  /** Kept events by number, oldest first (ids end in ':' and that number). */
  private readonly events = new Map<number, Stored>();
  private bytes = 0;
  private seq = 0;
  /**
   * The last two event numbers of the most recently written streams, least recent first: an
   * answer and the event before it (the one a client whose stream dropped before the answer holds)
   * stay kept whatever their size, so a dropped stream resumes even before the largest answer.
   */
  private readonly tails = new Map<string, number[]>();

  constructor(
    private readonly maxEvents = EVENT_STORE_MAX_EVENTS,
    private readonly maxBytes = EVENT_STORE_MAX_BYTES,
    private readonly protectedStreams = EVENT_STORE_PROTECTED_STREAMS,
  ) {}

  /** Events and bytes kept now (for tests and diagnostics). */
  get size(): { events: number; bytes: number } {
    return { events: this.events.size, bytes: this.bytes };
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const n = ++this.seq;
    const id = `${streamId}:${n}`;
    const bytes = messageBytes(message);
    this.events.set(n, { id, streamId, message, bytes });
    this.bytes += bytes;
    const tail = this.tails.get(streamId) ?? [];
    this.tails.delete(streamId);
    this.tails.set(streamId, [...tail.slice(-1), n]);
    if (this.tails.size > this.protectedStreams) this.tails.delete(this.tails.keys().next().value!);
    // Drop the oldest until within bounds, except the protected tails (the newest event is one).
    if (this.events.size > this.maxEvents || this.bytes > this.maxBytes) {
      const kept = new Set<number>();
      for (const t of this.tails.values()) for (const k of t) kept.add(k);
      // The protected are each the last events of their stream: what is dropped of a stream is
      // always its oldest, so a kept event is followed by every later event of its stream (a replay is whole).
      for (const [k, e] of this.events) {
        if (this.events.size <= this.maxEvents && this.bytes <= this.maxBytes) break;
        if (kept.has(k)) continue;
        this.events.delete(k);
        this.bytes -= e.bytes;
      }
    }
    return id;
  }

  private static numberOf(eventId: string): number {
    return Number(eventId.slice(eventId.lastIndexOf(':') + 1));
  }

  /** The kept event of this id, or undefined (unknown, or no longer kept). */
  private find(eventId: string): Stored | undefined {
    const event = this.events.get(SessionEventStore.numberOf(eventId));
    return event?.id === eventId ? event : undefined;
  }

  /** Is this id kept, issued by this store but dropped since (expired), or never issued here? */
  stateOf(eventId: string): EventIdState {
    if (this.find(eventId)) return 'kept';
    const n = SessionEventStore.numberOf(eventId);
    return Number.isInteger(n) && n >= 1 && n <= this.seq && /^.+:\d+$/.test(eventId) ? 'expired' : 'unknown';
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.find(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const from = this.find(lastEventId);
    if (!from) throw new Error(`event ${lastEventId} is not (or no longer) kept`);
    const { streamId } = from;
    const after = SessionEventStore.numberOf(lastEventId);
    // A copy: sending yields, and events stored meanwhile belong to the live stream, not this replay.
    const later = [...this.events].filter(([k, e]) => k > after && e.streamId === streamId).map(([, e]) => e);
    // priming events carry no message (an empty object): nothing to resend
    for (const e of later) if (Object.keys(e.message).length > 0) await send(e.id, e.message);
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
