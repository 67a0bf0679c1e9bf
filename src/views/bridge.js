/**
 * The view side of the MCP Apps protocol (extension io.modelcontextprotocol/ui, protocol
 * 2026-01-26): JSON-RPC 2.0 over postMessage with the host window. The SDK's `App` class
 * (@modelcontextprotocol/ext-apps) speaks the same messages but bundles the MCP client's Protocol
 * and zod (~660 kB minified), which would put every view far over the resource read budget; these
 * ~100 lines speak only what the views use, and test/apps/views.test.ts runs them against the
 * SDK's own AppBridge in Chromium.
 *
 * What a view gets: the tool's arguments (ui/notifications/tool-input), its result
 * (ui/notifications/tool-result) and the host context (theme, styles, container size) at
 * ui/initialize and on every ui/notifications/host-context-changed. What it may ask: tools/call
 * and ui/open-link, only when the host declared serverTools / openLinks.
 */
const PROTOCOL_VERSION = '2026-01-26';

export function connect({ name, version, onInput, onResult, onContext }) {
  const host = window.parent;
  const pending = new Map();
  let nextId = 1;
  let capabilities = {};

  const post = (msg) => host.postMessage({ jsonrpc: '2.0', ...msg }, '*');
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      post({ id, method, params });
    });
  const notify = (method, params) => post({ method, params });

  const context = (ctx) => {
    if (!ctx) return;
    if (ctx.theme) document.documentElement.dataset.theme = ctx.theme;
    const vars = ctx.styles && ctx.styles.variables;
    if (vars) for (const [k, v] of Object.entries(vars)) if (k.startsWith('--') && typeof v === 'string') document.documentElement.style.setProperty(k, v);
    const dim = ctx.containerDimensions;
    const width = dim && (dim.width ?? dim.maxWidth);
    if (typeof width === 'number') document.documentElement.style.setProperty('--host-width', `${width}px`);
    if (onContext) onContext(ctx);
  };

  window.addEventListener('message', (event) => {
    if (event.source !== host) return;
    const m = event.data;
    if (!m || m.jsonrpc !== '2.0') return;
    if (m.id !== undefined && m.method === undefined) {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.reject(new Error(m.error.message));
      else p.resolve(m.result);
      return;
    }
    if (m.id !== undefined) {
      // Requests from the host: teardown and ping answer empty; anything else is not offered.
      if (m.method === 'ui/resource-teardown' || m.method === 'ping') post({ id: m.id, result: {} });
      else post({ id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
      return;
    }
    if (m.method === 'ui/notifications/tool-input' && onInput) onInput(m.params?.arguments ?? {});
    else if (m.method === 'ui/notifications/tool-result' && onResult) onResult(m.params ?? {});
    else if (m.method === 'ui/notifications/host-context-changed') context(m.params);
  });

  // The size the content takes, told to the host whenever it changes.
  let last = '';
  const tellSize = () => {
    const el = document.documentElement;
    const size = { width: Math.ceil(el.scrollWidth), height: Math.ceil(el.scrollHeight) };
    const key = `${size.width}x${size.height}`;
    if (key === last) return;
    last = key;
    notify('ui/notifications/size-changed', size);
  };
  new ResizeObserver(tellSize).observe(document.body);

  const ready = request('ui/initialize', { appInfo: { name, version }, appCapabilities: {}, protocolVersion: PROTOCOL_VERSION }).then((r) => {
    capabilities = (r && r.hostCapabilities) || {};
    context(r && r.hostContext);
    notify('ui/notifications/initialized', {});
    tellSize();
    return r;
  });

  return {
    ready,
    /** The host offers tools/call back to the server. */
    canCallTools: () => Boolean(capabilities.serverTools),
    callTool: (toolName, args) => request('tools/call', { name: toolName, arguments: args }),
    canOpenLinks: () => Boolean(capabilities.openLinks),
    openLink: (url) => request('ui/open-link', { url }),
  };
}

/** The structured answer of a tool result, or null (an error result, or no structured content). */
export function structured(result) {
  if (!result || result.isError) return null;
  if (result.structuredContent && typeof result.structuredContent === 'object') return result.structuredContent;
  // A host that forwards only content: the text block is the summary line, then the JSON.
  for (const b of result.content || []) {
    if (b.type !== 'text') continue;
    const nl = b.text.indexOf('\n');
    try {
      return JSON.parse(nl === -1 ? b.text : b.text.slice(nl + 1));
    } catch {
      /* not this block */
    }
  }
  return null;
}

/** The error text of an error result. */
export function errorText(result) {
  return (result?.content || []).filter((b) => b.type === 'text').map((b) => b.text)[0] ?? 'The tool answered an error.';
}

/**
 * Clears the view and returns the result's structured answer; for an error result, shows its text
 * as an alert and returns null (every view starts its render with this).
 */
export function answerOrAlert(app, result) {
  app.replaceChildren();
  const out = structured(result);
  if (!out) app.append(el('p', { class: 'status', role: 'alert' }, errorText(result)));
  return out;
}

/** An element with attributes and children (text nodes for strings); no HTML is parsed. */
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  return e;
}
