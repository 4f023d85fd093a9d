// How much room a name takes when bpmn-js draws it. bpmn-js wraps external labels (events, gateways, flows) at 90 px
// in 11 px Arial and names inside tasks at the task's width less 10 px in 12 px Arial; it breaks lines between words
// (and inside a task at a hyphen or a slash of a word too long for it). We estimate with Helvetica's metrics (the
// same as Arial's) made 25 % wider, so a label still fits where the browser has no Arial and falls back to a wider
// sans (DejaVu on Debian).

// Helvetica advance widths in 1/1000 em for the printable ASCII characters 32..126 (Adobe's AFM).
const WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space ! " # $ % & ' ( ) * + , - . /
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0-9 : ; < = > ?
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ A-O
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P-Z [ \ ] ^ _
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` a-o
  556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584 // p-z { | } ~
];
const WIDER_FONTS = 1.25;

export const EXTERNAL = { fontSize: 11, lineHeight: 1.2, wrapAt: 90 };
export const EMBEDDED = { fontSize: 12, lineHeight: 1.2, padding: 5 };

function textWidth(text, fontSize) {
  let units = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0);
    units += code >= 32 && code <= 126 ? WIDTHS[code - 32] : 600;
  }
  return units / 1000 * fontSize * WIDER_FONTS;
}

/**
 * The lines bpmn-js makes of a text wrapped at maxWidth px; a word longer than that is broken only when
 * breakWords (inside a task, whose width is fixed), else it widens its line (an external label takes the width of its
 * longest line).
 */
export function wrap(text, fontSize, maxWidth, breakWords = true) {
  const lines = [];
  for (const paragraph of String(text).split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? line + ' ' + word : word;
      if (!line || textWidth(candidate, fontSize) <= maxWidth) {
        line = candidate;
      } else {
        lines.push(line);
        line = word;
      }
      // a single word wider than the box is broken where it can be, like bpmn-js does
      while (breakWords && textWidth(line, fontSize) > maxWidth && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && textWidth(line.slice(0, cut), fontSize) > maxWidth) cut--;
        const soft = Math.max(line.lastIndexOf('-', cut - 1), line.lastIndexOf('/', cut - 1));
        if (soft > 0) cut = soft + 1;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    lines.push(line);
  }
  return lines;
}

/** Width and height of an external label (events, gateways, sequence flows), as bpmn-js sizes it. */
export function externalLabelSize(text) {
  const lines = wrap(text, EXTERNAL.fontSize, EXTERNAL.wrapAt, false);
  const width = Math.max(...lines.map(l => textWidth(l, EXTERNAL.fontSize)));
  return {
    width: Math.ceil(width),
    height: Math.ceil(lines.length * EXTERNAL.fontSize * EXTERNAL.lineHeight)
  };
}

/** How many lines a name takes inside a task of the given width. */
export function embeddedLines(text, taskWidth) {
  return wrap(text, EMBEDDED.fontSize, taskWidth - 2 * EMBEDDED.padding).length;
}

/** The height those lines take inside a task. */
export function embeddedHeight(text, taskWidth) {
  return embeddedLines(text, taskWidth) * EMBEDDED.fontSize * EMBEDDED.lineHeight + 2 * EMBEDDED.padding;
}
