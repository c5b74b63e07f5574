// Honest forms (docs/design.md, "Honest forms"): a choice the server would refuse is
// disabled as the other choices change. games.forms marks the fields: a select with
// data-most-by="players" data-most-less="1" offers at most players - 1; a checkbox with
// data-only-if="rated=casual" only while that choice is made. The server checks anyway.
(function () {
  "use strict";

  function fit(form) {
    form.querySelectorAll("select[data-most-by]").forEach(function (select) {
      var by = form.elements[select.getAttribute("data-most-by")];
      if (!by || by.value === "") return;
      var most = Number(by.value) - Number(select.getAttribute("data-most-less") || 0);
      var last = null;
      Array.prototype.forEach.call(select.options, function (option) {
        option.disabled = Number(option.value) > most;
        if (!option.disabled) last = option;
      });
      var chosen = select.options[select.selectedIndex];
      if (chosen && chosen.disabled && last) last.selected = true;
    });
    form.querySelectorAll("input[data-only-if]").forEach(function (box) {
      var rule = box.getAttribute("data-only-if").split("=");
      var field = form.elements[rule[0]];
      var on = Boolean(field) && field.value === rule[1];  // a radio group: the checked one
      box.disabled = !on;
      if (!on) box.checked = false;
    });
  }

  document.addEventListener("change", function (event) {
    if (event.target.form) fit(event.target.form);
  });
})();
