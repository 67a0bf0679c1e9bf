/**
 * createServer(deps, opts): one MCP server instance (v2 SDK, low-level `Server`) with every tool,
 * resource, prompt and completion. No side effects on import.
 *
 * Both protocol eras come from this one factory: the HTTP entry and stdio call it with the era
 * they serve (2026-07-28 "modern", per request; 2025-era "legacy", per session or per request).
 * Everything that does not vary per instance (the tools/list and prompts/list entries, their
 * JSON Schemas) is computed once per process; an instance is its handlers and nothing else.
 */
import { randomUUID } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, ResourceNotFoundError, Server, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult, type ClientCapabilities, type ContentBlock, type ServerContext, type Tool } from '@modelcontextprotocol/server';
import type { Deps } from './deps.js';
import { resolveApiKey } from './domain/accounts/credentials.js';
import { DomainError } from './domain/shared/errors.js';
import { toPortableJsonSchema } from './mcp/json-schema.js';
import { adoptToolResult, forgetNoted, noteToolText } from './mcp/prepared-message.js';
import { prebuiltToolEntries, prebuiltToolListSoon } from './mcp/tools-list-cache.js';
import { SERVER_ICONS, SERVER_WEBSITE_URL } from './mcp/identity.js';
import { readView, toolsWithViews, uiNegotiated, viewResources, VIEW_URI_PREFIX } from './mcp/apps.js';
import type { AnyTool, PresentedKey, Surface, ToolContext } from './tools/define.js';
import { SERVER_NAME, SERVER_VERSION } from './version.js';

/**
 * What serves tools, resources, prompts and completions: the tool registry and the domain behind
 * it, imported on first use rather than with this module. A stdio client's handshake (initialize,
 * then tools/list from the build's prebuilt entries) is answered without loading them: importing
 * them is most of a cold start (about 70 ms). The HTTP server imports them at start (its REST
 * routes are built from the registry), so there this is already settled.
 */
async function importRegistry() {
  const [tools, run, text, exports, resources, prompts] = await Promise.all([
    import('./tools/index.js'),
    import('./tools/run.js'),
    import('./tools/text.js'),
    import('./resources/exports.js'),
    import('./resources/serve.js'),
    import('./prompts/serve.js'),
  ]);
  return { TOOLS: tools.TOOLS, runTool: run.runTool, toolText: text.toolText, toolTextParts: text.toolTextParts, exportStore: exports.exportStore, exportCaller: exports.exportCaller, ...resources, ...prompts };
}
type Registry = Awaited<ReturnType<typeof importRegistry>>;
let registry: Registry | null = null;
let registryLoad: Promise<Registry> | null = null;

/** The registry, imported once per process (the same object after). */
export function loadRegistry(): Promise<Registry> {
  if (registry) return Promise.resolve(registry);
  return (registryLoad ??= importRegistry().then((r) => (registry = r)));
}

export type Extra = ServerContext;
export type Era = 'legacy' | 'modern';

/** What the HTTP layer attaches to each MCP request (through authInfo.extra). */
export interface HttpCallerInfo {
  credentials: PresentedKey[];
  clientAddress: string | null;
}

export interface ServerOptions {
  surface: Surface;
  /** The protocol era the instance serves; legacy when not given. */
  era?: Era;
  tools?: readonly AnyTool[];
  /** A tool answer with a document (export_bom) whose JSON is larger than this (bytes, UTF-8) links the document instead (default EXPORT_INLINE_MAX_BYTES). */
  inlineMaxBytes?: number;
  /**
   * The transport writes messages with messageJson (src/mcp/prepared-message.ts): tool results'
   * text blocks are then prepared with their escaped form, so their messages are not serialised again.
   */
  preparedMessages?: boolean;
}

/** export_bom answers up to this size (bytes of JSON) come whole; larger ones link their document (resource_link) and keep the first lines. */
export const EXPORT_INLINE_MAX_BYTES = 64 * 1024;

export const ERROR_META_KEY = 'robot-parts/error';

/** The catalogue is immutable while the process runs: list and read results may be cached this long. */
export const CACHE_TTL_MS = 3_600_000;

const INSTRUCTIONS =
  'Structured data on humanoid and bionic robot components. Values are vendor-declared, never measured by this service; ' +
  'absent data stays absent. Start with search_parts, then get_part. The prompts select_actuator, plan_bom and check_mounting ' +
  'lay out the tool calls for common tasks.';

/** Keys the transport presented: the HTTP request's headers, or ROBOT_PARTS_API_KEY on stdio. */
function transportCredentials(deps: Deps, surface: Surface, caller: HttpCallerInfo | undefined): PresentedKey[] {
  if (caller) return caller.credentials;
  return surface === 'mcp-stdio' && deps.config.stdioApiKey ? [{ source: 'env:ROBOT_PARTS_API_KEY', key: deps.config.stdioApiKey }] : [];
}

/** The one key presented (transport and `api_key` argument), or null: none, or several that differ. */
function presentedKeyOrNull(credentials: PresentedKey[], args: unknown): string | null {
  const arg = (args as { api_key?: unknown } | null | undefined)?.api_key;
  try {
    return resolveApiKey(credentials, typeof arg === 'string' ? arg : null);
  } catch {
    return null;
  }
}

export function toolContextFromExtra(deps: Deps, surface: Surface, extra: Extra): ToolContext {
  const caller = extra.http?.authInfo?.extra?.caller as HttpCallerInfo | undefined;
  const credentials = transportCredentials(deps, surface, caller);
  const meta = extra.mcpReq._meta as Record<string, unknown> | undefined;
  const progressToken = meta?.progressToken as string | number | undefined;
  const idem = meta?.idempotencyKey;
  return {
    deps,
    surface,
    credentials,
    clientAddress: caller?.clientAddress ?? null,
    idempotencyKey: typeof idem === 'string' ? idem : null,
    progress: async (progress, total, message) => {
      if (progressToken === undefined) return;
      await extra.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total, message } });
    },
    setHeader: () => {},
    signal: extra.mcpReq.signal,
  };
}

/**
 * The tools/list entry of a definition (schemas converted here; cached per definition by toolListEntries).
 * The display name is written once, as annotations.title: hosts of every protocol revision read it
 * (a Tool.title, where a revision has one, takes precedence over it but says the same; leaving it
 * out keeps tools/list within its budget).
 */
export function toolListEntry(tool: AnyTool): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: toPortableJsonSchema(tool.inputSchema, 'input') as Tool['inputSchema'],
    outputSchema: toPortableJsonSchema(tool.outputSchema, 'output') as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}

const entryCache = new WeakMap<AnyTool, Tool>();
function cachedEntry(tool: AnyTool): Tool {
  let e = entryCache.get(tool);
  if (!e) {
    e = toolListEntry(tool);
    entryCache.set(tool, e);
  }
  return e;
}

interface ToolTable {
  listed: Tool[];
  byName: Map<string, { tool: AnyTool; entry: Tool }>;
}
const tableCache = new WeakMap<readonly AnyTool[], ToolTable>();
/** tools/list entries and the name index of a tool array, built once per array per process. */
export function toolTable(tools: readonly AnyTool[]): ToolTable {
  let t = tableCache.get(tools);
  if (!t) {
    // The shipped registry's entries come converted from the build when they are there.
    const listed = (tools === registry?.TOOLS ? prebuiltToolEntries(tools.map((x) => x.name)) : null) ?? tools.map(cachedEntry);
    t = { listed, byName: new Map(tools.map((tool, i) => [tool.name, { tool, entry: listed[i] }])) };
    tableCache.set(tools, t);
  }
  return t;
}

function invalidParams(message: string, data?: unknown): ProtocolError {
  return new ProtocolError(-32602, message, data);
}

/** "params.level: Invalid option ..." from a JSON dump of zod issues, or null when the text is not one. */
function shortIssues(text: string): string | null {
  const start = text.indexOf('[');
  if (start === -1) return null;
  try {
    const issues = JSON.parse(text.slice(start)) as { path?: (string | number)[]; message?: string }[];
    if (!Array.isArray(issues) || !issues.length || typeof issues[0]?.message !== 'string') return null;
    return issues.map((i) => `${(i.path ?? []).join('.') || 'params'}: ${i.message}`).join('; ');
  } catch {
    return null;
  }
}

/**
 * The SDK's Server, with one change: a request whose params fail the protocol schema answers
 * -32602 "Invalid params for <method>: <field>: <problem>" (the SDK answers -32603 with the raw
 * zod issue dump for most methods, and -32602 with the dump for tools/call).
 */
type WrappedHandler = Parameters<Server['_wrapHandler']>[1];

class RobotPartsServer extends Server {
  protected override _wrapHandler(method: string, handler: WrappedHandler): WrappedHandler {
    const inner = super._wrapHandler(method, handler);
    const toolCall = method === 'tools/call';
    return async (request, ctx) => {
      try {
        const result = await inner(request, ctx);
        // The result as the SDK validated it (a copy of the handler's): its message's JSON is prepared when it is the one noted.
        if (toolCall) {
          adoptToolResult(ctx, result);
          forgetNoted(ctx);
        }
        return result;
      } catch (err) {
        if (toolCall) forgetNoted(ctx);
        const isProtocol = err instanceof ProtocolError;
        if (!isProtocol || err.code === -32602) {
          const short = err instanceof Error ? shortIssues(err.message) : null;
          if (short) throw invalidParams(`Invalid params for ${method}: ${short}`);
        }
        throw err;
      }
    };
  }
}

/** Capabilities declared: only what this server acts on (no subscriptions, no list changes: the catalogue is fixed). */
export const SERVER_CAPABILITIES = {
  tools: {},
  resources: {},
  prompts: {},
  completions: {},
  logging: {},
} as const;

const HINT = { ttlMs: CACHE_TTL_MS, cacheScope: 'public' } as const;
/** Built once: an instance only adds its handlers (closures over deps and the era). */
const SERVER_INFO = { name: SERVER_NAME, version: SERVER_VERSION, title: 'Robot Parts', websiteUrl: SERVER_WEBSITE_URL, icons: SERVER_ICONS };
/**
 * The 2025-era revisions `initialize` negotiates: those the README lists (2025-11-25, 2025-06-18,
 * 2025-03-26). The SDK also knows 2024-11-05 and 2024-10-07, which this server does not claim: a
 * client asking for one is answered with the latest it serves. The 2026 revision is added by the
 * SDK's handler that serves it.
 */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v >= '2025-03-26');

const SERVER_OPTIONS = {
  capabilities: SERVER_CAPABILITIES,
  supportedProtocolVersions: [...LEGACY_PROTOCOL_VERSIONS],
  instructions: INSTRUCTIONS,
  cacheHints: {
    'tools/list': HINT,
    'prompts/list': HINT,
    'resources/list': HINT,
    'resources/templates/list': HINT,
    'resources/read': HINT,
    'server/discover': HINT,
  },
};

export function createServer(deps: Deps, opts: ServerOptions): Server {

  const server = new RobotPartsServer(SERVER_INFO, SERVER_OPTIONS);
  /**
   * The caller's session, for export ownership: the MCP session over HTTP (none for a request
   * outside one); over stdio and in memory, this instance (one client each).
   */
  let instanceId: string | null = null;
  const sessionOf = (extra: Extra): string | null => (opts.surface === 'mcp-http' ? (extra.sessionId ?? null) : (instanceId ??= randomUUID()));
  /** The tool table: the instance's own tools, or the shipped registry's (imported on first use). */
  const tableOf = (reg: Registry) => toolTable(opts.tools ?? reg.TOOLS);

  /**
   * The client declared the MCP Apps extension (src/mcp/apps.ts): from initialize on a 2025-era
   * connection, from the request's own envelope on the 2026 era.
   */
  const apps = (extra: Extra): boolean =>
    uiNegotiated(server.getClientCapabilities() ?? ((extra.mcpReq as { envelope?: Record<string, unknown> }).envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined));

  server.setRequestHandler('tools/list', async (_request, extra) => {
    if (opts.tools) return { tools: toolTable(opts.tools).listed };
    // A client with MCP Apps: the same entries, the tools with a view carrying _meta.ui.resourceUri.
    if (apps(extra)) return { tools: toolsWithViews(tableOf(await loadRegistry()).listed) };
    if (registry) return { tools: tableOf(registry).listed };
    // Before the registry is imported: the build's prebuilt entries, when the compiled registry
    // still has the content stamped in the file (else the registry is imported and converted).
    const prebuilt = await prebuiltToolListSoon();
    return { tools: prebuilt ?? tableOf(await loadRegistry()).listed };
  });
  server.setRequestHandler('tools/call', async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    const reg = await loadRegistry();
    const { runTool, toolText, toolTextParts, exportStore, exportCaller } = reg;
    const table = tableOf(reg);
    const found = table.byName.get(name);
    if (!found) throw invalidParams(`Unknown tool "${name}". Call tools/list for the available tools.`);
    const { tool, entry } = found;
    const args = request.params.arguments ?? {};
    const ctx = toolContextFromExtra(deps, opts.surface, extra);
    // A tool whose document may go out as a link: its caller owns the link; a full export store
    // refuses it before it runs (nothing charged).
    const owner = tool.artifact ? exportCaller(presentedKeyOrNull(ctx.credentials, args), sessionOf(extra)) : null;
    let refused: DomainError | null = null;
    if (owner) {
      try {
        exportStore(deps).admit(owner);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        refused = err;
      }
    }
    const outcome = refused ? { ok: false as const, error: refused } : await runTool(tool, args, ctx);
    if (outcome.ok) {
      let output = outcome.output;
      const links: ContentBlock[] = [];
      // Linked when the answer (not only its document: an export's lines are in it as well) is over the limit.
      const doc = tool.artifact && owner && Buffer.byteLength(JSON.stringify(output)) > (opts.inlineMaxBytes ?? EXPORT_INLINE_MAX_BYTES) ? tool.artifact.document(output) : null;
      if (tool.artifact && doc && owner) {
        // null: a caller with neither key nor session could never read a link back; it gets the document inline.
        const uri = exportStore(deps).put(doc, owner);
        if (uri !== null) {
          output = tool.artifact.link(output, uri);
          links.push({ type: 'resource_link', uri, name: doc.name, mimeType: doc.mimeType, size: Buffer.byteLength(doc.text) });
        }
      }
      for (const l of (await tool.links?.(output, ctx)) ?? []) links.push({ type: 'resource_link', ...l });
      let text: string;
      if (opts.preparedMessages) {
        const parts = toolTextParts(tool, output);
        noteToolText(extra, parts, output);
        text = parts.text;
      } else text = toolText(tool, output);
      return server.projectCallToolResult({ content: [{ type: 'text', text }, ...links], structuredContent: output }, entry.outputSchema);
    }
    const body = outcome.error.toBody();
    // Expected failures are also reported as a log message (filtered by the client's level).
    await extra.mcpReq
      .log(outcome.error.code === 'internal' || outcome.error.code === 'store_unavailable' ? 'error' : 'info', { tool: name, error: outcome.error.code, message: outcome.error.message }, SERVER_NAME)
      .catch(() => {});
    return {
      isError: true,
      content: [
        { type: 'text', text: `${outcome.error.code}: ${outcome.error.message}` },
        { type: 'text', text: JSON.stringify(body) },
      ],
      _meta: { [ERROR_META_KEY]: body },
    };
  });

  server.setRequestHandler('resources/list', async (_request, extra) => {
    const resources = await (await loadRegistry()).listResources(deps);
    return { resources: apps(extra) ? [...resources, ...viewResources()] : resources };
  });
  server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: (await loadRegistry()).listResourceTemplates() }));
  server.setRequestHandler('resources/read', async (request, extra) => {
    const { uri } = request.params;
    if (uri.startsWith(VIEW_URI_PREFIX)) {
      // A view is read by URI whatever the client declared (a host may read it before listing).
      const view = await readView(uri).catch((err: Error) => {
        throw new ResourceNotFoundError(uri, `Resource not found: ${uri}. ${err.message}`);
      });
      if (!view) throw new ResourceNotFoundError(uri, `Resource not found: ${uri}. The views are ${viewResources().map((r) => r.uri).join(', ')}.`);
      return view;
    }
    const { readResource, ResourceMissing, exportCaller } = await loadRegistry();
    try {
      const caller = extra.http?.authInfo?.extra?.caller as HttpCallerInfo | undefined;
      const reader = exportCaller(presentedKeyOrNull(transportCredentials(deps, opts.surface, caller), null), sessionOf(extra));
      return await readResource(deps, uri, reader);
    } catch (err) {
      if (err instanceof ResourceMissing) throw new ResourceNotFoundError(uri, `Resource not found: ${uri}. ${err.message}`);
      if (err instanceof DomainError) throw invalidParams(`${err.code}: ${err.message}`, { uri, error: err.code });
      throw err;
    }
  });

  server.setRequestHandler('prompts/list', async () => ({ prompts: (await loadRegistry()).listPrompts() }));
  server.setRequestHandler('prompts/get', async (request) => {
    const { getPrompt } = await loadRegistry();
    const r = await getPrompt(deps, request.params.name, request.params.arguments ?? {});
    if (r.error !== undefined) throw invalidParams(r.error);
    return r.result!;
  });

  server.setRequestHandler('completion/complete', async (request) => {
    const { ref, argument } = request.params;
    const { completeResourceArgument, completePromptArgument } = await loadRegistry();
    const context = request.params.context?.arguments ?? {};
    const r =
      ref.type === 'ref/resource'
        ? await completeResourceArgument(deps, ref.uri, argument.name, argument.value, context)
        : await completePromptArgument(deps, ref.name, argument.name, argument.value, context);
    if ('error' in r) throw invalidParams(r.error);
    return { completion: { ...r.completion } };
  });

  return server;
}
