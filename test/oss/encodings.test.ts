/**
 * Encodings (issue 44): files written here as bytes in each encoding, read by Debian's check_urdf
 * and by lint_urdf (the bytes decoded as a REST archive upload decodes them; one case end to end
 * over REST), the strongest check_urdf label among our findings equal to what check_urdf does.
 * Expected names come from the strings the bytes were encoded from, never from the decoder.
 * Text that arrives as characters (MCP content) has no bytes: a declaration there is reported,
 * not applied.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArchive } from '../../src/ingest/oss/archive.js';
import { DECODE_NOTES, decodeText, lintRobotDescription } from '../../src/ingest/oss/index.js';
import type { LintFinding, LintResult } from '../../src/ingest/oss/lint.js';
import { gitFetcher } from '../../src/ingest/oss/fetch.js';
import { refreshSources } from '../../src/ingest/oss/refresh.js';
import { parseSourcesFile } from '../../src/ingest/oss/sources-file.js';
import { openDb } from '../../src/store/db.js';
import { sqliteOssLiveStore } from '../../src/store/oss-live-store.js';
import { testDeps } from '../support/deps.js';
import { call, openSurfaces } from '../support/mcp.js';
import { ROOT } from './helpers.js';
import { checkUrdfOracle, checkUrdfPresent, RANK, type Verdict } from './check-urdf-oracle.js';

const present = checkUrdfPresent;
const { tmp, checkUrdf } = checkUrdfOracle('encodings-');
const strongest = (f: LintFinding[]): Verdict => f.reduce<Verdict>((a, x) => (RANK[x.check_urdf] > RANK[a] ? x.check_urdf : a), 'accepts');

const NAME = 'r\u00e9'; // "ré"
const robot = (name: string, extra = '') => `<robot name="${name}">${extra}<link name="base"/><link name="l1"/><joint name="j" type="fixed"><parent link="base"/><child link="l1"/></joint></robot>\n`;
const decl = (enc?: string) => `<?xml version="1.0"${enc ? ` encoding="${enc}"` : ''}?>\n`;
const utf16 = (s: string, be: boolean) => {
  const le = Buffer.from(s, 'utf16le');
  return be ? Buffer.from(le.map((_, i) => le[i ^ 1]!)) : le;
};

/** name -> [bytes, the robot name as written, the codes expected (besides none)]. */
const CASES: Record<string, [Buffer, string | null, string[]]> = {
  latin1_declared: [Buffer.from(decl('ISO-8859-1') + robot(NAME), 'latin1'), NAME, []],
  latin1_declared_lowercase_label: [Buffer.from(decl('latin1') + robot(NAME), 'latin1'), NAME, []],
  windows1252_declared: [Buffer.concat([Buffer.from(`${decl('windows-1252')}<robot name="r`), Buffer.from([0x80]), Buffer.from('">' + robot('x').slice(robot('x').indexOf('>') + 1))]), 'r\u20ac', []],
  latin1_undeclared_in_attribute: [Buffer.from(decl() + robot(NAME), 'latin1'), null, ['replacement_character']],
  latin1_undeclared_in_comment: [Buffer.from(decl() + robot('r', '<!-- caf\u00e9 -->'), 'latin1'), 'r', ['replacement_character']],
  utf16le_bom: [Buffer.concat([Buffer.from([0xff, 0xfe]), utf16(decl('UTF-16') + robot(NAME), false)]), NAME, ['encoding']],
  utf16be_bom: [Buffer.concat([Buffer.from([0xfe, 0xff]), utf16(decl('UTF-16') + robot(NAME), true)]), NAME, ['encoding']],
  utf16le_no_bom: [utf16(decl('UTF-16') + robot(NAME), false), NAME, ['encoding']],
  shift_jis_declared: [Buffer.from(new Uint8Array([...Buffer.from(`${decl('Shift_JIS')}<robot name="r`), 0x83, 0x8d, ...Buffer.from('">' + robot('x').slice(robot('x').indexOf('>') + 1))])), 'r\u30ed', []],
  unknown_label_declared: [Buffer.from(decl('x-made-up') + robot(NAME), 'utf8'), NAME, ['encoding']],
  utf8_bom: [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(decl() + robot(NAME), 'utf8')]), NAME, []],
  utf8_declared: [Buffer.from(decl('UTF-8') + robot(NAME), 'utf8'), NAME, []],
  utf16_declared_but_utf8_bytes: [Buffer.from(decl('UTF-16') + robot('r'), 'utf8'), 'r', ['encoding']],
  literal_replacement_character: [Buffer.from(decl() + robot('r\uFFFD'), 'utf8'), 'r\uFFFD', ['replacement_character']],
};

/** Lint of the bytes as a REST archive upload decodes them (readArchive), with the decode notes. */
function lintBytes(bytes: Uint8Array): LintResult {
  const { files, notes } = readArchive(zipSync({ 'pkg/robot.urdf': bytes }), 'body');
  return lintRobotDescription({ files, entry: 'pkg/robot.urdf', [DECODE_NOTES]: notes });
}

const tally = { cases: 0, agree: 0 };
describe.skipIf(!present && !process.env.CI)('encodings: lint (bytes decoded as uploads are) against check_urdf on the same bytes', () => {
  it.each(Object.entries(CASES))('%s', (name, [bytes, robotName, codes]) => {
    const res = lintBytes(bytes);
    const theirs = checkUrdf(bytes, name);
    tally.cases += 1;
    expect(res.findings.map((f) => f.code).sort()).toEqual([...codes].sort());
    if (robotName !== null) expect(res.summary.robot_name).toBe(robotName);
    const ours = strongest(res.findings);
    if (ours === theirs) tally.agree += 1;
    expect({ name, check_urdf: ours }).toEqual({ name, check_urdf: theirs });
    // A finding that says check_urdf refuses is an error; the model is ok exactly when check_urdf builds it.
    expect(res.summary.ok).toBe(theirs !== 'refuses');
    for (const f of res.findings) if (f.code === 'encoding') expect(f.file).toBe('pkg/robot.urdf');
  });

  it('reports the agreement count', () => {
    console.log(`encodings vs check_urdf: ${tally.agree} of ${tally.cases} cases agree`);
    expect(tally.agree).toBe(tally.cases);
  });
});

describe('decodeText (bytes)', () => {
  it('honours a declared ISO-8859-1 (true Latin-1, not Windows-1252) and counts nothing replaced', () => {
    const bytes = Buffer.concat([Buffer.from(`${decl('ISO-8859-1')}<robot name="a`), Buffer.from([0xe9, 0x85]), Buffer.from('"/>')]);
    const d = decodeText(bytes);
    expect(d).toMatchObject({ encoding: 'iso-8859-1', declared: 'ISO-8859-1', replaced: 0, notes: [] });
    expect(d.text).toContain('name="a\u00e9\u0085"');
  });
  it('a UTF-8 byte-order mark wins over a declaration (the XML rule)', () => {
    const d = decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${decl('ISO-8859-1')}<robot name="${NAME}"/>`, 'utf8')]));
    expect(d).toMatchObject({ encoding: 'utf-8', bom: true, replaced: 0 });
    expect(d.text).toContain(`name="${NAME}"`);
  });
  it('UTF-16 is decoded with an encoding error saying ROS tools cannot read it', () => {
    const d = decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), utf16(robot(NAME), false)]));
    expect(d.text).toBe(robot(NAME));
    expect(d.notes).toEqual([expect.objectContaining({ code: 'encoding', severity: 'error', check_urdf: 'refuses', message: expect.stringContaining('ROS tools') })]);
  });
  it('an undeclared Latin-1 byte is a replacement_character note naming its line', () => {
    const d = decodeText(Buffer.from(`${decl()}<robot name="r">\n<link name="b\u00e9"/></robot>`, 'latin1'));
    expect(d.replaced).toBe(1);
    expect(d.notes).toEqual([expect.objectContaining({ code: 'replacement_character', line: 3, check_urdf: 'refuses' })]);
  });
});

describe('text that arrived as characters (MCP content): a declaration is reported, not applied', () => {
  it('a content string declaring ISO-8859-1 keeps its characters and gets an encoding warning', () => {
    const res = lintRobotDescription({ content: decl('ISO-8859-1') + robot(NAME) });
    expect(res.summary).toMatchObject({ ok: true, robot_name: NAME, warnings: 1 });
    expect(res.findings).toEqual([expect.objectContaining({ code: 'encoding', severity: 'warning', check_urdf: 'accepts', line: 1, message: expect.stringContaining('not applied') })]);
  });
  it('U+FFFD in a comment is never silent', () => {
    const res = lintRobotDescription({ content: decl() + robot('r', '<!-- caf\uFFFD -->') });
    expect(res.findings.map((f) => [f.code, f.severity, f.check_urdf])).toEqual([['replacement_character', 'warning', 'accepts']]);
  });
  it('a plain UTF-8 declaration adds nothing', () => {
    expect(lintRobotDescription({ content: decl('UTF-8') + robot(NAME) }).findings).toEqual([]);
  });
});

describe('surfaces: REST archive upload and MCP', () => {
  let client: Client;
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ client, url, close } = await openSurfaces(testDeps(undefined, { dataDir: path.join(ROOT, 'data') })));
  });
  afterAll(() => close());
  const upload = (route: string, files: Record<string, Uint8Array>, entry: string) =>
    fetch(`${url}${route}?entry=${encodeURIComponent(entry)}`, { method: 'POST', headers: { 'content-type': 'application/zip' }, body: zipSync(files) });

  it('POST /api/oss/lint with a .zip: the declared Latin-1 name is read as written; a UTF-16 file is an encoding error', async () => {
    const ok = await upload('/api/oss/lint', { 'a/r.urdf': CASES.latin1_declared[0] }, 'a/r.urdf');
    expect(ok.status).toBe(200);
    expect((await ok.json()).summary).toMatchObject({ ok: true, robot_name: NAME, errors: 0 });
    const u16 = await upload('/api/oss/lint', { 'a/r.urdf': CASES.utf16le_bom[0] }, 'a/r.urdf');
    const body = await u16.json();
    expect(body.summary).toMatchObject({ ok: false, errors: 1, robot_name: NAME });
    expect(body.findings[0]).toMatchObject({ code: 'encoding', check_urdf: 'refuses', file: 'a/r.urdf' });
    const ex = await upload('/api/oss/extract', { 'a/r.urdf': CASES.latin1_undeclared_in_attribute[0] }, 'a/r.urdf');
    expect((await ex.json()).lint.by_code).toMatchObject({ replacement_character: 1 });
  });

  it('the /size page decodes an uploaded file as uploads are decoded: UTF-16 refused naming the encoding, a declared ISO-8859-1 read', async () => {
    const post = (bytes: Uint8Array) => {
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(bytes)]), 'r.urdf');
      return fetch(`${url}/size`, { method: 'POST', body: form });
    };
    const u16 = await post(CASES.utf16le_bom[0]);
    expect(u16.status).toBe(400);
    expect(await u16.text()).toContain('ROS tools');
    const latin1 = await post(CASES.latin1_declared[0]);
    expect(await latin1.text()).not.toContain('not readable text');
  });

  it('MCP lint_urdf content: the declaration warning opens with the fact', async () => {
    const r = await call(client, 'lint_urdf', { content: decl('ISO-8859-1') + robot(NAME) });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as LintResult).findings[0]).toMatchObject({ code: 'encoding' });
  });
});

describe('sources refresh: what decoding finds is told to the operator', () => {
  it('a UTF-16 URDF in a source repository is extracted and reported as unreadable by ROS tools', async () => {
    const repo = fs.mkdtempSync(path.join(tmp, 'repo-'));
    const git = (...a: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...a], { cwd: repo });
    git('init', '-q');
    fs.writeFileSync(path.join(repo, 'bot.urdf'), CASES.utf16le_bom[0]);
    git('add', '-A');
    git('commit', '-qm', 'utf-16');
    const file = parseSourcesFile(JSON.stringify({ sources: [{ id: 'U16', name: 'n', robot: 'r', repo, ref: 'main', license: 'MIT', files: [{ path: 'bot.urdf', extractor: 'urdf' }] }] }), 'sources.json');
    const db = openDb(':memory:');
    try {
      const lines: string[] = [];
      const summary = await refreshSources(file, sqliteOssLiveStore(db), gitFetcher(), { report: (l) => lines.push(l) });
      expect(summary).toMatchObject({ sources_ok: 1, failed: [] });
      expect(lines.find((l) => l.startsWith('U16: bot.urdf: the file is UTF-16LE'))).toMatch(/ROS tools .* cannot read UTF-16/);
      expect(summary.per_source[0]).toMatchObject({ records: 1 }); // the one joint, read from the decoded text
    } finally {
      db.close();
    }
  });
});
