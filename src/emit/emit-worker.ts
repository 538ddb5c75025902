/**
 * Worker-thread entry of the prettier format pool (`format-pool.ts`): formats the batches of
 * files it is sent, with the configuration of the folder in its {@link FormatWorkerData}.
 * It imports prettier only: the main thread prints every file with ts-morph.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serveFormatRequests, type FormatWorkerData } from './format-service.js';

serveFormatRequests(parentPort!, (workerData as FormatWorkerData).outDir);
