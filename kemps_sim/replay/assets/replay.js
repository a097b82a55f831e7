// kemps-sim replay page: plays a match's trace on a drawn table. No network, no libraries: the data is embedded.
"use strict";
(function () {
  // The data is read once and taken out of the document: what the document holds is what the view shown draws.
  const holder = document.getElementById("replay-data");
  const data = JSON.parse(holder.textContent);
  holder.remove();
  // The views this page can show: every hand (-1) and each seat's, or the one seat's view it was written for. Every
  // view comes filtered from kemps-sim (a seat's holds only what that seat knows); here it is only unpacked.
  const VIEWS = new Map();
  function unpack(view, everything) {
    view.rounds.forEach((r, k) => {
      let hands = [];
      if (data.game !== "krepet") r.tables = r.tables.map((t) => {  // each lists the hands changed since the last
        hands = hands.slice();
        for (const [seat, hand] of Object.entries(t.hands)) hands[Number(seat)] = hand;
        return Object.assign({}, t, { hands });
      });
      // an event the seat sees as every hand's view has it: [index there, table, score]
      r.events = r.events.map((e) => (Array.isArray(e) ? Object.assign({}, everything.rounds[k].events[e[0]],
                                                                       { table: e[1], score: e[2] }) : e));
    });
    VIEWS.set(view.view === undefined ? -1 : view.view, view);
  }
  unpack(data, null);
  if (data.decks > 1) document.querySelectorAll(".second-deck").forEach((el) => { el.hidden = false; });
  (data.seat_views || []).forEach((v) => unpack(v, data));
  delete data.seat_views;
  const SVG = "http://www.w3.org/2000/svg";
  const SPEEDS = [0.25, 0.5, 1, 2, 4, 8];
  const SUIT = { "\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c" };
  const CALL_WORDS = data.call_words;  // the rules' own words ("Kem's!", "Contre Kem's!" under kems)
  const FLY = 0.5;  // seconds a card takes to move; while it moves it is drawn moving, not also where it lands
  const SHOW = { Swapped: FLY, RaceLost: 1.2, Gestured: 2.0, Perceived: 2.0, CallHeard: 2.5, CallCutOff: 2.0,
                 Swept: 1.5, Refilled: 1.5, HandFour: 2.0, StallSaid: 1.5, Objected: 1.5, Revealed: 3.0 };
  const MARKED = { HandFour: "four", CallHeard: "call" };
  const W = 900, CX = 450, CY = 300, RX = 330, RY = 228, CARD_W = 34, CARD_H = 46;
  const state = { round: 0, time: 0, index: -1, playing: false, speed: 1, view: VIEWS.keys().next().value,
                  finished: false,
                  shownCalls: [], shown: new Set(), errors: [], onFinish: null, flying: new Map() };
  const $ = (id) => document.getElementById(id);
  const svg = $("table");

  window.addEventListener("error", (e) => state.errors.push(String(e.message)));

  // Geometry and drawing helpers -------------------------------------------------------------------------------
  function seatPos(seat) {
    const angle = Math.PI / 2 + (2 * Math.PI * seat) / data.players;
    return { x: CX + RX * Math.cos(angle), y: CY + RY * Math.sin(angle) };
  }
  function node(name, attrs, parent, text) {
    const el = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    (parent || svg).appendChild(el);
    return el;
  }
  function card(id, x, y, parent, opts) {  // opts.moving: drawn by a move, the one place a moving card is drawn
    const o = opts || {};
    if (!o.back && !o.moving && state.flying.has(id)) return null;
    const g = node("g", { transform: `translate(${x - CARD_W / 2},${y - CARD_H / 2})` }, parent);
    node("rect", { width: CARD_W, height: CARD_H, rx: 4, class: "cardbox" + (o.back ? " back" : "") +
                   (o.four ? " four" : "") }, g);
    if (!o.back) {
      const name = cardName(id);
      const suit = [...name].find((ch) => SUIT[ch]);
      // a card in an overlapping column shows its name at the top edge, where the next card leaves it visible
      node("text", o.corner ? { x: CARD_W / 2, y: 8, class: "cardtext corner suit-" + SUIT[suit] }
                            : { x: CARD_W / 2, y: CARD_H / 2, class: "cardtext suit-" + SUIT[suit] }, g, name);
      node("title", {}, g, name + (name.endsWith("'") ? VIEW.secondDeck : ""));  // a second deck's card: 5♠'
    }
    return g;
  }
  function pairColour(seat) { return `var(--pair${data.pair_of[seat] % 6})`; }
  function view() { return VIEWS.get(state.view); }
  function cardName(id) { return view().cards[id]; }
  function fmt(t) { return (Math.round(t * 100) / 100).toFixed(2); }
  function rank(name) { return name.replace(/[\u2660\u2665\u2666\u2663']/g, ""); }

  // The round and its events -------------------------------------------------------------------------------------
  function rnd() { return view().rounds[state.round]; }
  function indexAt(t) {  // the last event at or before t (binary search); -1 before the first
    const ev = rnd().events;
    let lo = 0, hi = ev.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ev[mid].time <= t + 1e-9) { found = mid; lo = mid + 1; } else { hi = mid - 1; }
    }
    return found;
  }
  function endTime() { const r = rnd(); return Math.max(r.end_time, r.events.length ? r.events[r.events.length - 1].time : 0); }

  // Drawing the table at the play head ------------------------------------------------------------------------------
  function render() {
    const r = rnd();
    const t = state.time;
    state.index = indexAt(t);
    const ev = r.events;
    const current = state.index >= 0 ? ev[state.index] : null;
    const tab = r.tables[current ? current.table : 0];
    svg.textContent = "";
    state.flying = flights(ev, t);
    VIEW.draw(tab, r);
    drawEffects(r, t);
    $("clock").textContent = `t = ${fmt(t)} s of ${fmt(endTime())} s`;
    $("scrub").value = String(Math.round((1000 * t) / Math.max(endTime(), 1e-9)));
    $("now").textContent = current ? `${fmt(current.time)} s: ${current.text || current.kind}` : "before the deal";
    drawStandings(r, current, t);
    markEvents();
  }
  function flights(ev, t) {  // each card still moving, and the event that moves it (the latest, if two do)
    const moving = new Map();
    for (let i = state.index; i >= 0 && t - ev[i].time <= FLY; i--) {
      for (const c of VIEW.moves(ev[i])) if (!moving.has(c)) moving.set(c, i);
    }
    return moving;
  }
  function drawKemps(tab, r) {
    node("ellipse", { cx: CX, cy: CY, rx: RX - 70, ry: RY - 60, class: "felt" });
    for (let s = 0; s < data.players; s++) drawSeat(s, tab, r);
    drawMiddle(tab);
  }
  function drawSeat(s, tab, r) {
    const p = seatPos(s);
    const g = node("g", { "aria-label": `seat ${s}` });
    const label = `seat ${s} \u00b7 pair ${data.pair_of[s]}` + (s === r.dealer ? " \u00b7 dealer" : "");
    const below = p.y > CY;
    node("text", { x: p.x, y: below ? p.y + 42 : p.y - 36, "text-anchor": "middle", class: "seat-label",
                   fill: pairColour(s) }, g, label);
    node("text", { x: p.x, y: below ? p.y + 56 : p.y - 50, "text-anchor": "middle", class: "seat-agent" }, g,
         data.agents[s]);
    const hand = tab.hands[s] || [];  // a card this view does not know is -1, drawn face down
    const names = hand.map((c) => (c < 0 ? null : rank(cardName(c))));
    const four = hand.length === 4 && names[0] !== null && names.every((n) => n === names[0]);
    hand.forEach((c, i) => card(c, p.x + (i - (hand.length - 1) / 2) * (CARD_W + 4), p.y, g,
                                { back: c < 0, four }));
    if (s === r.dealer) node("circle", { cx: p.x + 2.6 * CARD_W, cy: p.y, r: 9, class: "dealer-chip" }, g);
    if (s === r.dealer) node("text", { x: p.x + 2.6 * CARD_W, y: p.y + 4, "text-anchor": "middle",
                                       "font-size": 11 }, g, "D");
  }
  function drawMiddle(tab) {
    tab.middle.forEach((c, i) => card(c, CX + (i - (tab.middle.length - 1) / 2) * (CARD_W + 6), CY));
    node("text", { x: CX, y: CY + 62, "text-anchor": "middle", class: "info" }, svg,
         `pack ${tab.pack} \u00b7 discard ${tab.discard}`);
  }
  function noteCall(e, i, seat) {  // a call drawn on the table: what the page has shown (read by tests)
    const key = `${state.round}:${e.time}:${seat}`;
    if (state.shown.has(key)) return;
    state.shown.add(key);
    state.shownCalls.push({ round: state.round + 1, index: i, time: e.time, seat, call: e.call || "krepet",
                            right: e.right, outcome: e.outcome || e.verdict });
  }
  function drawEffects(r, t) {
    const ev = r.events;
    for (let i = state.index; i >= 0; i--) {
      const e = ev[i];
      const age = t - e.time;
      if (age > 3.0) break;
      if (age > (VIEW.show[e.kind] || 0)) continue;
      const draw = VIEW.effects[e.kind];
      if (draw) draw(e, age, i);
    }
  }
  const EFFECTS = {
    Swapped(e, age, i) {
      const p = seatPos(e.seat), k = Math.min(age / FLY, 1);
      const mine = (c) => state.flying.get(c) === i;
      e.took.filter(mine).forEach((c) => card(c, CX + (p.x - CX) * k, CY + (p.y - CY) * k, svg, { moving: true }));
      e.gave.filter(mine).forEach((c) => card(c, p.x + (CX - p.x) * k, p.y + (CY - p.y) * k, svg, { moving: true }));
    },
    RaceLost(e) {  // a frame close around the hand, clear of the seat's labels; the words on the table's side
      const p = seatPos(e.seat);
      const r = rnd(), held = r.tables[r.events[state.index].table].hands[e.seat].length;
      const w = Math.max(held, 1) * (CARD_W + 4) - 4 + 12, h = CARD_H + 10;
      node("rect", { x: p.x - w / 2, y: p.y - h / 2, width: w, height: h, rx: 9, class: "lost", "data-seat": e.seat });
      node("text", { x: p.x, y: p.y > CY ? p.y - h / 2 - 7 : p.y + h / 2 + 15, "text-anchor": "middle",
                     class: "info lost-text", "data-seat": e.seat }, svg, "too late: " + e.wanted.map(cardName).join(" "));
    },
    Gestured(e) {  // in one seat's view, only its own signals are here
      const p = seatPos(e.seat);
      node("text", { x: p.x - 2.6 * CARD_W, y: p.y + 4, "text-anchor": "middle",
                     class: "gesture-badge " + (e.deliberate ? "deliberate" : "fidget") }, svg,
           e.gesture + (e.deliberate ? "!" : ""));
    },
    Perceived(e) {
      const from = seatPos(e.gesturer), to = seatPos(e.seat);
      if (state.view >= 0) {  // the seat saw a gesture: whether it was meant, it cannot tell
        node("text", { x: from.x - 2.6 * CARD_W, y: from.y + 4, "text-anchor": "middle", class: "gesture-badge" },
             svg, e.gesture + "?");
      }
      node("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: "percept-line " + e.gaze });
      node("text", { x: from.x + 0.7 * (to.x - from.x), y: from.y + 0.7 * (to.y - from.y) - 6,
                     "text-anchor": "middle", class: "percept-text" }, svg,
           `seat ${e.seat} sees ${e.gesture} (${e.gaze}, evidence ${e.evidence.toFixed(2)})`);
    },
    CallHeard(e, age, i) {
      const p = seatPos(e.seat);
      const word = (CALL_WORDS[e.call] || e.call) + "!";
      const about = e.accused >= 0 ? ` on seat ${e.accused}` : "";
      const verdict = e.right ? "right" : "wrong";
      const text = `${word}${about} \u2014 ${verdict} (spoken in ${fmt(e.time - e.started)} s)`;
      const w = 7.6 * text.length + 20;
      const x = Math.min(Math.max(p.x, w / 2 + 4), W - w / 2 - 4);  // the whole bubble on the table
      const y = p.y > CY ? p.y - 78 : p.y + 64;
      node("rect", { x: x - w / 2, y: y - 16, width: w, height: 26, rx: 12, class: "bubble " + verdict });
      node("text", { x, y: y + 2, "text-anchor": "middle", class: "bubble-text" }, svg, text);
      noteCall(e, i, e.seat);
    },
    CallCutOff(e) {
      const p = seatPos(e.seat);
      node("text", { x: p.x, y: p.y > CY ? p.y - 70 : p.y + 70, "text-anchor": "middle", class: "info" }, svg,
           `${CALL_WORDS[e.call] || e.call}! cut off`);
    },
    Swept(e) { node("text", { x: CX, y: CY - 40, "text-anchor": "middle", class: "info" }, svg,
                    `swept by seat ${e.seat} (${e.reason.replace(/_/g, " ")})`); },
    Refilled(e) { node("text", { x: CX, y: CY - 40, "text-anchor": "middle", class: "info" }, svg,
                       `fresh middle from seat ${e.seat}` + (e.reshuffled ? ", the discard reshuffled" : "")); },
    StallSaid(e) { const p = seatPos(e.seat); node("text", { x: p.x, y: p.y - 60, "text-anchor": "middle",
                                                              class: "info" }, svg, "\u201cstalled\u201d"); },
    Objected(e) { const p = seatPos(e.seat); node("text", { x: p.x, y: p.y - 60, "text-anchor": "middle",
                                                             class: "info" }, svg, "\u201cwait!\u201d"); },
  };
  function drawStandings(r, current, t) {
    const done = state.index === r.events.length - 1 && t >= endTime() - 1e-9;
    const score = done ? r.after : r.scores[current ? current.score : 0];
    state.standing = VIEW.standing(score);
    const box = $("standings");
    box.textContent = "";
    const head = document.createElement("div");
    head.textContent = (done ? `after round ${r.round}: ` : "") + score.text;
    box.appendChild(head);
    if (done && state.round === data.rounds.length - 1) {
      data.final_text.forEach((line) => { const d = document.createElement("div"); d.textContent = line; box.appendChild(d); });
    }
  }

  // The event list and the scrubber's marks ---------------------------------------------------------------------
  function buildEvents() {
    const list = $("events");
    list.textContent = "";
    rnd().events.forEach((e, i) => {
      const li = document.createElement("li");
      const t = document.createElement("span");
      t.className = "t";
      t.textContent = fmt(e.time);
      li.appendChild(t);
      li.appendChild(document.createTextNode(e.text || e.kind));
      li.addEventListener("click", () => goTo(state.round, i));
      list.appendChild(li);
    });
    const marks = $("markers");
    marks.textContent = "";
    const end = Math.max(endTime(), 1e-9);
    rnd().events.forEach((e) => {
      const cls = VIEW.mark(e);
      if (!cls) return;
      const m = document.createElement("div");
      m.className = "marker " + cls + (e.kind === "CallHeard" && !e.right ? " wrong" : "");
      m.style.left = `${(100 * e.time) / end}%`;
      m.title = `${fmt(e.time)} s: ${e.text || e.kind}`;
      marks.appendChild(m);
    });
  }
  let lastMarked = -2;
  function markEvents() {
    if (lastMarked === state.index) return;
    const items = $("events").children;
    for (let i = 0; i < items.length; i++) {
      items[i].className = i < state.index ? "past" : i === state.index ? "current" : "future";
    }
    if (state.index >= 0 && items[state.index]) keepInView($("events"), items[state.index]);
    lastMarked = state.index;
  }
  function keepInView(list, item) {  // scroll the list within itself, never the page (scrollIntoView would)
    const top = item.offsetTop, bottom = top + item.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }

  // Playing --------------------------------------------------------------------------------------------------
  function nextKeyTime(from, to) {  // the first call, signal or four in (from, to]: playback never jumps over one
    for (const e of rnd().events) {
      if (e.time > from + 1e-9 && e.time <= to && VIEW.mark(e)) return e.time;
    }
    return to;
  }
  let lastFrame = null;
  function frame(now) {
    if (state.playing) {
      const dt = lastFrame === null ? 0 : Math.min((now - lastFrame) / 1000, 0.25);
      const target = Math.min(state.time + dt * state.speed, endTime());
      state.time = nextKeyTime(state.time, target);
      render();
      if (state.time >= endTime() - 1e-9) finishRound();
    }
    lastFrame = now;
    requestAnimationFrame(frame);
  }
  function finishRound() {
    state.time = endTime();
    render();
    if (state.onFinish && state.round < data.rounds.length - 1) {
      setRound(state.round + 1);
      state.playing = true;
      return;
    }
    state.playing = false;
    state.finished = state.round === data.rounds.length - 1;
    updatePlayButton();
    if (state.onFinish) { const done = state.onFinish; state.onFinish = null; done(); }
  }
  function updatePlayButton() {
    $("play").textContent = state.playing ? "\u275a\u275a Pause" : "\u25b6 Play";
    $("play").setAttribute("aria-label", state.playing ? "Pause" : "Play");
  }
  function play() {
    if (state.time >= endTime() - 1e-9) state.time = 0;
    state.playing = true; state.finished = false; updatePlayButton();
  }
  function pause() { state.playing = false; updatePlayButton(); }
  function setRound(i) {
    state.round = Math.max(0, Math.min(i, data.rounds.length - 1));
    state.time = 0; lastMarked = -2;
    $("round").value = String(state.round);
    buildEvents();
    render();
  }
  function goTo(round, index) {
    if (round !== state.round) setRound(round);
    const ev = rnd().events;
    state.time = index < 0 ? 0 : ev[Math.min(index, ev.length - 1)].time;
    render();
  }
  function step(delta) {  // to the next event later than the play head, or back to the last one before it
    pause();
    const ev = rnd().events;
    if (delta > 0) {
      const i = ev.findIndex((e) => e.time > state.time + 1e-9);
      if (i >= 0) goTo(state.round, i);
      return;
    }
    const now = state.index >= 0 ? ev[state.index].time : 0;
    let i = state.index;
    while (i >= 0 && ev[i].time >= now - 1e-9) i--;
    goTo(state.round, i);
  }
  function stepMark(delta) {
    pause();
    const ev = rnd().events;
    const keys = ev.map((e, i) => (VIEW.mark(e) ? i : -1)).filter((i) => i >= 0);
    const next = delta > 0 ? keys.find((i) => i > state.index) : keys.reverse().find((i) => i < state.index);
    if (next !== undefined) goTo(state.round, next);
  }
  function setView(v) {  // everything the page shows is rebuilt from that view's own data
    if (!VIEWS.has(v)) return;
    state.view = v;
    $("view").value = String(v);
    showViewInAddress();
    lastMarked = -2;
    buildEvents();
    render();
  }
  // The address names the view (match.html#seat=1), so a view can be linked; every hand has no hash.
  function viewInAddress() {
    const m = /^#seat=(\d+)$/.exec(location.hash);
    return m && VIEWS.has(Number(m[1])) ? Number(m[1]) : VIEWS.has(-1) ? -1 : state.view;
  }
  function showViewInAddress() {
    const named = VIEWS.size > 1 || /^#seat=/.test(location.hash);  // a page of one seat needs no hash
    const hash = state.view >= 0 && named ? `#seat=${state.view}` : "";
    if (location.hash !== hash) history.replaceState(null, "", location.href.split("#")[0] + hash);
  }
  function setSpeed(x) {
    state.speed = x;
    const known = SPEEDS.indexOf(x);
    if (known >= 0) $("speed").value = String(x);
  }

  // Controls ------------------------------------------------------------------------------------------------
  function setup() {
    const roundSel = $("round");
    data.rounds.forEach((r, i) => {
      const o = document.createElement("option");
      o.value = String(i); o.textContent = `${r.round} of ${data.rounds.length} (${r.outcome.replace(/_/g, " ")})`;
      roundSel.appendChild(o);
    });
    roundSel.addEventListener("change", () => { pause(); setRound(Number(roundSel.value)); });
    const speedSel = $("speed");
    SPEEDS.forEach((s) => { const o = document.createElement("option"); o.value = String(s); o.textContent = `${s}\u00d7`; speedSel.appendChild(o); });
    speedSel.value = "1";
    speedSel.addEventListener("change", () => setSpeed(Number(speedSel.value)));
    const viewSel = $("view");
    for (const v of VIEWS.keys()) {  // Krepet is played open: every hand only
      const o = document.createElement("option");
      o.value = String(v); o.textContent = v < 0 ? "every hand" : `as seat ${v} sees it`;
      viewSel.appendChild(o);
    }
    state.view = viewInAddress();
    viewSel.value = String(state.view);
    viewSel.addEventListener("change", () => setView(Number(viewSel.value)));
    window.addEventListener("hashchange", () => setView(viewInAddress()));
    showViewInAddress();
    $("play").addEventListener("click", () => (state.playing ? pause() : play()));
    $("prev").addEventListener("click", () => step(-1));
    $("next").addEventListener("click", () => step(1));
    $("scrub").addEventListener("input", () => { pause(); state.time = (Number($("scrub").value) / 1000) * endTime(); render(); });
    document.addEventListener("keydown", (e) => {
      if (e.target && e.target.tagName === "SELECT") return;
      const i = SPEEDS.indexOf(state.speed);
      if (e.key === " ") { e.preventDefault(); state.playing ? pause() : play(); }
      else if (e.key === "ArrowRight") { e.preventDefault(); e.shiftKey ? stepMark(1) : step(1); }
      else if (e.key === "ArrowLeft") { e.preventDefault(); e.shiftKey ? stepMark(-1) : step(-1); }
      else if (e.key === "+" || e.key === "=") setSpeed(SPEEDS[Math.min(i + 1, SPEEDS.length - 1)] || 1);
      else if (e.key === "-") setSpeed(SPEEDS[Math.max(i - 1, 0)] || 1);
      else if (e.key === "PageDown") { pause(); setRound(state.round + 1); }
      else if (e.key === "PageUp") { pause(); setRound(state.round - 1); }
      else if (e.key === "Home") goTo(state.round, 0);
      else if (e.key === "End") { pause(); state.time = endTime(); render(); }
    });
    setRound(0);
    requestAnimationFrame(frame);
  }

  // The game's view: how the table, its effects, its marks and its standings are drawn ------------------------
  const KEMPS = {
    draw: drawKemps, effects: EFFECTS, show: SHOW,
    moves: (e) => (e.kind === "Swapped" ? [...e.gave, ...e.took] : []),
    secondDeck: " (the second deck's)",
    // in one seat's view: its own fours and signals, the gestures it noticed, and the calls
    mark: (e) => (e.kind === "Gestured" ? (e.deliberate ? "signal" : null)
                  : e.kind === "Perceived" ? (state.view >= 0 ? "signal" : null) : MARKED[e.kind] || null),
    standing: (score) => ({ letters: score.letters, points: score.points, rounds_won: score.rounds_won }),
  };
  const KIT = { data, state, svg, node, card, fmt, noteCall, rnd, FLY, W, CX, CY, CARD_W, CARD_H };
  const VIEW = data.game === "krepet" ? window.KempsReplayViews.krepet(KIT) : KEMPS;

  // For scripts and tests: the page's own state, and playing every round to the end.
  window.kempsReplay = {
    data,
    state: () => ({ round: state.round, time: state.time, index: state.index, playing: state.playing,
                    speed: state.speed, view: state.view, finished: state.finished, events: rnd().events.length }),
    shownCalls: () => state.shownCalls.slice(),
    standings: () => state.standing,
    errors: () => state.errors.slice(),
    goTo, setRound, setSpeed, play, pause,
    seek(time) { pause(); state.time = Math.max(0, Math.min(time, endTime())); render(); },
    views: () => [...VIEWS.keys()],
    setView,
    playAll(speed) {
      return new Promise((resolve) => {
        setRound(0); setSpeed(speed || 8); state.onFinish = resolve; play();
      });
    },
  };
  setup();
})();
