/** What the catalogue's search and lookups read (src/domain/catalogue/parts.ts, elsewhere.ts). */
import type { WhereUsedLayer } from '../oss/where-used.js';
import type { SpecIndex } from '../specs/index.js';
import type { SearchIndex } from './search.js';
import type { Catalogue } from './store.js';

export interface PartsContext {
  catalogue: Catalogue;
  index: SearchIndex;
  specs: SpecIndex;
  /** Base URL for detail_url links; null when no server is reachable (stdio without a public URL). */
  baseUrl: string | null;
  /** The open-source layer, for the used_in summary of get_part (absent: no summary). */
  layer?: WhereUsedLayer;
}
