/**
 * createServer(deps): an McpServer with every tool and resource registered. No side effects
 * on import; one call per MCP session (an McpServer serves one transport).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Deps } from './deps.js';
import { registerResources } from './resources/index.js';
import type { AnyTool, PresentedKey, Surface, ToolContext } from './tools/define.js';
import { TOOLS } from './tools/index.js';
import { runTool } from './tools/run.js';
import { toolText } from './tools/text.js';
import { SERVER_NAME, SERVER_VERSION } from './version.js';

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What the HTTP layer attaches to each MCP request (through authInfo.extra). */
export interface HttpCallerInfo {
  credentials: PresentedKey[];
  clientAddress: string | null;
}

export interface ServerOptions {
  surface: Surface;
  tools?: readonly AnyTool[];
}

export const ERROR_META_KEY = 'robot-parts/error';

export function toolContextFromExtra(deps: Deps, surface: Surface, extra: Extra): ToolContext {
  const caller = extra.authInfo?.extra?.caller as HttpCallerInfo | undefined;
  const credentials: PresentedKey[] = caller
    ? caller.credentials
    : surface === 'mcp-stdio' && deps.config.stdioApiKey
      ? [{ source: 'env:ROBOT_PARTS_API_KEY', key: deps.config.stdioApiKey }]
      : [];
  const progressToken = extra._meta?.progressToken;
  const idem = (extra._meta as Record<string, unknown> | undefined)?.idempotencyKey;
  return {
    deps,
    surface,
    credentials,
    clientAddress: caller?.clientAddress ?? null,
    idempotencyKey: typeof idem === 'string' ? idem : null,
    progress: async (progress, total, message) => {
      if (progressToken === undefined) return;
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total, message } });
    },
    setHeader: () => {},
    signal: extra.signal,
  };
}

function jsonSchema(schema: z.ZodObject, io: 'input' | 'output'): Tool['inputSchema'] {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest as Tool['inputSchema'];
}

/** The tools/list entry of a definition. */
export function toolListEntry(tool: AnyTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.inputSchema, 'input'),
    outputSchema: jsonSchema(tool.outputSchema, 'output'),
    annotations: { title: tool.title, ...tool.annotations },
  };
}

export function createServer(deps: Deps, opts: ServerOptions): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: 'Robot Parts' },
    {
      capabilities: { logging: {}, completions: {} },
      instructions:
        'Structured data on humanoid and bionic robot components. Values are vendor-declared, never measured by this service; ' +
        'absent data stays absent. Start with search_parts, then get_part.',
    },
  );
  // Tools are served through the low-level handlers so that input validation, like every
  // other expected failure, answers with our stable error codes (invalid_input naming the field).
  const tools = opts.tools ?? TOOLS;
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listed = tools.map(toolListEntry);
  server.server.registerCapabilities({ tools: { listChanged: false } });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}". Call tools/list for the available tools.`);
    const outcome = await runTool(tool, request.params.arguments ?? {}, toolContextFromExtra(deps, opts.surface, extra));
    if (outcome.ok) {
      const text = toolText(tool, outcome.output);
      return { content: [{ type: 'text', text }], structuredContent: outcome.output };
    }
    const body = outcome.error.toBody();
    return {
      isError: true,
      content: [
        { type: 'text', text: `${outcome.error.code}: ${outcome.error.message}` },
        { type: 'text', text: JSON.stringify(body) },
      ],
      _meta: { [ERROR_META_KEY]: body },
    };
  });
  registerResources(server, deps);
  return server;
}
