/**
 * Per-client share of the MCP session table: one client (its address, after trusted-proxy
 * resolution) may hold at most `perClient` open sessions, so a single address cannot take all
 * `maxSessions` and lock everyone else out. Transport-neutral: the /mcp handler asks `acquire`
 * before it creates a session and calls `release` when the session ends, however it ends.
 */
export class SessionQuota {
  private readonly held = new Map<string, number>();
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

  sessionsOf(client: string): number {
    return this.held.get(client) ?? 0;
  }

  get limit(): number {
    return this.perClient;
  }
}
