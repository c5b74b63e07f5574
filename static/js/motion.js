// Motion that tells the story of a move on the table page (FLIP: First, Last, Invert,
// Play). Before a new table (or a part of one) is swapped in, the place of every face-up
// card is noted by its code (data-card); afterwards each card glides from where it was (a
// hand, the bout, the talon) or from where it came (an opponent's seat, the talon when
// drawing) to its new place, and cards that left the table fly to the discard pile or to
// the player who took them. It compares the whole table before and after, so it works
// whichever parts a frame replaces. Nothing moves with prefers-reduced-motion: reduce.
//
// Each comparison is also told as a "durak:story" event (a take, the deal's end, your
// turn) for static/js/sound.js, with or without motion.
(function () {
  "use strict";

  var DURATION = 420, STAGGER = 60, EASE = "cubic-bezier(.2,.75,.3,1)";
  var reduce = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  var root = document.documentElement;
  function still() { return !root.animate || (reduce && reduce.matches); }
  function mark() { root.classList.toggle("motion", !still()); }
  mark();
  if (reduce && reduce.addEventListener) reduce.addEventListener("change", mark);

  // ------------------------------------------------------------- a look at the table
  function count(el) { return el ? Number(el.getAttribute("data-count")) || 0 : 0; }
  function rect(el) { return el ? el.getBoundingClientRect() : null; }

  function look() {
    var table = document.getElementById("table");
    var felt = table && table.querySelector(".felt");
    if (!felt) return null;
    var seen = { cards: {}, seats: {}, bout: [] };
    felt.querySelectorAll(".card[data-card]").forEach(function (el) {
      // The bout, the hand and the trump under the talon; not the small copies in the
      // "Beat … with" choices, the question or "known to hold".
      if (el.closest("fieldset.beat, .known, .ask")) return;
      var key = el.dataset.card, where = el.closest(".pairs") ? "bout"
        : el.closest("fieldset.hand") ? "hand" : el.closest(".talon") ? "talon" : "";
      if (!where || seen.cards[key]) return;
      seen.cards[key] = { el: el, rect: rect(el), width: el.offsetWidth, height: el.offsetHeight,
                          where: where };
      if (where === "bout") seen.bout.push(key);
    });
    felt.querySelectorAll(".seat[data-seat]").forEach(function (seat) {
      seen.seats[seat.dataset.seat] = {
        el: seat, me: seat.classList.contains("me"), moved: seat.classList.contains("moved"),
        cards: Number(seat.dataset.cards) || 0,
        rect: rect(seat.querySelector(".backs") || seat),
      };
    });
    var talon = felt.querySelector("[data-pile=talon]"), discard = felt.querySelector("[data-pile=discard]");
    var centre = felt.querySelector(".centre"), hand = felt.querySelector("fieldset.hand");
    seen.talon = { rect: rect(talon), count: count(talon) };
    seen.discard = { rect: rect(discard), count: count(discard) };
    seen.hand = rect(hand);
    seen.deal = centre ? Number(centre.dataset.deal) || 0 : 0;
    seen.ended = Boolean(centre && centre.hasAttribute("data-ended"));
    seen.myTurn = table.hasAttribute("data-my-turn");
    return seen;
  }

  // ------------------------------------------------------------- the flights
  var flights = 0;
  function counted(animation) {
    animation.id = "motion";
    flights += 1;
    root.dataset.flights = String(flights);  // for the browser tests
    return animation;
  }
  function centreOf(r) { return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }

  // The card `el`, now in its place, starts from the rectangle `from` (`width`: its laid
  // out width there, for the scale) and glides home.
  function glide(el, from, width, delay) {
    var to = rect(el), a = centreOf(from), b = centreOf(to);
    var dx = a.x - b.x, dy = a.y - b.y, scale = width && el.offsetWidth ? width / el.offsetWidth : 1;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2 && Math.abs(scale - 1) < 0.05) return;
    el.classList.add("in-flight", "flown");  // flown: no CSS arrival of its own (match.css)
    var flight = counted(el.animate([
      { translate: dx + "px " + dy + "px", scale: String(scale) },
      { translate: "0px 0px", scale: "1" },
    ], { duration: DURATION, delay: delay, easing: EASE, fill: "backwards" }));
    flight.onfinish = flight.oncancel = function () { el.classList.remove("in-flight"); };
  }

  // A card that left the table (its old element, now out of the page) flies from where it
  // was to `to` (the discard pile, a taker's seat) and fades there.
  function leave(old, to, delay) {
    var ghost = old.el.cloneNode(true), a = centreOf(old.rect), b = centreOf(to);
    ghost.classList.remove("last", "in-flight", "flown");
    ghost.classList.add("flight-ghost");
    ghost.removeAttribute("data-card");
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.setProperty("--w", old.width + "px");
    ghost.style.left = (a.x - old.width / 2) + "px";
    ghost.style.top = (a.y - old.height / 2) + "px";
    document.body.appendChild(ghost);
    var flight = counted(ghost.animate([
      { translate: "0px 0px", scale: "1", opacity: 1 },
      { translate: (b.x - a.x) + "px " + (b.y - a.y) + "px", scale: "0.45", opacity: 0.15 },
    ], { duration: DURATION + 80, delay: delay, easing: EASE, fill: "both" }));
    flight.onfinish = flight.oncancel = function () { ghost.remove(); };
  }

  function stopFlights() {
    document.getAnimations().forEach(function (a) { if (a.id === "motion") a.cancel(); });
  }

  // ------------------------------------------------------------- the story of a change
  function story(before, after) {
    var newDeal = after.deal !== before.deal;
    var left = before.bout.filter(function (k) { return after.bout.indexOf(k) < 0; });
    var discarded = !newDeal && after.discard.count > before.discard.count;
    var grew = null, shrank = null;  // the seat whose hand grew most, or shrank
    Object.keys(after.seats).forEach(function (n) {
      var was = before.seats[n];
      if (!was) return;
      var change = after.seats[n].cards - was.cards;
      if (change > 0 && (!grew || change > grew.change)) grew = { n: n, change: change };
      if (change < 0 && !after.seats[n].me && !shrank) shrank = { n: n, change: change };
    });
    return {
      newDeal: newDeal,
      ended: newDeal || (after.ended && !before.ended),
      // R14/R15: the bout's cards went into a hand, not to the discard pile.
      take: !newDeal && left.length > 0 && !discarded && after.bout.length === 0 && grew !== null,
      discarded: discarded,
      taker: grew && !discarded ? grew.n : null,
      drew: grew ? grew.n : null,  // where a card that left the talon went
      player: shrank ? shrank.n : null,
      myTurn: after.myTurn && !before.myTurn,
    };
  }

  function play(before, after, told) {
    var delay = 0, keys = Object.keys(after.cards);
    var mover = told.player !== null ? before.seats[told.player]
      : Object.keys(after.seats).map(function (n) { return after.seats[n]; })
        .filter(function (s) { return s.moved && !s.me; })[0];
    keys.forEach(function (key) {
      var now = after.cards[key], was = before.cards[key];
      if (was && !told.newDeal) {
        glide(now.el, was.rect, was.width, was.where === now.where ? 0 : delay);
        if (was.where !== now.where) delay += STAGGER;
      } else if (now.where === "hand" && before.talon.rect) {  // drawn from the talon
        glide(now.el, before.talon.rect, before.talon.rect.width / 2, delay);
        delay += STAGGER;
      } else if (now.where === "bout" && mover && mover.rect) {  // an opponent played it
        glide(now.el, mover.rect, mover.rect.width / 2, delay);
        delay += STAGGER;
      }
    });
    if (told.newDeal) return;
    // Cards that left: to the discard pile, or to the opponent who took them.
    var to = told.discarded ? after.discard.rect
      : told.taker !== null && after.seats[told.taker] ? after.seats[told.taker].rect : null;
    var drawer = told.drew !== null && after.seats[told.drew] ? after.seats[told.drew].rect : null;
    Object.keys(before.cards).forEach(function (key) {
      var was = before.cards[key], goes = was.where === "talon" ? drawer : to;
      if (after.cards[key] || was.el.isConnected || !goes) return;
      leave(was, goes, delay);
      delay += STAGGER / 2;
    });
    // An opponent's new backs come from the talon when the talon shrank.
    if (after.talon.count < before.talon.count && before.talon.rect) {
      Object.keys(after.seats).forEach(function (n) {
        var now = after.seats[n], was = before.seats[n];
        if (now.me || !was || now.cards <= was.cards || n === told.taker) return;
        var backs = now.el.querySelectorAll(".backs .back");
        var fresh = Array.prototype.slice.call(backs, Math.max(0, backs.length - (now.cards - was.cards)));
        fresh.forEach(function (back) {
          glide(back, before.talon.rect, before.talon.rect.width / 2, delay);
          delay += STAGGER;
        });
      });
    }
  }

  // ------------------------------------------------------------- before and after a swap
  var before = null;
  function first() {
    before = look();
    if (before) stopFlights();
  }
  function last() {
    var was = before, after = look();
    before = null;
    if (!was || !after) return;
    var told = story(was, after);
    if (!still()) play(was, after, told);
    document.dispatchEvent(new CustomEvent("durak:story", { detail: told }));
  }
  // Socket frames (the ws extension swaps every part a frame carries, then says so) and
  // HTTP answers (the move form without the socket, the 20 s check).
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    if (!event.defaultPrevented) first();  // table.js drops stale tables
  });
  document.addEventListener("htmx:wsAfterMessage", last);
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.shouldSwap) first();
  });
  document.addEventListener("htmx:afterSwap", last);
})();
