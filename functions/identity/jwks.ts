import { publicHandler } from '../../shared/http/public-handler';
import { serviceJwks } from '../../shared/identity/service-tokens';
import { route } from '../../shared/schemas/generated/getJwks.js';

export const handler = publicHandler(route, async () => {
  const { keys } = await serviceJwks();
  // Only the public members: a JWK Set never carries more than a verifier needs.
  return { keys: keys.map(({ kty, kid, alg, use, n, e }) => ({ kty, kid, alg, use, n, e })) };
});
