/**
 * MCP resources, served by plain functions the server's handlers call: the dataset documents
 * (robotparts://datasets/<name>) and the templates robotparts://parts/{id} and
 * robotparts://catalogue/{category}, with argument completion for both variables.
 */
import type { Deps } from '../deps.js';
import { toSummary } from '../domain/catalogue/entity.js';
import { DomainError } from '../domain/shared/errors.js';
import { getPart, listParts } from '../domain/catalogue/parts.js';
import { ATTRIBUTION, LICENSE, recordMeta } from '../tools/schemas.js';
import { DATASETS } from './datasets.js';
import { datasetUri } from './define.js';
import { EXPORT_URI_PREFIX, exportStore, type ExportCaller } from './exports.js';
import { designAdapterPlate, parsePlateUri, PLATE_URI_PREFIX } from '../domain/plates/index.js';
import { plateFileFor } from '../tools/plate-files.js';
import { INTELLIGENCE_CHART_RESOURCE, INTELLIGENCE_CHART_URI, intelligenceSvg } from './intelligence-chart.js';
import { OSS_ROBOT_PREFIX, OSS_SOURCE_PREFIX, ossDocument, ossRobotSummary, recordsOf, robotsOf, sourceBudget } from './oss-layer.js';
import { fileContents, FILE_PAGE_META, pageLinks, pageOf, splitFilePage, splitPage } from './paging.js';

/** At most this many values per completion answer (the protocol's limit); total and hasMore say how many matched. */
export const COMPLETION_MAX = 100;

/** A read of a URI no resource answers (unknown scheme/path, unknown id or category). */
export class ResourceMissing extends Error {}

export interface Completion {
  values: string[];
  total: number;
  hasMore: boolean;
}

export type CompletionAnswer = { completion: Completion } | { error: string };

export function completionOf(all: string[]): Completion {
  return { values: all.slice(0, COMPLETION_MAX), total: all.length, hasMore: all.length > COMPLETION_MAX };
}

const PART_TEMPLATE = 'robotparts://parts/{id}';
const CATEGORY_TEMPLATE = 'robotparts://catalogue/{category}';
const CATEGORY_PAGE_TEMPLATE = 'robotparts://catalogue/{category}/page/{page}';
const OSS_ROBOT_TEMPLATE = `${OSS_ROBOT_PREFIX}{robot}`;
const OSS_SOURCE_TEMPLATE = `${OSS_SOURCE_PREFIX}{source}`;
const OSS_SOURCE_PAGE_TEMPLATE = `${OSS_SOURCE_PREFIX}{source}/page/{page}`;
const PLATE_TEMPLATE = `${PLATE_URI_PREFIX}{a}/{b}/{file}`;

const JSON_MIME = 'application/json';

export function listResourceTemplates() {
  return [
    {
      uriTemplate: PART_TEMPLATE,
      name: 'part',
      title: 'Robot part',
      description: 'One catalogue entity by id: free-tier fields, locked paid field names and quarantine hint',
      mimeType: JSON_MIME,
    },
    {
      uriTemplate: CATEGORY_TEMPLATE,
      name: 'catalogue-category',
      title: 'Catalogue category',
      description: 'Summary fields of every non-quarantined entity of one category, in id order; a long category is paged (next_uri names the next page)',
      mimeType: JSON_MIME,
    },
    {
      uriTemplate: CATEGORY_PAGE_TEMPLATE,
      name: 'catalogue-category-page',
      title: 'Catalogue category, one page',
      description: 'Page 2, 3, ... of a catalogue category (page 1 is robotparts://catalogue/{category})',
      mimeType: JSON_MIME,
    },
    {
      uriTemplate: OSS_ROBOT_TEMPLATE,
      name: 'oss-robot',
      title: 'Open-source robot',
      description: 'One robot of the open-source layer: its source files (URDF, BOM) with licence, DOF, record counts and the URI of each',
      mimeType: JSON_MIME,
    },
    {
      uriTemplate: OSS_SOURCE_TEMPLATE,
      name: 'oss-source',
      title: 'Open-source layer source file',
      description: 'The records extracted from one source file of the open-source layer (joints or BOM lines, values as written), paged (next_uri)',
      mimeType: JSON_MIME,
    },
    {
      uriTemplate: OSS_SOURCE_PAGE_TEMPLATE,
      name: 'oss-source-page',
      title: 'Open-source layer source file, one page',
      description: 'Page 2, 3, ... of a source file\'s records (page 1 is robotparts://oss/sources/{source})',
      mimeType: JSON_MIME,
    },
    {
      uriTemplate: PLATE_TEMPLATE,
      name: 'adapter-plate',
      title: 'Adapter plate file',
      description:
        'An adapter plate between two registered ISO 9409-1 designations (design_adapter_plate): file is <tapped|nut>[-t<thickness mm>].<json|stl|3mf|scad>, e.g. robotparts://plates/ISO9409-1-A50-4-M6/ISO9409-1-A63-6-M6/tapped.stl',
    },
  ];
}

export async function listResources(deps: Deps) {
  const datasets = DATASETS.map((d) => ({ uri: datasetUri(d.name), name: d.name, title: d.title, description: d.description, mimeType: JSON_MIME }));
  const categories = (await deps.catalogue.categories()).map((c) => ({
    uri: `robotparts://catalogue/${c.slug}`,
    name: `catalogue-${c.slug}`,
    title: `${c.name} (${c.count})`,
    mimeType: JSON_MIME,
  }));
  return [...datasets, INTELLIGENCE_CHART_RESOURCE, ...categories];
}

function json(uri: string, body: unknown) {
  return { contents: [{ uri, mimeType: JSON_MIME, text: JSON.stringify(body, null, 2) }] };
}

function variable(uri: string, prefix: string): string | null {
  if (!uri.startsWith(prefix)) return null;
  const raw = uri.slice(prefix.length);
  if (!raw || /[/?#]/.test(raw)) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** A paged URI's key and page ("<prefix><key>" or "<prefix><key>/page/<n>"), decoded; null when the URI is not under the prefix. */
function paged(uri: string, prefix: string): { key: string; page: number } | null {
  if (!uri.startsWith(prefix)) return null;
  const p = splitPage(uri.slice(prefix.length));
  if (!p) return null;
  try {
    return { key: decodeURIComponent(p.key), page: p.page };
  } catch {
    return null;
  }
}

/**
 * The contents of one resource; ResourceMissing when no resource has this URI. An export document
 * is read only by its owner (`reader`); anyone else gets the answer an unknown id gets.
 */
export async function readResource(deps: Deps, uri: string, reader: ExportCaller = { keyDigest: null, session: null }) {
  const dataset = DATASETS.find((d) => datasetUri(d.name) === uri);
  if (dataset) return json(uri, await (dataset.resourceBuild ?? dataset.build)(deps));
  if (uri === INTELLIGENCE_CHART_URI) return { contents: [{ uri, mimeType: INTELLIGENCE_CHART_RESOURCE.mimeType, text: await intelligenceSvg(deps) }] };

  if (uri.startsWith(EXPORT_URI_PREFIX)) {
    const { base, page } = splitFilePage(uri);
    const doc = exportStore(deps).get(base, reader);
    if (!doc) {
      throw new ResourceMissing(
        'Export documents are kept for an hour by the server instance that made them and are read with the API key that made them (or on its MCP session); export again (export_bom with the same Idempotency-Key costs nothing).',
      );
    }
    const read = fileContents(base, doc.mimeType, doc.text, page);
    if (!read) throw new ResourceMissing(`${base} has no page ${page}; read ${base} for page 1 and its page count (_meta["${FILE_PAGE_META}"]).`);
    return read;
  }
  const parts = { catalogue: deps.catalogue, index: deps.index, specs: deps.specs, baseUrl: deps.config.publicBaseUrl };
  if (uri.startsWith(PLATE_URI_PREFIX)) return readPlate(deps, parts, uri, reader.keyDigest ? `key:${reader.keyDigest}` : reader.session ? `session:${reader.session}` : null);
  const id = variable(uri, 'robotparts://parts/');
  if (id !== null) {
    try {
      const r = await getPart(parts, id);
      return json(uri, { ...r, meta: recordMeta(r.entity) });
    } catch (e) {
      if (e instanceof DomainError && (e.code === 'not_found' || e.code === 'invalid_input')) throw new ResourceMissing(e.message);
      throw e;
    }
  }
  const category = paged(uri, 'robotparts://catalogue/');
  if (category !== null) {
    const known = (await deps.catalogue.categories()).map((c) => c.slug);
    if (!known.includes(category.key)) throw new ResourceMissing(`No catalogue category "${category.key}"; the categories are ${known.join(', ')}.`);
    const r = await listParts(parts, { category: category.key, limit: 1000 });
    const p = pageOf(r.items.map(toSummary), category.page);
    if (!p) throw new ResourceMissing(`Catalogue category "${category.key}" has no page ${category.page}; read robotparts://catalogue/${category.key} for page 1 and its page count.`);
    return json(uri, { count: r.total, ...pageLinks(`robotparts://catalogue/${category.key}`, p), data: p.items, meta: { category: r.category, license: LICENSE, attribution: ATTRIBUTION } });
  }
  const robot = variable(uri, OSS_ROBOT_PREFIX);
  if (robot !== null) {
    const doc = await ossDocument(deps);
    const r = robotsOf(doc).find((x) => x.slug === robot.toLowerCase());
    if (!r) throw new ResourceMissing(`No robot "${robot}" in the open-source layer; the robots are ${robotsOf(doc).map((x) => x.slug).join(', ')}.`);
    return json(uri, { ...ossRobotSummary(doc, r), meta: { license: 'Per source file: see sources[].license', dataset: 'robotparts://datasets/oss-layer' } });
  }
  const source = paged(uri, OSS_SOURCE_PREFIX);
  if (source !== null) {
    const doc = await ossDocument(deps);
    const s = doc.meta.sources.find((x) => x.id.toLowerCase() === source.key.toLowerCase());
    if (!s) throw new ResourceMissing(`No source "${source.key}" in the open-source layer; the sources are ${doc.meta.sources.map((x) => x.id).join(', ')}.`);
    const records = recordsOf(doc, s.id);
    const p = pageOf(records, source.page, sourceBudget(s));
    if (!p) throw new ResourceMissing(`Source ${s.id} has no page ${source.page}; read ${OSS_SOURCE_PREFIX}${s.id} for page 1 and its page count.`);
    return json(uri, { source: s, count: records.length, ...pageLinks(`${OSS_SOURCE_PREFIX}${s.id}`, p), data: p.items });
  }
  throw new ResourceMissing('Call resources/list and resources/templates/list for the URIs this server serves.');
}

/** A plate file: designed again from the URI (nothing is stored); binary formats as a base64 blob. */
async function readPlate(deps: Deps, parts: Parameters<typeof designAdapterPlate>[0]['parts'], uri: string, client: string | null) {
  const { base, page } = splitFilePage(uri);
  const key = parsePlateUri(base);
  if (!key) throw new ResourceMissing(`Plate URIs are ${PLATE_TEMPLATE} with file <tapped|nut>[-t<thickness mm>].<json|stl|3mf|scad>; design_adapter_plate lists them.`);
  let answer;
  try {
    answer = await designAdapterPlate({ ...deps.knowledge, parts, baseUrl: deps.config.publicBaseUrl }, { a: key.a, b: key.b, b_holes: key.b_holes, thickness_mm: key.thickness_mm ?? undefined });
  } catch (e) {
    if (e instanceof DomainError) throw new ResourceMissing(e.message);
    throw e;
  }
  // Mesh formats in the worker pool (the reader's fair share), cached per design.
  const file = await plateFileFor(answer, key.format, deps, { client });
  if (!file) throw new ResourceMissing(answer.reason);
  // A file over one read (an STL of up to ~237,000 bytes) is read in pages (RESOURCE_TEXT_BUDGET characters of base64 or text each).
  const read = fileContents(base, file.mediaType, file.body, page);
  if (!read) throw new ResourceMissing(`${base} has no page ${page}; read ${base} for page 1 and its page count (_meta["${FILE_PAGE_META}"]).`);
  return read;
}

/** Ids starting with a prefix (case-insensitive), all of them: completions report the true total. */
export async function idsMatching(deps: Deps, prefix: string): Promise<string[]> {
  return deps.catalogue.idsWithPrefix(prefix, 1_000_000);
}

export async function categoriesMatching(deps: Deps, prefix: string): Promise<string[]> {
  const v = prefix.toLowerCase();
  return (await deps.catalogue.categories()).map((c) => c.slug).filter((s) => s.toLowerCase().startsWith(v));
}

export async function completeResourceArgument(deps: Deps, uriTemplate: string, name: string, value: string, _context: Record<string, string>): Promise<CompletionAnswer> {
  if (uriTemplate === PART_TEMPLATE && name === 'id') return { completion: completionOf(await idsMatching(deps, value)) };
  if ((uriTemplate === CATEGORY_TEMPLATE || uriTemplate === CATEGORY_PAGE_TEMPLATE) && name === 'category') return { completion: completionOf(await categoriesMatching(deps, value)) };
  if (uriTemplate === OSS_ROBOT_TEMPLATE && name === 'robot') {
    const v = value.toLowerCase();
    return { completion: completionOf(robotsOf(await ossDocument(deps)).map((r) => r.slug).filter((s) => s.startsWith(v))) };
  }
  if ((uriTemplate === OSS_SOURCE_TEMPLATE || uriTemplate === OSS_SOURCE_PAGE_TEMPLATE) && name === 'source') {
    const v = value.toLowerCase();
    return { completion: completionOf((await ossDocument(deps)).meta.sources.map((s) => s.id).filter((s) => s.toLowerCase().startsWith(v))) };
  }
  if (uriTemplate === PLATE_TEMPLATE && (name === 'a' || name === 'b')) {
    const v = value.toLowerCase();
    return { completion: completionOf(deps.knowledge.flanges.designations.map((d) => d.designation).filter((d) => d.toLowerCase().startsWith(v))) };
  }
  if (uriTemplate === PLATE_TEMPLATE && name === 'file') {
    const files = ['tapped', 'nut'].flatMap((h) => ['json', 'stl', '3mf', 'scad'].map((f) => `${h}.${f}`));
    return { completion: completionOf(files.filter((f) => f.startsWith(value))) };
  }
  if (listResourceTemplates().some((t) => t.uriTemplate === uriTemplate)) return { error: `Resource template ${uriTemplate} has no argument "${name}"` };
  return { error: `Unknown resource template "${uriTemplate}"; call resources/templates/list` };
}
