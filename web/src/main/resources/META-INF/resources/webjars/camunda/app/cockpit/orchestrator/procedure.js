// The page of one procedure, running or finished, at #/orchestrator/procedures/<id>: the Community edition's Cockpit
// shows a process instance only while it runs, so a finished rollout, heal or adoption had nowhere to be looked at.
// The page draws the diagram of the version the procedure ran on with every element it passed marked, a rollout's
// compose change side by side, a timeline of its tasks and calls per instance, and its report (approvals, controls,
// outcome). A helper it called (a drain, a hook) opens on
// the same page, under the procedure that called it. Everything comes from GET /api/procedures/<id>.
import {PROCEDURE_ROUTE, api, instanceLink, procedureLink} from './api.js';
import {reportView} from './forms.js';
import {badge, button, h, installStyle, text} from './ui.js';

const VENDOR = new URL('./vendor/bpmn-js-18.31.1/', import.meta.url);
const REFRESH_MS = 5000;

// Cockpit's view area clips what overflows it (its own pages scroll inside .ctn-view): this page scrolls by itself
const STYLE = `
.orch-route { position: absolute; top: 0; right: 0; bottom: 0; left: 0; overflow: auto; padding: 12px 15px; }
.orch-diagram { height: 420px; border: 1px solid #ddd; background: #fff; margin: 6px 0 10px; }
.orch-diagram .orch-visited:not(.djs-connection) .djs-visual > :nth-child(1) { fill: #e6f4e0 !important; stroke: #3c763d !important; }
.orch-diagram .orch-active:not(.djs-connection) .djs-visual > :nth-child(1) { fill: #d9edf7 !important; stroke: #1f6fb5 !important; stroke-width: 3px !important; }
.orch-diagram .orch-canceled:not(.djs-connection) .djs-visual > :nth-child(1) { fill: #f8e5e5 !important; stroke: #a94442 !important; }
.orch-diagram .djs-connection.orch-taken .djs-visual > path { stroke: #3c763d !important; stroke-width: 2px !important; }
.orch-diagram .orch-count { background: #3c763d; color: #fff; border-radius: 8px; padding: 0 5px; font-size: 10px; }
.orch .orch-legend span { margin-right: 10px; }
.orch table.orch-diff { width: 100%; table-layout: fixed; border-collapse: collapse; font-family: monospace; font-size: 12px; margin: 4px 0 10px; }
.orch table.orch-diff td, .orch table.orch-diff th { padding: 1px 6px; white-space: pre-wrap; overflow-wrap: anywhere; vertical-align: top; border-right: 1px solid #eee; }
.orch table.orch-diff th { background: #f5f5f5; font-family: inherit; text-align: left; }
.orch .orch-diff-removed { background: #fbe3e4; color: #8a1f11; }
.orch .orch-diff-added { background: #e3f6e0; color: #1e5b17; }
.orch .orch-diff-none { background: #f7f7f7; }
.orch .orch-diff-hunk { background: #eef4fb; color: #31708f; }
.orch .orch-diff-note { color: #555; font-family: sans-serif; }
.orch .orch-bar { position: relative; height: 10px; min-width: 200px; background: #f0f0f0; border-radius: 2px; }
.orch .orch-bar > span { position: absolute; top: 0; bottom: 0; min-width: 2px; border-radius: 2px; background: #5cb85c; }
.orch .orch-bar > span.orch-bar-running { background: #337ab7; }
.orch .orch-bar > span.orch-bar-canceled { background: #d9534f; }
`;

function installPageStyle() {
  installStyle();
  if (!document.getElementById('orchestrator-procedure-style')) {
    for (const css of ['diagram-js.css', 'bpmn-js.css']) {
      document.head.append(h('link', {rel: 'stylesheet', href: new URL(css, VENDOR).href}));
    }
    document.head.append(h('style', {id: 'orchestrator-procedure-style'}, STYLE));
  }
}

// bpmn-js's viewer is a UMD bundle; under Cockpit's RequireJS a <script> would register it as an anonymous AMD module
// (and break RequireJS's next load), so it is evaluated with a CommonJS module of its own instead.
let viewerClass = null;

function bpmnViewer() {
  if (!viewerClass) {
    viewerClass = fetch(new URL('bpmn-navigated-viewer.production.min.js', VENDOR)).then(r => {
      if (!r.ok) {
        throw new Error(`the diagram viewer could not be loaded (${r.status})`);
      }
      return r.text();
    }).then(code => {
      const module = {exports: {}};
      new Function('module', 'exports', 'define', code)(module, module.exports, undefined); // eslint-disable-line no-new-func
      return module.exports;
    });
    viewerClass.catch(() => {
      viewerClass = null;
    });
  }
  return viewerClass;
}

export function millis(from, to) {
  return (to ? Date.parse(to) : Date.now()) - Date.parse(from);
}

export function duration(ms) {
  if (!(ms >= 0)) {
    return '';
  }
  if (ms < 1000) {
    return `${ms} ms`;
  }
  const s = Math.round(ms / 1000);
  if (s < 120) {
    return `${s} s`;
  }
  const m = Math.floor(s / 60);
  return m < 120 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * What the diagram marks: each element by its last visit (active while a visit has not ended, canceled when its last
 * visit was), how many times it was entered, and the flows taken: a flow counts as taken when the element it leaves
 * and the element it enters were both passed (the engine's history keeps elements, not flows).
 */
export function markings(visits) {
  const elements = new Map();
  for (const v of visits) {
    const seen = elements.get(v.activityId) || {count: 0, active: false};
    seen.count += 1;
    seen.active = seen.active || !v.endedAt;
    seen.last = v.canceled ? 'canceled' : 'visited';
    seen.state = seen.active ? 'active' : seen.last;
    elements.set(v.activityId, seen);
  }
  return elements;
}

async function drawDiagram(area, page, previous) {
  const BpmnJS = await bpmnViewer();
  const viewer = previous || new BpmnJS({container: area});
  if (!previous) {
    await viewer.importXML(page.diagram);
    viewer.get('canvas').zoom('fit-viewport', 'auto');
  }
  const canvas = viewer.get('canvas');
  const overlays = viewer.get('overlays');
  const registry = viewer.get('elementRegistry');
  const marks = markings(page.visits);
  overlays.clear();
  registry.forEach(element => {
    ['orch-visited', 'orch-active', 'orch-canceled', 'orch-taken'].forEach(css => canvas.removeMarker(element.id, css));
  });
  marks.forEach((mark, id) => {
    if (!registry.get(id)) {
      return;
    }
    canvas.addMarker(id, 'orch-' + mark.state);
    if (mark.count > 1) {
      overlays.add(id, {position: {top: -8, right: 8}, html: `<span class="orch-count" title="entered ${mark.count} times">×${mark.count}</span>`});
    }
  });
  registry.filter(e => e.type === 'bpmn:SequenceFlow').forEach(flow => {
    if (flow.source && flow.target && marks.has(flow.source.id) && marks.has(flow.target.id)) {
      canvas.addMarker(flow.id, 'orch-taken');
    }
  });
  return viewer;
}

/**
 * A unified diff (the plan's, as the approver saw it) side by side: the current compose on the left, the target on the
 * right, removed lines red and added green, each change's lines paired; anything that is not a diff line (the env
 * change the plan notes under it) spans both sides.
 */
export function sideBySide(diff) {
  const rows = [];
  let removed = [];
  let added = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      rows.push({left: removed[i], right: added[i], kind: 'change'});
    }
    removed = [];
    added = [];
  };
  for (const line of String(diff).split('\n')) {
    if (line.startsWith('--- ') || line.startsWith('+++ ')) {
      continue;
    }
    if (line.startsWith('-')) {
      removed.push(line.substring(1));
    } else if (line.startsWith('+')) {
      added.push(line.substring(1));
    } else {
      flush();
      if (line.startsWith(' ')) {
        rows.push({left: line.substring(1), right: line.substring(1), kind: 'same'});
      } else if (line.startsWith('@@')) {
        rows.push({note: line, kind: 'hunk'});
      } else if (line.trim()) {
        rows.push({note: line, kind: 'note'});
      }
    }
  }
  flush();
  return rows;
}

function diffView(diff) {
  const cell = (content, css) => h('td', {className: content === undefined ? 'orch-diff-none' : css}, content === undefined ? '' : content);
  return h('table', {className: 'orch-diff', 'data-orch': 'compose-diff'},
    h('thead', null, h('tr', null, h('th', null, 'current'), h('th', null, 'target'))),
    h('tbody', null, sideBySide(diff).map(row => row.note !== undefined
      ? h('tr', null, h('td', {colSpan: 2, className: 'orch-diff-' + row.kind}, row.note))
      : h('tr', null, cell(row.left, row.kind === 'change' ? 'orch-diff-removed' : ''),
        cell(row.right, row.kind === 'change' ? 'orch-diff-added' : '')))));
}

/** The procedure's tasks and calls on one time axis, each with its duration; a call opens the helper's own page. */
function timeline(page) {
  const steps = page.timeline || [];
  if (steps.length === 0) {
    return h('p', {className: 'orch-muted'}, 'no task or call started yet');
  }
  const start = Date.parse(page.startedAt || steps[0].startedAt);
  const end = page.endedAt ? Date.parse(page.endedAt) : Date.now();
  const span = Math.max(end - start, 1);
  return h('table', {className: 'orch-table', 'data-orch': 'timeline'},
    h('thead', null, h('tr', null, ['step', 'instance', 'started', 'took', 'state', ''].map(c => h('th', null, c)))),
    h('tbody', null, steps.map(step => {
      const from = Date.parse(step.startedAt) - start;
      const took = millis(step.startedAt, step.endedAt);
      const state = step.canceled ? 'canceled' : step.endedAt ? 'done' : 'running';
      return h('tr', {'data-orch-step': step.activityId},
        h('td', null, step.calledProcessInstanceId
          ? h('a', {href: procedureLink(step.calledProcessInstanceId), title: 'the called procedure\'s own page'}, step.step) : step.step,
        h('div', {className: 'orch-muted'}, step.activityId)),
        h('td', null, text(step.slot)),
        h('td', null, new Date(step.startedAt).toLocaleTimeString()),
        h('td', null, duration(took) + (step.endedAt ? '' : ' so far')),
        h('td', {'data-orch': 'step-state'}, badge(state, state === 'done' ? 'ok' : state === 'canceled' ? 'bad' : 'warn')),
        h('td', {style: 'width: 40%'}, h('div', {className: 'orch-bar'},
          h('span', {className: state === 'done' ? '' : 'orch-bar-' + state,
            style: `left: ${(100 * from / span).toFixed(2)}%; width: ${(100 * took / span).toFixed(2)}%`}))));
    })));
}

function header(page) {
  const ended = page.endedAt ? `ended ${new Date(page.endedAt).toLocaleString()}` : 'running';
  return h('div', {'data-orch': 'procedure-header'},
    h('h3', null, `${page.processDefinitionKey} ${page.processInstanceId}`,
      ' ', badge(page.state, page.state === 'COMPLETED' ? 'ok' : page.state === 'ACTIVE' ? 'warn' : 'bad')),
    h('p', {className: 'orch-muted'},
      `version ${page.processDefinitionVersion} of its diagram; started ${new Date(page.startedAt).toLocaleString()}, ${ended}`,
      page.endedAt ? ` (took ${duration(millis(page.startedAt, page.endedAt))})` : ''),
    page.calledBy ? h('p', null, 'Called by ', h('a', {href: procedureLink(page.calledBy), 'data-orch': 'called-by'}, page.calledBy),
      page.procedureId !== page.calledBy ? [' in the ', h('a', {href: procedureLink(page.procedureId)}, page.kind), ' ', page.procedureId] : '') : null,
    page.endedAt ? null : h('p', null, h('a', {href: instanceLink(page.processInstanceId), 'data-orch': 'runtime-link'},
      'Open it in Cockpit\'s runtime view'), ' (variables, incidents, the engine\'s own controls)'));
}

const legend = () => h('p', {className: 'orch-muted orch-legend'},
  h('span', null, badge('passed', 'ok')), h('span', null, badge('here now', 'warn')), h('span', null, badge('canceled', 'bad')),
  h('span', null, '×n: entered n times'));

export const procedurePage = {
  id: 'orchestrator-procedure',
  pluginPoint: 'cockpit.route',
  priority: 100,
  properties: {path: PROCEDURE_ROUTE + ':id'},
  render: node => {
    installPageStyle();
    const id = decodeURIComponent(window.location.hash.replace(/^#/, '').split('?')[0].substring(PROCEDURE_ROUTE.length));
    const messages = h('div');
    const head = h('div', null, `Loading procedure ${id}…`);
    const diagram = h('div', {className: 'orch-diagram', 'data-orch': 'diagram'});
    const changes = h('div');
    const steps = h('div');
    const report = h('div');
    node.append(h('div', {className: 'orch-route'}, h('section', {className: 'orch orch-card', 'data-orch': 'procedure-page'},
      messages, head, legend(), diagram, changes, h('h4', null, 'Timeline'), steps, report,
      h('div', {className: 'orch-buttons'}, button('Back to the fleet', () => {
        window.location.hash = '#/dashboard';
      })))));
    let viewer = null;
    async function load() {
      try {
        const page = await api.get('/procedures/' + encodeURIComponent(id));
        head.replaceChildren(header(page));
        changes.replaceChildren(...(page.composeDiff ? [h('h4', null, 'Compose change'), diffView(page.composeDiff)] : []));
        steps.replaceChildren(timeline(page));
        report.replaceChildren(page.report ? reportView(page.report) : h('p', {className: 'orch-muted'},
          'A step of the procedure above; its report is the procedure\'s.'));
        messages.replaceChildren();
        viewer = await drawDiagram(diagram, page, viewer);
        return !page.endedAt;
      } catch (e) {
        messages.replaceChildren(h('p', {className: 'text-danger', 'data-orch': 'procedure-error'}, text(e.message),
          viewer ? ' (what is shown is the last good read, no longer refreshed: reload the page)' : ''));
        return false;
      }
    }
    // a running procedure's page follows it until it ends
    (async function follow() {
      if (await load() && document.body.contains(node)) {
        setTimeout(follow, REFRESH_MS);
      }
    })();
  }
};
