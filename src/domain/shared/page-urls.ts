/**
 * page_url: the HTML page a person opens for a part, a robot or an adapter plate, under the
 * deployment's public base URL (the routes of src/http/pages). detail_url stays the JSON API's
 * (the spec's meaning). Null base: no server a person could open (stdio without a public URL).
 */

/** A robot's page id: its name in lower case, runs of other characters as one '-'. */
export const robotSlug = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

const root = (baseUrl: string) => baseUrl.replace(/\/$/, '');

/** The part page: /parts/<id>. */
export function partPageUrl(baseUrl: string, id: string): string {
  return `${root(baseUrl)}/parts/${encodeURIComponent(id)}`;
}

/** `{ page_url }` of the part page when the base URL is known, else nothing: spread into an answer. */
export function partPageMember(baseUrl: string | null, id: string): { page_url?: string } {
  return baseUrl === null ? {} : { page_url: partPageUrl(baseUrl, id) };
}

/** The robot page: /robots/<slug of its name>. */
export function robotPageUrl(baseUrl: string, robot: string): string {
  return `${root(baseUrl)}/robots/${encodeURIComponent(robotSlug(robot))}`;
}

/** Robots (where-used entries) each with its page after its name, the other members as they were. */
export function withRobotPages<T extends { robot: string }>(baseUrl: string, robots: readonly T[]): ({ robot: string; page_url: string } & Omit<T, 'robot'>)[] {
  return robots.map(({ robot, ...x }) => ({ robot, page_url: robotPageUrl(baseUrl, robot), ...x }));
}

/** The plate page: /plates?a=&b= (b_holes when not tapped; a or b alone: the form with that side chosen). */
export function platePageUrl(baseUrl: string, a: string, b: string | null, bHoles = 'tapped'): string {
  const q = new URLSearchParams({ a });
  if (b !== null) q.set('b', b);
  if (bHoles !== 'tapped') q.set('b_holes', bHoles);
  return `${root(baseUrl)}/plates?${q.toString()}`;
}

/** What a text summary says when an answer carries no page links (stdio without a base URL). */
export const NO_LINKS_NOTE = 'Page links (page_url): start with --public-url <url> or ROBOT_PARTS_PUBLIC_URL.';
