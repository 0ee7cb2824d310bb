import type { CouponUpdateInput } from '../../shared/domain/coupons/input';
import { updateCoupon } from '../../shared/domain/coupons/update';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/updateCoupon.js';

export const handler = httpHandler<CouponUpdateInput>(route, ({ ctx, path, body }) => updateCoupon(ctx, path.id!, body));
