// The words the offline code shows, from the server in the page's language (the page's
// "offline-texts", scoresheet/sheets/offline.py's texts()).

const element = document.getElementById("offline-texts");
export const texts = element ? JSON.parse(element.textContent) : {};

/** ``text`` with its "%(name)s" placeholders replaced from ``params``, as gettext's are. */
export function format(text, params) {
  return String(text).replace(/%\((\w+)\)s/g, (_, name) => String(params[name]));
}
