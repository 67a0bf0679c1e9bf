/** Error pages (HTML 404 and 400) for requests that accept HTML; shared by the route table and the page files. */
import type { DomainError } from '../../domain/shared/errors.js';
import { html, type PageContent } from './html.js';

/**
 * An error as a page: what failed, the field and how to fix it (a 400), where to go next (a 404:
 * the parts it may have meant, by name when `names` gives them, and a search box).
 */
export function errorPage(err: DomainError, extra?: { names?: Map<string, string>; byName?: { id: string; name?: string }[]; query?: string }): PageContent {
  const details = err.toBody() as Record<string, unknown>;
  const did = Array.isArray(details.did_you_mean) ? (details.did_you_mean as string[]) : [];
  const field = typeof details.field === 'string' ? details.field : null;
  const notFound = err.status === 404;
  const partLink = (id: string, name?: string) => html`<a href="/parts/${encodeURIComponent(id)}">${id}${name ? ` ${name}` : ''}</a>`;
  return {
    title: notFound ? 'Not found' : err.status === 400 ? 'Cannot show this page: check the request' : 'Cannot show this page',
    status: err.status,
    body: html`<h1>${notFound ? 'Not found' : 'Cannot show this page'}</h1>
<div class="error" role="alert"><p>${err.message}</p><p class="muted">HTTP ${err.status}, code <code>${err.code}</code>${field ? html`, field <code>${field}</code>` : ''}</p>${err.status === 400 && field ? html`<p>Fix: correct <code>${field}</code> as the message says and send the page again.</p>` : ''}</div>
${did.length ? html`<h2>Did you mean</h2><ul id="did-you-mean">${did.map((id) => html`<li>${partLink(id, extra?.names?.get(id))}</li>`)}</ul>` : ''}
${extra?.byName?.length ? html`<h2>Parts whose name matches “${extra.query ?? ''}”</h2><ul id="by-name">${extra.byName.map((h) => html`<li>${partLink(h.id, h.name)}</li>`)}</ul>` : ''}
${notFound ? html`<form class="inline" action="/search" method="get" role="search"><div><label for="nf-q">Search parts</label><input id="nf-q" type="search" name="q" value="${extra?.query ?? ''}"></div><button type="submit">Search</button></form>
<p><a href="/">Home</a> · <a href="/search">Search</a> · <a href="/robots">Robots</a></p>` : ''}`,
  };
}
