// Worker thread of scan-pages.ts: reads and scans batches of pages, answers with their facts and
// hashes (small), never with the pages themselves.

import { parentPort } from 'node:worker_threads';
import { scanBatch, type ScanBatch } from './scan-pages.js';

parentPort?.on('message', (batch: ScanBatch) => parentPort?.postMessage(scanBatch(batch)));
