/**
 * Issue 23 findings N1 and N2 (and issue 27's malformed XML): the XML parser is linear with
 * limits on depth and element count, malformed XML is never answered ok, xacro expansion is
 * bounded (output size, property recursion, expression nesting, work), each refusal an
 * invalid_input naming the limit. Over REST, as the attack ran them.
 */
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_XML_DEPTH, MAX_XML_ELEMENTS, XACRO_LIMITS } from '../../src/ingest/oss/index.js';
import { testDeps } from '../support/deps.js';
import { call, errorBody, openSurfaces } from '../support/mcp.js';
import { ROOT } from './helpers.js';

let client: Client;
let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ client, url, close } = await openSurfaces(testDeps(undefined, { dataDir: path.join(ROOT, 'data') })));
});
afterAll(async () => {
  await close();
});
const post = async (route: string, content: string) => {
  const r = await fetch(`${url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content }) });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};
const both = async (content: string) => ({ lint: await post('/api/oss/lint', content), extract: await post('/api/oss/extract', content) });

describe('finding N1: deep, wide and unclosed XML is refused with line and column, never ok', () => {
  it('finding N1: 200,000 nested elements inside <robot> (1.4 MB): 400 invalid_input naming max_xml_depth, not ok: true', async () => {
    const text = `<robot name="r">${'<a>'.repeat(200_000)}${'</a>'.repeat(200_000)}</robot>`;
    expect(text.length).toBeGreaterThan(1_400_000);
    const { lint, extract } = await both(text);
    for (const r of [lint, extract]) {
      expect(r.status).toBe(400);
      // The element over the limit is the (MAX_XML_DEPTH)th <a>: 16 characters of <robot name="r"> then 3 per <a>.
      expect(r.body).toMatchObject({ code: 'invalid_input', field: 'content', limit: 'max_xml_depth', limit_value: MAX_XML_DEPTH, line: 1, column: 17 + 3 * (MAX_XML_DEPTH - 1) });
    }
  });

  it('finding N1: 100,000 unclosed <link> tags: refused (depth), lint and extract alike', async () => {
    const text = `<robot name="r">\n${'<link name="l">\n'.repeat(100_000)}`;
    const { lint, extract } = await both(text);
    for (const r of [lint, extract]) expect(r.body).toMatchObject({ code: 'invalid_input', limit: 'max_xml_depth', line: MAX_XML_DEPTH + 1, column: 1 });
  });

  it('finding N1: more elements than max_xml_elements, flat: refused naming the limit', async () => {
    const text = `<robot name="r">${'<a/>'.repeat(MAX_XML_ELEMENTS + 10)}</robot>`;
    const { lint } = await both(text);
    expect(lint.body).toMatchObject({ code: 'invalid_input', limit: 'max_xml_elements', limit_value: MAX_XML_ELEMENTS });
  });

  it('finding N1: an unclosed root and a mismatched tag: lint ok false with xml_malformed at the line and column; extract 400 with them', async () => {
    const unclosed = '<robot name="r">\n  <link name="a"/>\n';
    const mismatched = '<robot name="r">\n  <link name="a">\n  </lnk>\n</robot>\n';
    const u = await both(unclosed);
    expect(u.lint.status).toBe(200);
    expect(u.lint.body).toMatchObject({ summary: { ok: false, errors: 1 }, findings: [{ code: 'xml_malformed', severity: 'error', line: 1, column: 1 }] });
    expect(u.extract.body).toMatchObject({ code: 'invalid_input', line: 1, column: 1 });
    const m = await both(mismatched);
    expect(m.lint.body).toMatchObject({ summary: { ok: false }, findings: [{ code: 'xml_malformed', line: 3, column: 3 }] });
    expect(String((m.lint.body.findings as { message: string }[])[0].message)).toContain('</lnk> does not match <link> opened at line 2, column 3');
    expect(m.extract.body).toMatchObject({ code: 'invalid_input', line: 3, column: 3 });
  });

  it('finding N1: a robot without a name, a robot without links are errors (check_urdf refuses both)', async () => {
    const noName = await post('/api/oss/lint', '<robot><link name="a"/></robot>');
    expect(noName.body).toMatchObject({ summary: { ok: false }, findings: [{ code: 'robot_no_name' }] });
    const noLinks = await post('/api/oss/lint', '<robot name="r"></robot>');
    expect(noLinks.body).toMatchObject({ summary: { ok: false }, findings: [{ code: 'links_none' }] });
  });
});

const doubling = (n: number) =>
  `<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n<xacro:property name="p0" value="AAAAAAAA"/>\n${Array.from({ length: n }, (_, i) => `<xacro:property name="p${i + 1}" value="\${p${i}}\${p${i}}"/>\n`).join('')}<link name="\${p${n}}"/>\n</robot>\n`;

describe('finding N2: xacro expansion is bounded', () => {
  it('finding N2: property doubling (1,282 bytes) is refused naming max_xacro_output_chars, not a 167 MB answer', async () => {
    const text = doubling(24);
    expect(Buffer.byteLength(text)).toBeLessThan(1400);
    const { lint, extract } = await both(text);
    for (const r of [lint, extract]) {
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_input', limit: 'max_xacro_output_chars', limit_value: XACRO_LIMITS.max_xacro_output_chars });
    }
  });

  it('finding N2: 40 doublings (2 KB) answer 400 invalid_input, not 500 internal', async () => {
    const r = await post('/api/oss/extract', doubling(40));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_input', limit: 'max_xacro_output_chars' });
    expect(errorBody(await call(client, 'lint_urdf', { content: doubling(40) }))).toMatchObject({ code: 'invalid_input', limit: 'max_xacro_output_chars' });
  });

  it('finding N2: property recursion (a -> b -> a) and a self-reference are refused naming the property', async () => {
    const rec = `<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:property name="a" value="\${b}"/><xacro:property name="b" value="x\${a}"/><link name="\${a}"/></robot>`;
    const r = await post('/api/oss/extract', rec);
    expect(r.status).toBe(400);
    expect(String(r.body.error)).toContain('refers to itself');
  });

  it('finding N2: a chain of 1,000 properties each naming the next is refused at max_xacro_property_depth (no stack overflow)', async () => {
    const chain = `<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">${Array.from({ length: 1000 }, (_, i) => `<xacro:property name="q${i}" value="\${q${i + 1}}"/>`).join('')}<xacro:property name="q1000" value="1"/><link name="l\${q0}"/></robot>`;
    expect((await post('/api/oss/extract', chain)).body).toMatchObject({ code: 'invalid_input', limit: 'max_xacro_property_depth' });
  });

  it('finding N2: 100,000 nested parentheses in one expression are refused at max_xacro_expression_depth', async () => {
    const deep = `<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="\${${'('.repeat(100_000)}1${')'.repeat(100_000)}}"/></robot>`;
    expect((await post('/api/oss/extract', deep)).body).toMatchObject({ code: 'invalid_input', limit: 'max_xacro_expression_depth' });
  });

  it('finding N2: macros calling macros twice, 40 levels (2^40 calls) are refused at max_xacro_steps', async () => {
    const macros = Array.from({ length: 40 }, (_, i) => `<xacro:macro name="m${i + 1}" params=""><xacro:m${i}/><xacro:m${i}/></xacro:macro>`).join('');
    const text = `<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:macro name="m0" params=""><!-- empty --></xacro:macro>${macros}<link name="a"/><xacro:m40/></robot>`;
    expect((await post('/api/oss/lint', text)).body).toMatchObject({ code: 'invalid_input', limit: 'max_xacro_steps' });
  });
});
