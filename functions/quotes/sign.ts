import { getQuote } from '../../shared/domain/quotes/read';
import { signQuote, type SignInput } from '../../shared/domain/quotes/sign';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/signQuote.js';

export const handler = httpHandler<SignInput>(
  route,
  ({ ctx, path, body }) => signQuote(ctx, path.id!, body ?? {}),
  ({ ctx, path }) => getQuote(ctx, path.id!),
);
