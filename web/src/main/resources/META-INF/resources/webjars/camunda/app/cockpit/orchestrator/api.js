// Our /api, called with Cockpit's own session: the session cookie goes along by itself, and every request carries the
// session's CSRF token (the XSRF-TOKEN cookie the webapps hand out) in X-XSRF-TOKEN, as Cockpit's own calls do. Every
// answer is read as JSON when it is JSON; anything else (a login page, an empty body, a proxy's error) becomes a plain
// message with the status, never a "SyntaxError".

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)XSRF-TOKEN=([^;]*)/);
  return match ? decodeURIComponent(match[1]) : '';
}

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

async function read(response) {
  const text = await response.text();
  if (!text) {
    return null;
  }
  try {
    return JSON.parse(text);
  } catch (notJson) {
    return {message: text.length > 300 ? text.substring(0, 300) + '…' : text};
  }
}

export async function call(method, path, body) {
  const headers = {'Accept': 'application/json', 'X-XSRF-TOKEN': csrfToken()};
  const init = {method, headers, credentials: 'same-origin'};
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (unreachable) {
    throw new ApiError(0, 'the server could not be reached: ' + unreachable.message, null);
  }
  const answer = await read(response);
  if (!response.ok) {
    const why = answer && answer.message ? answer.message
      : response.status === 401 ? 'not logged in (log in to Cockpit again)'
        : response.status === 403 ? 'refused: you may not do this'
          : response.statusText || 'failed';
    throw new ApiError(response.status, `${response.status}: ${why}`, answer);
  }
  return answer;
}

export const api = {
  get: path => call('GET', '/api' + path),
  post: (path, body) => call('POST', '/api' + path, body === undefined ? {} : body)
};

// The engine's REST API as Cockpit calls it (read only here): /camunda/api/engine/engine/default
export function engine(pluginApi) {
  return {
    get: path => call('GET', pluginApi.engineApi + path)
  };
}

// Links into the webapps, from the page's <base app-root="/camunda">
export function appRoot() {
  const base = document.querySelector('base');
  return base ? base.getAttribute('app-root') : '/camunda';
}

export function tasklistLink(taskId) {
  return `${appRoot()}/app/tasklist/default/#/?task=${encodeURIComponent(taskId)}`;
}

export function instanceLink(processInstanceId) {
  return `#/process-instance/${encodeURIComponent(processInstanceId)}/runtime`;
}

export function definitionLink(processDefinitionId) {
  return `#/process-definition/${encodeURIComponent(processDefinitionId)}/runtime`;
}

// Our page of a procedure, running or finished (procedure.js)
export const PROCEDURE_ROUTE = '/orchestrator/procedures/';

export function procedureLink(processInstanceId) {
  return '#' + PROCEDURE_ROUTE + encodeURIComponent(processInstanceId);
}
