// The − and + buttons beside the hand form's points: half steps at 3 and 5 players.

document.addEventListener("click", (event) => {
  const step = event.target.closest("button[data-step]");
  if (!step) return;
  const input = step.parentElement.querySelector("input");
  const value = parseFloat((input.value || "0").replace(",", ".")) || 0;
  const next = Math.min(91, Math.max(0, value + parseFloat(step.dataset.step)));
  // Keep the separator the player typed, else the page language's (40,5 in French).
  const comma =
    input.value.includes(",") ||
    (!input.value.includes(".") && (0.5).toLocaleString(document.documentElement.lang) === "0,5");
  input.value = comma ? String(next).replace(".", ",") : String(next);
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
});
