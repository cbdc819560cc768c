// The sheet's rows as answers come in: whatever their order (a save's, the poll's, the offline
// queue's waiting rows), a hand's row is shown once, the server's, the latest one swapped in;
// and the rows a player opened stay open when the sheet follows another phone, so that the page
// does not jump under their thumb.

function oneRowEach() {
  const seen = {};
  const rows = document.querySelectorAll("#hands details.hand[id]");
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i];
    const kept = seen[row.id];
    if (!kept) seen[row.id] = row;
    else if (kept.classList.contains("pending") && !row.classList.contains("pending")) {
      kept.remove();
      seen[row.id] = row;
    } else row.remove();
  }
}
document.addEventListener("htmx:oobAfterSwap", oneRowEach);
document.addEventListener("htmx:afterSettle", oneRowEach);

document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const target = event.detail.target;
  const fragment = event.detail.fragment;
  if (!target || !fragment || !fragment.querySelectorAll) return;
  // A row appended to the sheet (a saved hand's answer) that the page shows already (the live
  // poll brought it, or the offline queue shows it waiting) replaces it: a row is never shown
  // twice. (The poll's answer replaces the whole of #hands: its rows are not appended.)
  if (target.id === "hands") {
    for (const row of fragment.querySelectorAll("details.hand[id]")) {
      const shown = document.getElementById(row.id);
      const appended = !row.parentElement || row.parentElement.id !== "hands";
      if (appended && shown && target.contains(shown)) {
        if (shown.open) row.open = true;
        shown.replaceWith(row);
        htmx.process(row);
      }
    }
  }
  const open = target.matches("details.hand[open]") ? [target] : target.querySelectorAll("details.hand[open]");
  for (const row of open) {
    const fresh = row.id && fragment.querySelector(`#${CSS.escape(row.id)}`);
    if (fresh) fresh.open = true;
  }
});
