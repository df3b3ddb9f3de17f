// Entry for codegen.ts: exposes the executable schema built by Pothos.
import { schema } from '../src/graphql/schema.js';

export default schema;
