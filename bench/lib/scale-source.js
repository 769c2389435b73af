// The source module of bench:scale's queue rows (sitemapkit queue generate --source): part `part` of
// the catalogue bench/scale.js writes in one process, entries [part·n/parts, (part+1)·n/parts), as a
// database read by key range would yield them. --source-option n=N.
import { catalogueRange } from '../scale.js';

export default function* scaleSource(part, { parts, options }) {
  const n = Number(options.n);
  yield* catalogueRange(Math.floor((part * n) / parts), Math.floor(((part + 1) * n) / parts));
}
