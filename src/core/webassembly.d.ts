// WebAssembly, as far as read/lane.ts uses it (compiled and instantiated synchronously).
// Node's typings leave it to the DOM library, which the core does not load; this file serves both
// the core's build and Node's.
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    readonly buffer: ArrayBuffer;
  }
  class Global {
    value: number;
  }
}
