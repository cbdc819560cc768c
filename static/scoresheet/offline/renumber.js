// A new hand's form numbered as the sheet and the queue say: a form kept by the service worker
// may be older than the sheet, and another phone may enter a hand while this form is open (the
// live poll's sheet:moved). What was typed stays; the form becomes the next hand, dealt by whoever
// deals it, and under the sitting-out rule it leaves that dealer out.

import { queued } from "./queue.js";
import { isNewHandForm, projected, readState, rules, state } from "./state.js";
import { format, texts } from "./texts.js";

/** Number the open new hand's form (if any) after the stored and the waiting hands. */
export async function renumber() {
  const form = document.querySelector("#entry form.hand-form");
  if (!form || !readState() || !rules || !isNewHandForm(form)) return;
  const view = projected(await queued());
  const panel = form.closest(".entry-panel");
  // The number the live poll names this form by (live.js).
  if (panel) panel.dataset.number = String(view.count + 1);
  const title = panel && panel.querySelector("h2");
  if (title && title.firstChild && title.firstChild.nodeType === Node.TEXT_NODE) {
    title.firstChild.nodeValue = title.firstChild.nodeValue.replace(/\d+/, String(view.count + 1));
    const small = title.querySelector("small");
    const words = rules.dealer_sits_out ? texts.deals_out : texts.deals;
    if (small) small.textContent = format(words, { name: state.names[view.next_dealer] });
  }
  if (rules.dealer_sits_out) sitOut(form, view.next_dealer);
}

// docs/rules.md §6.4: the dealer sits out and takes no role, so the form leaves their seat out. A form
// kept for an earlier hand left out its dealer: give that seat back and leave this one's out.
function sitOut(form, dealer) {
  const seats = state.names.length;
  const offered = new Set([...form.querySelectorAll('input[name="taker"]')].map((input) => Number(input.value)));
  const left = [...Array(seats).keys()].find((seat) => !offered.has(seat));
  if (left === undefined || left === dealer) return;
  for (const name of ["taker", "partner"]) {
    const input = form.querySelector(`input[name="${name}"][value="${dealer}"]`);
    if (!input) continue;
    input.value = String(left);
    input.checked = false;
    input.closest("label").querySelector("span").textContent = state.names[left];
    const group = input.closest("fieldset");
    // The choices in seat order, where they were (before the field's messages, if any).
    const labels = [...group.querySelectorAll(":scope > label.segment")];
    const after = labels[labels.length - 1].nextSibling;
    const order = (label) => {
      const value = label.querySelector("input").value;
      return value === "" ? -1 : Number(value);
    };
    labels.sort((a, b) => order(a) - order(b)).forEach((label) => group.insertBefore(label, after));
  }
  for (const prefix of ["poignee", "misere"]) {
    const inputs = form.querySelectorAll(`input[name="${prefix}_${dealer}"]`);
    if (!inputs.length) continue;
    const fieldset = inputs[0].closest("fieldset");
    inputs.forEach((input) => {
      input.name = `${prefix}_${left}`;
      input.checked = input.value === "";
    });
    fieldset.querySelectorAll(`[id*="${prefix}_${dealer}_"], [for*="${prefix}_${dealer}_"]`).forEach((node) => {
      for (const attribute of ["id", "for"]) {
        const value = node.getAttribute(attribute);
        if (value) node.setAttribute(attribute, value.replace(`${prefix}_${dealer}_`, `${prefix}_${left}_`));
      }
    });
    fieldset.querySelector("legend").textContent = state.names[left];
    const parent = fieldset.parentElement;
    const seatOf = (set) => Number(set.querySelector("input").name.split("_")[1]);
    [...parent.querySelectorAll(`:scope > fieldset.${prefix}`)]
      .sort((a, b) => seatOf(a) - seatOf(b))
      .forEach((set) => parent.append(set));
  }
}

// A hand form just opened under the sheet, and the sheet moved on from another phone.
document.addEventListener("htmx:afterSettle", (event) => {
  if (event.detail.target && event.detail.target.id === "entry") renumber();
});
document.addEventListener("sheet:moved", () => renumber());
