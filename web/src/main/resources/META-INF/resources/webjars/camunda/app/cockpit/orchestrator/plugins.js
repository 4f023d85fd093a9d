// The orchestrator in Cockpit: the fleet on the dashboard (with starts, the plan preview and each set's history of
// procedures, each opening its page), the operator procedures first on the Processes page, a start button on each
// procedure's page, pause, resume and abort (with a reason) on a running rollout's page, and a page for every
// procedure, running or finished (procedure.js). Every call goes to our /api with Cockpit's own session and CSRF
// token; what a user may do is asked of the server (GET /api/me), which refuses the rest anyway.
import {api, definitionLink, engine, instanceLink, procedureLink, tasklistLink} from './api.js';
import {PROCEDURES, planView, reportView, startForm, startable} from './forms.js';
import {procedurePage} from './procedure.js';
import {Messages, actionGroup, badge, button, dialog, h, healthStrip, installStyle, progressBar, table, text, wordButton} from './ui.js';

const REFRESH_MS = 5000;
const enc = encodeURIComponent;

function conditionBadges(conditions) {
  return (conditions || []).map(c => {
    if (c.type === 'Ready') {
      return badge(c.status ? 'Ready' : 'Not ready', c.status ? 'ok' : 'warn', c.reason);
    }
    return c.status ? badge(c.type, 'bad', c.reason) : null;
  });
}

function youLine(you) {
  const kinds = Object.entries(you.mayStart || {}).filter(([, may]) => may).map(([kind]) => kind);
  return h('p', {className: 'orch-muted', 'data-orch': 'you'}, `Logged in as ${you.user}: `,
    kinds.length ? `may start ${kinds.join(', ')}` : 'may look, not start (read only)',
    you.mayControlRollouts ? '; may pause, resume and abort rollouts' : '');
}

/**
 * A set's recorded revisions, newest first; an operator may roll back to one that is not the current: the dialog
 * shows its compose and the plan of the rollout it would start before anything starts.
 */
function revisionsTable(set, revisions, you, messages) {
  const mayRollBack = you.mayStart && you.mayStart.rollout;
  return table(revisions.map(r => ({revision: 'r' + r.number, createdBy: r.createdBy, createdAt: r.createdAt, reason: r.reason,
    '': r.current ? badge('current', 'ok') : r.update ? badge('rolling out', 'warn') : '', r})),
  ['revision', 'createdBy', 'createdAt', 'reason', '', ' '], (row, key) => {
    if (key === '') {
      return row[''];
    }
    if (key !== ' ') {
      return undefined;
    }
    return mayRollBack && !row.r.current
      ? button(`Roll back to r${row.r.number}…`, () => rollBackDialog(set, row.r, messages), {'data-orch': 'rollback-' + row.r.number}) : '';
  });
}

async function rollBackDialog(set, revision, messages) {
  const {body, close} = dialog(`Roll ${set.name} back to revision ${revision.number}`);
  const answer = h('div', {'data-orch': 'rollback-answer'});
  try {
    const full = await api.get(`/replica-sets/${enc(set.name)}/revisions/${revision.number}`);
    const plan = await api.post(`/replica-sets/${enc(set.name)}/rollouts/plan`, {dockerCompose: full.dockerCompose});
    const confirm = button(`Roll back to r${revision.number}`, async () => {
      confirm.disabled = true;
      try {
        const started = await api.post(`/replica-sets/${enc(set.name)}/rollbacks`, {revision: revision.number});
        messages.success(`Rollback of ${set.name} to revision ${revision.number} started: `,
          h('a', {href: procedureLink(started.processInstanceId), 'data-orch': 'rollback-started'}, 'its page'),
          '. Approvals it asks for wait in Tasklist.');
        close();
      } catch (refused) {
        answer.replaceChildren(h('p', {className: 'text-danger'}, refused.message));
        confirm.disabled = false;
      }
    }, {className: 'btn btn-primary btn-sm', 'data-orch': 'rollback-confirm'});
    body.append(h('p', null, `A rollout of revision ${revision.number}'s compose (by ${text(revision.createdBy)}, ${text(revision.createdAt)}: `
      + `${text(revision.reason)}), through the same approvals and budget as any rollout.`),
    h('label', null, 'Its compose'), h('pre', {'data-orch': 'rollback-compose'}, full.dockerCompose), planView(plan), answer,
    h('div', {className: 'orch-buttons'}, confirm, button('Close', close)));
  } catch (e) {
    body.append(h('p', {className: 'text-danger'}, e.message), h('div', {className: 'orch-buttons'}, button('Close', close)));
  }
}

/** A set's finished and running procedures, newest first, each opening its report and its page; and its revisions. */
async function historyPanel(set, panel, you, messages) {
  const [list, revisions] = await Promise.all([api.get(`/replica-sets/${enc(set.name)}/procedures?limit=20`),
    api.get(`/replica-sets/${enc(set.name)}/revisions`)]);
  const report = h('div', {'data-orch': 'history-report'});
  const rows = list.procedures.map(p => ({...p}));
  panel.replaceChildren(h('div', {className: 'orch-panel', 'data-orch': 'history-panel'}, h('h3', null, `History of ${set.name}`, h('span', {className: 'orch-muted'}, ` (${list.total} procedures, newest first)`)),
    table(rows, ['kind', 'state', 'outcome', 'requestedBy', 'startedAt', 'endedAt', ''], (row, key) => {
      if (key === '') {
        return button('Report', async () => {
          report.replaceChildren(reportView(await api.get(row.report.replace(/^\/api/, ''))));
        }, {'data-orch': 'open-report'});
      }
      if (key === 'kind') {
        return h('a', {href: procedureLink(row.processInstanceId), 'data-orch': 'procedure-link', title: 'its page: diagram, timeline, report'}, row.kind);
      }
      return undefined;
    }),
    report,
    h('h4', null, 'Revisions'), h('div', {'data-orch': 'revisions-' + set.name}, revisionsTable(set, revisions, you, messages)),
    button('Close', () => panel.replaceChildren())));
}

/** A set's instances as Phala and our registry see them now (read from Phala), with the heal and readmit buttons. */
async function instancesPanel(set, panel, you, messages, refreshFleet) {
  const [view, past] = await Promise.all([api.get(`/replica-sets/${enc(set.name)}`),
    api.get(`/replica-sets/${enc(set.name)}/instance-history?minutes=60`).catch(() => null)]);
  const mayHeal = you.mayStart && you.mayStart.heal;
  const rows = (view.instances || []).map(i => ({
    '#': i.ordinal, slot: i.name, CVM: i.cvmId, status: i.status,
    revision: i.revision === null || i.revision === undefined ? '' : 'r' + i.revision,
    'compose hash': i.composeHash ? i.composeHash.substring(0, 12) + '…' : '',
    health: i.healthy === true ? 'healthy' : i.healthy === false ? 'unhealthy' : 'unknown',
    attested: i.fenced ? 'fenced' : i.attested === true ? 'admitted' : i.attested === false ? 'refused' : 'not yet',
    condition: i.fenced ? `${i.fenced} (by ${text(i.fencedBy)} at ${text(i.fencedAt)})` : text(i.condition), i}));
  const retained = ((view.scaling || {}).retainedSlots || []).map(r => ({
    '#': r.ordinal, slot: r.name, CVM: r.cvmId, status: 'retained', 'compose hash': '', health: '', attested: '',
    condition: `retained by ${text(r.retainedBy)} at ${text(r.retainedAt)}: stopped, kept for a scale-up`}));
  const act = async (path, what) => {
    try {
      const started = await api.post(path, {});
      messages.success(`${what} started: `, h('a', {href: instanceLink(started.processInstanceId)}, 'process instance ' + started.processInstanceId),
        ' (', h('a', {href: procedureLink(started.processInstanceId)}, 'its page'), ')');
      refreshFleet();
    } catch (refused) {
      messages.error(`${what} refused: ${refused.message}`);
    }
  };
  panel.replaceChildren(h('div', {className: 'orch-panel', 'data-orch': 'instances-' + set.name},
    h('h3', null, `Instances of ${set.name}`, h('span', {className: 'orch-muted'}, ` (${view.readyReplicas}/${view.replicas} ready, app ${text(view.appId)})`)),
    h('p', {className: 'orch-muted', 'data-orch': 'instances-read'}, `Read from Phala at ${new Date().toLocaleTimeString()}, again with the Fleet every 5 s while open`),
    view.observationError ? h('p', {className: 'text-danger'}, 'Phala could not be read; the last record is shown: ' + view.observationError) : null,
    table([...rows, ...retained], ['#', 'slot', 'CVM', 'status', 'revision', 'compose hash', 'health', 'attested', 'last hour', 'condition', ''], (row, key) => {
      if (key === 'last hour') {
        return past && row.i ? healthStrip((past.slots || {})[row.i.ordinal] || [], past.from, past.to, {'data-orch': 'strip-' + row.slot}) : '';
      }
      if (key === 'health' || key === 'attested') {
        const good = row[key] === 'healthy' || row[key] === 'admitted';
        const bad = ['unhealthy', 'refused', 'fenced'].includes(row[key]);
        return row[key] ? badge(row[key], good ? 'ok' : bad ? 'bad' : 'warn') : '';
      }
      if (key === '') {
        if (!mayHeal || !row.i) {
          return '';
        }
        return row.i.fenced
          ? button('Readmit', () => act(`/replica-sets/${enc(set.name)}/instances/${row.i.ordinal}/readmit`, `Readmit of ${row.slot}`), {'data-orch': 'readmit-' + row.slot})
          : button('Heal', () => act(`/replica-sets/${enc(set.name)}/instances/${row.i.ordinal}/heal`, `Heal of ${row.slot}`), {'data-orch': 'heal-' + row.slot});
      }
      return undefined;
    }),
    h('div', {className: 'orch-buttons'},
      button('Refresh', () => instancesPanel(set, panel, you, messages, refreshFleet).catch(e => messages.error(e.message))),
      button('Close', () => panel.replaceChildren()))));
}

function fleetTable(fleet, actions) {
  return table(fleet.sets, ['Set', 'Ready', 'Revision', 'Conditions', 'Running', 'Waiting in Tasklist', 'Actions'], (set, column) => {
    switch (column) {
      case 'Set':
        return h('span', {'data-orch': 'set-' + set.name}, h('b', null, set.name), h('div', {className: 'orch-muted'}, set.workloadType));
      case 'Ready':
        return `${set.readyReplicas}/${set.replicas}`;
      case 'Revision':
        return h('span', {'data-orch': 'revision-' + set.name}, set.updateRevision && set.updateRevision !== set.currentRevision
          ? `${text(set.currentRevision)} → ${set.updateRevision}` : text(set.currentRevision),
        // slots left on different revisions (an abort, a failed wave): the next rollout converges them
        set.mixedRevisions && set.procedures.length === 0 ? h('div', {'data-orch': 'mixed-' + set.name},
          badge('mixed', 'warn', 'the slots run different revisions; the next rollout converges them'),
          h('span', {className: 'orch-muted'}, set.mixedRevisions.map(m => `${m.slot} ${m.revision === null ? '?' : 'r' + m.revision}`).join(', ')))
          : null);
      case 'Conditions':
        return h('span', {'data-orch': 'conditions-' + set.name}, conditionBadges(set.conditions));
      case 'Running':
        return set.procedures.length === 0 ? h('span', {className: 'orch-muted'}, 'nothing')
          : h('div', {'data-orch': 'running-' + set.name}, set.procedures.map(p => h('div', null,
            h('a', {href: instanceLink(p.processInstanceId), 'data-orch': 'running-link'}, p.kind),
            p.paused ? badge('paused', 'warn') : null,
            p.progress ? progressBar(p.progress, {'data-orch': 'progress-' + set.name})
              : h('span', {className: 'orch-muted'}, ' ', text(p.stage)))));
      case 'Waiting in Tasklist':
        return set.approvals.length === 0 ? h('span', {className: 'orch-muted'}, 'nothing')
          : h('div', {'data-orch': 'approvals-' + set.name}, set.approvals.map(task => h('div', null,
            h('a', {href: tasklistLink(task.taskId), target: '_blank', rel: 'noopener'}, task.name),
            task.assignee ? h('span', {className: 'orch-muted'}, ` (claimed by ${task.assignee})`) : null)));
      case 'Actions':
        return h('div', {'data-orch': 'actions-' + set.name},
          startable(fleet.you, set).map(kind => button(PROCEDURES[kind].title + '…', () => actions.start(kind, set),
            {'data-orch': `start-${kind}-${set.name}`})),
          button('Instances', () => actions.instances(set), {'data-orch': 'instances-' + set.name}),
          button('History', () => actions.history(set), {'data-orch': 'history-' + set.name}));
      default:
        return undefined;
    }
  });
}

/**
 * Cockpit puts dashboard plugins in a "Custom Plugins" section below its own: the fleet is what an operator opens
 * Cockpit for, so that section moves to the top of the dashboard and is called "Fleet".
 */
function firstOnTheDashboard(node) {
  const move = () => {
    const section = node.closest('section.deprecate');
    if (!section) {
      return false;
    }
    const dashboard = section.parentElement;
    if (dashboard.firstElementChild !== section) {
      dashboard.insertBefore(section, dashboard.firstElementChild);
    }
    const title = section.querySelector('header .section-title');
    if (title) {
      title.textContent = 'Fleet';
    }
    return true;
  };
  let tries = 0;
  const timer = setInterval(() => {
    if (move() || ++tries > 50) {
      clearInterval(timer);
    }
  }, 100);
}

const fleetDashboard = {
  id: 'orchestrator-fleet',
  pluginPoint: 'cockpit.dashboard',
  priority: 100,
  render: node => {
    installStyle();
    const messages = new Messages();
    const you = h('div');
    const refreshed = h('span', {className: 'orch-muted', 'data-orch': 'refreshed'});
    const fleetArea = h('div', {'data-orch': 'fleet'}, 'Loading the fleet…');
    const panel = h('div', {'data-orch': 'panel'});
    // the node's circuit breaker: procedures pause while Phala Cloud does not answer (GET /api/phala-cloud)
    const phala = h('p', {className: 'orch-badge orch-bad', 'data-orch': 'phala-cloud', hidden: true});
    node.append(h('section', {className: 'orch', 'data-orch': 'dashboard'},
      h('p', null, refreshed), you, phala, messages.element, fleetArea, panel));
    let lastError = null;
    const actions = {
      start: async (kind, set) => {
        const form = await startForm(kind, set, messages, () => {
          panel.replaceChildren();
          load();
        });
        panel.replaceChildren(h('div', {className: 'orch-panel'}, h('h3', null, `${PROCEDURES[kind].long}: ${set.name}`), form,
          button('Cancel', () => panel.replaceChildren())));
      },
      history: set => historyPanel(set, panel, current.you, messages).catch(e => messages.error(`History of ${set.name}: ${e.message}`)),
      instances: set => instancesPanel(set, panel, current.you, messages, load).catch(e => messages.error(`Instances of ${set.name}: ${e.message}`))
    };
    const current = {you: {}};
    async function load() {
      try {
        const fleet = await api.get('/fleet');
        current.you = fleet.you;
        you.replaceChildren(youLine(fleet.you));
        fleetArea.replaceChildren(fleetTable(fleet, actions));
        // an open Instances panel is read again with the row above it, so the two never disagree for long
        const open = panel.querySelector('.orch-panel[data-orch^="instances-"]');
        const shown = open && fleet.sets.find(s => 'instances-' + s.name === open.getAttribute('data-orch'));
        if (shown) {
          try {
            await instancesPanel(shown, panel, current.you, messages, load);
          } catch (e) {
            const read = panel.querySelector('[data-orch=instances-read]');
            if (read) {
              read.textContent = `Could not read them again (${e.message}): what is shown was read earlier`;
            }
          }
        }
        refreshed.textContent = 'Refreshed ' + new Date().toLocaleTimeString() + ' (every 5 s)';
        const cloud = await api.get('/phala-cloud');
        phala.hidden = cloud.reachable;
        phala.textContent = cloud.reachable ? ''
          : `PhalaCloudUnreachable: ${cloud.condition}; ${cloud.pausedSteps} procedure step(s) wait for it`;
        lastError = null;
      } catch (e) {
        // said once, and kept until dismissed; the table shows the last good read meanwhile
        if (lastError !== e.message) {
          messages.error('Could not read the fleet: ' + e.message);
          lastError = e.message;
        }
      }
    }
    load();
    firstOnTheDashboard(node);
    node.orchestratorTimer = setInterval(() => {
      if (!document.body.contains(node)) {
        clearInterval(node.orchestratorTimer);
        return;
      }
      load();
    }, REFRESH_MS);
  },
  properties: {label: 'Fleet'}
};

/** The Processes page: the five operator procedures first, the helpers they call apart below them. */
const proceduresFirst = {
  id: 'orchestrator-procedures',
  pluginPoint: 'cockpit.processes.dashboard',
  priority: 100,
  render: (node, {api: pluginApi}) => {
    installStyle();
    const area = h('section', {className: 'orch orch-card', 'data-orch': 'procedures'}, 'Loading…');
    node.append(area);
    (async () => {
      const rest = engine(pluginApi);
      const definitions = await rest.get('/process-definition?latestVersion=true&sortBy=name&sortOrder=asc&maxResults=1000');
      const operator = definitions.filter(d => PROCEDURES[d.key]);
      const helpers = definitions.filter(d => !PROCEDURES[d.key]);
      const counts = await Promise.all(operator.map(d => rest.get(`/process-instance/count?processDefinitionKey=${enc(d.key)}`)));
      const groups = {};
      helpers.forEach(d => {
        const group = d.key.includes('-') && /^(drain|rejoin|add|join|leave|sequence)-/.test(d.key) ? d.key.split('-')[0] + '-<type>' : 'other';
        (groups[group] = groups[group] || []).push(d);
      });
      area.replaceChildren(h('h3', null, 'Operator procedures'),
        table(operator.map((d, n) => ({procedure: d.name || d.key, key: d.key, version: d.version, running: counts[n].count, d})),
          ['procedure', 'key', 'version', 'running'], (row, key) => key === 'procedure'
            ? h('a', {href: definitionLink(row.d.id), 'data-orch': 'procedure-' + row.key}, row.procedure) : undefined),
        h('h4', null, 'Helpers ', h('span', {className: 'orch-muted'}, '(called by the procedures above, never started by an operator)')),
        h('div', {'data-orch': 'helpers'}, Object.entries(groups).sort().map(([group, list]) => h('div', null, h('b', null, group + ': '),
          list.map((d, n) => [n ? ', ' : '', h('a', {href: definitionLink(d.id)}, d.key)])))));
    })().catch(e => area.replaceChildren('Could not list the procedures: ' + e.message));
  },
  properties: {label: 'Operator procedures'}
};

async function definitionKey(pluginApi, processDefinitionId) {
  return (await engine(pluginApi).get(`/process-definition/${enc(processDefinitionId)}`)).key;
}

/** On an operator procedure's page: start it, for a set chosen in the dialog. */
const startFromDefinition = {
  id: 'orchestrator-start',
  pluginPoint: 'cockpit.processDefinition.runtime.action',
  priority: 100,
  render: (node, {api: pluginApi, processDefinitionId}) => {
    (async () => {
      const key = await definitionKey(pluginApi, processDefinitionId);
      if (!PROCEDURES[key]) {
        return;
      }
      const fleet = await api.get('/fleet');
      const sets = fleet.sets.filter(set => startable(fleet.you, set).includes(key));
      if (sets.length === 0) {
        return;
      }
      node.append(actionGroup(wordButton(`Start a ${PROCEDURES[key].noun}`, `Start a ${PROCEDURES[key].noun} of a replica set`, async () => {
        const {body, close} = dialog(PROCEDURES[key].long);
        const messages = new Messages();
        const formArea = h('div');
        const choose = h('select', {className: 'form-control input-sm', name: 'replicaSet', 'data-orch': 'choose-set',
          onchange: () => show(sets.find(s => s.name === choose.value))}, sets.map(s => h('option', {value: s.name}, s.name)));
        async function show(set) {
          formArea.replaceChildren(await startForm(key, set, messages, () => formArea.replaceChildren()));
        }
        body.append(messages.element, h('label', null, 'Replica set'), choose, formArea,
          h('div', {className: 'orch-buttons'}, button('Close', close)));
        show(sets[0]);
      }, {'data-orch': 'start-from-definition'})));
    })().catch(e => console.error('orchestrator: start button', e)); // eslint-disable-line no-console
  }
};

/** On a running procedure's page: its report; on a rollout, pause, resume and abort, each with the operator's reason. */
const controlInstance = {
  id: 'orchestrator-control',
  pluginPoint: 'cockpit.processInstance.runtime.action',
  priority: 100,
  render: (node, {api: pluginApi, processInstanceId}) => {
    (async () => {
      const instance = await engine(pluginApi).get(`/process-instance/${enc(processInstanceId)}`);
      const key = await definitionKey(pluginApi, instance.definitionId);
      if (!PROCEDURES[key]) {
        return;
      }
      const kindPath = {rollout: 'rollouts', heal: 'heals', failover: 'failovers', scale: 'scales', 'lights-out-recovery': 'lights-out-recoveries', adoption: 'adoptions'}[key];
      const group = actionGroup();
      node.append(group);
      group.append(wordButton('Report', `Report of this ${PROCEDURES[key].noun}: steps, approvals, outcome`, async () => {
        const {body, close} = dialog('Report');
        try {
          body.append(reportView(await api.get(`/${kindPath}/${enc(processInstanceId)}`)));
        } catch (e) {
          body.append(h('p', {className: 'text-danger'}, e.message));
        }
        body.append(h('div', {className: 'orch-buttons'}, button('Close', close)));
      }, {'data-orch': 'report-button'}),
      wordButton('Page', `This ${PROCEDURES[key].noun}'s page: its diagram as it went, a timeline, the report; kept once it ends`, () => {
        window.location.hash = procedureLink(processInstanceId);
      }, {'data-orch': 'procedure-page-button'}));
      const you = await api.get('/me');
      if (key !== 'rollout' || !you.mayControlRollouts) {
        return;
      }
      // what the last control did, kept beside the buttons once its dialog has closed
      const status = h('div', {className: 'orch-muted', 'data-orch': 'control-answer'});
      for (const action of ['pause', 'resume', 'abort']) {
        group.append(wordButton(`${action[0].toUpperCase() + action.substring(1)} rollout`, `${action[0].toUpperCase() + action.substring(1)} this rollout (asks why)`,
          () => control(action), {'data-orch': 'control-' + action}));
      }
      group.append(status);
      function control(action) {
        const {body, close} = dialog(`${action[0].toUpperCase() + action.substring(1)} this rollout`);
        const reason = h('input', {type: 'text', className: 'form-control', name: 'reason', 'data-orch': 'control-reason',
          placeholder: 'why (recorded with the rollout, shown in its report)'});
        const answer = h('div', {'data-orch': 'control-refusal'});
        const confirm = button(action[0].toUpperCase() + action.substring(1), async () => {
          confirm.disabled = true;
          try {
            await api.post(`/rollouts/${enc(processInstanceId)}/${action}`, reason.value.trim() ? {reason: reason.value.trim()} : {});
            status.replaceChildren(h('p', {className: 'text-success'}, action === 'pause'
              ? 'Pause requested: the rollout stops at the next wave boundary.' : action === 'resume' ? 'Resumed.' : 'Abort requested.'));
            close();
          } catch (refused) {
            answer.replaceChildren(h('p', {className: 'text-danger'}, refused.message));
          } finally {
            confirm.disabled = false;
          }
        }, {className: 'btn btn-primary', 'data-orch': 'control-confirm'});
        body.append(h('label', null, 'Reason'), reason, answer, h('div', {className: 'orch-buttons'}, confirm, button('Close', close)));
      }
    })().catch(e => console.error('orchestrator: instance actions', e)); // eslint-disable-line no-console
  }
};

export default [fleetDashboard, proceduresFirst, startFromDefinition, controlInstance, procedurePage];
