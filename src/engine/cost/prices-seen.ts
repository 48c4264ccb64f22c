// When the price table (prices.ts) was read off the providers' pages; apart from the table so that
// the page can show the date without loading the table (it prices nothing itself).

/** The month the table's rows were read. */
export const PRICES_SEEN = '2026-11';
