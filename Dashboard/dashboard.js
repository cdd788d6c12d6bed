// mockd dashboard: plain JavaScript, no dependencies, same-origin relative URLs only.
// Every piece of data goes into the DOM as text (textContent / text nodes), never as HTML.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const TOKEN_KEY = 'mockd.adminToken';
  const MAX_ROWS = 500;

  let token = sessionStorage.getItem(TOKEN_KEY) || '';
  let tokenWaiters = null; // callers waiting for the token form
  const entries = new Map(); // journal id -> entry
  let events = { next: null, state: null, scenario: 'default', sessions: {}, lastReload: null };
  let sources = { sources: [], scenarios: ['default'] };
  let resources = []; // GET /__mockd/resources: each resource and its copies' item counts
  let webSockets = []; // the open WebSocket connections, as the last events answer listed them
  let webSocketsShown = ''; // that list as JSON, to redraw only what changed
  const messages = new Map(); // WebSocket connection id -> its messages both ways, oldest first
  const MAX_MESSAGES = 200; // per connection
  let selected = null; // { kind: 'request', id }, { kind: 'source', origin }, { kind: 'resource', path, scenario, session } or { kind: 'websocket', id }

  // ---- DOM helpers ---------------------------------------------------------------------
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === 'text') node.textContent = String(value);
      else if (name === 'onclick') node.addEventListener('click', value);
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  // Text with a line-break opportunity after each '/', so a long origin wraps between folders.
  const breakable = (text) => String(text).split('/').flatMap((part, index, parts) => (index < parts.length - 1 ? [part + '/', el('wbr')] : [part]));
  const statusClass = (status) => (status == null ? 'st-fault' : 'st-' + String(status)[0] + 'xx');
  const methodClass = (method) => 'm-' + String(method).toLowerCase().replace(/[^a-z]/g, '');
  function pretty(text) {
    if (typeof text !== 'string' || text.trim() === '') return text || '';
    try { return JSON.stringify(JSON.parse(text), null, 2); } catch { return text; }
  }
  function clock(iso) {
    const date = new Date(iso);
    if (isNaN(date)) return String(iso || '');
    const two = (n) => String(n).padStart(2, '0');
    return two(date.getHours()) + ':' + two(date.getMinutes()) + ':' + two(date.getSeconds()) + '.' + String(date.getMilliseconds()).padStart(3, '0');
  }
  function headersTable(headers, testid) {
    const names = Object.keys(headers || {});
    if (names.length === 0) return el('p', { class: 'muted', text: 'no headers' });
    return el('table', { class: 'kv', 'data-testid': testid },
      el('tbody', null, names.map((name) => el('tr', null, el('th', { scope: 'row', text: name }), el('td', { text: headers[name] })))));
  }
  const bodyBlock = (text, testid) => (text ? el('pre', { class: 'body', 'data-testid': testid, text: pretty(text) }) : el('p', { class: 'muted', text: 'empty body' }));
  function showDetail(title, ...nodes) {
    $('detail-title').textContent = title;
    $('detail').replaceChildren(...nodes.flat(Infinity).filter(Boolean));
  }

  // ---- API (token on a 401, asked once through the form) ---------------------------------
  function askToken(rejected) {
    if (!tokenWaiters) {
      tokenWaiters = [];
      $('token-message').textContent = rejected
        ? 'That token was refused. Enter the token given to mockd with --admin-token.'
        : 'This mockd needs its admin token (--admin-token).';
      $('token-form').hidden = false;
      $('token-input').focus();
    }
    return new Promise((resolve) => tokenWaiters.push(resolve));
  }
  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    token = $('token-input').value.trim();
    sessionStorage.setItem(TOKEN_KEY, token);
    $('token-form').hidden = true;
    $('token-input').value = '';
    const waiters = tokenWaiters || [];
    tokenWaiters = null;
    waiters.forEach((resolve) => resolve());
  });

  async function api(method, path, body) {
    for (;;) {
      const headers = { Accept: 'application/json' };
      if (token) headers.Authorization = 'Bearer ' + token;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const sent = token;
      const response = await fetch(path, { method, headers, cache: 'no-store', body: body === undefined ? undefined : JSON.stringify(body) });
      if (response.status === 401) {
        // Another call may already have got a new token while this one was in flight.
        if (token === sent) await askToken(sent !== '');
        continue;
      }
      const text = await response.text();
      let data = null;
      try { data = text ? JSON.parse(text) : null; } catch { data = null; }
      return { status: response.status, ok: response.ok, data, text };
    }
  }
  const errorText = (result) => (result.data && result.data.error ? result.data.error : result.text || 'HTTP ' + result.status);

  // ---- What can answer -------------------------------------------------------------------
  async function loadSources() {
    const result = await api('GET', 'sources');
    if (!result.ok || !result.data) { $('sources-list').replaceChildren(el('p', { class: 'error', text: 'sources: ' + errorText(result) })); return; }
    sources = result.data;
    if (result.data.scenario) events.scenario = result.data.scenario;
    if (result.data.sessions) events.sessions = result.data.sessions;
    renderSources();
    renderScenarios();
    renderPushes();
  }

  function renderSources() {
    const words = $('sources-filter').value.toLowerCase().split(/\s+/).filter(Boolean);
    const groups = new Map();
    for (const source of sources.sources || []) {
      const haystack = [source.method, source.url, source.origin, source.scenario || 'any', source.status, source.name, source.kind].join(' ').toLowerCase();
      if (!words.every((word) => haystack.includes(word))) continue;
      const key = source.url + ' ' + source.method;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(source);
    }
    const keys = [...groups.keys()].sort();
    const total = (sources.sources || []).length;
    let shown = 0;
    const nodes = keys.map((key) => {
      const items = groups.get(key);
      shown += items.length;
      return el('div', { class: 'group', role: 'listitem', 'data-testid': 'source-group' },
        el('div', { class: 'group-head' }, el('span', { class: 'method ' + methodClass(items[0].method), text: items[0].method }), el('span', { class: 'path', text: items[0].url })),
        items.map((source) => el('button', {
          type: 'button', class: 'source' + (selected && selected.kind === 'source' && selected.origin === source.origin ? ' selected' : ''),
          'data-testid': 'source-item', 'data-origin': source.origin, 'data-kind': source.kind,
          onclick: () => showSource(source.origin),
        },
        el('span', { class: 'status ' + statusClass(source.status), text: source.status == null ? 'fault' : source.status }),
        el('span', { class: 'scenario-tag' + (source.scenario ? '' : ' any'), text: source.scenario || 'any' }),
        el('span', { class: 'origin' }, breakable(source.origin)),
        source.name ? el('span', { class: 'name', text: source.name }) : null,
        (source.conditions || []).length ? el('span', { class: 'conditions', text: 'if ' + source.conditions.join(' and ') }) : null,
        source.neverAnswers ? el('span', { class: 'conditions never', 'data-testid': 'never-answers', text: 'never answers: ' + source.neverAnswers }) : null)));
    });
    $('sources-list').replaceChildren(...(nodes.length ? nodes : [el('p', { class: 'empty', text: total ? 'Nothing matches the filter.' : 'Nothing to serve yet.' })]));
    $('sources-count').textContent = shown === total ? String(total) : shown + ' of ' + total;
  }

  async function showSource(origin) {
    selected = { kind: 'source', origin };
    markSelection();
    showDetail(origin, el('p', { class: 'muted', text: 'loading…' }));
    const result = await api('GET', 'source?origin=' + encodeURIComponent(origin));
    if (!selected || selected.origin !== origin) return;
    showDetail(origin, sourceNodes(result, origin));
  }

  function sourceNodes(result, origin) {
    if (!result.ok || !result.data) return [el('p', { class: 'error', 'data-testid': 'source-error', text: result.status === 404 ? origin + ' is no longer known (a reload removed it?)' : errorText(result) })];
    const responses = result.data.responses || [];
    return [el('p', { class: 'muted', text: result.data.kind + (responses.length > 1 ? ', a sequence of ' + responses.length + ' responses' : '') }),
      responses.map((response, index) => el('div', { class: 'response', 'data-testid': 'source-response' },
        el('h3', null, responses.length > 1 ? '#' + (index + 1) + ' ' : '', el('span', { class: 'status ' + statusClass(response.status), text: response.status == null ? 'fault' : response.status }),
          response.fault ? el('span', { class: 'tag warn', text: 'fault ' + response.fault }) : null,
          response.template ? el('span', { class: 'tag', text: 'template' }) : null,
          response.example ? el('span', { class: 'tag', text: 'example ' + response.example }) : null,
          response.delayMs ? el('span', { class: 'tag', text: 'delay ' + (typeof response.delayMs === 'object' ? JSON.stringify(response.delayMs) : response.delayMs + ' ms') }) : null),
        headersTable(response.headers, 'source-headers'),
        bodyBlock(response.body, 'source-body')))];
  }

  // ---- Resources: what requests wrote, per session ----------------------------------------
  async function loadResources() {
    const result = await api('GET', 'resources');
    if (!result.ok || !result.data) { $('resources-list').replaceChildren(el('p', { class: 'error', text: 'resources: ' + errorText(result) })); return; }
    resources = result.data.resources || [];
    renderResources();
    if (selected && selected.kind === 'resource') showResource(selected.path, selected.scenario, selected.session);
  }
  // A write answered by a resource reloads the list (and the items shown) once the burst is over.
  let resourcesTimer = null;
  function resourcesChanged() {
    clearTimeout(resourcesTimer);
    resourcesTimer = setTimeout(() => { loadResources().catch(() => {}); }, 150);
  }

  const copyLabel = (copy) => (copy.session === null ? 'no session' : 'session ' + copy.session) + (copy.seededBy === 'seed' ? '' : ' (' + copy.seededBy + ')') + ': ' + copy.items;
  function renderResources() {
    $('resources').hidden = resources.length === 0;
    $('resources-count').textContent = resources.length ? String(resources.length) : '';
    $('resources-list').replaceChildren(...resources.map((resource) => el('button', {
      type: 'button', class: 'resource', role: 'listitem', 'data-testid': 'resource-item', 'data-path': resource.path, 'data-scenario': resource.scenario || '',
      onclick: () => showResource(resource.path, resource.scenario, $('scenario-target').value),
    },
    el('span', { class: 'path', text: resource.path }),
    el('span', { class: 'scenario-tag' + (resource.scenario ? '' : ' any'), text: resource.scenario || 'any' }),
    el('span', { class: 'copies', 'data-testid': 'resource-copies', text: 'seed ' + resource.seedItems + (resource.copies || []).map((copy) => ', ' + copyLabel(copy)).join('') }))));
    markSelection();
  }

  // The sessions whose items can be shown: those known to the dashboard and those with a copy.
  function resourceSessions(path) {
    const names = new Set(sessionNames());
    for (const resource of resources) if (resource.path === path) for (const copy of resource.copies || []) if (copy.session !== null) names.add(copy.session);
    return [...names].sort();
  }

  async function showResource(path, scenario, session) {
    selected = { kind: 'resource', path, scenario: scenario || null, session: session || '' };
    markSelection();
    const query = 'resources?path=' + encodeURIComponent(path) + (session ? '&session=' + encodeURIComponent(session) : '') + (scenario ? '&scenario=' + encodeURIComponent(scenario) : '');
    const result = await api('GET', query);
    if (!selected || selected.kind !== 'resource' || selected.path !== path || selected.session !== (session || '')) return;
    const picker = el('select', { id: 'resource-session', 'data-testid': 'resource-session' },
      el('option', { value: '', text: 'requests without a session' }),
      resourceSessions(path).map((name) => el('option', { value: name, text: 'session ' + name })));
    picker.value = session || '';
    picker.addEventListener('change', () => showResource(path, scenario, picker.value));
    const head = el('div', { class: 'resource-head' }, el('label', { for: 'resource-session', class: 'muted', text: 'Items seen by' }), picker);
    if (!result.ok || !result.data) { showDetail(path, head, el('p', { class: 'error', 'data-testid': 'resource-error', text: errorText(result) })); return; }
    const items = result.data.items || [];
    showDetail(path, head,
      el('p', { class: 'muted', 'data-testid': 'resource-summary', text: items.length + ' item' + (items.length === 1 ? '' : 's') + ', scenario ' + result.data.scenario + ', from ' + result.data.source }),
      itemsTable(items));
  }

  // One row an item, one column a top-level field (in the order first met); nested values as JSON.
  function itemsTable(items) {
    if (items.length === 0) return el('p', { class: 'empty', 'data-testid': 'resource-items', text: 'No items.' });
    const fields = [];
    for (const item of items) for (const name of Object.keys(item || {})) if (!fields.includes(name)) fields.push(name);
    const cell = (value) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));
    return el('table', { class: 'items', 'data-testid': 'resource-items' },
      el('thead', null, el('tr', null, fields.map((name) => el('th', { scope: 'col', text: name })))),
      el('tbody', null, items.map((item) => el('tr', { 'data-testid': 'resource-row' }, fields.map((name) => el('td', { text: cell((item || {})[name]) }))))));
  }

  // ---- Live requests ---------------------------------------------------------------------
  function requestRow(entry) {
    return el('tr', {
      class: 'request r-' + statusClass(entry.status).slice(3), tabindex: 0, 'data-testid': 'request-row', 'data-id': entry.id,
      'data-status': entry.status, 'data-path': entry.path, 'aria-label': entry.method + ' ' + entry.path + ' ' + entry.status,
    },
    el('td', { class: 'time', text: clock(entry.time), title: entry.time }),
    el('td', { class: 'path', title: entry.method + ' ' + entry.path + (entry.query ? '?' + entry.query : '') },
      el('span', { class: 'method ' + methodClass(entry.method), text: entry.method }), ' ', entry.path, entry.query ? el('span', { class: 'query', text: '?' + entry.query }) : null),
    el('td', null, el('span', { class: 'status ' + statusClass(entry.status), text: entry.status })),
    el('td', { class: 'source-cell', text: entry.source, title: entry.source }),
    el('td', { class: 'num', text: typeof entry.durationMs === 'number' ? entry.durationMs.toFixed(1) : '' }),
    el('td', { class: 'session', text: entry.session || '' }),
    el('td', { class: 'scenario', text: entry.scenario || '' }));
  }

  function addEntries(list) {
    const body = $('requests-body');
    for (const entry of list) {
      if (entries.has(entry.id)) continue;
      entries.set(entry.id, entry);
      body.prepend(requestRow(entry));
    }
    while (body.rows.length > MAX_ROWS) {
      const last = body.rows[body.rows.length - 1];
      entries.delete(Number(last.dataset.id));
      last.remove();
    }
    $('requests-empty').hidden = entries.size > 0;
    $('requests-count').textContent = entries.size ? String(entries.size) : '';
    if (list.some((entry) => entry.session)) renderTargets();
    if (list.some((entry) => entry.kind === 'resource' && entry.method !== 'GET' && entry.method !== 'HEAD')) resourcesChanged();
    markSelection();
  }

  $('requests-body').addEventListener('click', (event) => {
    const row = event.target.closest('tr[data-id]');
    if (row) showRequest(Number(row.dataset.id));
  });
  $('requests-body').addEventListener('keydown', (event) => {
    const row = event.target.closest('tr[data-id]');
    if (row && (event.key === 'Enter' || event.key === ' ')) { event.preventDefault(); showRequest(Number(row.dataset.id)); }
  });

  function markSelection() {
    for (const row of $('requests-body').rows) row.classList.toggle('selected', !!selected && selected.kind === 'request' && Number(row.dataset.id) === selected.id);
    for (const button of $('sources-list').querySelectorAll('.source')) button.classList.toggle('selected', !!selected && selected.kind === 'source' && button.dataset.origin === selected.origin);
    for (const button of $('resources-list').querySelectorAll('.resource')) {
      button.classList.toggle('selected', !!selected && selected.kind === 'resource' && button.dataset.path === selected.path && button.dataset.scenario === (selected.scenario || ''));
    }
    for (const button of $('websockets-list').querySelectorAll('.websocket')) button.classList.toggle('selected', !!selected && selected.kind === 'websocket' && Number(button.dataset.id) === selected.id);
  }

  // `file X` -> X, `route routes/a.json#2` -> routes/a.json#2; an OpenAPI answer's whole source
  // (`openapi doc.yaml GET /p 200 example "cat"`) names its operation.
  // The name `GET /__mockd/source?origin=` takes for what answered an entry, from its kind and label.
  function originOf(entry) {
    const text = String(entry.source || '');
    if (entry.kind === 'file') return text.slice('file '.length);
    if (entry.kind === 'route') { const match = /^route (.+?#\d+)/.exec(text); return match ? match[1] : text.slice('route '.length); }
    if (entry.kind === 'operation') return text;
    return null;
  }

  function showRequest(id) {
    const entry = entries.get(id);
    if (!entry) return;
    selected = { kind: 'request', id };
    markSelection();
    const title = entry.method + ' ' + entry.path + (entry.query ? '?' + entry.query : '');
    const nodes = [];
    const response = entry.response;
    let report = null;
    const isMiss = entry.kind === 'notFound';
    if (isMiss && response) { try { report = JSON.parse(response.body); } catch { report = null; } }
    if (report) nodes.push(missNodes(report));
    // A proxied answer can be saved as a mock; a failed forward (kind proxyFailure) is mockd's own 502/504.
    const isProxy = entry.kind === 'proxy';
    if (isMiss || isProxy) {
      const prefill = isProxy && response && response.body ? pretty(response.body) : '{}';
      nodes.push(mockEditor(entry, prefill, isProxy));
    }
    nodes.push(el('p', { class: 'summary' },
      el('span', { class: 'status ' + statusClass(entry.status), text: entry.status }), ' answered by ', el('code', { text: entry.source }),
      ' in ' + (typeof entry.durationMs === 'number' ? entry.durationMs.toFixed(1) + ' ms' : '?'),
      ', scenario ', el('code', { text: entry.scenario }), entry.session ? [', session ', el('code', { text: entry.session })] : null,
      ', at ' + entry.time));
    nodes.push(el('h3', { text: 'Request headers' }), headersTable(entry.headers, 'request-headers'));
    nodes.push(el('h3', { text: 'Request body' + (entry.bodyTruncated ? ' (truncated)' : '') }), bodyBlock(entry.body, 'request-body'));
    const answer = el('div', { id: 'answer', 'data-testid': 'answer' });
    nodes.push(el('h3', { text: 'Answer' }), answer);
    if (response) {
      answer.append(el('p', { class: 'muted', text: response.contentType || '' }), bodyBlock(response.body, 'answer-body'));
    } else {
      const origin = originOf(entry);
      if (origin) {
        answer.append(el('p', { class: 'muted', text: 'loading ' + origin + '…' }));
        api('GET', 'source?origin=' + encodeURIComponent(origin)).then((result) => answer.replaceChildren(el('p', { class: 'muted' }, 'from ', el('code', { text: origin })), ...sourceNodes(result, origin).flat(Infinity)));
      } else {
        answer.append(el('p', { class: 'muted', text: 'no body kept for this answer' }));
      }
    }
    showDetail(title, nodes);
  }

  function listOf(title, items, testid, describe) {
    if (!Array.isArray(items) || items.length === 0) return null;
    return el('div', { class: 'near' }, el('h4', { text: title }),
      el('ul', { 'data-testid': testid }, items.map((item) => el('li', null, describe(item)))));
  }
  const describeAny = (item) => (typeof item === 'string' ? el('code', { text: item }) : el('code', { text: JSON.stringify(item) }));

  function missNodes(report) {
    return el('div', { class: 'miss', 'data-testid': 'miss' },
      el('p', { class: 'miss-title' }, 'No mock answered. mockd looked for ', el('code', { id: 'miss-file', 'data-testid': 'miss-file', text: report.file || '?' })),
      Array.isArray(report.lookedFor) && report.lookedFor.length ? el('p', { class: 'muted' }, 'in ', report.lookedFor.map((path, index) => [index ? ', ' : '', el('code', null, breakable(path))])) : null,
      listOf('Near names', report.nearNames, 'near-names', describeAny),
      listOf('Other methods', report.otherMethods, 'other-methods', (item) => [el('code', { text: item.file }), ' (' + item.method + ')']),
      listOf('Near routes', report.nearRoutes, 'near-routes', (item) => (item && item.route ? [el('code', { text: item.route }), ' ' + item.method + ' ' + item.path + ': ' + item.why] : describeAny(item))),
      listOf('Present but not served', report.notServed, 'not-served', (item) => (item && item.file ? [el('code', { text: item.file }), ': ' + item.why] : describeAny(item))),
      listOf('Near OpenAPI operations', report.nearOperations, 'near-operations', describeAny),
      report.hint ? el('p', { class: 'hint', text: 'Hint: ' + report.hint }) : null);
  }

  function mockEditor(entry, prefill, isProxy) {
    const scenarioSelect = el('select', { id: 'mock-scenario', 'data-testid': 'mock-scenario' },
      el('option', { value: '', text: 'none (base)' }),
      (sources.scenarios || []).filter((name) => name !== 'default').map((name) => el('option', { value: name, text: name })));
    const status = el('input', { id: 'mock-status', 'data-testid': 'mock-status', type: 'number', min: 100, max: 599, value: isProxy ? entry.status : 200 });
    const textarea = el('textarea', { id: 'mock-body', 'data-testid': 'mock-body', rows: 6, spellcheck: 'false' });
    textarea.value = prefill;
    const result = el('p', { id: 'mock-result', 'data-testid': 'mock-result', role: 'status' });
    const form = el('form', { id: 'mock-form', class: 'editor', 'data-testid': 'mock-form' },
      el('h3', { text: isProxy ? 'Save as mock' : 'Create a mock for this miss' }),
      el('label', { for: 'mock-body', text: 'Body (JSON) for ' + entry.method + ' ' + entry.path }), textarea,
      el('div', { class: 'row' },
        el('label', { for: 'mock-scenario', text: 'Scenario' }), scenarioSelect,
        el('label', { for: 'mock-status', text: 'Status' }), status,
        el('button', { type: 'submit', id: 'mock-save', 'data-testid': 'mock-save', text: 'Save' })),
      result);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      result.className = 'muted';
      result.textContent = 'saving…';
      const request = { method: entry.method === 'HEAD' ? 'GET' : entry.method, path: entry.path, body: textarea.value, status: Number(status.value) || 200, scenario: scenarioSelect.value || null };
      const answer = await api('POST', 'mocks', request);
      if (answer.status === 201 && answer.data) {
        result.className = 'ok';
        result.textContent = 'Wrote ' + (answer.data.path || answer.data.file) + (answer.data.reload && answer.data.reload.status === 'failed' ? ' (but the reload failed, see above)' : '; mockd serves it now.');
        if (answer.data.reload) renderReload(answer.data.reload);
      } else {
        result.className = 'error';
        result.textContent = answer.status + ': ' + errorText(answer);
      }
    });
    return form;
  }

  // ---- WebSocket connections: the open ones, their messages both ways, a send box ----------
  const whose = (session) => (session === null || session === undefined ? 'no session' : 'session ' + session);
  const counts = (connection) => '#' + connection.id + ', opened ' + clock(connection.opened) + ', ' + connection.messagesIn + ' in, ' + connection.messagesOut + ' out';

  function renderWebSockets(list) {
    const shown = JSON.stringify(list);
    if (shown === webSocketsShown) return;
    webSocketsShown = shown;
    webSockets = list;
    $('websockets').hidden = list.length === 0;
    $('websockets-count').textContent = list.length ? String(list.length) : '';
    $('websockets-list').replaceChildren(...list.map((connection) => el('button', {
      type: 'button', class: 'websocket', role: 'listitem', 'data-testid': 'ws-connection', 'data-id': connection.id, 'data-path': connection.path,
      'data-session': connection.session === null ? '' : connection.session, onclick: () => showWebSocket(connection.id),
    },
    el('span', { class: 'method m-ws', text: 'WS' }),
    el('span', { class: 'path', text: connection.path }),
    el('span', { class: 'scenario-tag any', text: whose(connection.session) }),
    el('span', { class: 'counts', 'data-testid': 'ws-counts', text: counts(connection) }))));
    markSelection();
    if (selected && selected.kind === 'websocket') updateWebSocket();
  }

  // Messages come with the long poll (GET /__mockd/events), each once, in journal order.
  function addMessages(list) {
    const touched = new Set();
    for (const message of list) {
      const kept = messages.get(message.connection) || [];
      if (kept.length && kept[kept.length - 1].id >= message.id) continue;
      kept.push(message);
      if (kept.length > MAX_MESSAGES) kept.splice(0, kept.length - MAX_MESSAGES);
      messages.set(message.connection, kept);
      touched.add(message.connection);
    }
    // The messages of connections that have ended go with them, once the list says so.
    for (const id of [...messages.keys()]) if (!touched.has(id) && !webSockets.some((connection) => connection.id === id) && !(selected && selected.kind === 'websocket' && selected.id === id)) messages.delete(id);
    if (selected && selected.kind === 'websocket' && touched.has(selected.id)) renderMessages();
  }

  function messageRow(message) {
    const payload = message.text !== undefined ? message.text : 'binary, ' + message.size + ' bytes: ' + message.base64;
    return el('li', { class: 'message ' + message.direction, 'data-testid': 'ws-message', 'data-direction': message.direction },
      el('span', { class: 'time', text: clock(message.time), title: message.time }),
      el('span', { class: 'direction', text: message.direction === 'in' ? 'app → mockd' : 'mockd → app' }),
      el('code', { class: 'payload', text: payload + (message.truncated ? ' … (truncated, ' + message.size + ' bytes)' : '') }));
  }
  function renderMessages() {
    const list = $('ws-messages');
    if (!list) return;
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    list.replaceChildren(...(messages.get(selected.id) || []).map(messageRow));
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  // Redraws what changes (the counts, open or ended) and keeps the send box as the user left it.
  function updateWebSocket() {
    const state = $('ws-state');
    if (!state) return;
    const connection = webSockets.find((open) => open.id === selected.id);
    state.textContent = connection ? counts(connection) : 'ended';
    state.className = connection ? 'muted' : 'closed';
    for (const id of ['ws-send', 'ws-close']) $(id).disabled = !connection;
    renderMessages();
  }

  function showWebSocket(id) {
    const connection = webSockets.find((open) => open.id === id);
    if (!connection) return;
    selected = { kind: 'websocket', id };
    markSelection();
    const target = whose(connection.session) + ' on ' + connection.path;
    const kind = el('select', { id: 'ws-kind', 'data-testid': 'ws-kind' }, el('option', { value: 'text', text: 'text' }), el('option', { value: 'json', text: 'JSON' }));
    const textarea = el('textarea', { id: 'ws-body', 'data-testid': 'ws-body', rows: 3, spellcheck: 'false' });
    const result = el('p', { id: 'ws-result', 'data-testid': 'ws-result', role: 'status' });
    const say = (className, text) => { result.className = className; result.textContent = text; };
    const form = el('form', { id: 'ws-form', class: 'editor', 'data-testid': 'ws-form' },
      el('h3', { text: 'Send a message' }),
      el('label', { for: 'ws-body', text: 'To every open connection of ' + target + ' (POST /__mockd/ws/send)' }), textarea,
      el('div', { class: 'row' },
        el('label', { for: 'ws-kind', text: 'As' }), kind,
        el('button', { type: 'submit', id: 'ws-send', 'data-testid': 'ws-send', text: 'Send' })),
      result);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      let message = { text: textarea.value };
      if (kind.value === 'json') {
        try { message = { json: JSON.parse(textarea.value) }; } catch (error) { say('error', 'Not JSON: ' + error.message); return; }
      }
      say('muted', 'sending…');
      const answer = await api('POST', 'ws/send', { session: connection.session, path: connection.path, message });
      if (answer.ok && answer.data) say('ok', 'Sent to ' + answer.data.sent + ' connection' + (answer.data.sent === 1 ? '' : 's') + '.');
      else say('error', answer.status + ': ' + errorText(answer));
    });
    const close = el('button', {
      type: 'button', id: 'ws-close', 'data-testid': 'ws-close', text: 'Close (1000)', title: 'DELETE /__mockd/ws/connections/' + id,
      onclick: async () => {
        const answer = await api('DELETE', 'ws/connections/' + id);
        if (answer.ok) say('muted', 'closing: mockd sent its close frame.');
        else say('error', answer.status + ': ' + errorText(answer));
      },
    });
    showDetail('WebSocket ' + connection.path + ' #' + id,
      el('p', { class: 'summary' }, 'Connection of ', el('code', { text: whose(connection.session) }), ' on ', el('code', { text: connection.path }), ', opened at ' + connection.opened),
      el('div', { class: 'ws-actions' }, el('span', { id: 'ws-state', 'data-testid': 'ws-state', class: 'muted', text: counts(connection) }), close),
      form,
      el('h3', { text: 'Messages, both ways' }),
      el('ol', { id: 'ws-messages', class: 'messages', 'data-testid': 'ws-messages', 'aria-live': 'polite' }));
    updateWebSocket();
  }

  // ---- Scenarios -------------------------------------------------------------------------
  function sessionNames() {
    const names = new Set(Object.keys(events.sessions || {}));
    for (const entry of entries.values()) if (entry.session) names.add(entry.session);
    return [...names].sort();
  }
  function renderTargets() {
    const select = $('scenario-target');
    const current = select.value;
    const names = sessionNames();
    const known = [...select.options].slice(1).map((option) => option.value);
    if (known.join('\n') !== names.join('\n')) {
      select.replaceChildren(el('option', { value: '', text: 'everyone (global)' }), ...names.map((name) => el('option', { value: name, text: 'session ' + name })));
      select.value = names.includes(current) ? current : '';
    }
    renderScenarios();
  }
  function currentScenario() {
    const session = $('scenario-target').value;
    return session && events.sessions && events.sessions[session] ? events.sessions[session] : events.scenario || 'default';
  }
  function renderScenarios() {
    const current = currentScenario();
    const session = $('scenario-target').value;
    $('current-scenario').textContent = current + (session ? ' (session ' + session + ')' : '');
    $('current-scenario').className = current === 'default' ? '' : 'active';
    const names = sources.scenarios && sources.scenarios.length ? sources.scenarios : ['default'];
    $('scenario-buttons').replaceChildren(...names.map((name) => el('button', {
      type: 'button', class: 'scenario-button', 'data-testid': 'scenario-button', 'data-scenario': name,
      'aria-pressed': name === current ? 'true' : 'false', text: name, onclick: () => setScenario(name),
    })));
  }
  async function setScenario(name) {
    const session = $('scenario-target').value;
    const result = await api('PUT', 'scenario', session ? { scenario: name, session } : { scenario: name });
    if (result.ok) {
      if (session) events.sessions = Object.assign({}, events.sessions, { [session]: name });
      else events.scenario = name;
      renderScenarios();
    } else {
      $('current-scenario').textContent = errorText(result);
    }
  }
  $('scenario-target').addEventListener('change', renderScenarios);

  // ---- Pushes: a button per pushes/<name>.apns, sent to the selected session's simulator ----
  function renderPushes() {
    const names = sources.pushes || [];
    $('pushes').hidden = names.length === 0;
    const why = sources.pushRefusal || '';
    $('push-buttons').replaceChildren(...names.map((name) => el('button', {
      type: 'button', class: 'push-button', 'data-testid': 'push-button', 'data-push': name, text: name,
      disabled: why ? 'disabled' : null, title: why || 'POST /__mockd/push {"name": "' + name + '"}', onclick: () => sendPush(name),
    })));
  }
  async function sendPush(name) {
    const session = $('scenario-target').value;
    $('push-status').textContent = 'sending ' + name + '…';
    const result = await api('POST', 'push', session ? { name, session } : { name });
    const data = result.data || {};
    $('push-status').textContent = result.ok ? name + ': ' + data.result + ' to ' + data.device : errorText(result);
  }
  $('scenario-reset').addEventListener('click', () => setScenario('default'));

  // ---- Reload ----------------------------------------------------------------------------
  function renderReload(report) {
    const status = $('reload-status');
    const list = $('reload-errors');
    if (!report) { status.textContent = 'no reload yet'; list.hidden = true; return; }
    const when = report.time ? clock(report.time) : '';
    status.className = report.status === 'ok' ? 'ok' : 'error';
    status.textContent = (report.status === 'ok' ? 'ok' : 'FAILED') + ' at ' + when + (report.trigger ? ' (' + report.trigger + ')' : '') +
      (report.status === 'ok' ? ': ' + report.files + ' files, ' + report.routes + ' routes' : ': still serving the last good configuration');
    const errors = report.errors || [];
    list.replaceChildren(...errors.map((text) => el('li', { text })));
    list.hidden = errors.length === 0;
  }
  $('reload-button').addEventListener('click', async () => {
    $('reload-button').disabled = true;
    try {
      const result = await api('POST', 'reload');
      if (result.data && result.data.status) renderReload(result.data);
      else $('reload-status').textContent = errorText(result);
    } finally {
      $('reload-button').disabled = false;
    }
  });

  // ---- The long poll ---------------------------------------------------------------------
  function connection(text, ok) {
    $('connection').textContent = text;
    $('connection').className = ok ? 'ok' : 'error';
  }
  async function poll() {
    for (;;) {
      const first = events.next === null;
      const query = first ? 'events' : 'events?after=' + encodeURIComponent(events.next) + '&state=' + encodeURIComponent(events.state) + '&wait=25';
      try {
        const result = await api('GET', query);
        if (!result.ok || !result.data) throw new Error(errorText(result));
        const data = result.data;
        const stateChanged = !first && data.state !== events.state;
        events.next = data.next;
        events.state = data.state;
        events.scenario = data.scenario || 'default';
        events.sessions = data.sessions || {};
        renderReload(data.lastReload);
        addEntries(data.requests || []);
        renderWebSockets(data.webSockets || []);
        addMessages(data.messages || []);
        renderTargets();
        connection('live', true);
        if (stateChanged) { await loadSources(); await loadResources(); }
      } catch (error) {
        connection('disconnected, retrying…', false);
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  }

  $('sources-filter').addEventListener('input', renderSources);
  loadSources().catch(() => {}).then(() => loadResources()).catch(() => {}).finally(poll);
})();
