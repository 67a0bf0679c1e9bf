/** Edge cases of how keys are presented. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawRequest, startTestServer } from '../support/http.js';
import { call, errorBody, memoryClient } from '../support/mcp.js';

let srv: Awaited<ReturnType<typeof startTestServer>>;
let key: string;
beforeAll(async () => {
  srv = await startTestServer();
  key = (await srv.deps.accounts.register('edge@example.com')).api_key;
});
afterAll(async () => {
  await srv.stop();
});

it('two different X-API-Key headers are conflicting credentials, not one unknown key', async () => {
  const r = await rawRequest(`${srv.url}/api/credits/balance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': [key, 'gtk_someoneelse000000000000'] as unknown as string },
    body: '{}',
  });
  expect(r.status).toBe(400);
  expect(JSON.parse(r.body).code).toBe('conflicting_credentials');
  const same = await rawRequest(`${srv.url}/api/credits/balance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': [key, key] as unknown as string },
    body: '{}',
  });
  expect(same.status).toBe(200);
});

it('an empty api_key argument counts as no key on every surface (401 / missing_credentials)', async () => {
  const r = await fetch(`${srv.url}/api/credits/balance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: '' }) });
  expect(r.status).toBe(401);
  const { client, close } = await memoryClient(srv.deps);
  try {
    expect(errorBody(await call(client, 'get_balance', { api_key: '' })).code).toBe('missing_credentials');
    expect(errorBody(await call(client, 'get_balance', { api_key: '   ' })).code).toBe('missing_credentials');
  } finally {
    await close();
  }
});
