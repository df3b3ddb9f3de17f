// Fails when the committed schema.graphql differs from what codegen.ts would write now (run `npm run codegen`).
import { readFileSync } from 'node:fs';
import { generate } from '@graphql-codegen/cli';
import config from '../codegen.js';

const outputs = (await generate({ ...config, cwd: process.cwd() }, false)) as { filename: string; content: string }[];
let stale = false;
for (const output of outputs) {
  let current = '';
  try {
    current = readFileSync(output.filename, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (current !== output.content) {
    stale = true;
    process.stderr.write(`${output.filename} is out of date with the Pothos schema: run \`npm run codegen\` and commit it\n`);
  }
}
if (stale) process.exit(1);
process.stdout.write('schema.graphql is up to date\n');
