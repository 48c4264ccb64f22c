// Display formatting for the UI (en-US digits, so tests and screenshots are stable).

const counts = new Intl.NumberFormat('en-US');

/** 12345 → "12,345"; NaN/undefined → "–". */
export function formatCount(n: number | undefined): string {
  return n === undefined || !Number.isFinite(n) ? '–' : counts.format(Math.round(n));
}

/** 167713 → "167.7k"; 1_000_000 → "1M". */
export function formatTokensShort(n: number): string {
  if (!Number.isFinite(n)) return '–';
  const abs = Math.abs(n);
  if (abs >= 1_000_000) return `${trim(n / 1_000_000)}M`;
  if (abs >= 1_000) return `${trim(n / 1_000)}k`;
  return String(Math.round(n));
}

function trim(n: number): string {
  return n.toFixed(1).replace(/\.0$/, '');
}

/** +1,234 / −567 */
export function formatDelta(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '–';
  return n >= 0 ? `+${formatCount(n)}` : `−${formatCount(-n)}`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${bytes} B`;
}

/** Local time of day, "14:03:27". */
export function formatClock(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** "2026-02-23 17:17" local. */
export function formatDateTime(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '–';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * 5_432_000 → "1h 30m"; 45_600 → "45.6s"; a day or more → "1d 23h". Days from 24 h on, the same
 * for every duration the page shows (header, library, cards): at 48 h it switched, so one
 * session read "47h 32m" beside another's "2d 1h".
 */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes}m ${Math.floor((ms % 60_000) / 1000)}s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ${minutes % 60}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}
