// The panel under the sheet (#entry), where the hand form, a deletion's confirmation or a
// refusal opens: in sight, below the sticky totals, with the focus where the player is expected;
// Cancel closes it, and its notice (#stale) goes once read.

import { measure } from "./totals.js";

// A saved or changed hand: show the sheet's new state.
document.addEventListener("htmx:afterSettle", (event) => {
  if (!event.detail.target || event.detail.target.id !== "entry") return;
  const panel = event.detail.target.querySelector(".entry-panel");
  measure();
  if (!panel) {
    const rows = document.querySelectorAll("#hands .hand");
    if (rows.length) rows[rows.length - 1].scrollIntoView({ block: "nearest" });
    return;
  }
  // A refused save: its first problem comes into sight (clear of the sticky totals) and takes
  // the focus; otherwise keyboard and screen-reader users land in the new form.
  const problem = panel.querySelector(".invalid") || panel.querySelector(".form-errors");
  if (problem) {
    const control = problem.querySelector("input, select, textarea") || problem;
    if (control === problem) problem.setAttribute("tabindex", "-1");
    control.focus({ preventScroll: true });
    problem.scrollIntoView({ block: "center" });
  } else {
    // Its heading and first choices in sight, below the totals, and the focus on it.
    panel.scrollIntoView({ block: "start" });
    const title = panel.querySelector("h2[tabindex]");
    if (title) title.focus({ preventScroll: true });
  }
});

document.addEventListener("click", (event) => {
  // A notice of the open form (#stale) read: out of the way.
  const dismiss = event.target.closest("[data-dismiss]");
  const notice = dismiss && dismiss.closest(".stale");
  if (notice) {
    notice.replaceChildren();
    return;
  }
  // Cancel inside the sheet just closes the panel.
  const cancel = event.target.closest("[data-cancel]");
  const entry = cancel && cancel.closest("#entry");
  if (entry) {
    event.preventDefault();
    entry.replaceChildren();
  }
});
