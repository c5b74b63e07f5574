// A table's "Next game waiting (N)" (#next-game): shown while this table waits for someone
// else and other games wait for your move; N is the navigation's live count of games waiting
// for your move (#nav-mine[data-moves], games.live.nav).
(function () {
  "use strict";
  function update() {
    const link = document.getElementById("next-game");
    const nav = document.getElementById("nav-mine");
    const table = document.getElementById("table");
    if (!link || !nav || !table) return;
    const moves = parseInt(nav.dataset.moves || "0", 10) || 0;
    const show = moves > 0 && !table.hasAttribute("data-my-turn");
    const text = show ? link.dataset.format.replace("{}", String(moves)) : link.textContent;
    // Only real changes: each one is a mutation the observer below hears of.
    if (link.textContent !== text) link.textContent = text;
    if (link.hidden === show) link.hidden = !show;
  }
  // The count and the table are swapped in by sockets and polls: follow the page's changes.
  // htmx swaps an element in with its old attributes and sets the new ones a beat later
  // (its settling): so the count and "your turn" marks are followed as attributes too.
  function start() {
    update();
    new MutationObserver(update).observe(document.body, {
      childList: true, subtree: true, attributes: true,
      attributeFilter: ["data-moves", "data-my-turn"] });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
