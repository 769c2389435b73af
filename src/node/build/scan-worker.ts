// Worker thread of scan-pages.ts: reads and scans batches of pages, answers with their facts and
// hashes (small), never with the pages themselves.

import { parentPort } from 'node:worker_threads';
import { scanFile, type ScanTarget } from './scan-pages.js';

interface Batch {
  id: number;
  targets: ScanTarget[];
  images: boolean;
}

parentPort?.on('message', (batch: Batch) => {
  parentPort?.postMessage({ id: batch.id, scans: batch.targets.map((target) => scanFile(target, batch.images)) });
});
