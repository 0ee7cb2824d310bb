import { generateKeys } from '../../lib/local/jwt';
import { useLocalSigningKeys } from '../../shared/identity/service-tokens';

/** For the suite calling it: the service is the issuer `issuer` (its base URL), signing with a fresh local key set. */
export function asServiceIssuer(issuer: string): void {
  let restoreKeys: () => void;
  beforeAll(async () => {
    process.env.PUBLIC_API_URL = `${issuer}/`;
    restoreKeys = useLocalSigningKeys(await generateKeys());
  });
  afterAll(() => {
    restoreKeys();
    delete process.env.PUBLIC_API_URL;
  });
}
