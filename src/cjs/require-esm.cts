// What `require('sitemapkit')` runs on a Node that does not pick the "module-sync" condition of
// package.json's "exports": Node before 20.19 / 22.12, or require(esm) turned off with
// --no-experimental-require-module. Node 20.17+ with --experimental-require-module can still load the
// ES module from here; any other Node gets an error that says how to load it instead.

/** Loads the ES module entry through `load` (a `require` of it), or throws an error that names `import`. */
function requireEsm(load: () => unknown, specifier: string): unknown {
  try {
    return load();
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== 'ERR_REQUIRE_ESM') throw error;
    const message =
      `${specifier} is an ES module: use import { … } from '${specifier}', or await import('${specifier}') from CommonJS ` +
      `(Node 20.19+ and 22.12+ also load it with require())`;
    throw Object.assign(new Error(message, { cause: error }), { code: 'ERR_REQUIRE_ESM' });
  }
}

export = requireEsm;
