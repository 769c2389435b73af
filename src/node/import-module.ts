// import() of a user's module (a `--source` file) by its file URL. The CLI's command bundles are
// CommonJS run by an ES module loader (scripts/bundle-cli.js), where import() becomes require(), which
// cannot load an ES module: there the bundler puts in this module's place one that calls the loader's
// own import().

export function importModule(href: string): Promise<unknown> {
  return import(href);
}
