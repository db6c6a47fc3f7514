// The policy page's forms stay plain HTML forms (they post without script); the impact preview beside each runs on
// the circuit. This sends the form's fields to it as they are edited, and again after an enhanced round trip (adding,
// moving or removing a rule) changed the form. While one preview is computed, edits wait and only the latest is sent.
export function follow(formSelector, preview) {
  let busy = false;
  let pending = false;

  const fields = () => {
    const form = document.querySelector(formSelector);
    if (!form) return null;
    return Array.from(new FormData(form).entries())
      .filter(([name, value]) => typeof value === 'string' && name !== '__RequestVerificationToken' && name !== '_handler')
      .map(([name, value]) => ({ name, value }));
  };

  const send = async () => {
    if (busy) { pending = true; return; }
    const current = fields();
    if (!current) return;
    busy = true;
    try {
      await preview.invokeMethodAsync('Preview', current);
    } catch {
      // The circuit went away (the page was left, or the server restarted): the reconnect banner says so.
    } finally {
      busy = false;
      if (pending) { pending = false; send(); }
    }
  };

  const onEdit = event => {
    if (event.target instanceof Element && event.target.closest(formSelector)) send();
  };
  document.addEventListener('input', onEdit);
  document.addEventListener('change', onEdit);
  window.Blazor?.addEventListener('enhancedload', send);
  send();

  return {
    stop() {
      document.removeEventListener('input', onEdit);
      document.removeEventListener('change', onEdit);
      window.Blazor?.removeEventListener('enhancedload', send);
    },
  };
}
