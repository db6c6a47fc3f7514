// blazor.web.js drives the reconnect banner (App.razor) by its classes; this adds what it leaves to the app. A server
// that restarted no longer knows the page's circuit ("rejected"): reloading starts a new one with current data.
// After the attempts ran out ("failed"), "Try again" reconnects, or reloads if the old circuit is gone.
const banner = document.getElementById('components-reconnect-modal');

if (banner) {
  banner.addEventListener('components-reconnect-state-changed', event => {
    if (event.detail.state === 'rejected') location.reload();
  });
  banner.querySelector('[data-reconnect-retry]')?.addEventListener('click', async () => {
    try {
      if (!await window.Blazor.reconnect()) location.reload();
    } catch {
      // Still unreachable: the banner stays on "failed" and the button can be pressed again.
    }
  });
}
