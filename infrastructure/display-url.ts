/** An address for a message: scheme, host, port and path, without the user name and password it may carry. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'the given URL';
  }
}

/** The text with the password of each URL cut out, should a driver's message ever quote one. */
export function withoutPasswords(text: string, urls: readonly (string | null)[]): string {
  let shown = text;
  for (const url of urls) {
    let password = '';
    try {
      password = url === null ? '' : decodeURIComponent(new URL(url).password);
    } catch {
      password = '';
    }
    if (password.length >= 3) shown = shown.split(password).join('(password not shown)');
  }
  return shown;
}
