/**
 * A test MCP Apps host for test/apps/views.test.ts, built on the SDK's AppBridge: it puts a view's
 * HTML in a sandboxed iframe (allow-scripts only), answers ui/initialize with the host context
 * given, then sends the tool's arguments and result. Bundled by esbuild in the test.
 */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

window.openView = async ({ html, input, result, theme, width, serverTools }) => {
  const iframe = document.createElement('iframe');
  iframe.id = 'view';
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.style.cssText = `width:${width}px;height:900px;border:0`;
  const caps = serverTools ? { serverTools: {}, openLinks: {} } : {};
  const bridge = new AppBridge(null, { name: 'test-host', version: '1.0.0' }, caps, {
    hostContext: { theme, platform: 'web', containerDimensions: { maxWidth: width }, displayMode: 'inline' },
  });
  window.sizes = [];
  bridge.onsizechange = (s) => window.sizes.push(s);
  window.opened = [];
  if (serverTools) {
    bridge.oncalltool = (params) => window.hostCallTool(params);
    bridge.onopenlink = async ({ url }) => {
      window.opened.push(url);
      return {};
    };
  }
  const initialized = new Promise((resolve) => (bridge.oninitialized = resolve));
  document.body.append(iframe);
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = html;
  await initialized;
  if (input) await bridge.sendToolInput({ arguments: input });
  await bridge.sendToolResult(result);
  window.bridge = bridge;
  return bridge.getAppVersion?.() ?? null;
};
