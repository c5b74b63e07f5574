// Drag a card from your hand onto an attack card to beat it (pointer events: a finger, a
// mouse or a pen), besides the taps of static/js/table.js. The drop picks that attack
// card's "Beat … with" choice for the card and sends the move as the move form does; a
// drop on a card it can't beat changes nothing and says why (the words are the bout's
// data-drop-* attributes, templates/games/table/_centre.html).
(function () {
  "use strict";

  var press = null, drag = null, dropped = 0, note = null;

  function form() { return document.getElementById("move"); }
  function label(el) {  // "7♠", as the card's corner shows it
    var corner = el && el.querySelector(".corner");
    return corner ? corner.textContent : "";
  }

  // A hand card that may beat something: only while the table asks for a defence.
  function handCard(target) {
    var f = form();
    if (!f || !f.querySelector("fieldset.beat") || f.hasAttribute("data-sending")) return null;
    // A card that can't beat anything may be dropped too: the table says why it can't.
    var held = target.closest && target.closest("#move fieldset.hand .pick, #move fieldset.hand > .card");
    var card = held && (held.matches(".card") ? held : held.querySelector(".card[data-card]"));
    return card ? { card: card, code: card.dataset.card } : null;
  }

  function pairAt(x, y) {
    var el = document.elementFromPoint(x, y);
    var pair = el && el.closest && el.closest("#move .pairs .pair");
    return pair && pair.querySelector(".card.attack[data-card]") ? pair : null;
  }

  function say(text) {
    var f = form(), hand = f && f.querySelector("fieldset.hand");
    unsay();
    if (!hand || !text) return;
    note = document.createElement("p");
    note.className = "drop-note";
    note.setAttribute("role", "status");
    note.textContent = text;
    var legend = hand.querySelector("legend");
    hand.insertBefore(note, legend ? legend.nextSibling : hand.firstChild);  // above the cards
  }
  function unsay() {
    if (note) note.remove();
    note = null;
  }

  // ------------------------------------------------------------- the drag
  function begin(event) {
    var card = press.card, r = card.getBoundingClientRect();
    var ghost = card.cloneNode(true);
    ghost.removeAttribute("data-card");
    ghost.setAttribute("aria-hidden", "true");
    ghost.classList.remove("in-flight", "flown", "last");
    ghost.classList.add("drag-ghost");
    ghost.style.setProperty("--w", card.offsetWidth + "px");
    ghost.style.left = r.left + "px";
    ghost.style.top = r.top + "px";
    document.body.appendChild(ghost);
    card.classList.add("dragged");
    if (window.getSelection) window.getSelection().removeAllRanges();  // a drag selects no words
    drag = { ghost: ghost, card: card, code: press.code, x: press.x, y: press.y, pair: null };
    unsay();
  }

  function follow(event) {
    var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    drag.ghost.style.translate = dx + "px " + dy + "px";
    var pair = pairAt(event.clientX, event.clientY);
    if (pair === drag.pair) return;
    if (drag.pair) drag.pair.classList.remove("drop-target", "drop-refused");
    drag.pair = pair;
    if (pair) pair.classList.add(radioFor(pair, drag.code) ? "drop-target" : "drop-refused");
  }

  function radioFor(pair, code) {
    return pair.querySelector('fieldset.beat input[data-beat-with="' + code + '"]');
  }

  function end(event) {
    var d = drag;
    drag = null;
    press = null;
    dropped = Date.now();  // the click that follows a drag is no tap
    d.ghost.remove();
    d.card.classList.remove("dragged");
    if (d.pair) d.pair.classList.remove("drop-target", "drop-refused");
    var pair = event && pairAt(event.clientX, event.clientY);
    if (!pair) return;  // dropped elsewhere: the card stays in the hand
    var radio = radioFor(pair, d.code), attack = pair.querySelector(".card.attack");
    if (radio) {
      // The card waits where it was dropped: static/js/motion.js glides it onto the attack card.
      d.card.style.translate = (event.clientX - d.x) + "px " + (event.clientY - d.y) + "px";
      setTimeout(function () { if (d.card.isConnected) d.card.style.translate = ""; }, 4000);
      beat(radio);
      return;
    }
    var bout = document.querySelector("#move .bout"), trump = document.querySelector("#move .talon");
    var words = !bout ? "" : pair.classList.contains("beaten") ? bout.dataset.dropBeaten
      : trump && attack.dataset.card.slice(-1) === trump.dataset.trump ? bout.dataset.dropCannotTrump
        : bout.dataset.dropCannot;
    say((words || "").replace("{card}", label(d.card)).replace("{attack}", label(attack)));
    if (!pair.classList.contains("beaten")) pair.classList.add("drop-refused");
  }

  // As a tap on a "Beat … with" choice: the card leaves any other attack card it was chosen
  // for (R12), and the move goes at once unless other cards are chosen too.
  function beat(radio) {
    var f = form();
    f.querySelectorAll("fieldset.beat input[data-beat-with]").forEach(function (r) {
      if (r === radio || !r.checked || r.dataset.beatWith !== radio.dataset.beatWith) return;
      var none = r.closest("fieldset").querySelector("input[type=radio]:not([data-beat-with])");
      r.checked = false;
      if (none) none.checked = true;
    });
    radio.disabled = false;
    radio.checked = true;
    radio.dispatchEvent(new Event("change", { bubbles: true }));  // table.js fits the rest
    var chosen = f.querySelectorAll("input[name=action]:checked, fieldset.beat input[data-beat-with]:checked");
    if (chosen.length === 1) f.requestSubmit();
  }

  document.addEventListener("pointerdown", function (event) {
    if (drag || event.button !== 0 || !event.isPrimary) return;
    var card = handCard(event.target);
    press = card ? { card: card.card, code: card.code, x: event.clientX, y: event.clientY,
                     id: event.pointerId } : null;
  });
  document.addEventListener("pointermove", function (event) {
    if (!press || event.pointerId !== press.id) return;
    if (!drag) {
      if (Math.abs(event.clientX - press.x) + Math.abs(event.clientY - press.y) < 12) return;
      begin(event);
    }
    event.preventDefault();
    follow(event);
  });
  document.addEventListener("pointerup", function (event) {
    if (press && event.pointerId === press.id && drag) end(event);
    press = null;
  });
  document.addEventListener("pointercancel", function () {
    if (drag) end(null);
    press = null;
  });
  // The click a browser sends after a drag is not a tap on the card.
  document.addEventListener("click", function (event) {
    if (Date.now() - dropped < 400 && event.target.closest && event.target.closest("#move")) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && drag) end(null);
  });
  document.addEventListener("htmx:load", function () { if (note && !note.isConnected) note = null; });
})();
