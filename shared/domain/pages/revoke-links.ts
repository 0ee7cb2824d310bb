import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { ConditionFailed, translateWriteError } from '../../db/transactions';
import { NotFound } from '../../errors';
import { invoiceKey, toInvoice, type Invoice, type InvoiceItem } from '../invoices/invoice';
import { invoiceNotFound } from '../invoices/read';
import { quoteKey, toQuote, type Quote, type QuoteItem } from '../quotes/quote';

/**
 * Revokes every link given so far to a document's page: its `link_generation` moves on (with its `_version`, so a
 * concurrent write decided on the older item retries rather than writing the old generation back), and the
 * document's `public_url` / `url` is a new link from then on.
 */
async function nextGeneration<T>(key: { pk: string; sk: string }, missing: () => Error): Promise<T> {
  try {
    const answer = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET link_generation = if_not_exists(link_generation, :zero) + :one, #v = #v + :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#v': '_version' },
        ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return answer.Attributes as T;
  } catch (error) {
    if (translateWriteError(error) instanceof ConditionFailed) throw missing();
    throw error;
  }
}

export const revokeInvoiceLinks = async (ctx: Ctx, id: string): Promise<Invoice> =>
  toInvoice(await nextGeneration<InvoiceItem>(invoiceKey(ctx, id), () => invoiceNotFound(id)));

export const revokeQuoteLinks = async (ctx: Ctx, id: string): Promise<Quote> =>
  toQuote(await nextGeneration<QuoteItem>(quoteKey(ctx, id), () => new NotFound('quote', id)));
