import { listCoupons } from '../../shared/domain/coupons/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listCoupons.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listCoupons(ctx, query));
