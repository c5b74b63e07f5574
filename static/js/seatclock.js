// The seat to move's time bar (templates/games/table/_seat_clock.html): each
// meter.time-bar[data-deadline] shows the seconds left until its deadline, once a second
// and after each swap of the table; static/js/clock.js says the same in words.
(function () {
  "use strict";
  function tick() {
    var now = Date.now();
    document.querySelectorAll("meter.time-bar[data-deadline]").forEach(function (bar) {
      var left = Math.max(0, Math.round((Date.parse(bar.dataset.deadline) - now) / 1000));
      if (!isNaN(left) && bar.value !== left) bar.value = left;
    });
  }
  tick();
  setInterval(tick, 1000);
  document.addEventListener("htmx:load", tick);
})();
