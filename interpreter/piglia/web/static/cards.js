// Cards drawn as SVG by Piglia itself: simple original suit symbols (no artwork copied from anywhere).
// A deck (from the API) gives each suit a look: disc, cup, sword, baton, heart, diamond, club, spade, or ""
// (a plain mark with the suit's id); its style (italian, spanish, french) varies the drawing a little.
(() => {
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

const LOOK_COLOR = {
  disc: "#b8860b", cup: "#c0392b", sword: "#1f5fa8", baton: "#2e7d32",
  heart: "#d32f2f", diamond: "#d32f2f", club: "#1d1d1d", spade: "#1d1d1d", "": "#5d4037",
};

// Each symbol is drawn in a 100x100 box.
function symbolMarkup(look, style, suitId) {
  const c = LOOK_COLOR[look] || LOOK_COLOR[""];
  switch (look) {
    case "disc":
      return `<circle cx="50" cy="50" r="42" fill="#f2c14e" stroke="${c}" stroke-width="7"/>` +
        (style === "spanish"
          ? `<circle cx="50" cy="50" r="26" fill="none" stroke="${c}" stroke-width="5"/>`
          : `<path d="M50 22 L57 43 L78 50 L57 57 L50 78 L43 57 L22 50 L43 43 Z" fill="${c}"/>`) +
        `<circle cx="50" cy="50" r="7" fill="#fff6d6"/>`;
    case "cup":
      return `<path d="M18 12 H82 Q82 52 50 60 Q18 52 18 12 Z" fill="${c}"/>` +
        `<rect x="20" y="18" width="60" height="7" fill="#f2c14e"/>` +
        `<rect x="45" y="58" width="10" height="22" fill="${c}"/>` +
        `<ellipse cx="50" cy="86" rx="${style === "spanish" ? 28 : 22}" ry="8" fill="${c}"/>`;
    case "sword":
      return (style === "spanish"
        ? `<polygon points="50,2 61,64 39,64" fill="${c}"/>` +
          `<path d="M20 58 Q20 74 34 70 H66 Q80 74 80 58" fill="none" stroke="${c}" stroke-width="8"/>`
        : `<path d="M44 2 Q76 32 61 64 H39 Q54 32 44 2 Z" fill="${c}"/>` +
          `<rect x="20" y="62" width="60" height="10" rx="5" fill="${c}"/>`) +
        `<line x1="50" y1="14" x2="50" y2="58" stroke="#dfe9f3" stroke-width="3"/>` +
        `<rect x="44" y="72" width="12" height="16" fill="#6d4c41"/>` +
        `<circle cx="50" cy="92" r="7" fill="${c}"/>`;
    case "baton":
      return (style === "spanish"
        ? `<path d="M40 94 L34 20 Q32 4 50 4 Q68 4 66 20 L60 94 Z" fill="${c}"/>` +
          `<circle cx="42" cy="32" r="5" fill="#a5d6a7"/><circle cx="58" cy="50" r="5" fill="#a5d6a7"/>` +
          `<circle cx="44" cy="68" r="4" fill="#a5d6a7"/>`
        : `<g transform="rotate(-30 50 50)"><rect x="39" y="0" width="22" height="100" rx="11" fill="${c}"/>` +
          `<rect x="37" y="28" width="26" height="8" rx="4" fill="#f2c14e"/>` +
          `<rect x="37" y="64" width="26" height="8" rx="4" fill="#f2c14e"/></g>`);
    case "heart":
      return `<path d="M50 90 L12 50 A21 21 0 0 1 50 20 A21 21 0 0 1 88 50 Z" fill="${c}"/>`;
    case "diamond":
      return `<polygon points="50,4 86,50 50,96 14,50" fill="${c}"/>`;
    case "club":
      return `<circle cx="50" cy="28" r="19" fill="${c}"/><circle cx="28" cy="58" r="19" fill="${c}"/>` +
        `<circle cx="72" cy="58" r="19" fill="${c}"/><polygon points="44,55 56,55 64,94 36,94" fill="${c}"/>`;
    case "spade":
      return `<path d="M50 6 L86 50 A19 19 0 0 1 56 68 L63 94 H37 L44 68 A19 19 0 0 1 14 50 Z" fill="${c}"/>`;
    default:
      return `<circle cx="50" cy="50" r="42" fill="none" stroke="${c}" stroke-width="7"/>` +
        `<text x="50" y="66" font-size="46" text-anchor="middle" font-family="sans-serif" font-weight="700" ` +
        `fill="${c}">${escapeXml(suitId)}</text>`;
  }
}

function escapeXml(text) {
  return String(text).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

// Where the pips go for 2..10, in a 60x90 card.
const PIPS = {
  2: [[30, 22], [30, 68]],
  3: [[30, 20], [30, 45], [30, 70]],
  4: [[19, 22], [41, 22], [19, 68], [41, 68]],
  5: [[19, 22], [41, 22], [30, 45], [19, 68], [41, 68]],
  6: [[19, 22], [41, 22], [19, 45], [41, 45], [19, 68], [41, 68]],
  7: [[19, 22], [41, 22], [30, 33], [19, 45], [41, 45], [19, 68], [41, 68]],
  8: [[19, 20], [41, 20], [19, 37], [41, 37], [19, 53], [41, 53], [19, 70], [41, 70]],
  9: [[19, 20], [41, 20], [19, 37], [41, 37], [30, 45], [19, 53], [41, 53], [19, 70], [41, 70]],
  10: [[19, 18], [41, 18], [30, 28], [19, 38], [41, 38], [19, 52], [41, 52], [30, 62], [19, 72], [41, 72]],
};

function use(look, style, suitId, x, y, size) {
  return `<svg x="${x - size / 2}" y="${y - size / 2}" width="${size}" height="${size}" viewBox="0 0 100 100">` +
    symbolMarkup(look, style, suitId) + `</svg>`;
}

// The face of one card, as SVG markup (60x90 units).
function cardFace(card, deck, mini = false) {
  const suit = deck.suits[card.suit];
  const look = suit.look || "";
  const color = LOOK_COLOR[look] || LOOK_COLOR[""];
  const rank = escapeXml(card.rank);
  if (mini) {
    // too small for pips: the rank, large, over one large symbol
    return `<svg xmlns="${SVG_NS}" viewBox="0 0 60 90" class="face" role="img" aria-label="${escapeXml(card.name)}">` +
      `<rect x="1" y="1" width="58" height="88" rx="6" fill="#fffdf7" stroke="#9e9e9e" stroke-width="2"/>` +
      `<text x="30" y="36" font-size="32" text-anchor="middle" font-family="Georgia, serif" font-weight="700" ` +
      `fill="${color}">${rank}</text>` + use(look, deck.style, suit.id, 30, 63, 38) + `</svg>`;
  }
  let centre;
  if (card.court) {
    centre = `<rect x="12" y="17" width="36" height="56" rx="4" fill="#fbf3df" stroke="${color}" stroke-width="1.5"/>` +
      `<path d="M20 30 L24 22 L30 28 L36 22 L40 30 Z" fill="#f2c14e" stroke="${color}" stroke-width="1"/>` +
      `<text x="30" y="50" font-size="17" text-anchor="middle" font-family="Georgia, serif" font-weight="700" ` +
      `fill="${color}">${rank}</text>` + use(look, deck.style, suit.id, 30, 62, 15);
  } else if (PIPS[card.value]) {
    centre = PIPS[card.value].map(([x, y]) => use(look, deck.style, suit.id, x, y, 12)).join("");
  } else {
    centre = use(look, deck.style, suit.id, 30, 45, 30);
  }
  const corner = (transform) =>
    `<g${transform}><text x="6.5" y="13" font-size="11" font-family="Georgia, serif" font-weight="700" ` +
    `text-anchor="middle" fill="${color}">${rank}</text>${use(look, deck.style, suit.id, 6.5, 19, 7)}</g>`;
  return `<svg xmlns="${SVG_NS}" viewBox="0 0 60 90" class="face" role="img" aria-label="${escapeXml(card.name)}">` +
    `<rect x="0.75" y="0.75" width="58.5" height="88.5" rx="5" fill="#fffdf7" stroke="#9e9e9e" stroke-width="1.5"/>` +
    corner("") + corner(' transform="rotate(180 30 45)"') + centre + `</svg>`;
}

// The back of a card: a plain pattern of the project's own.
function cardBack() {
  return `<svg xmlns="${SVG_NS}" viewBox="0 0 60 90" class="face" aria-hidden="true">` +
    `<rect x="0.75" y="0.75" width="58.5" height="88.5" rx="5" fill="#7b1f2a" stroke="#4a0f17" stroke-width="1.5"/>` +
    `<rect x="5" y="5" width="50" height="80" rx="3" fill="none" stroke="#f2c14e" stroke-width="1.2"/>` +
    `<path d="M30 20 L44 45 L30 70 L16 45 Z" fill="none" stroke="#f2c14e" stroke-width="1.5"/>` +
    `<circle cx="30" cy="45" r="5" fill="#f2c14e"/></svg>`;
}

window.PigliaCards = { cardFace, cardBack, symbolMarkup, escapeXml };
})();
