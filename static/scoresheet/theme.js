// The footer's theme, at once: the page is not loaded again, so it stays where it was scrolled
// to. The choice is kept in the cookie the server reads (scoresheet/theme.py), as the form's
// answer keeps it; without JavaScript the form posts and comes back to the theme's place.

const YEAR = 365 * 24 * 3600;

document.addEventListener("submit", (event) => {
  const form = event.target.closest("[data-theme-form]");
  if (!form) return;
  event.preventDefault();
  const value = form.elements.theme.value;
  const root = document.documentElement;
  const secure = location.protocol === "https:" ? "; secure" : "";
  if (value === "light" || value === "dark") {
    root.dataset.theme = value;
    document.cookie = `theme=${value}; max-age=${YEAR}; path=/; samesite=lax${secure}`;
  } else {
    delete root.dataset.theme;
    document.cookie = `theme=; max-age=0; path=/; samesite=lax${secure}`;
  }
});
