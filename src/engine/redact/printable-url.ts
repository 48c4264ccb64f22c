// A URL as it may be shown, printed or stored: without credentials, query string or fragment
// (each can hold a key: `https://user:key@host`, `?api_key=…`). The request itself uses the URL
// as given; only what a person or a file sees goes through here.

/** The URL without credentials, query string or fragment; `(unparseable URL)` when it is not one. */
export function getPrintableUrl(url: string): string;
export function getPrintableUrl(url: string | undefined): string | undefined;
export function getPrintableUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** True when the URL holds something `getPrintableUrl` leaves out. */
export function hasUrlCredentials(url: string): boolean {
  try {
    const u = new URL(url);
    return u.username !== '' || u.password !== '' || u.search !== '' || u.hash !== '';
  } catch {
    return false;
  }
}
