// The sticky totals cover the top of the screen, more or less of it with the seats and the size
// of the totals: whatever is brought into sight stops below them (app.css, --covered).

export function measure() {
  const bar = document.getElementById("totals");
  const covered = bar ? bar.offsetHeight : 0;
  document.documentElement.style.setProperty("--covered", `${covered}px`);
}

window.addEventListener("resize", measure);
document.addEventListener("htmx:afterSwap", measure);
document.addEventListener("htmx:oobAfterSwap", measure);
measure();
