// The new-session form's first-dealer choices take the names typed for the seats.

function label(seat) {
  return document.querySelector(`.dealer-${seat + 1} span`);
}

const defaults = new Map();
document.querySelectorAll(".dealer-choice span").forEach((span, seat) => {
  defaults.set(span, span.textContent);
  const input = document.getElementById(`id_player_${seat}`);
  if (input && input.value.trim()) span.textContent = input.value.trim();
});

document.addEventListener("input", (event) => {
  const match = event.target.id && event.target.id.match(/^id_player_(\d)$/);
  const span = match && label(Number(match[1]));
  if (span) span.textContent = event.target.value.trim() || defaults.get(span);
});
