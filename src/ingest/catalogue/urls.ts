/**
 * Source URLs: what counts as a source and how URLs are read out of upstream text.
 *
 * Decision: search-engine result links (e.g. https://www.google.com/search?q=...) are NOT
 * sources. Upstream back-filled 242 of them automatically; they point at a query, not at a
 * vendor page or document, so they prove nothing about the record. Links to the upstream
 * aggregator itself (roboparts.cc) are not sources either: the whole dataset is attributed to
 * it already. Both kinds are dropped from `source_urls` and counted in the report.
 */

/** Hosts whose result pages are search queries, with the path that marks a query. */
const SEARCH_ENGINES: readonly { host: RegExp; path: RegExp }[] = [
  { host: /(^|\.)google\.[a-z.]+$/i, path: /^\/search\b/i },
  { host: /(^|\.)bing\.com$/i, path: /^\/search\b/i },
  { host: /(^|\.)baidu\.com$/i, path: /^\/(s|baidu)\b/i },
  { host: /(^|\.)duckduckgo\.com$/i, path: /^\// },
  { host: /(^|\.)sogou\.com$/i, path: /^\/web\b/i },
];

const SELF_HOSTS = /(^|\.)roboparts\.cc$/i;

export type UrlVerdict = 'source' | 'search_engine' | 'self_link' | 'invalid';

export function classifyUrl(url: string): UrlVerdict {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'invalid';
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname.includes('.')) return 'invalid';
  if (SEARCH_ENGINES.some((s) => s.host.test(u.hostname) && s.path.test(u.pathname))) return 'search_engine';
  if (SELF_HOSTS.test(u.hostname)) return 'self_link';
  return 'source';
}

// ASCII URL characters only: upstream text often runs a URL straight into CJK punctuation.
const URL_IN_TEXT = /https?:\/\/[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+/g;

/** Removes trailing punctuation that belongs to the sentence, keeping balanced parentheses. */
function trimUrl(raw: string): string {
  let s = raw;
  for (;;) {
    const last = s.at(-1);
    if (last === undefined) return s;
    if ('.,;:!?\'"'.includes(last)) {
      s = s.slice(0, -1);
      continue;
    }
    if (last === ')' || last === ']') {
      const open = last === ')' ? '(' : '[';
      const opens = s.split(open).length - 1;
      const closes = s.split(last).length - 1;
      if (closes > opens) {
        s = s.slice(0, -1);
        continue;
      }
    }
    return s;
  }
}

/** Every URL found in a piece of upstream text, in order of appearance. */
export function urlsInText(text: string): string[] {
  return [...text.matchAll(URL_IN_TEXT)].map((m) => trimUrl(m[0])).filter((u) => u.length > 'https://'.length);
}

/** True when the whole string is one URL (no surrounding text). */
export function isUrl(text: string): boolean {
  const t = text.trim();
  const found = urlsInText(t);
  return found.length === 1 && found[0] === t && classifyUrl(t) !== 'invalid';
}
