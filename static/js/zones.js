// The profile's time-zone list (accounts.forms.ZoneSelect): typing in the box above it
// keeps the zones whose city or region holds the words typed, and picks the first of them.
(function () {
  "use strict";
  function fold(text) {
    return text.toLocaleLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/_/g, " ");
  }

  function narrow(input) {
    const select = document.getElementById(input.dataset.zoneFilter);
    if (!select) return;
    const words = fold(input.value.trim());
    let first = null;
    select.querySelectorAll("option").forEach(function (option) {
      const group = option.parentElement.tagName === "OPTGROUP" ? option.parentElement.label : "";
      const shown = !words || !option.value || fold(option.textContent + " " + option.value + " " + group).includes(words);
      option.hidden = !shown;
      if (shown && option.value && !first) first = option;
    });
    select.querySelectorAll("optgroup").forEach(function (group) {
      group.hidden = !group.querySelector("option:not([hidden])");
    });
    if (words && first && (select.selectedOptions[0] || {}).hidden !== false) first.selected = true;
  }

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("[data-zone-filter]")) narrow(event.target);
  });
})();
