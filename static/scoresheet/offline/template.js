// A server's <template>, filled: the row's (scoresheet/sheets/rows.py) and the preview's. Each
// [data-slot] becomes its text; each [data-part] is kept (once per item when its value is a list)
// or dropped. The markup is the server's: the browser adds none of its own.

/** Fill ``root``'s slots and parts from ``data``; an item's "@name" sets that attribute on the
 * part's element ("@class" adds classes). */
export function fill(root, data) {
  for (let part = root.querySelector("[data-part]"); part; part = root.querySelector("[data-part]")) {
    const value = data[part.dataset.part];
    const items = Array.isArray(value) ? value : value ? [{}] : [];
    for (const item of items) {
      const copy = part.cloneNode(true);
      copy.removeAttribute("data-part");
      fill(copy, { ...data, ...item });
      const element = copy.firstElementChild;
      for (const [name, text] of Object.entries(item)) {
        if (!name.startsWith("@") || !element) continue;
        if (name === "@class") element.classList.add(...String(text).split(" ").filter(Boolean));
        else element.setAttribute(name.slice(1), String(text));
      }
      part.before(...copy.childNodes);
    }
    part.remove();
  }
  for (const slot of root.querySelectorAll("[data-slot]")) {
    slot.replaceWith(String(data[slot.dataset.slot] ?? ""));
  }
}

/** A copy of ``template``'s content, filled from ``data``. */
export function filled(template, data) {
  const content = template.content.cloneNode(true);
  fill(content, data);
  return content;
}
