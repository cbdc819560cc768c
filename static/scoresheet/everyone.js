// "Everyone" on the new-night form: one tap ticks every player of its fieldset, or unticks them
// all when all were ticked; it says which (aria-pressed). Without this module the button sends
// the form, which comes back with the boxes so.

function boxes(button) {
  const group = button.closest("fieldset");
  return group ? [...group.querySelectorAll('input[type="checkbox"]')] : [];
}

function show(button) {
  const all = boxes(button);
  button.setAttribute("aria-pressed", String(all.length > 0 && all.every((box) => box.checked)));
}

for (const button of document.querySelectorAll("button[data-everyone]")) {
  // A plain button now: Enter in a field still sends the form with its main button.
  button.type = "button";
  show(button);
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-everyone]");
  if (!button) return;
  event.preventDefault();
  const all = boxes(button);
  const tick = !all.every((box) => box.checked);
  for (const box of all) box.checked = tick;
  show(button);
});

document.addEventListener("change", (event) => {
  const group = event.target.closest("fieldset");
  const button = group && group.querySelector("button[data-everyone]");
  if (button && event.target.type === "checkbox") show(button);
});
