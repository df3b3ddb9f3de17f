// GraphQL types as JSON Schema (the 2020-12 dialect OpenAPI 3.1 uses): enums and input objects once each under
// components, named as in the GraphQL schema, with the REST (snake_case) field names the router reads; an input
// object admits no other key.
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLScalarType,
  type GraphQLInputType,
  type GraphQLLeafType,
} from 'graphql';

export type JsonSchema = Record<string, unknown>;

export const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** GraphQL's Int is a signed 32-bit integer. */
const INT32 = { type: 'integer', format: 'int32' };

function scalarSchema(type: GraphQLScalarType): JsonSchema {
  switch (type.name) {
    case 'String':
    case 'ID':
      return { type: 'string' };
    case 'Int':
      return { ...INT32 };
    case 'Float':
      return { type: 'number' };
    case 'Boolean':
      return { type: 'boolean' };
    case 'DateTime':
      return { type: 'string', format: 'date-time' };
    default:
      // JSON and any other custom scalar: any JSON value.
      return type.description ? { description: type.description } : {};
  }
}

/** `null` allowed too: a `type` list where there is one, `anyOf` around a reference; `{}` admits null already. */
export function orNull(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).every((k) => k === 'description')) return schema;
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.type)) return schema.type.includes('null') ? schema : { ...schema, type: [...schema.type, 'null'] };
  const { description, ...rest } = schema;
  return { ...(description ? { description } : {}), anyOf: [rest, { type: 'null' }] };
}

export const described = (schema: JsonSchema, description: string | null | undefined): JsonSchema => (description ? { ...schema, description } : schema);

/** Collects the named schemas a document refers to, each built once. */
export class SchemaRegistry {
  readonly schemas: Record<string, JsonSchema> = {};

  ref(name: string): JsonSchema {
    return { $ref: `#/components/schemas/${name}` };
  }

  enum(type: GraphQLEnumType): JsonSchema {
    this.schemas[type.name] ??= described({ type: 'string', enum: type.getValues().map((v) => v.value) }, type.description);
    return this.ref(type.name);
  }

  leaf(type: GraphQLLeafType): JsonSchema {
    return type instanceof GraphQLEnumType ? this.enum(type) : scalarSchema(type);
  }

  /** A body or query value as rest-compat/variables.ts coerces it: non-null is required, null is allowed otherwise. */
  input(type: GraphQLInputType): JsonSchema {
    if (type instanceof GraphQLNonNull) return this.inputInner(type.ofType);
    return orNull(this.inputInner(type));
  }

  /** The type without its outer nullability (a query or path parameter is never null). */
  inputInner(type: GraphQLInputType): JsonSchema {
    if (type instanceof GraphQLNonNull) return this.inputInner(type.ofType);
    if (type instanceof GraphQLList) return { type: 'array', items: this.input(type.ofType) };
    if (type instanceof GraphQLInputObjectType) return this.inputObject(type);
    return this.leaf(type);
  }

  /** The named schema of an input object itself (built if needed), to copy from. */
  component(type: GraphQLInputType): JsonSchema {
    const named = type instanceof GraphQLNonNull ? type.ofType : type;
    if (!(named instanceof GraphQLInputObjectType)) throw new Error(`${named} is not an input object`);
    this.inputObject(named);
    return this.schemas[named.name];
  }

  private inputObject(type: GraphQLInputObjectType): JsonSchema {
    if (!this.schemas[type.name]) {
      const schema: JsonSchema = described({ type: 'object' }, type.description);
      this.schemas[type.name] = schema; // before the fields: an input type may refer to itself
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const field of Object.values(type.getFields())) {
        const key = snake(field.name);
        let property = described(this.input(field.type), field.description);
        if (field.defaultValue !== undefined) property = { ...property, default: field.defaultValue };
        properties[key] = property;
        if (field.type instanceof GraphQLNonNull) required.push(key);
      }
      schema.properties = properties;
      if (required.length > 0) schema.required = required;
      // As the API behaves: GraphQL refuses an unknown input field, and so does REST (rest-compat/body-fields.ts).
      schema.additionalProperties = false;
    }
    return this.ref(type.name);
  }
}

/** True when the input object type has a field the router requires (a body that may not be left out). */
export function hasRequiredField(type: GraphQLInputType): boolean {
  const named = type instanceof GraphQLNonNull ? type.ofType : type;
  return named instanceof GraphQLInputObjectType && Object.values(named.getFields()).some((f) => f.type instanceof GraphQLNonNull);
}
