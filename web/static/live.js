// A live table follows its events (Server-Sent Events from the page's data-events URL): each
// "board" event replaces the board, whose turn it is, the cards on the table and the last
// moves; "end" says the table has ended and links its replay. The board's HTML is escaped by
// the server; names and labels set here go in as text.
"use strict";
(function () {
  var main = document.querySelector("main.live");
  if (!main || !window.EventSource) { return; }
  var source = new EventSource(main.getAttribute("data-events"));

  function paragraphs(container, lines, tag) {
    container.innerHTML = "";
    lines.forEach(function (line) {
      if (!line) { return; }
      var element = document.createElement(tag);
      element.innerHTML = line;  // escaped by the server (web.markup)
      container.appendChild(element);
    });
  }

  source.addEventListener("board", function (message) {
    var board = JSON.parse(message.data);
    main.setAttribute("data-step", String(board.step));
    document.getElementById("whose-turn").textContent = board.whose_turn;
    paragraphs(document.getElementById("board"), board.lines, "p");
    paragraphs(document.getElementById("last-moves"), board.last_moves, "li");
    var cards = document.getElementById("table-cards");
    cards.innerHTML = "";
    board.cards.forEach(function (card) {
      var span = document.createElement("span");
      span.className = "card";
      span.setAttribute("data-card", card.card);
      span.textContent = card.label;
      cards.appendChild(span);
    });
  });

  source.addEventListener("end", function (message) {
    var end = JSON.parse(message.data);
    source.close();
    main.setAttribute("data-ended", "true");
    var turn = document.getElementById("whose-turn");
    turn.textContent = end.text + " ";
    var link = document.createElement("a");
    link.href = end.replay;
    link.id = "replay-link";
    link.textContent = main.getAttribute("data-replay-label");
    turn.appendChild(link);
  });
})();
