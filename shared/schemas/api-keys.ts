import { arrayOf, dateTime, enumOf, name, object, out, resource, type Schema } from './common';

/** The scopes a credential may hold: `read` (GET routes), `write` (the others), `admin` (managing API keys). */
export const CREDENTIAL_SCOPES = ['read', 'write', 'admin'] as const;

export const apiKeyCreationBody = object(
  {
    name,
    scopes: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: CREDENTIAL_SCOPES }, default: ['read', 'write'] },
    expires_at: { ...dateTime, description: 'When the key stops working (in the future). Default: never.' },
  },
  ['name'],
);

const apiKeyMembers = {
  id: out.string,
  object: enumOf(['api_key']),
  name: out.string,
  scopes: arrayOf(enumOf(CREDENTIAL_SCOPES)),
  redacted_key: { type: 'string', description: 'The key\'s prefix and last four characters (`sk_live_…a1B2`).' },
  created_at: out.dateTime,
  last_used_at: { ...out.nullableDateTime, description: 'Updated at most once a minute; null until first used.' },
  expires_at: out.nullableDateTime,
  revoked_at: out.nullableDateTime,
};

export const apiKeyResource: Schema = resource(apiKeyMembers);

/** The answer to a creation: the only time the key itself is shown. */
export const createdApiKeyResource: Schema = resource({
  ...apiKeyMembers,
  key: { type: 'string', description: 'The secret key (`sk_<env>_…`). Shown once: only its hash is stored.' },
});

/** RFC 7517 JWK Set of RSA public keys. */
export const jwksResource: Schema = resource({
  keys: arrayOf(resource({ kty: enumOf(['RSA']), kid: out.string, alg: enumOf(['RS256']), use: enumOf(['sig']), n: out.string, e: out.string })),
});
