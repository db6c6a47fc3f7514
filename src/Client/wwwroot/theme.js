// The theme toggle. The server renders the chosen theme from the cookie as <html data-theme>, so this only has to
// flip the attribute and remember the choice; without script the button stays hidden and prefers-color-scheme rules.
// The button names the theme it switches to. It carries no aria-pressed: a pressed state beside a label that changes
// would read "Light theme, pressed" while the page is dark (WAI-ARIA APG, toggle button).
const root = document.documentElement;
const systemDark = () => window.matchMedia('(prefers-color-scheme: dark)').matches;
const current = () => root.dataset.theme || (systemDark() ? 'dark' : 'light');
const button = () => document.querySelector('[data-theme-toggle]');

// Enhanced navigation merges the next page's markup into this one, the button's hidden attribute included: shown
// again after each.
function show() {
  const toggle = button();
  if (!toggle) return;
  toggle.hidden = false;
  toggle.textContent = current() === 'dark' ? 'Light theme' : 'Dark theme';
}

document.addEventListener('click', event => {
  if (!event.target.closest?.('[data-theme-toggle]')) return;
  const next = current() === 'dark' ? 'light' : 'dark';
  root.dataset.theme = next;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `ifi-theme=${next}; path=/; max-age=31536000; SameSite=Lax${secure}`;
  show();
});
show();
window.Blazor?.addEventListener('enhancedload', show);
window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', show);
