// Numbers as the sheet writes them, for every module of the browser's code: the same as the
// server's (scoresheet/chart.py's signed, the templates' sign_class, width_class and points).

/** +318, −106 (a true minus sign), 0. */
export function signed(value) {
  return value > 0 ? `+${value}` : minus(value);
}

/** −42 with a true minus sign, 106 with no sign. */
export function minus(value) {
  return value < 0 ? `−${-value}` : String(value);
}

/** The class that colours a score: positive, negative or zero. */
export function signClass(value) {
  return value > 0 ? "positive" : value < 0 ? "negative" : "zero";
}

/** The class app.css sizes a row's (or the totals') numbers by, to fit the widest of them. */
export function widthClass(values) {
  const widest = Math.max(...values.map((value) => signed(value).length));
  return `chars-${Math.min(Math.max(widest, 4), 9)}`;
}

/** Card points in the page's language: 45, 45,5 in French. */
export function points(value) {
  const number = Number(value);
  if (value === "" || value === null || Number.isNaN(number)) return String(value ?? "");
  return new Intl.NumberFormat(document.documentElement.lang || undefined, {
    maximumFractionDigits: 1,
  }).format(number);
}
