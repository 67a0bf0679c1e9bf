/**
 * /mcp's serving (mounted by src/http/mcp.ts, which imports this module on the first request):
 * both protocol eras on the one endpoint, 2026-07-28 requests through the SDK's createMcpHandler,
 * 2025-era ones on sessions (or one instance per request when stateless). See mcp.ts.
 */
import { randomUUID } from 'node:crypto';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, PROTOCOL_VERSION_META_KEY, SUPPORTED_PROTOCOL_VERSIONS, WebStandardStreamableHTTPServerTransport, type AuthInfo } from '@modelcontextprotocol/server';
import type { Context } from 'hono';
import type { Deps } from '../deps.js';
import { createServer, LEGACY_PROTOCOL_VERSIONS, type HttpCallerInfo } from '../server.js';
import { sseEventBytes } from '../mcp/prepared-message.js';
import { DomainError } from '../domain/shared/errors.js';
import { isPlainObject } from '../domain/shared/freeze.js';
import { clientAddress, errorResponse, requestHeader, requestHeaders, requestText, type AppEnv } from './common.js';
import { SessionEventStore } from './event-store.js';
import { limitMcpReplay, limitMcpReads } from './mcp-limits.js';
import { presentedKeys } from './security.js';
import { SessionQuota } from './session-quota.js';
import { sampledWarnings } from '../log.js';
import { clientGroup } from '../domain/accounts/client-group.js';
import { BATCH_PROTOCOL_VERSION, SESSION_BUSY_RETRY_SECONDS, SSE_RETRY_MS, type McpOptions, type McpServing } from './mcp-common.js';

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  close: () => Promise<void>;
  lastSeen: number;
  /** Requests of this session being served now. */
  busy: number;
  /** The revision initialize negotiated (2025-03-26 sessions take JSON-RPC batches). */
  protocolVersion: string;
  events: SessionEventStore;
}

/**
 * Is an answer being streamed on the session (an SSE stream of a POST, or a replay, open)? The
 * standalone GET stream does not count: a client keeps it open while it does nothing, and this
 * server sends nothing on it (no list changes, no subscriptions). SDK 2.4.0's private map; absent,
 * none is assumed.
 */
function streamsAnswer(transport: WebStandardStreamableHTTPServerTransport): boolean {
  const streams = (transport as unknown as { _streamMapping?: Map<unknown, unknown> })._streamMapping;
  if (!(streams instanceof Map)) return false;
  for (const key of streams.keys()) if (key !== '_GET_stream') return true;
  return false;
}

function isToolCall(m: unknown): m is { method: 'tools/call'; params: { name: string } } {
  const x = m as { method?: unknown; params?: { name?: unknown } } | null;
  return typeof x === 'object' && x !== null && x.method === 'tools/call' && typeof x.params?.name === 'string';
}

/** True when a message of the body carries a progress token (its answer must stream the notifications). */
function wantsProgress(body: unknown): boolean {
  const msgs = Array.isArray(body) ? body : [body];
  return msgs.some((m) => {
    const meta = (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta !== undefined && meta !== null && meta.progressToken !== undefined;
  });
}

/** True when a message of the body claims a protocol revision in its `_meta` envelope (a 2026-era request). */
function claimsEnvelope(body: unknown): boolean {
  const msgs = Array.isArray(body) ? body : [body];
  return msgs.some((m) => {
    const meta = (m as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
    return meta !== undefined && meta !== null && typeof meta === 'object' && meta[PROTOCOL_VERSION_META_KEY] !== undefined;
  });
}

/**
 * True for the common 2025-era request the SDK's isLegacyRequest would classify as legacy: one
 * well-formed JSON-RPC request (object params or none) that claims no 2026 envelope, sent with no
 * MCP-Protocol-Version header or a 2025-era one. Anything else is left to isLegacyRequest.
 */
export function plainLegacyRequest(protocolHeader: string | undefined, body: unknown): boolean {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') return false;
  if (!(typeof body.id === 'string' || (typeof body.id === 'number' && Number.isInteger(body.id)))) return false;
  if (body.params !== undefined && !isPlainObject(body.params)) return false;
  if (claimsEnvelope(body)) return false;
  return protocolHeader === undefined || (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(protocolHeader.trim());
}

/** The SDK transport's SSE writer: (controller, encoder, message, event id) -> whether it was written. */
type SseWriter = (controller: ReadableStreamDefaultController<Uint8Array>, encoder: TextEncoder, message: unknown, eventId?: string) => boolean;

/**
 * A session's transport writes each SSE event as the SDK's own writer does (`event: message`, the
 * event id, `data: <JSON>`); a tool result's event is then written from the bytes its text block
 * and its REST answer are built of, not serialised and encoded again (src/mcp/prepared-message.ts). The
 * writer is the SDK's (2.4.0) private writeSSEEvent, replaced on the instance; should a later SDK
 * not have it, nothing is replaced and the SDK serialises as before
 * (test/mcp/prepared-message.test.ts compares the two writers' bytes).
 */
export function writesPreparedJson(transport: WebStandardStreamableHTTPServerTransport): boolean {
  const t = transport as unknown as { writeSSEEvent?: SseWriter };
  if (typeof t.writeSSEEvent !== 'function') return false;
  t.writeSSEEvent = (controller, encoder, message, eventId) => {
    try {
      const prepared = sseEventBytes(message, eventId);
      if (prepared !== null) {
        controller.enqueue(prepared);
        return true;
      }
      let eventData = 'event: message\n';
      if (eventId) eventData += `id: ${eventId}\n`;
      eventData += `data: ${JSON.stringify(message)}\n\n`;
      controller.enqueue(encoder.encode(eventData));
      return true;
    } catch (error) {
      transport.onerror?.(error as Error);
      return false;
    }
  };
  return true;
}

function jsonRpcError(c: Context<AppEnv>, status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return c.json({ jsonrpc: '2.0', error: { code, message }, id: null }, status as 400, headers);
}

export function mcpServing(deps: Deps, opts: McpOptions): McpServing {
  const sessions = new Map<string, Session>();
  const quota = new SessionQuota(deps.config.maxSessionsPerClient);
  const idleMs = deps.config.sessionIdleSeconds * 1000;
  const allowed = opts.stateless ? 'POST' : 'GET, POST, DELETE';

  const modern = createMcpHandler(({ era }) => createServer(deps, { surface: 'mcp-http', era, tools: opts.tools }), {
    // stateless: the SDK's per-request legacy serving; otherwise legacy traffic never reaches
    // this handler (it is routed to the sessions below first).
    legacy: opts.stateless ? 'stateless' : 'reject',
    maxRequestBodySize: opts.maxBody,
    onerror: (err) => deps.log.debug('mcp request rejected', { error: err.message }),
  });

  function expire(id: string, s: Session): void {
    sessions.delete(id);
    quota.closed(id);
    deps.log.info('mcp session expired', { session: id });
    void s.close().catch(() => {});
  }

  /**
   * Closes sessions idle longer than the configured time: walked on /mcp requests, at most once a
   * second (idle limits are minutes); the session a request names is checked on every request (live()).
   */
  let sweptAt = -Infinity;
  function sweep(now: number): void {
    if (now >= sweptAt && now - sweptAt < 1000) return;
    sweptAt = now;
    for (const [id, s] of sessions) if (now - s.lastSeen > idleMs) expire(id, s);
  }

  /** The open session `id`, unless it has been idle too long (then it is closed now). */
  function live(id: string, now: number): Session | undefined {
    const s = sessions.get(id);
    if (s && now - s.lastSeen > idleMs) {
      expire(id, s);
      return undefined;
    }
    return s;
  }

  const authInfo = (c: Context<AppEnv>): AuthInfo => {
    const caller: HttpCallerInfo = { credentials: presentedKeys(requestHeaders(c), undefined), clientAddress: clientAddress(c) };
    return { token: '', clientId: caller.clientAddress ?? 'unknown', scopes: [], extra: { caller } };
  };

  /**
   * A 2025-era request in stateless mode that asks for no progress: one instance and one
   * transport for it, answering with a single JSON body (no SSE stream to set up and tear down).
   * With a progress token the SDK's stateless serving (SSE) is used, so the notifications arrive.
   * Other mid-call notifications (log messages of a failed call) are not sent on this path; the
   * result carries the whole error.
   */
  async function statelessJson(c: Context<AppEnv>, body: unknown, auth: AuthInfo): Promise<Response> {
    const server = createServer(deps, { surface: 'mcp-http', era: 'legacy', tools: opts.tools });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: opts.maxBody });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw, { parsedBody: body, authInfo: auth });
    } finally {
      transport.close().catch(() => {});
      server.close().catch(() => {});
    }
  }

  async function parseBody(c: Context<AppEnv>): Promise<unknown | Response> {
    let text: string;
    let body: unknown;
    try {
      text = await requestText(c);
      body = JSON.parse(text);
    } catch {
      return jsonRpcError(c, 400, -32700, 'Parse error: body is not valid JSON');
    }
    // Above the general limit only a call of a tool that takes file content (per-route limit).
    const general = opts.generalBody ?? opts.maxBody;
    if (text.length > general / 3 && Buffer.byteLength(text, 'utf8') > general) {
      const msgs = Array.isArray(body) ? body : [body];
      const large = msgs.length === 1 && isToolCall(msgs[0]) && (opts.largeBodyTools?.has(msgs[0].params.name) ?? false);
      if (!large) return errorResponse(c, new DomainError('payload_too_large', `Request body exceeds ${general} bytes; only ${[...(opts.largeBodyTools ?? [])].join(', ') || 'no tool'} calls may send up to ${opts.maxBody} bytes`, { limit_bytes: general }));
    }
    return body;
  }

  /** Is this batch one an open 2025-03-26 session takes (named by the request, holding no initialize)? */
  function batchSession(c: Context<AppEnv>, batch: unknown[]): boolean {
    const sid = opts.stateless ? undefined : requestHeader(c, 'mcp-session-id');
    const s = sid === undefined ? undefined : sessions.get(sid);
    return s !== undefined && s.protocolVersion === BATCH_PROTOCOL_VERSION && batch.length > 0 && !batch.some((m) => isInitializeRequest(m));
  }

  /**
   * A resumption (GET with Last-Event-ID) from an event the session no longer keeps: refused here
   * saying so (the SDK would answer "Invalid event ID format"). Null when the event is kept.
   */
  function unresumable(c: Context<AppEnv>, s: Session): Response | null {
    if (c.req.method !== 'GET') return null;
    const last = requestHeader(c, 'last-event-id');
    if (last === undefined) return null;
    const state = s.events.stateOf(last);
    if (state === 'kept') return null;
    return state === 'expired'
      ? jsonRpcError(c, 400, -32000, `Event ${last} expired: the session no longer keeps it (the store keeps the last two events of each recent stream and at most 64 events / 256 kB besides); re-send the request`)
      : jsonRpcError(c, 400, -32000, `Unknown event ${last}: this session never sent it; resume with the id of an event received on this session`);
  }

  async function serve(c: Context<AppEnv>): Promise<Response> {
    const method = c.req.method;
    if (!allowed.split(', ').includes(method)) return jsonRpcError(c, 405, -32000, `Method not allowed; /mcp accepts ${allowed}`, { Allow: allowed });

    // The caller (keys, address) is read once per request, whichever path serves it.
    let auth: AuthInfo | undefined;
    const authOf = () => (auth ??= authInfo(c));
    let body: unknown;
    /** Serves the request on an open 2025-era session. */
    const onSession = async (s: Session, now: number) => {
      s.lastSeen = now;
      const refused = unresumable(c, s);
      if (refused) return refused;
      s.busy++;
      try {
        return await s.transport.handleRequest(c.req.raw, { parsedBody: body, authInfo: authOf() });
      } finally {
        s.busy--;
        s.lastSeen = deps.clock().getTime();
      }
    };
    if (method === 'POST') {
      const parsed = await parseBody(c);
      if (parsed instanceof Response) return parsed;
      body = parsed;
      // Batching was removed from the protocol in 2025-06-18; 2025-03-26 requires receiving batches,
      // so a batch is served on an open 2025-03-26 session (never holding initialize) and refused on
      // every other legacy path (other sessions, a new session, stateless), before any of it is served.
      if (Array.isArray(body) && !claimsEnvelope(body) && !batchSession(c, body)) {
        return jsonRpcError(c, 400, -32600, `Invalid Request: JSON-RPC batches are served only on sessions of protocol revision ${BATCH_PROTOCOL_VERSION} (never with initialize); send one message per request`);
      }
      const limited = await limitMcpReads(c, deps, body, authOf().extra!.caller as HttpCallerInfo);
      if (limited) return limited;
    } else if (method === 'GET' && requestHeader(c, 'last-event-id') !== undefined) {
      // A replay re-sends a stream's events: counted by the rate limit like a call.
      const limited = await limitMcpReplay(c, deps, authOf().extra!.caller as HttpCallerInfo);
      if (limited) return limited;
    }
    // A request on one of this server's open sessions that claims no 2026 envelope is a 2025-era
    // session request: served by its session without asking the SDK to classify it again
    // (the classification validates the whole message, about a twentieth of a call's cost).
    const sid = opts.stateless ? undefined : requestHeader(c, 'mcp-session-id');
    if (sid !== undefined && !claimsEnvelope(body)) {
      const now = deps.clock().getTime();
      sweep(now);
      const s = live(sid, now);
      if (s) return onSession(s, now);
    }
    if (opts.stateless && method === 'POST' && !wantsProgress(body) && (plainLegacyRequest(requestHeader(c, 'mcp-protocol-version'), body) || (await isLegacyRequest(c.req.raw, body)))) {
      return statelessJson(c, body, authOf());
    }
    if (opts.stateless || !(await isLegacyRequest(c.req.raw, body))) {
      return modern.fetch(c.req.raw, { parsedBody: body, authInfo: authOf() });
    }

    const now = deps.clock().getTime();
    sweep(now);
    if (sid) {
      const s = live(sid, now);
      if (!s) return jsonRpcError(c, 404, -32001, 'Session not found');
      return onSession(s, now);
    }

    if (method !== 'POST') return jsonRpcError(c, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    const isInit = Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
    if (!isInit) return jsonRpcError(c, 400, -32000, 'Bad Request: no valid session; send initialize first');
    const client = clientGroup(clientAddress(c) ?? 'unknown', deps.config.ipv6Prefix); // IPv6 by prefix: one /64 is one client
    if (!quota.canOpen(client)) {
      // The share is full: the client's least recently used idle session makes room (a client that
      // never sent DELETE is not locked out); it answers 404 from now on, and its client re-initialises.
      const lru = quota.leastRecentlyUsed(
        client,
        (id) => {
          const s = sessions.get(id);
          return s !== undefined && s.busy === 0 && !streamsAnswer(s.transport);
        },
        (id) => sessions.get(id)?.lastSeen ?? -Infinity,
      );
      if (lru === null) {
        sampledWarnings(deps.log).warn('mcp per-client session share reached', { sessions: quota.sessionsOf(client), limit: quota.limit });
        return jsonRpcError(c, 429, -32000, `Too many open sessions from this client (${quota.limit}), each busy with a request; end one (DELETE /mcp) or reuse an existing session`, {
          'Retry-After': String(SESSION_BUSY_RETRY_SECONDS),
        });
      }
      const s = sessions.get(lru);
      if (s) {
        sessions.delete(lru);
        quota.closed(lru);
        deps.log.info('mcp session closed for a new one of its client', { session: lru, limit: quota.limit });
        void s.close().catch(() => {});
      } else quota.closed(lru);
    }
    if (sessions.size >= deps.config.maxSessions) {
      sampledWarnings(deps.log).warn('mcp session limit reached', { sessions: sessions.size });
      // The first session to expire idle frees a slot: its remaining idle time (at least 1 s).
      let oldest = now;
      for (const s of sessions.values()) if (s.busy === 0 && s.lastSeen < oldest) oldest = s.lastSeen;
      const wait = Math.max(1, Math.ceil((oldest + idleMs - now) / 1000));
      return jsonRpcError(c, 503, -32000, 'Too many open sessions; retry later or use an existing session', { 'Retry-After': String(wait) });
    }

    const server = createServer(deps, { surface: 'mcp-http', era: 'legacy', preparedMessages: true, tools: opts.tools });
    const events = new SessionEventStore();
    const asked = (body as { params?: { protocolVersion?: unknown } }).params?.protocolVersion;
    const protocolVersion = typeof asked === 'string' && LEGACY_PROTOCOL_VERSIONS.includes(asked) ? asked : LEGACY_PROTOCOL_VERSIONS[0]!;
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: opts.maxBody,
      // SSE events carry ids (and a retry hint) so a dropped stream resumes with Last-Event-ID;
      // the store is per session and bounded (src/http/event-store.ts).
      eventStore: events,
      retryInterval: SSE_RETRY_MS,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, close: async () => { await server.close(); }, lastSeen: deps.clock().getTime(), busy: 0, protocolVersion, events });
        quota.opened(id, client);
        deps.log.debug('mcp session opened', { session: id });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
        quota.closed(id);
        deps.log.debug('mcp session closed', { session: id });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) {
        sessions.delete(transport.sessionId);
        quota.closed(transport.sessionId);
      }
    };
    writesPreparedJson(transport);
    await server.connect(transport);
    return transport.handleRequest(c.req.raw, { parsedBody: body, authInfo: authOf() });
  }

  return {
    serve,
    sessions: () => sessions.size,
    closeAll: async () => {
      const all = [...sessions.values()];
      for (const id of sessions.keys()) quota.closed(id);
      sessions.clear();
      await Promise.allSettled([...all.map((s) => s.close()), modern.close()]);
    },
  };
}
