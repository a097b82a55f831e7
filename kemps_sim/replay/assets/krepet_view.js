// kemps-sim replay page, the Krepet view: both players' piles, the eight tableau places, the eight ace piles,
// moves as arrows, misses, what the watcher took in, and the "Krepet!" calls. Registered for replay.js to use.
"use strict";
window.KempsReplayViews = window.KempsReplayViews || {};
window.KempsReplayViews.krepet = function (kit) {
  const { data, state, node, card, fmt, noteCall, FLY, CARD_W, CARD_H } = kit;
  const PLACE_X = (i) => 135 + i * 90;  // evenly, above the ace piles: player 0's four left, player 1's right
  const FOUND_X = (i) => 135 + i * 90;
  const ROW_Y = 150, FOUND_Y = 405, STEP = 15, MAX_SHOWN = 9, BAND_Y = 335;
  const AREA_Y = [562, 50];  // player 0 at the bottom, player 1 at the top
  const PILE_X = { talon: 90, discard: 190, side: 290, hand: 390 };  // evenly, each labelled as the lines name it
  const SHOW = { Moved: 0.8, MoveCut: 1.5, Noticed: 2.0, CallHeard: 2.5, TurnStarted: 1.0, GameEnded: 99 };

  function pilePos(name, tab) {  // where a pile the trace names (T3, F0, hand1, discard0, side1, talon0) is drawn
    const m = /^([A-Za-z]+)(\d+)$/.exec(name || "");
    if (!m) return null;
    const kind = m[1], i = Number(m[2]);
    if (kind === "T") return { x: PLACE_X(i), y: ROW_Y + Math.min((tab.tableau[i] || []).length, MAX_SHOWN) * STEP };
    if (kind === "F") return { x: FOUND_X(i), y: FOUND_Y };
    if (PILE_X[kind] !== undefined) return { x: PILE_X[kind], y: AREA_Y[i] };
    return null;
  }
  function label(x, y, text, cls) { node("text", { x, y, "text-anchor": "middle", class: cls || "info" }, kit.svg, text); }
  function pileLabel(x, y, text) { label(x, y + CARD_H / 2 + 13, text, "info pile-label"); }
  function empty(x, y) {  // an empty pile's place (or one whose top card is on its way)
    node("rect", { x: x - CARD_W / 2, y: y - CARD_H / 2, width: CARD_W, height: CARD_H, rx: 4, class: "cardbox back",
                   opacity: 0.35 });
  }
  function top(id, x, y) { if (id < 0 || !card(id, x, y)) empty(x, y); }
  function draw(tab, r) {
    node("rect", { x: 20, y: 100, width: 860, height: 372, rx: 30, class: "felt" });
    for (let i = 0; i < 8; i++) {  // the tableau: each place a column of overlapping cards
      const pile = tab.tableau[i];
      const shown = pile.slice(-MAX_SHOWN);
      if (!pile.length) empty(PLACE_X(i), ROW_Y);
      shown.forEach((c, k) => card(c, PLACE_X(i), ROW_Y + k * STEP, kit.svg, { corner: k < shown.length - 1 }));
      const hidden = pile.length - shown.length;
      label(PLACE_X(i), ROW_Y - 30, `T${i}` + (hidden > 0 ? ` +${hidden}` : ""), "info pile-label");
    }
    for (let i = 0; i < 8; i++) {  // the ace piles
      top(tab.foundations[i], FOUND_X(i), FOUND_Y);
      pileLabel(FOUND_X(i), FOUND_Y, `F${i}`);
    }
    for (let p = 0; p < 2; p++) {
      const y = AREA_Y[p];
      const mover = tab.to_move === p;
      label(700, y + 4, `player ${p} \u00b7 ${data.agents[p]}` + (mover ? " \u00b7 to move" : ""), "seat-label");
      if (mover) node("rect", { x: 40, y: y - CARD_H / 2 - 8, width: 820, height: CARD_H + 30, rx: 8, fill: "none",
                                stroke: `var(--pair${p})`, "stroke-width": 2, class: "to-move" });  // labels inside
      card(0, PILE_X.talon, y, kit.svg, { back: true });
      pileLabel(PILE_X.talon, y, `talon ${tab.talon[p]}`);
      top(tab.discard[p], PILE_X.discard, y);
      pileLabel(PILE_X.discard, y, `Ablage ${tab.discard_n[p]}`);
      top(tab.side[p], PILE_X.side, y);
      pileLabel(PILE_X.side, y, `side stack ${tab.side_n[p]}`);
      tab.hand[p].forEach((c, k) => card(c, PILE_X.hand + k * (CARD_W + 4), y));
      if (!tab.hand[p].length) empty(PILE_X.hand, y);
      pileLabel(PILE_X.hand, y, `hand ${tab.hand[p].length}`);
    }
  }
  const effects = {
    Moved(e, age, i) {
      const r = kit.rnd();
      const tab = r.tables[r.events[state.index].table];
      const from = pilePos(e.src, tab), to = pilePos(e.dst, tab);
      if (from && to) {
        node("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: "percept-line fixated", opacity: 0.6 });
        const k = Math.min(age / FLY, 1);
        if (state.flying.get(e.card) === i) {
          card(e.card, from.x + (to.x - from.x) * k, from.y + (to.y - from.y) * k, kit.svg, { moving: true });
        }
      }
      if (e.missed) {
        label(450, BAND_Y - 22, `player ${e.player} MISS: ${e.missed} ace-pile move(s) left open` +
              (e.overlooked ? " (overlooked)" : "") + (e.callable ? "" : ", not callable"), "bubble-text");
      }
    },
    MoveCut(e) { label(450, BAND_Y + 48, `player ${e.player}: ${e.move} cut off by the call`); },
    Noticed(e) {
      label(450, BAND_Y + 30,
            `player ${e.watcher} takes it in as a miss (${e.gaze}, evidence ${e.evidence.toFixed(2)}; ` +
            (e.real ? "rightly" : "nothing was missed") + ")", "percept-text");
    },
    CallHeard(e, age, i) {
      const y = BAND_Y + 4;
      const verdict = e.verdict === "right" ? "right" : e.verdict === "too_late" ? "too late" : "wrong";
      const text = `player ${e.caller}: "Krepet!" \u2014 ${verdict}` + (e.right ? ` (catches ${e.caught_times.length}, ` +
                   `${fmt(e.time - Math.min(...e.caught_times))} s after the miss)` : "");
      const w = 7.6 * text.length + 20;
      node("rect", { x: 450 - w / 2, y: y - 16, width: w, height: 26, rx: 12,
                     class: "bubble " + (e.right ? "right" : "wrong") });
      label(450, y + 2, text, "bubble-text");
      noteCall(e, i, e.caller);
    },
    GameEnded(e) { label(450, BAND_Y - 44, e.winner < 0 ? `game over (${e.reason}): a draw` :
                         `game over (${e.reason}): player ${e.winner} wins`, "seat-label"); },
  };
  return {
    draw, effects, show: SHOW,
    moves: (e) => (e.kind === "Moved" && e.card >= 0 ? [e.card] : []),
    secondDeck: " (player 1's deck)",
    mark: (e) => (e.kind === "CallHeard" ? "call" : e.kind === "Moved" && e.missed && e.callable ? "four" : null),
    standing: (score) => ({ cards_left: score.cards_left }),
  };
};
