// The lobby, a little better with JavaScript; it works without it.
// - Choosing other rules or another scenario shows its seats and options at once (without
//   JavaScript, the "Show its seats and options" button does).
// - The custom clock's fields show only while "Custom" is chosen.
(function () {
  "use strict";
  var choose = document.getElementById("choose");
  var menu = document.getElementById("ruleset");
  if (choose && menu) {
    var button = document.getElementById("choose-button");
    if (button) button.hidden = true;
    menu.addEventListener("change", function () { choose.submit(); });
  }
  var clock = document.getElementById("clock");
  var custom = document.getElementById("custom-clock");
  if (clock && custom) {
    var show = function () { custom.hidden = clock.value !== "custom"; };
    clock.addEventListener("change", show);
    show();
  }
})();
