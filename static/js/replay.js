// The replay page: the arrow keys (and Home, End) follow the step links marked data-key.
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  const link = document.querySelector(`.replay-steps a[data-key="${event.key}"]`);
  if (link) {
    event.preventDefault();
    window.location.assign(link.href);
  }
});
