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
