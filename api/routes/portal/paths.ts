/** The signed path of a user's portal page, or of one of their orders. */
export const portalPath = (userId: string, orderId?: string) => (orderId ? `/portal/users/${userId}/orders/${orderId}` : `/portal/users/${userId}`);

/** A portal link made from a sign-in token lasts this long. */
export const SIGN_IN_TOKEN_EXCHANGE_TTL_SECONDS = 15 * 60;
