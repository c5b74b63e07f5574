// Sounds at the table: short tones made with WebAudio (no sound files) when it becomes
// your turn, when someone takes the cards, and when a deal or the match ends. Off until
// the player presses the table's sound switch (.sound-toggle); the choice is remembered in
// this browser. What happened comes from static/js/motion.js ("durak:story" events).
(function () {
  "use strict";

  var KEY = "durak-sound", context = null;
  // Each tone: [frequency in Hz, start in s, length in s].
  var TUNES = {
    turn: [[660, 0, 0.16], [880, 0.12, 0.22]],
    take: [[392, 0, 0.18], [294, 0.14, 0.3]],
    end: [[523, 0, 0.2], [659, 0.15, 0.2], [784, 0.3, 0.45]],
  };

  function on() {
    try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }

  // One context for the page; a browser lets it sound once the player has touched the page.
  function audio() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    try {
      if (!context) context = new Context();
      if (context.state === "suspended" && context.resume) context.resume();
    } catch (e) { return null; }
    return context;
  }

  function sound(name, after) {
    var c = audio();
    if (!c) return;
    try {
      TUNES[name].forEach(function (tone) {
        var osc = c.createOscillator(), gain = c.createGain();
        var start = c.currentTime + (after || 0) + tone[1], end = start + tone[2];
        osc.type = "sine";
        osc.frequency.value = tone[0];
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.09, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, end);
        osc.connect(gain).connect(c.destination);
        osc.start(start);
        osc.stop(end + 0.02);
      });
    } catch (e) { /* no sound, no harm */ }
  }

  document.addEventListener("durak:story", function (event) {
    var told = event.detail;
    if (!on()) return;
    var after = 0;
    if (told.ended) { sound("end"); after = 0.8; }
    else if (told.take) { sound("take"); after = 0.5; }
    if (told.myTurn && !told.ended) sound("turn", after);
  });

  // ------------------------------------------------------------- the switch
  function show() {
    document.querySelectorAll(".sound-toggle").forEach(function (toggle) {
      toggle.hidden = false;
      toggle.setAttribute("aria-pressed", on() ? "true" : "false");
    });
  }
  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest(".sound-toggle");
    if (!toggle) return;
    var now = !on();
    try { localStorage.setItem(KEY, now ? "on" : "off"); } catch (e) { /* private mode */ }
    show();
    if (now) sound("turn");  // what it will sound like
  });
  // A browser starts sound only after a touch or a click: wake the context on the first one.
  document.addEventListener("pointerdown", function () { if (on()) audio(); }, { once: true });
  document.addEventListener("htmx:load", show);
  document.addEventListener("DOMContentLoaded", show);
})();
