/* tracejudge live page: fetches api/summary and api/evaluations every few seconds and updates the tables in
 * place. The filters (agent, scorer, outcome) live in the page's URL query (?agent=…&scorer=…&outcome=fail),
 * so a link (an alert's) opens the page filtered. Trace content is untrusted: it is only ever inserted with
 * textContent / text nodes, never as HTML, and links are set only for http(s) URLs. Plain browser
 * JavaScript, no library, no build step. */
/* global document, window, navigator, fetch, setTimeout, clearTimeout, URLSearchParams, history, location */
'use strict';

(function () {
  var REFRESH_MS = 5000;
  /** Failing runs shown, and failing evaluations fetched to group into them (a run may fail several). */
  var RUNS_SHOWN = 50;
  var EVALUATIONS_FETCHED = 500;
  var OUTCOMES = ['fail', 'error', 'pass', 'skipped'];
  var SPARKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
  var paused = false;
  var timer;
  var knownFails = null;

  /** An element with properties and children (strings become text nodes, never markup). */
  function el(tag, props, children) {
    var node = document.createElement(tag);
    if (props) {
      Object.keys(props).forEach(function (k) {
        var v = props[k];
        if (v === undefined || v === null) return;
        if (k === 'className') node.className = v;
        else if (k === 'colSpan' || k === 'rowSpan') node[k] = v;
        else node.setAttribute(k, String(v));
      });
    }
    (children || []).forEach(function (c) {
      if (c === undefined || c === null) return;
      node.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
    });
    return node;
  }

  function num(v, digits) {
    return typeof v === 'number' && isFinite(v) ? v.toFixed(digits) : '–';
  }

  function percent(v) {
    return typeof v === 'number' && isFinite(v) ? Math.round(v * 1000) / 10 + ' %' : '–';
  }

  function time(ts) {
    var d = new Date(ts);
    return isNaN(d.getTime()) ? String(ts) : d.toLocaleTimeString([], { hour12: false });
  }

  /** The condition a scorer fails on, e.g. "fails below 0.5". */
  function failsWhen(s) {
    if (typeof s.threshold !== 'number') return '';
    return (s.direction === 'lower' ? 'fails above ' : 'fails below ') + s.threshold;
  }

  /** A text sparkline of per-minute means, with the values spelled out for screen readers. */
  function sparkline(trend) {
    var values = trend.filter(function (v) { return typeof v === 'number'; });
    var top = Math.max(1, Math.max.apply(null, values.concat([0])));
    var chars = trend.map(function (v) {
      if (typeof v !== 'number') return '·';
      var i = Math.min(SPARKS.length - 1, Math.max(0, Math.round((v / top) * (SPARKS.length - 1))));
      return SPARKS[i];
    }).join('');
    var spoken = trend.map(function (v) { return typeof v === 'number' ? v.toFixed(2) : 'none'; }).join(', ');
    return el('span', { className: 'trend', role: 'img', 'aria-label': 'Mean score per minute, oldest first: ' + spoken, title: spoken }, [chars]);
  }

  function replaceBody(table, rows, emptyText, columns) {
    var old = table.tBodies;
    for (var i = old.length - 1; i >= 0; i--) table.removeChild(old[i]);
    if (rows.length === 0) {
      table.appendChild(el('tbody', null, [el('tr', null, [el('td', { colSpan: columns, className: 'empty' }, [emptyText])])]));
      return;
    }
    rows.forEach(function (body) { table.appendChild(body); });
  }

  /* ---- filters, kept in the URL query ---- */

  /** The filters from the page's URL: unknown parameters are ignored, an unknown outcome means any. */
  function readFilters() {
    var q = new URLSearchParams(location.search);
    var outcome = q.get('outcome') || '';
    return { agent: q.get('agent') || '', scorer: q.get('scorer') || '', outcome: OUTCOMES.indexOf(outcome) >= 0 ? outcome : '' };
  }

  var filters = readFilters();

  function writeFilters() {
    var q = new URLSearchParams(location.search);
    ['agent', 'scorer', 'outcome'].forEach(function (k) {
      if (filters[k]) q.set(k, filters[k]);
      else q.delete(k);
    });
    var search = q.toString();
    history.pushState(null, '', location.pathname + (search ? '?' + search : '') + location.hash);
  }

  /** Options of a select: the names seen, plus the filter's value when it is not among them (a link may name an agent not seen yet). */
  function fillSelect(select, allText, groups, value) {
    // Rebuilt only when the names change, so a refresh does not close a list the user has open.
    var key = JSON.stringify([groups, value]);
    if (select.getAttribute('data-options') === key) {
      select.value = value;
      return;
    }
    select.setAttribute('data-options', key);
    while (select.firstChild) select.removeChild(select.firstChild);
    select.appendChild(el('option', { value: '' }, [allText]));
    var seen = {};
    groups.forEach(function (g) {
      var parent = g.label ? el('optgroup', { label: g.label }) : select;
      g.names.forEach(function (n) {
        if (seen[n]) return;
        seen[n] = true;
        parent.appendChild(el('option', { value: n }, [n]));
      });
      if (g.label && g.names.length > 0) select.appendChild(parent);
    });
    if (value && !seen[value]) select.appendChild(el('option', { value: value }, [value + ' (not seen in the window)']));
    select.value = value;
  }

  function renderFilters(summary) {
    var scorers = [];
    summary.agents.concat(summary.withoutAgent || []).forEach(function (a) {
      a.scorers.forEach(function (s) { if (scorers.indexOf(s.name) < 0) scorers.push(s.name); });
    });
    var names = function (list) { return list.map(function (a) { return a.name; }).sort(); };
    fillSelect(document.getElementById('f-agent'), 'all agents', [{ names: names(summary.agents) }, { label: 'without an agent span', names: names(summary.withoutAgent || []) }], filters.agent);
    fillSelect(document.getElementById('f-scorer'), 'all scorers', [{ names: scorers }], filters.scorer);
    document.getElementById('f-outcome').value = filters.outcome;
    var active = ['agent', 'scorer', 'outcome'].filter(function (k) { return filters[k]; }).map(function (k) { return k + ' = ' + filters[k]; });
    document.getElementById('f-status').textContent = active.length > 0 ? 'Showing ' + active.join(', ') : '';
    document.getElementById('f-clear').disabled = active.length === 0;
  }

  /** A scorer row passes the scorer and outcome filters. */
  function scorerShown(s) {
    if (filters.scorer && s.name !== filters.scorer) return false;
    switch (filters.outcome) {
      case 'fail': return s.fails > 0;
      case 'error': return s.unscored > 0;
      case 'pass': return s.scored - s.fails > 0;
      case 'skipped': return skippedCount(s) > 0;
      default: return true;
    }
  }

  function skippedCount(s) {
    var n = 0;
    Object.keys(s.skipped || {}).forEach(function (k) { n += s.skipped[k]; });
    return n;
  }

  /** The agents (or span names) the filters leave, with their shown scorers, most fails first, then by name. */
  function filteredGroups(list) {
    var out = [];
    list.forEach(function (a) {
      if (filters.agent && a.name !== filters.agent) return;
      var scorers = a.scorers.filter(scorerShown);
      var scorerOrOutcome = filters.scorer || filters.outcome;
      if (scorerOrOutcome && scorers.length === 0 && !(filters.outcome === 'skipped' && !filters.scorer && a.skippedRuns > 0)) return;
      var fails = 0;
      scorers.forEach(function (s) { fails += s.fails; });
      out.push({ agent: a, scorers: scorers, fails: fails });
    });
    return out.sort(function (x, y) {
      if (x.agent.name === 'other' || y.agent.name === 'other') return x.agent.name === y.agent.name ? 0 : x.agent.name === 'other' ? 1 : -1;
      return y.fails - x.fails || (x.agent.name < y.agent.name ? -1 : x.agent.name > y.agent.name ? 1 : 0);
    });
  }

  /* ---- agents ---- */

  function unverifiedText(s) {
    return s.unverified > 0 && s.scored > 0 ? 'unverified ' + percent(s.unverified / s.scored) + ' (' + s.unverified + ')' : '';
  }

  /** A failing scorer on one line: name, fail rate with count, mean, when it fails, unverified, trend. */
  function failingScorer(s) {
    var unverified = unverifiedText(s);
    return el('span', { className: 'scorer', 'data-scorer': s.name }, [
      el('strong', null, [s.name]),
      ' ',
      el('span', { className: 'label-fail' }, [percent(s.failRate) + ' fail (' + s.fails + ' of ' + s.scored + ')']),
      ' · mean ' + num(s.mean, 2),
      failsWhen(s) ? ' · ' + failsWhen(s) : '',
      unverified ? ' · ' + unverified : '',
      s.unscored > 0 ? ' · ' + s.unscored + ' error' + (s.unscored === 1 ? '' : 's') : '',
      ' ',
      sparkline(s.trend),
    ]);
  }

  /** A scorer with no fail, compact: name and mean (and unverified, errors, when any). */
  function otherScorer(s) {
    var unverified = unverifiedText(s);
    var extra = [unverified, s.unscored > 0 ? s.unscored + ' error' + (s.unscored === 1 ? '' : 's') : ''].filter(Boolean).join(', ');
    return el('span', { className: 'scorer-compact', 'data-scorer': s.name, title: failsWhen(s) }, [s.name + ' ' + num(s.mean, 2) + (extra ? ' (' + extra + ')' : '')]);
  }

  function groupRows(groups) {
    var body = el('tbody');
    groups.forEach(function (g) {
      var a = g.agent;
      var failing = g.scorers.filter(function (s) { return s.fails > 0; });
      var others = g.scorers.filter(function (s) { return s.fails === 0; });
      body.appendChild(
        el('tr', { 'data-agent': a.name, className: g.fails > 0 ? 'failing' : null }, [
          el('th', { scope: 'row' }, [a.name]),
          el('td', { className: 'num', title: num(a.runsPerMinute, 1) + ' runs per minute' }, [String(a.runs), el('br'), el('small', null, [num(a.runsPerMinute, 1) + ' / min'])]),
          el('td', { className: 'num' + (g.fails > 0 ? ' label-fail' : '') }, [String(g.fails)]),
          el('td', null, failing.length > 0 ? failing.map(failingScorer) : ['–']),
          el('td', { className: 'others' }, others.length > 0 ? others.map(function (x, i) { return i > 0 ? [' · ', otherScorer(x)] : [otherScorer(x)]; }).reduce(function (acc, x) { return acc.concat(x); }, []) : [g.scorers.length === 0 && a.scorers.length === 0 ? 'no evaluation (not sampled or not applicable)' : '–']),
          el('td', { className: 'num' }, [a.skippedRuns > 0 ? el('a', { href: '#skipped-h' }, [String(a.skippedRuns)]) : '0']),
        ]),
      );
    });
    return groups.length > 0 ? [body] : [];
  }

  function renderAgents(summary) {
    var groups = filteredGroups(summary.agents);
    replaceBody(document.getElementById('agents'), groupRows(groups), summary.agents.length === 0 ? 'No agent runs in the window yet.' : 'No agent matches the filters.', 6);
    var without = filteredGroups(summary.withoutAgent || []);
    document.getElementById('without-agent-section').hidden = without.length === 0;
    replaceBody(document.getElementById('without-agent'), groupRows(without), 'None.', 6);
  }

  /* ---- failing runs ---- */

  function toolList(tools) {
    if (!tools || tools.length === 0) return ['–'];
    return tools.map(function (t) {
      var status = t.state === 'error' ? ' failed: ' : t.state === 'call' ? ' (no result)' : ': ';
      return el('span', { className: 'tool' + (t.state === 'error' ? ' tool-error' : '') }, [el('span', { className: 'tool-name' }, [t.name]), status + (t.text || '')]);
    });
  }

  /** Copies the trace id: the Clipboard API where the page is a secure context, else the selection and execCommand. */
  function copyTraceId(button, code) {
    var id = code.textContent;
    var done = function (ok) {
      button.textContent = ok ? 'Copied' : 'Select and copy';
      button.setAttribute('data-copied', String(ok));
      setTimeout(function () { button.textContent = 'Copy'; }, 2000);
    };
    var fallback = function () {
      var range = document.createRange();
      range.selectNodeContents(code);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      var ok = false;
      try { ok = document.execCommand('copy'); } catch { ok = false; }
      done(ok);
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(id).then(function () { done(true); }, fallback);
    else fallback();
  }

  function traceCell(e) {
    var code = el('code', { className: 'trace-id', title: 'trace id' }, [e.traceId]);
    var button = el('button', { type: 'button', className: 'copy', 'aria-label': 'Copy trace id ' + e.traceId }, ['Copy']);
    button.addEventListener('click', function () { copyTraceId(button, code); });
    var parts = [code, ' ', button];
    if (typeof e.traceUrl === 'string' && /^https?:\/\//i.test(e.traceUrl)) {
      parts.push(el('br'));
      parts.push(el('a', { href: e.traceUrl, target: '_blank', rel: 'noopener noreferrer' }, ['open trace']));
    }
    return el('td', null, parts);
  }

  /** Evaluations (newest first) grouped into runs by trace and span id, in order of each run's newest one. */
  function groupRuns(list) {
    var runs = [];
    var byKey = {};
    list.forEach(function (e) {
      var key = e.traceId + '/' + e.spanId;
      var r = byKey[key];
      if (!r) {
        r = byKey[key] = { key: key, first: e, evaluations: [] };
        runs.push(r);
      }
      r.evaluations.push(e);
    });
    return runs;
  }

  function verdict(e) {
    var parts = [el('strong', null, [e.scorer]), ' '];
    if (e.error) parts.push(el('span', { className: 'label-error' }, ['error: ' + (e.error.type || '') + (e.error.message ? ' ' + e.error.message : '')]));
    else {
      parts.push(num(e.score, 2) + ' ');
      parts.push(el('span', { className: e.label === 'fail' ? 'label-fail' : 'label-pass' }, [e.label || '']));
      if (typeof e.threshold === 'number') parts.push(el('small', null, [' (threshold ' + e.threshold + ')']));
      parts.push(el('br'));
      parts.push(e.reason !== undefined ? el('span', { className: 'reason-text' }, [e.reason]) : el('i', null, ['no reason given (this scorer has no reason step)']));
    }
    return el('div', { className: 'verdict', 'data-scorer': e.scorer }, parts);
  }

  function renderRuns(list) {
    var heading = document.getElementById('fails-h');
    var outcome = filters.outcome === 'error' ? 'error' : filters.outcome === 'pass' ? 'pass' : filters.outcome === 'skipped' ? 'skipped' : 'fail';
    heading.textContent = outcome === 'error' ? 'Runs with evaluation errors' : outcome === 'pass' ? 'Passing runs' : 'Failing runs';
    if (outcome === 'skipped') {
      replaceBody(document.getElementById('fails'), [], 'Not shown: the outcome filter is "skipped" (see Skipped runs).', 7);
      return;
    }
    var runs = groupRuns(list).filter(function (r) {
      if (filters.agent && r.first.agent !== filters.agent) return false;
      return !filters.scorer || r.evaluations.some(function (e) { return e.scorer === filters.scorer; });
    }).slice(0, RUNS_SHOWN);
    var body = el('tbody');
    runs.forEach(function (r) {
      var e = r.first;
      var run = e.run || { input: '', output: '', tools: [] };
      var agent = e.noAgentSpan ? [e.agent, el('br'), el('small', null, ['no agent span'])] : [e.agent];
      body.appendChild(
        el('tr', { 'data-run': r.key, 'data-agent': e.agent }, [
          el('td', null, [el('time', { datetime: e.timestamp }, [time(e.timestamp)])]),
          el('td', null, agent),
          el('td', { className: 'reason' }, r.evaluations.map(verdict)),
          el('td', { className: 'input' }, [run.input || '–']),
          el('td', { className: 'output' }, [run.output || '–']),
          el('td', { className: 'tools' }, toolList(run.tools)),
          traceCell(e),
        ]),
      );
    });
    var none = outcome === 'error' ? 'No run with an evaluation error' : outcome === 'pass' ? 'No passing run' : 'No failing run';
    replaceBody(document.getElementById('fails'), runs.length > 0 ? [body] : [], none + (filters.agent || filters.scorer ? ' matches the filters.' : ' in the window.'), 7);
  }

  /* ---- skipped runs ---- */

  function renderSkipped(summary) {
    var body = el('tbody');
    var rows = 0;
    var hidden = filters.outcome && filters.outcome !== 'skipped';
    if (!hidden) {
      var withoutAgent = summary.withoutAgent || [];
      summary.agents.concat(withoutAgent).forEach(function (a) {
        if (filters.agent && a.name !== filters.agent) return;
        var noAgentSpan = withoutAgent.indexOf(a) >= 0;
        var reasons = {};
        var total = 0;
        a.scorers.forEach(function (s) {
          if (filters.scorer && s.name !== filters.scorer) return;
          Object.keys(s.skipped || {}).forEach(function (k) {
            reasons[k] = (reasons[k] || []).concat([s.name + ' ' + s.skipped[k]]);
            total += s.skipped[k];
          });
        });
        if (total === 0) return;
        rows++;
        var hints = (a.skipHints || []).map(function (h) { return el('p', { className: 'hint-line' }, [el('strong', null, [h.convention + ': ']), h.hint]); });
        body.appendChild(
          el('tr', { 'data-agent': a.name }, [
            el('th', { scope: 'row' }, noAgentSpan ? [a.name, el('br'), el('small', null, ['no agent span'])] : [a.name]),
            el('td', { className: 'num' }, [a.skippedRuns + ' / ' + a.runs]),
            el('td', null, Object.keys(reasons).sort().map(function (k) {
              return el('span', { className: 'skip-reason', 'data-reason': k }, [el('code', null, [k]), ': ' + reasons[k].join(', ')]);
            })),
            el('td', { className: 'hints' }, hints.length > 0 ? hints : ['–']),
          ]),
        );
      });
    }
    var empty = hidden ? 'Not shown: the outcome filter is "' + filters.outcome + '".' : filters.agent || filters.scorer ? 'No skipped run matches the filters.' : 'No skipped run in the window.';
    replaceBody(document.getElementById('skipped'), rows > 0 ? [body] : [], empty, 4);
  }

  function budgetText(budgets) {
    if (!budgets || budgets.length === 0) return '–';
    return budgets
      .map(function (b) { return b.used + ' / ' + b.limit + ' ' + b.resource + ' per ' + b.window + (b.used >= b.limit ? ' (spent: ' + b.fallback + ')' : ''); })
      .join('; ');
  }

  function renderSampling(summary) {
    var body = el('tbody');
    var rows = 0;
    summary.agents.concat(summary.withoutAgent || []).forEach(function (agent) {
      if (filters.agent && agent.name !== filters.agent) return;
      agent.scorers.forEach(function (s) {
        if (filters.scorer && s.name !== filters.scorer) return;
        if (s.sampling.seen === 0 && !s.judge) return;
        rows++;
        var judge = s.judge;
        body.appendChild(
          el('tr', null, [
            el('th', { scope: 'row' }, [agent.name]),
            el('td', null, [s.name + (s.kind ? ' (' + s.kind + ')' : '')]),
            el('td', { className: 'num' }, [s.sampling.sampled + ' / ' + s.sampling.seen]),
            el('td', { className: 'num' }, [percent(s.sampling.effectiveRate)]),
            el('td', { className: 'num' }, [percent(s.sampling.rate)]),
            el('td', { className: 'num' }, [judge ? String(judge.requests) : '–']),
            el('td', { className: 'num' }, [judge ? judge.inputTokens + ' / ' + judge.outputTokens : '–']),
            el('td', { className: 'num' }, [judge && judge.costUsd > 0 ? '$' + judge.costUsd.toFixed(4) : '–']),
            el('td', null, [budgetText(s.budgets)]),
          ]),
        );
      });
    });
    replaceBody(document.getElementById('sampling'), rows > 0 ? [body] : [], 'No sampling decision in the window yet.', 9);
  }

  function fill(summary) {
    var fields = document.querySelectorAll('[data-field]');
    for (var i = 0; i < fields.length; i++) {
      var v = summary[fields[i].getAttribute('data-field')];
      if (v !== undefined) fields[i].textContent = String(v);
    }
  }

  /** Tell screen readers about new failing evaluations only (not about every refresh). */
  function announce(fails) {
    var ids = fails.filter(function (e) { return e.label === 'fail'; }).map(function (e) { return e.evaluationId; });
    if (knownFails !== null) {
      var fresh = ids.filter(function (id) { return !knownFails.has(id); }).length;
      if (fresh > 0) document.getElementById('announce').textContent = fresh + (fresh === 1 ? ' new failing evaluation' : ' new failing evaluations');
    }
    knownFails = new Set(ids);
  }

  function problem(message) {
    var p = document.getElementById('problem');
    if (message) {
      p.textContent = message;
      p.hidden = false;
    } else {
      p.hidden = true;
      p.textContent = '';
    }
  }

  function getJson(path) {
    return fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' }).then(function (res) {
      if (!res.ok) throw new Error(path + ': HTTP ' + res.status);
      return res.json();
    });
  }

  function schedule() {
    clearTimeout(timer);
    if (!paused) timer = setTimeout(refresh, REFRESH_MS);
  }

  var last = null;

  /** Draws everything from the last answers (a filter change redraws before the next fetch comes back). */
  function render() {
    if (!last) return;
    var summary = last.summary;
    fill(summary);
    renderFilters(summary);
    renderAgents(summary);
    renderRuns(last.evaluations);
    renderSkipped(summary);
    renderSampling(summary);
    document.getElementById('trace-hint').hidden = summary.traceLinks !== false;
  }

  /** The evaluations query the filters need: the outcome's label (fail by default) and the agent. */
  function evaluationsQuery() {
    var label = filters.outcome === 'error' || filters.outcome === 'pass' ? filters.outcome : 'fail';
    var query = new URLSearchParams({ label: label, limit: String(EVALUATIONS_FETCHED) });
    if (filters.agent) query.set('agent', filters.agent);
    return query.toString();
  }

  function refresh() {
    clearTimeout(timer);
    var wanted = evaluationsQuery();
    var label = filters.outcome === 'error' || filters.outcome === 'pass' ? filters.outcome : 'fail';
    return Promise.all([getJson('api/summary'), getJson('api/evaluations?' + wanted)])
      .then(function (both) {
        // The filters changed while this was on its way: the newer refresh draws.
        if (wanted !== evaluationsQuery()) return;
        var summary = both[0];
        var evaluations = both[1].evaluations;
        last = { summary: summary, evaluations: evaluations };
        render();
        if (label === 'fail' && !filters.agent) announce(evaluations);
        problem('');
        document.getElementById('updated').textContent =
          'Updated ' + time(summary.generatedAt) + ' · ' + summary.totals.runs + ' runs, ' + summary.totals.evaluations + ' evaluations and ' + summary.totals.skippedRuns + ' skipped runs in the window';
        document.body.setAttribute('data-loaded', String(Number(document.body.getAttribute('data-loaded') || '0') + 1));
      })
      .catch(function (err) {
        problem('Could not refresh: ' + (err && err.message ? err.message : String(err)) + '. Retrying.');
      })
      .then(schedule);
  }

  function setFilter(key, value) {
    filters[key] = value;
    writeFilters();
    refresh();
  }

  document.addEventListener('DOMContentLoaded', function () {
    var button = document.getElementById('pause');
    button.addEventListener('click', function () {
      paused = !paused;
      button.setAttribute('aria-pressed', String(paused));
      button.textContent = paused ? 'Resume updates' : 'Pause updates';
      if (paused) clearTimeout(timer);
      else refresh();
    });
    ['agent', 'scorer', 'outcome'].forEach(function (k) {
      document.getElementById('f-' + k).addEventListener('change', function (ev) { setFilter(k, ev.target.value); });
    });
    document.getElementById('f-clear').addEventListener('click', function () {
      filters = { agent: '', scorer: '', outcome: '' };
      writeFilters();
      refresh();
    });
    document.getElementById('filters').addEventListener('submit', function (ev) { ev.preventDefault(); });
    window.addEventListener('popstate', function () {
      filters = readFilters();
      refresh();
    });
    refresh();
  });
  window.tracejudgeLive = { refresh: refresh };
})();
