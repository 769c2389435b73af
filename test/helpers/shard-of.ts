// Where a URL goes in a sharded set, from the URL as given: the placement the set writer makes
// (core/scale/layout.ts placeOf) after normalising the loc as the writer does.
import { checkShards, placeOf, type UrlPlace } from '../../src/core/scale/layout.js';
import { normalizeUrl, scopeOf } from '../../src/core/url.js';

export interface ShardLayout {
  /** How many shards (buckets per section) the set has. */
  shards: number;
  /** Where the set is served; a URL's section is the first path segment under it. */
  baseUrl: string;
  /** The set's name (`sitemap`). */
  name?: string;
}

/** Where `loc` goes: its section, bucket and child. */
export function shardOf(loc: string, layout: ShardLayout): UrlPlace {
  return placeOf(normalizeUrl(loc, 'loc', layout.baseUrl), scopeOf(layout.baseUrl).prefix, checkShards(layout.shards), layout.name ?? 'sitemap');
}
