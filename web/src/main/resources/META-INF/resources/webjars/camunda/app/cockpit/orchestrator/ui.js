// Small DOM helpers for the orchestrator's Cockpit plugins: elements, tables, messages that stay until dismissed, a
// dialog. Plain DOM, styled to sit inside Cockpit's own Bootstrap look.

const STYLE = `
.orch { font-size: 13px; }
.orch h3 { margin: 4px 0 8px; font-size: 16px; }
.orch table.orch-table { width: 100%; border-collapse: collapse; margin: 4px 0 10px; }
.orch table.orch-table th, .orch table.orch-table td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #ddd; vertical-align: top; }
.orch table.orch-table th { background: #f5f5f5; font-weight: 600; }
.orch .orch-badge { display: inline-block; padding: 1px 6px; margin: 0 4px 2px 0; border-radius: 3px; font-size: 11px; font-weight: 600; }
.orch .orch-ok { background: #dff0d8; color: #2b542c; }
.orch .orch-bad { background: #f2dede; color: #a94442; }
.orch .orch-warn { background: #fcf8e3; color: #8a6d3b; }
.orch .orch-muted { color: #777; }
.orch .orch-messages > div { position: relative; padding: 6px 28px 6px 10px; margin: 0 0 6px; border-radius: 3px; }
.orch .orch-messages .orch-close { position: absolute; right: 6px; top: 3px; border: none; background: none; font-size: 16px; cursor: pointer; }
.orch-card { background: #fff; border: 1px solid #ddd; border-radius: 4px; padding: 10px 15px; margin-bottom: 15px; }
.orch .orch-panel { border: 1px solid #ccc; border-radius: 4px; padding: 10px; margin: 8px 0; background: #fafafa; }
.orch label { display: block; font-weight: 600; margin: 6px 0 2px; }
.orch .orch-hint { font-weight: normal; color: #777; }
.orch textarea { width: 100%; font-family: monospace; font-size: 12px; }
.orch input[type=text], .orch input[type=number], .orch select { min-width: 240px; }
.orch .orch-buttons { margin-top: 8px; }
.orch .orch-buttons button, .orch td button { margin: 0 4px 2px 0; }
.orch .orch-progress { display: flex; gap: 2px; width: 180px; height: 10px; margin: 3px 0 1px; }
.orch .orch-progress > span { flex: 1; border-radius: 2px; background: #e5e5e5; }
.orch .orch-progress > .orch-seg-done { background: #5cb85c; }
.orch .orch-progress > .orch-seg-running { background: #337ab7; }
.orch .orch-progress > .orch-seg-stopped { background: #d9534f; }
.orch svg.orch-strip { display: block; border: 1px solid #ddd; border-radius: 2px; background: #eee; }
.orch-actions { display: block; margin: 6px 0; padding: 4px; border: 1px solid #337ab7; border-radius: 4px; background: #f4f8fc; }
.orch-actions > .orch-actions-title { display: block; font-size: 8px; font-weight: 600; color: #337ab7; text-transform: uppercase; overflow-wrap: anywhere; margin-bottom: 3px; }
.orch-actions > button { display: block; width: 100%; margin: 0 0 3px; white-space: normal; font-size: 11px; }
.orch-overlay { position: fixed; inset: 0; background: rgba(0,0,0,.35); z-index: 2000; overflow: auto; }
.orch-overlay > .orch-dialog { background: #fff; max-width: 860px; margin: 60px auto; padding: 14px 18px; border-radius: 4px; box-shadow: 0 4px 20px rgba(0,0,0,.3); }
`;

export function installStyle() {
  if (!document.getElementById('orchestrator-style')) {
    const style = document.createElement('style');
    style.id = 'orchestrator-style';
    style.textContent = STYLE;
    document.head.appendChild(style);
  }
}

/** h('div', {className: 'x', onclick: f}, 'text', child, ...): null and false children are left out. */
export function h(tag, attrs, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) {
      continue;
    }
    if (name.startsWith('on')) {
      element.addEventListener(name.substring(2), value);
    } else if (name === 'className' || name === 'textContent' || name === 'value' || name === 'htmlFor') {
      element[name] = value;
    } else {
      element.setAttribute(name, value === true ? '' : value);
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

export function text(value) {
  if (value === null || value === undefined) {
    return '';
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function badge(label, kind, title) {
  return h('span', {className: 'orch-badge orch-' + kind, title}, label);
}

export function button(label, onclick, attrs) {
  return h('button', {type: 'button', className: 'btn btn-default btn-sm', onclick, ...(attrs || {})}, label);
}

/**
 * A rollout's progress as a segmented bar, one segment per wave (done, running, pending, stopped), each titled with
 * its instances, and the summary beneath ("wave 2 of 3, 1 of 3 instances updated, 40 s, paused").
 */
export function progressBar(progress, attrs) {
  return h('div', attrs || null,
    h('div', {className: 'orch-progress', role: 'progressbar', 'aria-valuemin': 0, 'aria-valuemax': progress.waves.length,
      'aria-valuenow': progress.wavesDone, 'aria-label': progress.summary},
      progress.waves.map((wave, i) => h('span', {className: 'orch-seg-' + progress.waveStates[i],
        'data-orch-wave': progress.waveStates[i], title: `wave ${i + 1}: ${wave.join(', ')} (${progress.waveStates[i]})`}))),
    h('div', {className: 'orch-muted'}, progress.summary));
}

/**
 * Our controls in Cockpit's action bar: words in a framed group titled "Orchestrator", so that they are never taken
 * for Camunda's own icon buttons beside them (Pause next to Suspend, Abort next to Delete).
 */
export function actionGroup(...buttons) {
  installStyle();
  return h('div', {className: 'orch-actions', 'data-orch': 'actions'}, h('span', {className: 'orch-actions-title'}, 'Orchestrator'), ...buttons);
}

/** A worded button of {@link actionGroup}. */
export function wordButton(label, title, onclick, attrs) {
  return h('button', {type: 'button', className: 'btn btn-default btn-xs', title, onclick, ...(attrs || {})}, label);
}

/** A table of objects: the columns are given, or every key the rows have, in order of appearance. */
export function table(rows, columns, cellOf) {
  const keys = columns || [...new Set(rows.flatMap(row => Object.keys(row)))];
  return h('table', {className: 'orch-table'},
    h('thead', null, h('tr', null, keys.map(key => h('th', null, key)))),
    h('tbody', null, rows.map(row => h('tr', null, keys.map(key => {
      const content = cellOf ? cellOf(row, key) : undefined;
      return h('td', null, content !== undefined ? content : text(row[key]));
    })))));
}

/**
 * Messages that stay until the operator dismisses them: a refresh of the page's data leaves them alone, so a refused
 * or accepted start leaves its trace on screen.
 */
export class Messages {
  constructor() {
    this.element = h('div', {className: 'orch-messages', 'data-orch': 'messages'});
  }

  add(kind, ...content) {
    const css = kind === 'error' ? 'alert alert-danger' : kind === 'warning' ? 'alert alert-warning' : 'alert alert-success';
    const message = h('div', {className: css, 'data-orch': 'message-' + kind, role: kind === 'error' ? 'alert' : 'status'},
      ...content,
      h('button', {type: 'button', className: 'orch-close', title: 'Dismiss', 'aria-label': 'Dismiss',
        onclick: () => message.remove()}, '×'));
    this.element.prepend(message);
    return message;
  }

  error(...content) {
    return this.add('error', ...content);
  }

  success(...content) {
    return this.add('success', ...content);
  }
}

/** A dialog over the page; returns {body, close}. Closed by its buttons or by Escape. */
export function dialog(title) {
  installStyle();
  const body = h('div', {className: 'orch'});
  const overlay = h('div', {className: 'orch-overlay', 'data-orch': 'dialog'},
    h('div', {className: 'orch-dialog', role: 'dialog', 'aria-label': title}, h('h3', null, title), body));
  const onKey = event => {
    if (event.key === 'Escape') {
      close();
    }
  };
  function close() {
    document.removeEventListener('keydown', onKey);
    overlay.remove();
  }
  document.addEventListener('keydown', onKey);
  document.body.append(overlay);
  return {body, close};
}

const STRIP_COLOURS = {healthy: '#5cb85c', unhealthy: '#d9534f', refused: '#f0ad4e', down: '#777', unknown: '#ddd'};

/** What a slot's record said at one change: its CVM's status, its health, its admission, in one word. */
export function slotState(change) {
  if (!change || !change.status) {
    return 'unknown';
  }
  if (change.status !== 'running') {
    return 'down';
  }
  if (change.attested === false) {
    return 'refused';
  }
  return change.healthy === true ? 'healthy' : change.healthy === false ? 'unhealthy' : 'unknown';
}

/**
 * A slot's recent history as a strip from {@code from} to {@code to}: one segment per state it was in (green healthy,
 * red unhealthy, orange refused admission, dark grey not running, light grey unknown), each titled with its times and
 * what the record said. {@code changes} are oldest first; the first may be from before the window (its state then).
 */
export function healthStrip(changes, from, to, attrs) {
  const svgNs = 'http://www.w3.org/2000/svg';
  const width = 140;
  const height = 12;
  const start = Date.parse(from);
  const end = Date.parse(to);
  const span = Math.max(end - start, 1);
  const svg = document.createElementNS(svgNs, 'svg');
  svg.setAttribute('class', 'orch-strip');
  svg.setAttribute('width', width);
  svg.setAttribute('height', height);
  for (const [name, value] of Object.entries(attrs || {})) {
    svg.setAttribute(name, value);
  }
  const segments = [];
  let cursor = start;
  changes.forEach((change, i) => {
    const at = Math.max(Date.parse(change.at), start);
    if (at > cursor && segments.length === 0) {
      segments.push({from: cursor, to: at, state: 'unknown', what: 'nothing recorded'});
    }
    const until = i + 1 < changes.length ? Math.max(Date.parse(changes[i + 1].at), start) : end;
    if (until > at) {
      segments.push({from: at, to: until, state: slotState(change),
        what: `${change.status || 'no CVM'}, ${change.healthy === true ? 'healthy' : change.healthy === false ? 'unhealthy' : 'health unknown'}, `
          + `${change.attested === true ? 'admitted' : change.attested === false ? 'refused admission' : 'not attested yet'}`});
    }
    cursor = until;
  });
  if (segments.length === 0) {
    segments.push({from: start, to: end, state: 'unknown', what: 'nothing recorded'});
  }
  const time = ms => new Date(ms).toLocaleTimeString();
  for (const segment of segments) {
    const rect = document.createElementNS(svgNs, 'rect');
    rect.setAttribute('x', ((segment.from - start) / span * width).toFixed(2));
    rect.setAttribute('y', 0);
    rect.setAttribute('width', Math.max((segment.to - segment.from) / span * width, 1).toFixed(2));
    rect.setAttribute('height', height);
    rect.setAttribute('fill', STRIP_COLOURS[segment.state]);
    rect.setAttribute('data-orch-state', segment.state);
    const title = document.createElementNS(svgNs, 'title');
    title.textContent = `${time(segment.from)}–${time(segment.to)}: ${segment.what}`;
    rect.append(title);
    svg.append(rect);
  }
  return svg;
}
