// Keeps pages current without a manual refresh: the server announces stored changes on /events/fleet
// (Server-Sent Events); each region marked data-live is then fetched again and swapped in place, so nothing
// else on the page (a half-typed form, the scroll position) is disturbed.
const regions = () => document.querySelectorAll('[data-live]');

async function refresh() {
  const response = await fetch(location.href, { headers: { 'X-Live-Refresh': '1' } });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
  for (const region of regions()) {
    const replacement = fresh.querySelector(`[data-live="${region.dataset.live}"]`);
    if (replacement) region.replaceWith(document.importNode(replacement, true));
  }
  document.documentElement.dataset.liveRefreshed = new Date().toISOString();
}

if (regions().length > 0 && 'EventSource' in window) {
  let running = null;
  const source = new EventSource('events/fleet');
  // The server's first event confirms the stream is open: from then on no stored change goes unnoticed.
  source.addEventListener('ready', () => { document.documentElement.dataset.liveConnected = 'true'; });
  source.addEventListener('error', () => { delete document.documentElement.dataset.liveConnected; });
  source.addEventListener('fleet-changed', () => {
    running ??= refresh().catch(() => {}).finally(() => { running = null; });
  });
  // Browsers allow six connections per host: a stream left open by a page being left would hold one of them.
  window.addEventListener('pagehide', () => source.close());
}
