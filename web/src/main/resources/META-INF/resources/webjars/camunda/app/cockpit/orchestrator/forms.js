// The five operator procedures' start forms in Cockpit: the same fields as their Tasklist start forms, sent to our
// /api, whose endpoints start the procedure through the same start check as every other path (one procedure per set,
// the allow-lists, the caller's authorizations). The server's answer is shown as it is: its reason on a refusal.
import {api, instanceLink, procedureLink} from './api.js';
import {badge, button, h, progressBar, table, text} from './ui.js';

const enc = encodeURIComponent;

/** NAME=value lines into {NAME: value}; the values go to /api only, which seals them before anything is stored. */
export function parseEnvs(lines) {
  const envs = {};
  lines.split('\n').forEach((raw, n) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) {
      return;
    }
    const eq = line.indexOf('=');
    if (eq < 1) {
      throw new Error(`env, line ${n + 1}: write NAME=value`);
    }
    envs[line.substring(0, eq).trim()] = line.substring(eq + 1);
  });
  return envs;
}

function field(label, hint, input) {
  return h('div', null, h('label', null, label, hint ? h('span', {className: 'orch-hint'}, ' (' + hint + ')') : null), input);
}

function reasonField() {
  return h('input', {type: 'text', name: 'reason', className: 'form-control input-sm', placeholder: 'why (kept with the procedure)'});
}

/** Each procedure: what it is called, which sets it applies to, its fields, where it is sent and with what. */
export const PROCEDURES = {
  rollout: {
    title: 'Roll out',
    noun: 'rollout',
    long: 'Roll out a new compose and/or env',
    fields: async set => {
      const compose = h('textarea', {name: 'dockerCompose', rows: 9, className: 'form-control'});
      compose.dataset.original = '';
      try {
        const revisions = await api.get(`/replica-sets/${enc(set.name)}/revisions`);
        const update = revisions.find(r => r.update) || revisions.find(r => r.current);
        if (update) {
          const revision = await api.get(`/replica-sets/${enc(set.name)}/revisions/${update.number}`);
          compose.value = revision.dockerCompose || '';
          compose.dataset.original = compose.value;
        }
      } catch (unreadable) {
        // the field stays empty: the operator pastes the compose
      }
      return [
        field('docker-compose YAML', 'the set\'s current compose; edit it to roll out a change. Left as it is, an env rollout keeps it', compose),
        field('Env, one NAME=value a line', 'optional; the whole environment. Sent to the server, which seals it to the app\'s key before anything is stored: only the names are kept',
          h('textarea', {name: 'envs', rows: 3, className: 'form-control', autocomplete: 'off', spellcheck: 'false'})),
        field('Update policy override', 'optional JSON, e.g. {"maxUnavailable": 1}', h('textarea', {name: 'updatePolicy', rows: 2, className: 'form-control'}))
      ];
    },
    body: form => {
      const body = {};
      const compose = form.dockerCompose.value;
      const envs = form.envs.value.trim() === '' ? null : parseEnvs(form.envs.value);
      if (envs && Object.keys(envs).length > 0) {
        body.envs = envs;
      }
      if (compose.trim() !== '' && !(body.envs && compose === form.dockerCompose.dataset.original)) {
        body.dockerCompose = compose;
      }
      if (!body.dockerCompose && !body.envs) {
        throw new Error('docker-compose YAML: is required (or give an env to roll out the env alone)');
      }
      const policy = form.updatePolicy.value.trim();
      if (policy !== '') {
        try {
          body.updatePolicy = JSON.parse(policy);
        } catch (notJson) {
          throw new Error('Update policy override: not JSON (' + notJson.message + ')');
        }
      }
      return body;
    },
    path: set => `/replica-sets/${enc(set.name)}/rollouts`,
    preview: set => `/replica-sets/${enc(set.name)}/rollouts/plan`
  },
  heal: {
    title: 'Heal',
    noun: 'heal',
    long: 'Heal an instance',
    fields: async set => [
      field('Instance', 'the ordinal of the slot', h('select', {name: 'ordinal', className: 'form-control input-sm'},
        [...Array(set.replicas).keys()].map(n => h('option', {value: String(n)}, `${set.name}-${n}`)))),
      field('Why', 'optional', reasonField())
    ],
    body: form => reasonBody(form),
    path: (set, form) => `/replica-sets/${enc(set.name)}/instances/${enc(form.ordinal.value)}/heal`
  },
  failover: {
    title: 'Fail over',
    noun: 'failover',
    long: 'Fail over the leader',
    appliesTo: set => set.workloadType === 'patroni',
    fields: async () => [field('Why', 'optional', reasonField())],
    body: form => reasonBody(form),
    path: set => `/replica-sets/${enc(set.name)}/failover`
  },
  scale: {
    title: 'Scale',
    noun: 'scale',
    long: 'Scale the set',
    fields: async set => [
      field('Replicas wanted', `now ${set.replicas}`, h('input', {type: 'number', name: 'replicas', min: '1', step: '1',
        value: String(set.replicas), className: 'form-control input-sm'})),
      field('Why', 'optional', reasonField())
    ],
    body: form => {
      const replicas = form.replicas.value.trim();
      const body = reasonBody(form);
      body.replicas = /^-?\d+$/.test(replicas) ? Number(replicas) : replicas;
      return body;
    },
    path: set => `/replica-sets/${enc(set.name)}/scale`
  },
  'lights-out-recovery': {
    title: 'Lights-out recovery',
    noun: 'lights-out recovery',
    long: 'Recover the set after a lights-out',
    fields: async set => {
      const inOutage = (set.conditions || []).some(c => c.type === 'Outage' && c.status);
      return inOutage ? [field('Why', 'optional', reasonField())] : [
        h('p', {className: 'orch-badge orch-warn', 'data-orch': 'not-in-outage'},
          `${set.name} is not in an outage: a lights-out recovery stops and restarts every member. Recover it only on purpose.`),
        field('Why', 'required when the set is not in an outage', reasonField()),
        h('label', null, h('input', {type: 'checkbox', name: 'overrideNoOutage', 'data-orch': 'override-no-outage'}),
          ' Recover it anyway (the override is recorded with your name and reason)')];
    },
    body: form => ({...reasonBody(form), ...(form.overrideNoOutage && form.overrideNoOutage.checked ? {overrideNoOutage: true} : {})}),
    path: set => `/replica-sets/${enc(set.name)}/lights-out-recovery`
  },
  adoption: {
    title: 'Adopt',
    noun: 'adoption',
    long: 'Adopt the set (its app was made elsewhere): survey it, touching nothing, then an approver accepts what runs',
    appliesTo: set => (set.conditions || []).some(c => c.type === 'AwaitingAdoption' && c.status),
    fields: async () => [field('Why', 'optional', reasonField())],
    body: form => reasonBody(form),
    path: set => `/replica-sets/${enc(set.name)}/adoptions`
  }
};

function capitalized(text) {
  return text[0].toUpperCase() + text.substring(1);
}

function reasonBody(form) {
  const reason = form.reason ? form.reason.value.trim() : '';
  return reason === '' ? {} : {reason};
}

/** The procedures the caller may start on the set, in the order above. */
export function startable(you, set) {
  return Object.entries(PROCEDURES)
    .filter(([kind, procedure]) => you && you.mayStart && you.mayStart[kind])
    .filter(([kind, procedure]) => !procedure.appliesTo || procedure.appliesTo(set))
    .map(([kind]) => kind);
}

/**
 * The start form of {@code kind} for {@code set}: fields, a plan preview for a rollout, the start button. On a start
 * the message says what started (with a link to the process instance) and stays until dismissed.
 */
export async function startForm(kind, set, messages, onDone) {
  const procedure = PROCEDURES[kind];
  const form = h('form', {className: 'orch-start-form', 'data-orch': 'start-' + kind, onsubmit: event => event.preventDefault()},
    ...(await procedure.fields(set)));
  const preview = h('div', {'data-orch': 'plan'});
  const formError = h('div', {className: 'text-danger', 'data-orch': 'form-error'});
  const start = button(`Start the ${procedure.noun} of ${set.name}`, async () => {
    formError.textContent = '';
    let body;
    try {
      body = procedure.body(form);
    } catch (invalid) {
      formError.textContent = invalid.message;
      return;
    }
    start.disabled = true;
    try {
      const started = await api.post(procedure.path(set, form), body);
      messages.success(`${capitalized(procedure.noun)} of ${set.name} started: `,
        h('a', {href: instanceLink(started.processInstanceId), 'data-orch': 'started-instance'}, 'process instance ' + started.processInstanceId),
        ' (', h('a', {href: procedureLink(started.processInstanceId), 'data-orch': 'started-page'}, 'its page'), ')',
        '. Approvals it asks for wait in Tasklist.');
      onDone(started);
    } catch (refused) {
      formError.textContent = refused.message;
      messages.error(`${capitalized(procedure.noun)} of ${set.name} refused: ${refused.message}`);
    } finally {
      start.disabled = false;
    }
  }, {className: 'btn btn-primary btn-sm', 'data-orch': 'start'});
  const buttons = [start];
  if (procedure.preview) {
    buttons.unshift(button('Preview the plan', async () => {
      formError.textContent = '';
      preview.replaceChildren();
      try {
        const plan = await api.post(procedure.preview(set), procedure.body(form));
        preview.replaceChildren(planView(plan));
      } catch (refused) {
        formError.textContent = refused.message;
      }
    }, {'data-orch': 'preview'}));
  }
  return h('div', null, form, formError, h('div', {className: 'orch-buttons'}, buttons), preview);
}

/** A rollout's plan: waves in order, each action with its reason, and what holds or refuses it. */
export function planView(plan) {
  const actions = [...(plan.actions || [])].sort((a, b) => (a.wave ?? 0) - (b.wave ?? 0));
  return h('div', {'data-orch': 'plan-view'},
    h('h4', null, `Plan for ${plan.replicaSet}: ${(plan.waves || []).length} wave(s), at most ${text(plan.maxUnavailable)} unavailable, surge ${text(plan.maxSurge)}`),
    plan.envChange ? h('p', null, 'Env change: ', (plan.envChange.keys || []).join(', '), ' (values sealed, never shown)') : null,
    table(actions.map(a => ({wave: text(a.wave), instance: a.slot, action: a.action, reason: a.reason})),
      ['wave', 'instance', 'action', 'reason']),
    (plan.blockers || []).length ? h('p', null, badge('blocked', 'warn'), (plan.blockers || []).map(text).join('; ')) : null,
    (plan.refusals || []).length ? h('p', null, badge('refused', 'bad'), (plan.refusals || []).map(text).join('; ')) : null);
}

// the report shown on the procedure's own page needs no link to it
function inPage(report) {
  return decodeURIComponent(window.location.hash).endsWith('/' + report.processInstanceId);
}

/** A procedure's report: outcome, who asked, steps, approvals with who, when and their comments, operator controls. */
export function reportView(report) {
  const approvals = (report.approvals || []).map(a => ({task: a.task, decision: a.decision, by: a.by, at: a.at, comment: a.comment || ''}));
  return h('div', {'data-orch': 'report'},
    h('p', null, h('b', null, `${report.kind} ${report.processInstanceId}: `), `${report.state}, outcome: ${text(report.outcome)}`,
      report.result ? ` (${text(report.result)})` : '', `; requested by ${text(report.requestedBy)}, ${text(report.startedAt)} – ${text(report.endedAt)}`,
      inPage(report) ? '' : [' ', h('a', {href: procedureLink(report.processInstanceId), 'data-orch': 'report-page'}, 'its page')]),
    report.progress ? progressBar(report.progress, {'data-orch': 'report-progress'}) : null,
    report.onChainRegistration ? h('p', {'data-orch': 'report-on-chain'}, h('b', null, 'Registered on chain: '),
      `compose hash ${text(report.onChainRegistration.composeHash)}, transaction ${text(report.onChainRegistration.transactionHash)}`) : null,
    (report.controls || []).length ? h('div', null, h('h4', null, 'Pause, resume, abort'),
      table(report.controls, ['action', 'by', 'at', 'reason'])) : null,
    h('h4', null, 'Approvals'),
    approvals.length ? table(approvals, ['task', 'decision', 'by', 'at', 'comment']) : h('p', {className: 'orch-muted'}, 'none'),
    h('h4', null, 'Steps'),
    (report.steps || []).length ? table(report.steps) : h('p', {className: 'orch-muted'}, 'none recorded'));
}
