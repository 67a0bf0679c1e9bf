/**
 * MCP Apps (extension io.modelcontextprotocol/ui, SDK @modelcontextprotocol/ext-apps): the tools
 * with a view, the ui:// resources that serve the views, and the negotiation. A client that
 * declares the extension with the MCP Apps HTML profile (capabilities.extensions
 * ["io.modelcontextprotocol/ui"].mimeTypes includes text/html;profile=mcp-app) sees these tools
 * with `_meta.ui.resourceUri` and the views in resources/list; any other client sees tools/list
 * and resources/list exactly as without this module. Tool answers are the same for both: a view
 * renders from the result the host forwards to it.
 *
 * The views are built by scripts/app-views.mjs (npm run build) from src/views/ into dist/views/:
 * self-contained HTML, the script bundled, nothing fetched, a CSP allowing only the inline script
 * and style. The tool metadata and resource entries are what ext-apps' registerAppTool and
 * registerAppResource register, collected once here (this server is the SDK's low-level Server,
 * so they register on a collector rather than an McpServer); the resource's read callback is the
 * one resources/read calls.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientCapabilities, McpServer, Resource, Tool } from '@modelcontextprotocol/server';
import { getUiCapability, registerAppResource, registerAppTool, RESOURCE_MIME_TYPE, type McpUiReadResourceCallback, type McpUiReadResourceResult } from './ext-apps-server.js';
import { gunzipSync } from 'node:zlib';

/** One line per tool with a view: the tool, and the view built from src/views/<view>.entry.js. */
export const APP_VIEWS: readonly { tool: string; view: string; title: string; description: string }[] = [
  { tool: 'extract_robot_parts', view: 'robot', title: 'Robot in 3D', description: 'extract_robot_parts: the URDF robot in 3D, DOF, mass and joints; BOM lines for a BOM' },
  { tool: 'design_adapter_plate', view: 'plate', title: 'Adapter plate', description: 'design_adapter_plate: the plate in 3D, both bolt patterns, dimensions, file links' },
  { tool: 'compare_parts', view: 'compare', title: 'Parts compared', description: 'compare_parts: comparable rows ranked, why the others are not' },
  { tool: 'check_bom', view: 'bom', title: 'BOM check', description: 'check_bom: findings by severity, bridges and plates needed, rails' },
  { tool: 'size_actuators', view: 'size', title: 'Actuator sizing', description: 'size_actuators: the URDF robot in 3D, each joint\'s required torque against its candidates' },
];

export const VIEW_URI_PREFIX = 'ui://robot-parts/';
export const viewUri = (view: string) => `${VIEW_URI_PREFIX}${view}`;

/** dist/views of this package: the same folder from src/mcp and dist/mcp. */
export const VIEWS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/views');

/**
 * The resource's declared CSP: no domain at all (the view loads and connects to nothing; the HTML
 * carries the same policy in a meta element, built by scripts/app-views.mjs).
 */
export const VIEW_RESOURCE_META = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

/** A read of a view that is not built (npm run build writes dist/views). */
export class ViewNotBuilt extends Error {}

const html = new Map<string, string>();
function viewHtml(view: string): string {
  let h = html.get(view);
  if (h === undefined) {
    // Built gzip-compressed (scripts/app-views.mjs); read and inflated once per process.
    const file = path.join(VIEWS_DIR, `${view}.html.gz`);
    try {
      h = gunzipSync(fs.readFileSync(file)).toString('utf8');
    } catch {
      throw new ViewNotBuilt(`The view ${view} is not built (${file} is missing): run npm run build.`);
    }
    html.set(view, h);
  }
  return h;
}

interface Registered {
  toolMeta: Map<string, Record<string, unknown>>;
  resources: Resource[];
  read: Map<string, McpUiReadResourceCallback>;
}

/** Registers every view with the ext-apps helpers on a collector, once per process. */
function register(views: typeof APP_VIEWS): Registered {
  const out: Registered = { toolMeta: new Map(), resources: [], read: new Map() };
  const collector = {
    registerTool: (name: string, config: { _meta?: Record<string, unknown> }) => {
      out.toolMeta.set(name, config._meta ?? {});
      return {};
    },
    registerResource: (name: string, uri: string, config: Omit<Resource, 'uri' | 'name'>, read: McpUiReadResourceCallback) => {
      out.resources.push({ uri, name, ...config });
      out.read.set(uri, read);
      return {};
    },
  } as unknown as Pick<McpServer, 'registerTool' | 'registerResource'>;
  for (const v of views) {
    const uri = viewUri(v.view);
    // The tool's answer is served by the tools/call handler in src/server.ts; the collector keeps only the metadata.
    registerAppTool(collector, v.tool, { _meta: { ui: { resourceUri: uri } } }, () => ({ content: [] }));
    if (out.read.has(uri)) continue; // a view shared by several tools is one resource
    registerAppResource(collector, `view-${v.view}`, uri, { title: v.title, description: v.description, _meta: VIEW_RESOURCE_META }, (): McpUiReadResourceResult => ({
      contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: viewHtml(v.view), _meta: VIEW_RESOURCE_META }],
    }));
  }
  return out;
}
let registered: Registered | null = null;
const apps = () => (registered ??= register(APP_VIEWS));

/** The client declared the MCP Apps extension with the HTML profile the views are written in. */
export function uiNegotiated(caps: ClientCapabilities | null | undefined): boolean {
  return getUiCapability(caps)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) === true;
}

const withViews = new WeakMap<readonly Tool[], Tool[]>();
/** The tools/list entries with each view's `_meta` added to its tool (the same entries otherwise), built once per list. */
export function toolsWithViews(listed: readonly Tool[]): Tool[] {
  let t = withViews.get(listed);
  if (!t) {
    const meta = apps().toolMeta;
    t = listed.map((e) => (meta.has(e.name) ? { ...e, _meta: { ...e._meta, ...meta.get(e.name) } } : e));
    withViews.set(listed, t);
  }
  return t;
}

/** The ui:// resources resources/list adds for a client with the extension. */
export function viewResources(): Resource[] {
  return apps().resources;
}

/** resources/read of a ui:// view; null when the URI is no view. */
export async function readView(uri: string): Promise<McpUiReadResourceResult | null> {
  const read = apps().read.get(uri);
  return read ? await read(new URL(uri), {} as never) : null;
}
