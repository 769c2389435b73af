// What `require('sitemapkit')` runs on a Node without the "module-sync" condition (before 20.19 /
// 22.12): it loads the ES module where require(esm) works, else throws an error that says how.

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
