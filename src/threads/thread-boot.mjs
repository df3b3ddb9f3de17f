// Every worker thread's first module (the delivery thread, the SQLite write thread): plain JavaScript, so Node can
// start it whatever runs the main thread; it then loads the thread's TypeScript module through tsx (or the module
// itself once compiled to JavaScript).
import { workerData } from 'node:worker_threads';

const entry = workerData.entry;
if (entry.endsWith('.ts')) {
  const { tsImport } = await import('tsx/esm/api');
  await tsImport(entry, import.meta.url);
} else {
  await import(entry);
}
