"""The Python MCP clients (mcp 2.3, fastmcp 4.0) against robot-parts-mcp, one line per call: not part of
`npm test` (CI installs no PyPI packages; the TypeScript v1 and v2 clients run in the tests).

  python3 -m venv /tmp/pyc && /tmp/pyc/bin/pip install "mcp==2.3.0" "fastmcp>=4,<5"
  npm run build
  /tmp/pyc/bin/python scripts/clients/python-clients.py mcp-stdio            # MODE=auto: 2026-07-28
  /tmp/pyc/bin/python scripts/clients/python-clients.py fast-http http://127.0.0.1:8080/mcp

Needs ../shared/robots (the SO-101 URDF) beside the repository."""
import asyncio, json, sys, time
from mcp import Client, StdioServerParameters
import fastmcp

ROOT = __import__('pathlib').Path(__file__).resolve().parents[2]
URDF = (ROOT.parent / 'shared/robots/urdf/so101_new_calib.urdf').read_text()
REPO = str(ROOT)

def calls(ids):
    return [
        ('search_parts', {'q': 'servo'}),
        ('get_part', {'id': ids[0]}),
        ('list_parts', {'limit': 500}),
        ('compare_parts', {'ids': ids[:3]}),
        ('find_alternatives', {'id': ids[0]}),
        ('check_compatibility', {'a': ids[0], 'b': ids[1]}),
        ('rule_flange', {'a': 'ISO9409-1-A50-4-M6', 'b': 'ISO9409-1-A63-6-M6'}),
        ('design_adapter_plate', {'a': 'ISO9409-1-A50-4-M6', 'b': 'ISO9409-1-A63-6-M6'}),
        ('convert_parameter', {'value': '10 kgf·cm', 'to': 'N·m'}),
        ('check_bom', {'items': [{'id': i, 'quantity': 1} for i in ids[:500]]}),
        ('extract_robot_parts', {'content': URDF, 'kind': 'urdf'}),
        ('lint_urdf', {'content': URDF}),
        ('size_actuators', {'content': URDF}),
        ('find_where_used', {'q': 'feetech'}),
        ('get_catalogue_stats', {}),
        ('get_analytics', {}),
    ]

def size_of(r):
    try:
        return len(r.model_dump_json())
    except Exception:
        return len(str(r))

async def each_call(out, call, size):
    """Every call of calls() (ids from list_parts 500), a line each: isError, size, seconds, or the exception."""
    lp = await call('list_parts', {'limit': 500})
    ids = [e['id'] for e in (lp.structured_content or {}).get('data', [])]
    for name, args in calls(ids):
        t = time.time()
        try:
            r = await call(name, args)
            out.append(f'  {name}: isError={r.is_error} chars={size(r)} {time.time()-t:.1f}s')
        except Exception as e:
            out.append(f'  {name}: EXCEPTION {type(e).__name__}: {str(e)[:200]}')

async def run_mcp(label, target):
    out = []
    async with Client(target, mode=__import__('os').environ.get('MODE','legacy'), read_timeout_seconds=120) as c:
        tools = await c.list_tools()
        res = await c.list_resources()
        prompts = await c.list_prompts()
        out.append(f'{label} mcp2.3: tools {len(tools.tools)}, resources {len(res.resources)}, prompts {len(prompts.prompts)}')
        await each_call(out, lambda name, args: c.call_tool(name, args), size_of)
        for rr in res.resources[:5]:
            try:
                x = await c.read_resource(rr.uri)
                out.append(f'  read {rr.uri}: chars={size_of(x)}')
            except Exception as e:
                out.append(f'  read {rr.uri}: EXCEPTION {type(e).__name__}: {str(e)[:200]}')
    return out

async def run_fast(label, target):
    out = []
    async with fastmcp.Client(target, timeout=120) as c:
        tools = await c.list_tools()
        res = await c.list_resources()
        out.append(f'{label} fastmcp4: tools {len(tools)}, resources {len(res)}')
        await each_call(out, lambda name, args: c.call_tool(name, args, raise_on_error=False), lambda r: len(json.dumps(r.structured_content or {})))
    return out

async def main():
    which = sys.argv[1]
    url = sys.argv[2] if len(sys.argv) > 2 else None
    stdio = StdioServerParameters(command='node', args=[f'{REPO}/dist/cli.js', '--db', str(ROOT / '.python-clients.db')], cwd=REPO)
    if which == 'mcp-stdio': lines = await run_mcp('stdio', stdio)
    elif which == 'mcp-http': lines = await run_mcp(url, url)
    elif which == 'fast-stdio':
        lines = await run_fast('stdio', {'mcpServers': {'rp': {'command': 'node', 'args': [f'{REPO}/dist/cli.js', '--db', str(ROOT / '.python-clients.db')], 'cwd': REPO}}})
    elif which == 'fast-http': lines = await run_fast(url, url)
    print('\n'.join(lines))

asyncio.run(main())
