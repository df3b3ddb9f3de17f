// Entry for codegen.ts: exposes the executable schema built by Pothos.
import { schema } from '../src/app/schema.js';

export default schema;
