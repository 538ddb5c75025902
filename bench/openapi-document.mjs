// The same types as an OpenAPI document, for the row that times openapi-typescript on them: one
// component schema a message type, holding what schema-sync's module of it holds (its name and
// number as constants, its schema hash, actions, key flags, token and filter fields, its
// description), so both tools write the types of the same 10,000 descriptors.
// Usage (module): openApiDocument(listing) → the document as a plain object.

const ACTIONS = { S: 'select', I: 'insert', U: 'update', R: 'replace', D: 'delete' };

/** The component schema of one wire element's descriptor. */
function schemaOf(m) {
  const literal = (value) => ({ const: value });
  const flag = (value) => ({ const: value === 'Yes' });
  const tuple = (items) => ({ type: 'array', prefixItems: items.map(literal), minItems: items.length, maxItems: items.length });
  const properties = {
    name: literal(m.name),
    mNum: literal(m.mNum),
    schemaHash: literal(m.schemaHash),
    actions: tuple([...m.actions].map((letter) => ACTIONS[letter] ?? letter)),
    hasTKey: flag(m.hasTKey),
    hasEKey: flag(m.hasEKey),
    hasOKey: flag(m.hasOKey),
    hasCF: flag(m.hasCF),
    mToken: literal(m.mToken),
    staticFilterFields: tuple(m.staticFilterFields.split(',').filter(Boolean)),
  };
  return { type: 'object', ...(m.desc === undefined ? {} : { description: m.desc }), properties, required: Object.keys(properties), additionalProperties: false };
}

/** An OpenAPI 3.1 document whose components are the listing's message types. */
export function openApiDocument(listing) {
  const schemas = Object.fromEntries(listing.map(({ message }) => [message.name, schemaOf(message)]));
  return { openapi: '3.1.0', info: { title: 'Synthetic message types', version: '1.0.0' }, paths: {}, components: { schemas } };
}
