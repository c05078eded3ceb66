import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread from a module next to the caller: the compiled `.js` when running built, or the `.ts`
 * source through tsx when running unbuilt (tests), since Node cannot load TypeScript workers by itself. The worker
 * reads `workerData` as given.
 */
export function startWorker(callerUrl: string, name: string, workerData?: unknown): Worker {
  const fromSource = callerUrl.endsWith('.ts');
  const url = new URL(`./${name}${fromSource ? '.ts' : '.js'}`, callerUrl);
  if (!fromSource) return new Worker(url, { workerData });
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(boot, { eval: true, workerData });
}
