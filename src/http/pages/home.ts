/** `/`: search box, categories with counts (get_catalogue_stats), entry points. */
import { html, type PageContent } from './html.js';
import type { PageRequest } from './types.js';

interface Stats {
  total: number;
  quarantined: number;
  categories: { slug: string; name: string; count: number }[];
}

export async function homePage({ call }: PageRequest): Promise<PageContent> {
  const stats = await call<Stats>('get_catalogue_stats', {});
  return {
    title: 'Robot parts catalogue',
    body: html`<h1>Robot parts catalogue</h1>
<p>${stats.total} catalogue records on humanoid and bionic robot components (${stats.quarantined} of them quarantined as suspicious and left out of searches unless asked). Every value is shown as the source wrote it, with its unit and where it came from; what the data does not state is shown as not stated.</p>
<form class="inline" action="/search" method="get" role="search">
<div><label for="q">Search parts</label><input id="q" type="search" name="q" placeholder="e.g. dynamixel xm540"></div>
<div><label for="where">Spec filter</label><input id="where" type="text" name="where" placeholder="torque_rated>=30 N·m; bus in EtherCAT|CAN"></div>
<button type="submit">Search</button></form>
<h2>Start from</h2>
<ul>
<li><a href="/search?category=actuators&amp;where=${encodeURIComponent('torque_rated>=30 N·m')}">Actuators with a rated torque of at least 30 N·m</a></li>
<li><a href="/robots">Open-source robots</a>: joints, DOF, BOM lines and a 3D view of each</li>
<li><a href="/bom">Check a bill of materials</a> for bus, voltage and flange problems</li>
<li><a href="/compare">Compare parts</a> side by side, with why each row is or is not comparable</li>
<li><a href="/intelligence">Technology readiness and momentum</a> by category</li>
<li><a href="/docs">API reference</a> (the same answers as JSON over REST and MCP)</li>
</ul>
<h2>Categories</h2>
<ul class="grid">${stats.categories.map((c) => html`<li><a href="/search?category=${encodeURIComponent(c.slug)}">${c.name}</a> <span class="muted">(${c.count})</span></li>`)}</ul>`,
  };
}
