// The Piglia card table: plain JavaScript over the JSON API of docs/web.md (no build step, nothing fetched
// from elsewhere). Every word comes from the catalog of the chosen language (GET /api/messages).
"use strict";

const { cardFace, cardBack } = window.PigliaCards;
const $ = (id) => document.getElementById(id);

let M = {};              // the catalog's web.* messages, without the prefix
let LANGS = ["en"];
let lang = "en";
let G = null;            // the game as the server last sent it
let shown = 0;           // public events already taken into account
let selected = null;     // the hand card chosen
let picks = new Set();   // the table cards chosen
let chosenBuild = null;  // the build move chosen from the list (several may join the same cards)
let overlayQueue = [];   // sheets and results waiting to be shown
let recent = [];         // the plays since the person's last move
let variantsList = [];
let upload = null;       // {text, name, title, players} of a valid uploaded rule file
let busy = false;
let message = null;      // {text, kind} shown in the status line until the next action
let advice = null;       // the coach's advice on this turn ({turn, advice}), asked with the Coach button or "?"
let coaching = false;    // the coach is thinking

function t(key, fields = {}) {
  const text = M[key];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in fields ? String(fields[name]) : `{${name}}`));
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) {
    const err = new Error(data.error || response.statusText);
    err.status = response.status;
    err.errors = data.errors;
    throw err;
  }
  return data;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "html") node.innerHTML = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// -- names ---------------------------------------------------------------------------------------------------

function cardName(id) {
  return G.deck.cards[id] ? G.deck.cards[id].name : id;
}

function opponentsCount() {
  return G.seats.filter((s) => s.role === "opponent").length;
}

function seatName(seat) {
  const s = G.seats[seat];
  if (s.role === "you") return t("you");
  if (s.role === "partner") return t("partner");
  return opponentsCount() > 1 ? t("opponent_n", { n: s.number }) : t("opponent");
}

function teamName(team) {
  if (team === null || team === undefined) return t("nobody");
  const info = G.teams[team];
  if (info.mine) return info.seats.length > 1 ? t("team.us") : t("you");
  const others = G.teams.filter((x) => !x.mine);
  if (others.length === 1) return info.seats.length > 1 ? t("team.them") : t("opponent");
  if (info.seats.length === 1) return seatName(info.seats[0]);
  return t("team.n", { n: others.indexOf(info) + 1 });
}

function listWords(items) {
  if (items.length <= 1) return items.join("");
  return t("list", { items: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

// -- cards ---------------------------------------------------------------------------------------------------

function cardEl(id, extra = {}) {
  const card = G.deck.cards[id];
  const node = el("button", { type: "button", class: `card ${extra.class || ""}`, "data-id": id, title: card.name,
    "aria-label": card.name, ...(extra.attrs || {}) });
  node.innerHTML = cardFace(card, G.deck);
  if (extra.badge) node.append(el("span", { class: "badge" }, extra.badge));
  if (extra.mark) node.append(el("span", { class: "mark", title: extra.markTitle || "" }, extra.mark));
  if (extra.onclick) node.addEventListener("click", extra.onclick);
  return node;
}

function miniEl(id) {
  const card = G.deck.cards[id];
  const node = el("span", { class: "mini", title: card.name, "data-id": id });
  node.innerHTML = cardFace(card, G.deck, true);
  return node;
}

function backEl(cls = "") {
  const node = el("span", { class: `back ${cls}` });
  node.innerHTML = cardBack();
  return node;
}

// -- moves ---------------------------------------------------------------------------------------------------

function myMoves() {
  return G && !G.finished && G.to_move === G.seat ? G.legal_moves : [];
}

function optionsOf(card) {
  return myMoves().filter((m) => m.card === card);
}

function chosenMove() {
  if (selected === null) return null;
  const same = (cards) => cards.length === picks.size && cards.every((c) => picks.has(c));
  if (chosenBuild && chosenBuild.card === selected && same(chosenBuild.build.onto)) return chosenBuild;
  // the picked table cards as a capture, else as the cards a build joins (RULES.md CA2.1)
  return optionsOf(selected).find((m) => !m.build && same(m.captured))
    || optionsOf(selected).find((m) => m.build && picks.size && same(m.build.onto)) || null;
}

function moveWords(card, captured, build = null) {
  if (build) return t("builds", { card: cardName(card), value: build.value, cards: listWords(build.onto.map(cardName)) });
  if (!captured.length) return t("stays", { card: cardName(card) });
  return t("takes", { card: cardName(card), cards: listWords(captured.map(cardName)) });
}

function bonusBadges(bonuses, clears) {
  const out = bonuses.map((b) => el("span", { class: "bonus" }, "★ " + t("bonus", { name: b.label, points: b.points })));
  if (clears) out.unshift(el("span", { class: "sweep" }, t("clears_table")));
  return out;
}

function select(card) {
  if (!myMoves().length || busy) return;
  message = null;
  chosenBuild = null;
  if (selected === card) {
    selected = null;
    picks = new Set();
  } else {
    selected = card;
    const options = optionsOf(card);
    picks = new Set(options.length === 1 && !options[0].build ? options[0].captured : []);
  }
  render();
}

function togglePick(card) {
  if (selected === null || busy) return;
  message = null;
  if (picks.has(card)) picks.delete(card);
  else picks.add(card);
  render();
}

function chooseOption(move) {
  selected = move.card;
  chosenBuild = move.build ? move : null;
  picks = new Set(move.build ? move.build.onto : move.captured);
  message = null;
  render();
}

function cycleOption(step) {
  if (selected === null) return;
  const options = optionsOf(selected);
  if (!options.length) return;
  const now = options.indexOf(chosenMove());
  chooseOption(options[(now + step + options.length) % options.length]);
}

async function play() {
  if (selected === null || busy || !myMoves().length) return;
  const move = chosenMove();
  const notation = picks.size ? `${selected} x ${[...picks].join("+")}` : selected;  // refused with the reason
  busy = true;
  renderStatus();
  try {
    const before = shown;
    const data = await api("POST", `/api/games/${G.id}/moves`, { move: move ? move.index : notation, since: before,
      lang });
    selected = null;
    chosenBuild = null;
    picks = new Set();
    message = null;
    advice = null;
    accept(data, before);
  } catch (err) {
    message = { text: err.status === 422 ? t("illegal", { reason: err.message }) : t("error", { message: err.message }),
      kind: "error" };
  } finally {
    busy = false;
    render();
  }
}

// -- the coach: every legal move with the AI's estimate (docs/web.md) ----------------------------------------

async function askCoach() {
  if (!myMoves().length || busy || coaching) return;
  coaching = true;
  renderCoach();
  try {
    advice = await api("GET", `/api/games/${G.id}/coach?lang=${encodeURIComponent(lang)}`);
  } catch (err) {
    message = { text: t("error", { message: err.message }), kind: "error" };
  } finally {
    coaching = false;
    render();
  }
}

function signed(x) {
  return `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(2)}`;
}

function renderCoach() {
  const box = $("coach-box");
  const mine = myMoves();
  $("coach").hidden = !mine.length;
  $("coach").disabled = busy || coaching;
  if (coaching) {
    box.replaceChildren(el("p", {}, t("coach_thinking")));
    box.hidden = false;
    return;
  }
  if (!advice || !mine.length) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const head = el("tr", {}, el("th", {}, t("col.move")), el("th", { class: "num" }, t("col.value")),
    el("th", { class: "num" }, t("col.one_ply")), el("th", { class: "num" }, t("col.risk")));
  const rows = advice.advice.map((a) => el("tr", {
    class: `advice ${a.rank === 1 ? "best" : ""}`, "data-index": a.index, title: t("coach_choose"),
    onclick: () => chooseOption(mine[a.index]),
  }, el("td", {}, moveWords(a.card, a.captured, a.build)), el("td", { class: "num" }, signed(a.value)),
  el("td", { class: "num" }, signed(a.greedy)), el("td", { class: "num" }, `${Math.round(a.risk * 100)}%`)));
  const best = advice.advice[0];
  box.replaceChildren(el("h3", {}, t("coach_title")), el("table", {}, el("thead", {}, head), el("tbody", {}, rows)),
    el("p", { class: "why" }, t("coach_best", { move: moveWords(best.card, best.captured, best.build), why: best.why })));
  box.hidden = false;
}

function coachReview(mistakes) {
  const words = (m) => moveWords(m.card, m.captured, m.build);
  return [el("h3", {}, t("coach_review")), el("ul", { class: "review" }, mistakes.map((m) => el("li", {},
    t("coach_lost", { played: words(m.played), best: words(m.best), loss: m.loss.toFixed(2) }))))];
}

// -- the match as it arrives ---------------------------------------------------------------------------------

function accept(data, since) {
  const fresh = data.events;
  G = data;
  shown = since + fresh.length;
  let sawMine = false;
  for (const e of fresh) {
    if (e.event === "play") {
      if (e.player === G.seat) {
        recent = [];
        sawMine = true;
      }
      recent.push(e);
      addLog(e);
    } else if (e.event === "opening") {
      recent.push(e);
      addLog(e);
    } else if (e.event === "deal") {
      if (!sawMine) recent = [];
      addLog(e);
    } else if (e.event === "refill" || e.event === "misdeal") {
      addLog(e);
    } else if (e.event === "deal_end") {
      const sheet = G.sheets.find((s) => s.deal === e.deal);
      if (sheet) overlayQueue.push({ kind: "sheet", sheet });
    } else if (e.event === "match_end") {
      // the last deal's sheet and the result, together
      const last = overlayQueue.length && overlayQueue[overlayQueue.length - 1].kind === "sheet"
        ? overlayQueue.pop().sheet : null;
      overlayQueue.push({ kind: "result", sheet: last });
    }
  }
  showOverlay();
}

function addLog(e) {
  let text;
  if (e.event === "play") {
    text = `${seatName(e.player)}: ${moveWords(e.card, e.captured)}` +
      e.bonuses.map((b) => ` · ★ ${t("bonus", { name: b.label, points: b.points })}`).join("");
  } else if (e.event === "opening") {
    text = t("opening", { who: seatName(e.player), name: e.label, points: e.points });
  } else if (e.event === "deal") {
    text = t("new_deal", { n: e.deal, dealer: seatName(e.dealer) });
  } else if (e.event === "refill") {
    text = t("new_hands", { n: e.stock });
  } else if (e.event === "misdeal") {
    text = e.label ? `${t("misdeal")} (${e.label})` : t("misdeal");
  }
  if (text) $("log").prepend(el("li", {}, text));
}

// -- overlays: end of a deal, end of the match ---------------------------------------------------------------

function showOverlay() {
  if (!$("overlay").hidden || !overlayQueue.length) return;
  const item = overlayQueue.shift();
  const body = $("sheet-body");
  const actions = $("sheet-actions");
  body.replaceChildren();
  actions.replaceChildren();
  if (item.kind === "sheet") {
    $("sheet-title").textContent = t("sheet_title", { n: item.sheet.deal });
    body.append(sheetTable(item.sheet));
    if (item.sheet.coach.length) body.append(...coachReview(item.sheet.coach));
  } else {
    const r = G.result;
    const score = r.totals.join("–");
    $("sheet-title").textContent = r.you === "win" ? t("you_win", { score }) : r.you === "lose"
      ? t("you_lose", { score }) : t("draw", { score });
    if (r.reason) body.append(el("p", {}, r.reason));
    body.append(el("p", { class: "final" }, G.teams.map((x) => `${teamName(x.team)} ${r.totals[x.team]}`).join(" · ")));
    if (item.sheet) {
      body.append(el("h3", {}, t("sheet_title", { n: item.sheet.deal })), sheetTable(item.sheet));
      if (item.sheet.coach.length) body.append(...coachReview(item.sheet.coach));
    }
    actions.append(el("a", { id: "download", class: "button", href: `/api/games/${G.id}/record`,
      download: `piglia-${G.variant.name}.jsonl` }, t("download")));
    actions.append(el("button", { id: "again", type: "button", onclick: () => { closeOverlay(); newMatch(); } },
      t("new_match")));
  }
  const next = el("button", { id: "continue", type: "button", class: "primary", onclick: closeOverlay },
    t("continue"));
  actions.prepend(next);
  $("overlay").hidden = false;
  next.focus();
}

function closeOverlay() {
  $("overlay").hidden = true;
  showOverlay();
  render();
}

function sheetTable(sheet) {
  const teams = G.teams.map((x) => x.team);
  const head = el("tr", {}, el("th", {}, t("col.award")), el("th", {}, t("col.counts")),
    el("th", {}, t("col.won_by")), el("th", { class: "num" }, t("col.points")));
  const rows = [];
  const bonusNames = [...new Set(sheet.bonuses.map((b) => b.name))];
  for (const name of bonusNames) {
    const label = sheet.bonuses.find((b) => b.name === name).label;
    // one row per bonus: how many times and how many points each side scored it
    const of = (x, field) => sheet.bonuses.filter((b) => b.name === name && b.team === x)
      .reduce((sum, b) => sum + b[field], 0);
    const scorers = teams.filter((x) => of(x, "points"));
    rows.push(el("tr", { class: "bonus-row" }, el("td", {}, `★ ${label}`),
      el("td", { class: "counts" }, `× ${teams.map((x) => of(x, "count")).join("–")}`),
      el("td", {}, scorers.map(teamName).join(", ") || t("nobody")),
      el("td", { class: "num" }, teams.map((x) => of(x, "points")).join("–"))));
  }
  for (const a of sheet.awards) {
    rows.push(el("tr", {}, el("td", {}, a.label), el("td", { class: "counts" }, awardCounts(a, teams)),
      el("td", {}, a.team === null ? t("nobody") : teamName(a.team)),
      el("td", { class: "num" }, a.team === null ? "0" : `+${a.points}`)));
  }
  const foot = [
    el("tr", { class: "total" }, el("td", { colspan: 3 }, t("pile_sizes")),
      el("td", { class: "num" }, teams.map((x) => sheet.pile_sizes[x]).join("–"))),
    el("tr", { class: "total" }, el("td", { colspan: 3 }, t("deal_points")),
      el("td", { class: "num" }, teams.map((x) => sheet.points[x]).join("–"))),
    el("tr", { class: "total" }, el("td", { colspan: 3 }, t("match_score")),
      el("td", { class: "num" }, teams.map((x) => sheet.totals[x]).join("–"))),
  ];
  const legend = el("p", { class: "legend" }, t("sheet_order", { teams: teams.map(teamName).join("–") }));
  const parts = [legend, el("table", { class: "sheet-table" }, el("thead", {}, head), el("tbody", {}, rows, foot))];
  if (sheet.leftover.cards.length) {
    parts.push(el("p", {}, t("leftover", { cards: listWords(sheet.leftover.cards.map(cardName)),
      who: teamName(sheet.leftover.team) })));
  }
  return el("div", {}, parts);
}

function awardCounts(a, teams) {
  if (a.form === "holder") {
    const holder = teams.find((x) => a.holds[x]);
    return holder === undefined ? t("nobody_has", { card: cardName(a.card) })
      : t("holds", { who: teamName(holder), card: cardName(a.card) });
  }
  if (a.form === "most" || a.form === "score") {
    const shown = teams.map((x) => (a.eligible && !a.eligible[x] ? "—" : a.values[x][0]));
    let text = shown.join("–");
    const tied = a.form === "most" && teams.every((x) => a.values[x][0] === a.values[teams[0]][0]);
    if (tied && a.values[teams[0]].length > 1) text += ` (${teams.map((x) => a.values[x].slice(1).join("/")).join("–")})`;
    if (a.eligible && teams.some((x) => !a.eligible[x])) text += ` · ${t("not_eligible")}`;
    return text;
  }
  return "";
}

// -- drawing the table ---------------------------------------------------------------------------------------

function render() {
  if (!G) return;
  $("setup").hidden = true;
  $("game").hidden = false;
  document.title = `${G.variant.title} · Piglia`;
  $("title").textContent = G.variant.title;
  showVariantNote(G.variant.untranslated);
  renderScore();
  renderSeats();
  renderTable();
  renderHand();
  renderCoach();
  renderStatus();
}

function renderScore() {
  const parts = [el("span", { class: "deal" }, t("deal", { n: G.deal }))];
  for (const x of G.teams) {
    const extra = G.score.this_deal[x.team];
    parts.push(el("span", { class: `chip ${x.mine ? "mine" : ""}`, "data-team": x.team }, `${teamName(x.team)} `,
      el("b", {}, String(G.score.running[x.team])),
      extra ? el("small", { title: t("this_deal") }, ` (+${extra})`) : null));
  }
  const goal = G.match.target ? t("match_to", { target: G.match.target }) : G.match.deals === 1 ? t("match_one_deal")
    : t("match_deals", { n: G.match.deals });
  parts.push(el("span", { class: "goal" }, goal));
  $("scoreline").replaceChildren(...parts);
}

function renderSeats() {
  const boxes = [];
  for (let k = 1; k < G.players; k++) {
    const s = G.seats[(G.seat + k) % G.players];
    const fan = el("div", { class: "fan" });
    const shown = (G.shown && G.shown[s.seat]) || [];  // a declared hand lies face up (public from then on)
    for (let i = 0; i < s.hand_size - shown.length; i++) fan.append(backEl("small"));
    if (shown.length) fan.append(el("span", { class: "shown", title: t("shown") }, ...shown.map(miniEl)));
    const last = [...recent].reverse().find((e) => e.event === "play" && e.player === s.seat);
    boxes.push(el("div", { class: `seat ${s.role} ${G.to_move === s.seat ? "to-move" : ""}`, "data-seat": s.seat },
      el("div", { class: "seat-name" }, seatName(s.seat), s.seat === G.dealer ? el("span", { class: "tag" }, t("dealer")) : null),
      el("div", { class: "seat-sub" }, `${s.player} · ${t("cards_n", { n: s.hand_size })}`),
      fan,
      last ? el("div", { class: "seat-last" }, miniEl(last.card), last.captured.length ? "→" : "",
        ...last.captured.map(miniEl)) : null));
  }
  $("seats").replaceChildren(...boxes);
  const recentBox = recent.filter((e) => e.event === "play" || e.event === "opening").map((e) => {
    if (e.event === "opening") {
      return el("div", { class: "recent-row" }, el("b", {}, seatName(e.player)), " ",
        ...bonusBadges([{ label: e.label, points: e.points }], false), ...e.captured.map(miniEl));
    }
    return el("div", { class: "recent-row" }, el("b", {}, seatName(e.player)), miniEl(e.card),
      e.captured.length ? el("span", { class: "arrow" }, t("takes_short"))
        : e.build ? el("span", { class: "arrow" }, `= ${e.build}`) : el("span", { class: "arrow" }, t("placed")),
      ...e.captured.map(miniEl), ...(e.onto || []).map(miniEl), ...bonusBadges(e.bonuses, false));
  });
  $("recent").replaceChildren(recentBox.length ? el("h3", {}, t("recent")) : "", ...recentBox);
}

function renderTable() {
  const reachable = new Set(selected === null ? [] : optionsOf(selected).flatMap((m) => m.build ? m.build.onto : m.captured));
  const inBuild = new Map((G.builds || []).flatMap((b) => b.cards.map((c) => [c, b])));
  const cardOf = (id) => cardEl(id, {
    class: `${picks.has(id) ? "picked" : ""} ${reachable.has(id) ? "reachable" : ""}`,
    badge: selected !== null ? String.fromCharCode(97 + G.table.indexOf(id)) : null,
    onclick: () => togglePick(id),
  });
  const cards = G.table.filter((id) => !inBuild.has(id)).map(cardOf);
  for (const b of G.builds || []) {  // a build is one unit on the table: its cards together, its value, its owner
    cards.push(el("span", { class: "build", "data-value": b.value, "data-owner": b.owner },
      el("small", {}, t("build_label", { value: b.value, who: seatName(b.owner) })), ...b.cards.map(cardOf)));
  }
  if (G.face_down) {  // face-down cards under the pile: their number is public, which ones is not
    cards.unshift(el("span", { class: "face-down", title: t("face_down_n", { n: G.face_down }) }, backEl(),
      el("small", {}, t("face_down_n", { n: G.face_down }))));
  }
  $("table").replaceChildren(...(cards.length ? cards : [el("p", { class: "empty" }, t("table_empty"))]));
  const stock = $("stock");
  stock.replaceChildren(...(G.stock ? [backEl()] : []));
  $("stock-label").textContent = t("stock_n", { n: G.stock });
  $("piles").replaceChildren(...G.teams.map((x) => el("div", { class: `pile ${x.mine ? "mine" : ""}` },
    el("span", {}, teamName(x.team)), el("b", {}, t("cards_n", { n: x.pile })))));
}

function renderHand() {
  const moves = myMoves();
  const cards = G.hand.map((id, i) => {
    const options = moves.filter((m) => m.card === id);
    const scoring = options.some((m) => m.points > 0);
    return cardEl(id, {
      class: `${selected === id ? "selected" : ""} ${moves.length ? "playable" : ""}`,
      badge: moves.length ? String(i + 1) : null,
      mark: scoring ? "★" : null,
      markTitle: t("scores"),
      onclick: () => select(id),
    });
  });
  $("hand").replaceChildren(...cards);
  const box = $("options");
  box.replaceChildren();
  const chosen = chosenMove();
  if (selected !== null) {
    for (const m of optionsOf(selected)) {
      box.append(el("button", { type: "button", class: `option ${chosen === m ? "chosen" : ""}`, "data-index": m.index,
        "data-notation": m.notation, onclick: () => chooseOption(m), ondblclick: () => { chooseOption(m); play(); } },
      el("span", { class: "words" }, moveWords(m.card, m.captured, m.build)), ...bonusBadges(m.bonuses, m.clears_table)));
    }
  }
  const over = $("over-actions");
  over.replaceChildren();
  if (G.finished || G.stopped) {  // stopped: past one of the engine's limits, it cannot go on (renderStatus says why)
    over.append(el("a", { class: "button primary", href: `/api/games/${G.id}/record`,
      download: `piglia-${G.variant.name}.jsonl` }, t("download")),
    el("button", { type: "button", onclick: newMatch }, t("new_match")));
  }
  $("hand").classList.toggle("many", G.hand.length > 7);
  $("play").hidden = $("cancel").hidden = G.finished || Boolean(G.stopped);
  $("play").disabled = selected === null || busy;
  $("play").textContent = chosen ? `${t("play")}: ${moveWords(chosen.card, chosen.captured, chosen.build)}` : t("play");
  $("cancel").disabled = selected === null;
}

function renderStatus() {
  const status = $("status");
  status.className = "status";
  let text;
  if (message) {
    text = message.text;
    status.classList.add(message.kind);
  } else if (busy) {
    text = t("thinking");
  } else if (G.stopped) {
    text = t("stopped", { message: G.stopped });
    status.classList.add("error");
  } else if (G.finished) {
    const r = G.result;
    const score = r.totals.join("–");
    text = r.you === "win" ? t("you_win", { score }) : r.you === "lose" ? t("you_lose", { score }) : t("draw", { score });
  } else if (G.to_move === G.seat) {
    text = selected === null ? t("your_turn") : t("choose_capture", { card: cardName(selected) });
    status.classList.add("turn");
  } else {
    text = t("waiting", { who: seatName(G.to_move) });
  }
  status.textContent = text;
}

// -- starting a match ----------------------------------------------------------------------------------------

async function loadMessages() {
  const data = await api("GET", `/api/messages?lang=${encodeURIComponent(lang)}`);
  M = data.messages;
  LANGS = data.languages;
  lang = data.lang;
  document.documentElement.lang = lang;
  const select = $("lang");
  select.replaceChildren(...LANGS.map((code) => el("option", { value: code, selected: code === lang }, code)));
  const words = {
    "new-match": "new_match", "setup-title": "setup_title", "l-variant": "game", "l-players": "players",
    "l-opponents": "opponents", "l-seed": "seed", "l-upload": "upload", "f-start": "start", "cancel": "cancel",
    "log-title": "log", "keys": "keys", "coach": "coach",
  };
  for (const [id, key] of Object.entries(words)) $(id).textContent = t(key);
}

// What the rule file does not translate into the page's language, said once at the top of the page (names in
// backquotes are shown as code).
function showVariantNote(text) {
  const box = $("variant-note");
  box.replaceChildren(...(text || "").split("`").map((part, i) => (i % 2 ? el("code", {}, part) : part)));
  box.hidden = !text;
}

function fillPlayers() {
  const chosen = upload && $("f-variant").value === "__upload__" ? upload
    : variantsList.find((v) => v.name === $("f-variant").value);
  if (!chosen) return;
  $("f-players").replaceChildren(...chosen.players.map((n) => el("option", { value: n }, String(n))));
  $("f-description").textContent = chosen.description || "";
  showVariantNote(chosen.untranslated);
}

async function showSetup() {
  G = null;
  $("game").hidden = true;
  $("setup").hidden = false;
  $("title").textContent = "Piglia";
  $("scoreline").replaceChildren();
  if (!variantsList.length) {
    // titles and descriptions in the page's language
    const data = await api("GET", `/api/variants?lang=${encodeURIComponent(lang)}`);
    variantsList = data.variants;
    $("f-opponents").replaceChildren(...data.opponents.map((o) => el("option", { value: o }, t(`strength.${o}`))));
  }
  const current = $("f-variant").value;
  const options = variantsList.map((v) => el("option", { value: v.name }, `${v.title} (${v.name})`));
  if (upload) options.unshift(el("option", { value: "__upload__" }, `${upload.title} (${upload.name})`));
  $("f-variant").replaceChildren(...options);
  if (current) $("f-variant").value = current;
  fillPlayers();
  $("f-variant").focus();
}

let checkSeq = 0;  // only the latest file chosen counts, whatever order the answers come in

async function checkRules(file) {
  const seq = ++checkSeq;
  const box = $("rules-result");
  box.replaceChildren();
  if (!file) {
    upload = null;
    await showSetup();
    return;
  }
  const text = await file.text();
  let data = null;
  let failure = null;
  try {
    data = await api("POST", "/api/rules/check", { rules: text, rules_name: file.name, lang });
  } catch (err) {
    failure = err;
  }
  if (seq !== checkSeq) return;
  upload = data ? { text, name: file.name, title: data.title, players: data.players, description: data.description,
    untranslated: data.untranslated } : null;
  await showSetup();
  if (seq !== checkSeq) return;
  // the message comes last, once the form is ready to start the match it announces
  if (upload) {
    $("f-variant").value = "__upload__";
    fillPlayers();
    box.replaceChildren(el("p", { class: "ok" }, t("rules_ok", { title: data.title, players: data.players.join(", ") })));
  } else {
    const list = el("ul", { class: "errors" });
    for (const e of failure.errors || [{ text: failure.message }]) list.append(el("li", {}, el("code", {}, e.text)));
    box.replaceChildren(el("p", { class: "error" }, t("rules_errors")), list);
  }
}

async function start(event) {
  event.preventDefault();
  const body = { seat: 0, lang, opponents: $("f-opponents").value, players: Number($("f-players").value) };
  if ($("f-variant").value === "__upload__" && upload) {
    body.rules = upload.text;
    body.rules_name = upload.name;
  } else {
    body.variant = $("f-variant").value;
  }
  if ($("f-seed").value !== "") body.seed = Number($("f-seed").value);
  try {
    const created = await api("POST", "/api/games", body);
    if (created.lang_note) notice(created.lang_note);
    location.hash = created.id;
    await openGame(created.id);
  } catch (err) {
    const box = $("rules-result");
    box.replaceChildren(el("p", { class: "error" }, t("error", { message: err.message })));
  }
}

async function openGame(id) {
  const data = await api("GET", `/api/games/${id}?lang=${encodeURIComponent(lang)}`);
  shown = 0;
  recent = [];
  overlayQueue = [];
  selected = null;
  picks = new Set();
  message = null;
  $("log").replaceChildren();
  $("overlay").hidden = true;
  G = data;
  accept(data, 0);
  if (!data.finished) {
    // a reloaded match: earlier sheets are in the log, not in the way
    overlayQueue = [];
    $("overlay").hidden = true;
  }
  render();
}

function newMatch() {
  history.replaceState(null, "", location.pathname + location.search);
  showSetup();
}

function notice(text) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = false;
  setTimeout(() => { box.hidden = true; }, 8000);
}

// -- keyboard ------------------------------------------------------------------------------------------------

function onKey(event) {
  const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement?.tagName);
  if (!$("overlay").hidden) {
    if (event.key === "Enter" || event.key === "Escape" || event.key === " ") {
      event.preventDefault();
      $("continue").click();
    }
    return;
  }
  if (typing || !G || event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key;
  if (/^[1-9]$/.test(key) && Number(key) <= G.hand.length) {
    select(G.hand[Number(key) - 1]);
  } else if (key === "ArrowRight" || key === "ArrowLeft") {
    const i = selected === null ? -1 : G.hand.indexOf(selected);
    const step = key === "ArrowRight" ? 1 : -1;
    const next = G.hand[(i + step + G.hand.length) % G.hand.length];
    if (next !== undefined && next !== selected) select(next);
  } else if (key === "ArrowUp" || key === "ArrowDown") {
    cycleOption(key === "ArrowDown" ? 1 : -1);
  } else if (/^[a-l]$/.test(key) && selected !== null && key.charCodeAt(0) - 97 < G.table.length) {
    togglePick(G.table[key.charCodeAt(0) - 97]);
  } else if (key === "Enter") {
    play();
  } else if (key === "Escape") {
    selected = null;
    picks = new Set();
    message = null;
    render();
  } else if (key === "n" || key === "N") {
    newMatch();
  } else if (key === "?") {
    askCoach();
  } else {
    return;
  }
  event.preventDefault();
}

// -- start ---------------------------------------------------------------------------------------------------

async function main() {
  const asked = new URLSearchParams(location.search).get("lang");
  lang = asked || localStorage.getItem("piglia-lang") || (navigator.language || "en").slice(0, 2);
  const messages = loadMessages();
  // listened to at once: a rule file chosen while the page is still loading is checked when its messages are
  // in, not lost (the change event would otherwise fire before anyone listens)
  $("f-rules").addEventListener("change", async () => { await messages; await checkRules($("f-rules").files[0]); });
  await messages;
  $("lang").addEventListener("change", async () => {
    lang = $("lang").value;
    localStorage.setItem("piglia-lang", lang);
    advice = null;  // its sentence is in the old language: asked again, it comes in the new one
    await loadMessages();
    variantsList = [];  // their titles and descriptions are in the old language
    if (G && !G.finished) {
      await openGame(G.id);  // the match as it is, its cards, bonuses, awards and log in the new language
    } else if (G) {
      G = await api("GET", `/api/games/${G.id}?lang=${encodeURIComponent(lang)}&since=${shown}`);
      render();
    } else await showSetup();
  });
  $("new-match").addEventListener("click", newMatch);
  $("play").addEventListener("click", play);
  $("coach").addEventListener("click", askCoach);
  $("cancel").addEventListener("click", () => { selected = null; chosenBuild = null; picks = new Set(); message = null; render(); });
  $("setup-form").addEventListener("submit", start);
  $("f-variant").addEventListener("change", fillPlayers);
  document.addEventListener("keydown", onKey);
  const id = location.hash.slice(1);
  if (id) {
    try {
      await openGame(id);
      return;
    } catch (err) {
      notice(t("error", { message: err.message }));
    }
  }
  await showSetup();
}

window.piglia = { game: () => G };
main();
