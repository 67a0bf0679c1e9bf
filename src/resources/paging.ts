/**
 * Resource reads stay under a character budget: a long list is served in pages, each page a
 * resource of its own (`<base>` is page 1, `<base>/page/<n>` the others), every page naming the
 * next. Pages are cut by the size of the records as served (pretty JSON), so a page never needs
 * to be measured after the fact; `test/spine/resource-budget.test.ts` reads every resource and
 * holds each read to RESOURCE_TEXT_BUDGET.
 */

/** The most characters one resources/read answers with (text of its contents). */
export const RESOURCE_TEXT_BUDGET = 80_000;
/** Characters of records per page: the rest of the budget is the page's envelope (meta, links). */
const RECORDS_PER_PAGE_BUDGET = 64_000;

export interface Page<T> {
  page: number;
  pages: number;
  items: T[];
}

/** Characters left for the records of a page whose envelope (everything but the records) serves as `envelope`. */
export const recordsBudget = (envelope: unknown): number => Math.max(8_000, RESOURCE_TEXT_BUDGET - 4_000 - JSON.stringify(envelope, null, 2).length);

/** Start index of every page (the first is 0), cut greedily by each record's served size. */
function pageStarts(items: readonly unknown[], budget: number): number[] {
  const starts = [0];
  let used = 0;
  items.forEach((item, i) => {
    // Served inside an array two levels deep: each line gains four spaces of indentation.
    const text = JSON.stringify(item, null, 2);
    const size = text.length + 4 * (text.split('\n').length) + 2;
    if (used > 0 && used + size > budget) {
      starts.push(i);
      used = 0;
    }
    used += size;
  });
  return starts;
}

/** Page `page` (1-based) of the list, or null when there is no such page. */
export function pageOf<T>(items: readonly T[], page: number, budget = RECORDS_PER_PAGE_BUDGET): Page<T> | null {
  const starts = pageStarts(items, budget);
  if (!Number.isInteger(page) || page < 1 || page > starts.length) return null;
  const end = page < starts.length ? starts[page] : items.length;
  return { page, pages: starts.length, items: items.slice(starts[page - 1], end) };
}

/** The URI of page n of a paged resource whose first page is `base`. */
export const pageUri = (base: string, page: number): string => (page === 1 ? base : `${base}/page/${page}`);

/** Splits "<base>/page/<n>" into its base and page; a URI without a page suffix is page 1. */
export function splitPage(rest: string): { key: string; page: number } | null {
  const m = /^([^/?#]+)(?:\/page\/([1-9][0-9]{0,5}))?$/.exec(rest);
  if (!m) return null;
  return { key: m[1], page: m[2] ? Number(m[2]) : 1 };
}

/** The paging members every page carries. */
export function pageLinks(base: string, p: Page<unknown>) {
  return { page: p.page, pages: p.pages, next_uri: p.page < p.pages ? pageUri(base, p.page + 1) : null };
}

/** Bytes of a binary file per read: their base64 is RESOURCE_TEXT_BUDGET characters. */
export const FILE_PAGE_BYTES = (RESOURCE_TEXT_BUDGET / 4) * 3;

/** Where each page of a file starts: text cut at a line break in the second half of the budget when there is one (never inside a surrogate pair), bytes every FILE_PAGE_BYTES. */
function fileStarts(body: string | Uint8Array): number[] {
  const starts = [0];
  if (typeof body !== 'string') {
    for (let s = FILE_PAGE_BYTES; s < body.length; s += FILE_PAGE_BYTES) starts.push(s);
    return starts;
  }
  let start = 0;
  while (body.length - start > RESOURCE_TEXT_BUDGET) {
    let end = start + RESOURCE_TEXT_BUDGET;
    const nl = body.lastIndexOf('\n', end - 1);
    if (nl >= start + RESOURCE_TEXT_BUDGET / 2) end = nl + 1;
    else if (/[\uD800-\uDBFF]/.test(body[end - 1]!)) end -= 1;
    starts.push(end);
    start = end;
  }
  return starts;
}

/**
 * Page `page` (1-based) of a file served by resources/read (an export document, a plate's STL):
 * text of at most RESOURCE_TEXT_BUDGET characters, or bytes whose base64 is at most that. The
 * pages joined in order (text concatenated, bytes decoded and concatenated) are the file.
 */
export function filePage<T extends string | Uint8Array>(body: T, page: number): { page: number; pages: number; part: T } | null {
  const starts = fileStarts(body);
  if (!Number.isInteger(page) || page < 1 || page > starts.length) return null;
  const end = page < starts.length ? starts[page]! : body.length;
  return { page, pages: starts.length, part: body.slice(starts[page - 1], end) as T };
}

/** A URI "<base>/page/<n>" as its base and page; any other URI is page 1 of itself. */
export function splitFilePage(uri: string): { base: string; page: number } {
  const m = /^(.+)\/page\/([1-9][0-9]{0,5})$/.exec(uri);
  return m ? { base: m[1]!, page: Number(m[2]) } : { base: uri, page: 1 };
}

/** The `_meta` key of a file page's paging members. */
export const FILE_PAGE_META = 'robotparts/page';

/**
 * The contents of one read of a file: the whole file when it is one page (no `_meta`), else the
 * page with `_meta["robotparts/page"]` = {page, pages, size (bytes of the whole file), next_uri}.
 * null when the file has no such page.
 */
export function fileContents(base: string, mimeType: string, body: string | Uint8Array, page: number) {
  const p = filePage(body, page);
  if (!p) return null;
  const data = typeof p.part === 'string' ? { text: p.part } : { blob: Buffer.from(p.part).toString('base64') };
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  const meta = p.pages > 1 ? { _meta: { [FILE_PAGE_META]: { page: p.page, pages: p.pages, size, next_uri: p.page < p.pages ? pageUri(base, p.page + 1) : null } } } : {};
  return { contents: [{ uri: pageUri(base, p.page), mimeType, ...data, ...meta }] };
}
