/**
 * The README's figures that the code can compute stay true (issue 40: "~136,000" for tools/list,
 * "every resource read ≤ 80,000" said of blobs, robotparts://exports/{id} listed as a template).
 * Each figure is read from the README text and compared with the running server (in-memory MCP
 * client over the real data) or with the constant the code enforces. The negotiable protocol
 * revisions are checked against the README's table in test/spine/mcp-resume-batch.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { FILE_PAGE_BYTES, RESOURCE_TEXT_BUDGET } from '../../src/resources/paging.js';
import { EXPORT_INLINE_MAX_BYTES } from '../../src/server.js';
import { EXPORT_PREVIEW_ENTRIES } from '../../src/tools/export-bom.js';
import { EXTRACT_PAGE_CHARS } from '../../src/tools/extract-robot-parts.js';
import { MCP_PAGE_CHARS } from '../../src/tools/list-parts.js';
import { realDeps } from '../support/deps.js';
import { memoryClient } from '../support/mcp.js';

const README = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
/** "100,000" -> 100000 */
const num = (s: string) => Number(s.replace(/,/g, ''));
/** The README's text with line breaks folded (figures may be wrapped). */
const flat = README.replace(/\s+/g, ' ');

describe('README figures', () => {
  let deps: Deps;
  let mcp: Awaited<ReturnType<typeof memoryClient>>;
  beforeAll(async () => {
    deps = realDeps();
    mcp = await memoryClient(deps);
  }, 120_000);
  afterAll(async () => {
    await mcp.close();
    deps.close();
  });

  it('tools/list: the stated bound holds and the stated size is the measured one (within 1,000 characters)', async () => {
    const bound = flat.match(/`tools\/list` is at most ([\d,]+) characters/);
    expect(bound, 'README states the tools/list bound').not.toBeNull();
    const size = JSON.stringify(await mcp.client.listTools()).length;
    expect(size).toBeLessThanOrEqual(num(bound![1]!));
    // The MCP Apps section states the measured size (without the ext-apps extension: this client).
    const stated = flat.match(/`tools\/list` is ([\d,]+) characters without the extension/);
    expect(stated, 'README states the measured tools/list size').not.toBeNull();
    expect(Math.abs(num(stated![1]!) - size), `README says ${stated![1]}, measured ${size}`).toBeLessThanOrEqual(1_000);
  });

  it('resource reads: the README bound is the one the pages are cut to', () => {
    const bound = flat.match(/Every JSON or text resource read is at most ([\d,]+) characters/);
    expect(bound, 'README states the resource read bound').not.toBeNull();
    expect(num(bound![1]!)).toBe(RESOURCE_TEXT_BUDGET);
    const page = flat.match(/a page is at most ([\d,]+) characters/);
    expect(num(page![1]!)).toBe(RESOURCE_TEXT_BUDGET);
  });

  it('answer budget figures: the export inline limit and preview, file pages, list_parts and extract_robot_parts pages are the constants the code uses', () => {
    const exp = flat.match(/`export_bom` answers up to (\d+) KiB of JSON come whole; .*? keeps the metadata \(totals per currency\) and the first (\d+) entries of each list/);
    expect(exp, 'README states the export inline limit and preview').not.toBeNull();
    expect(Number(exp![1]) * 1024).toBe(EXPORT_INLINE_MAX_BYTES);
    expect(Number(exp![2])).toBe(EXPORT_PREVIEW_ENTRIES);
    const files = flat.match(/in pages of at most ([\d,]+) characters \(text, or base64 of ([\d,]+) bytes\)/);
    expect(files, 'README states the file page size').not.toBeNull();
    expect(num(files![1]!)).toBe(RESOURCE_TEXT_BUDGET);
    expect(num(files![2]!)).toBe(FILE_PAGE_BYTES);
    expect(Math.ceil(FILE_PAGE_BYTES / 3) * 4).toBe(RESOURCE_TEXT_BUDGET);
    const list = flat.match(/`list_parts` over MCP: a page ends before its records pass ([\d,]+) characters/);
    expect(num(list![1]!)).toBe(MCP_PAGE_CHARS);
    const extract = flat.match(/records are paged, at most ([\d,]+) characters of them an answer/);
    expect(num(extract![1]!)).toBe(EXTRACT_PAGE_CHARS);
  });

  it('the resource table: its templates are those listed (but exports, said not to be one), its fixed URIs are listed', async () => {
    const rows = README.split('\n').filter((l) => l.startsWith('| `robotparts://'));
    const uris = rows.map((l) => l.match(/^\| `([^`]+)`/)![1]!);
    // Templates: the first column's and the page templates named in the rows.
    const named = [...new Set(rows.flatMap((l) => [...l.matchAll(/`(robotparts:\/\/[^`]*\{[^`]*)`/g)].map((m) => m[1]!)))];
    const templates = (await mcp.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(flat).toContain('`robotparts://exports/{id}` is a URI the export links to, read directly, not a listed resource template');
    expect(named.filter((u) => u !== 'robotparts://exports/{id}').sort()).toEqual(templates.filter((t) => t.startsWith('robotparts://')).sort());
    const listed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await mcp.client.listResources(cursor ? { cursor } : {});
      listed.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor);
    for (const u of uris.filter((x) => !x.includes('{'))) expect(listed, u).toContain(u);
  });
});
