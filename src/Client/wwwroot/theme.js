// The theme toggle. The server renders the chosen theme from the cookie as <html data-theme>, so this only has to
// flip the attribute and remember the choice; without script the button stays hidden and prefers-color-scheme rules.
const button = document.querySelector('[data-theme-toggle]');
const root = document.documentElement;
const systemDark = () => window.matchMedia('(prefers-color-scheme: dark)').matches;
const current = () => root.dataset.theme || (systemDark() ? 'dark' : 'light');

function show() {
  button.setAttribute('aria-pressed', String(current() === 'dark'));
}

if (button) {
  button.hidden = false;
  show();
  button.addEventListener('click', () => {
    const next = current() === 'dark' ? 'light' : 'dark';
    root.dataset.theme = next;
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `ifi-theme=${next}; path=/; max-age=31536000; SameSite=Lax${secure}`;
    show();
  });
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', show);
}
