/** Customer ids never hold '.', the separator of `<customerId>.<secret>` in a customer's key; admin keys never hold one. */
export const CUSTOMER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
