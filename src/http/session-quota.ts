/**
 * Per-client share of the MCP session table: one client (its address, after trusted-proxy
 * resolution) may hold at most `perClient` open sessions, so a single address cannot take all
 * `maxSessions` and lock everyone else out. Transport-neutral: the /mcp handler asks `acquire`
 * before it creates a session and calls `release` when the session ends, however it ends.
 *
 * A full share does not lock its owner out: clients that never send DELETE (the TypeScript SDK's
 * `Client.close()`, the Inspector CLI) leave sessions behind, so when a client's share is full the
 * handler closes that client's least recently used idle session (`leastRecentlyUsed`) and opens the
 * new one; a client that comes back to the closed session gets 404 and initialises again. Only
 * when every session of the share is busy (a request being answered on it) is the client refused,
 * with Retry-After.
 */
export class SessionQuota {
  private readonly held = new Map<string, number>();
  /** Session id -> its client, in the order the sessions were opened. */
  private readonly owner = new Map<string, string>();

  /** perClient 0 = no per-client share (the global limit still applies). */
  constructor(private readonly perClient: number) {}

  /** May `client` open one more session? */
  canOpen(client: string): boolean {
    return this.perClient === 0 || (this.held.get(client) ?? 0) < this.perClient;
  }

  /** Records an opened session of `client`. */
  opened(sessionId: string, client: string): void {
    if (this.owner.has(sessionId)) return;
    this.owner.set(sessionId, client);
    this.held.set(client, (this.held.get(client) ?? 0) + 1);
  }

  /** Forgets a session (idempotent). */
  closed(sessionId: string): void {
    const client = this.owner.get(sessionId);
    if (client === undefined) return;
    this.owner.delete(sessionId);
    const n = (this.held.get(client) ?? 1) - 1;
    if (n <= 0) this.held.delete(client);
    else this.held.set(client, n);
  }

  /**
   * The session of `client` to close so it can open another: of its sessions `idle` accepts, the one
   * `lastUsed` says was used longest ago (ties: the one opened first). Null when none is idle.
   */
  leastRecentlyUsed(client: string, idle: (sessionId: string) => boolean, lastUsed: (sessionId: string) => number): string | null {
    let best: string | null = null;
    let bestAt = Infinity;
    for (const [id, owner] of this.owner) {
      if (owner !== client || !idle(id)) continue;
      const at = lastUsed(id);
      if (at < bestAt) {
        best = id;
        bestAt = at;
      }
    }
    return best;
  }

  sessionsOf(client: string): number {
    return this.held.get(client) ?? 0;
  }

  get limit(): number {
    return this.perClient;
  }
}
