/* tracejudge live page: fetches api/summary and api/evaluations every few seconds and updates the tables in
 * place. Trace content is untrusted: it is only ever inserted with textContent / text nodes, never as HTML,
 * and links are set only for http(s) URLs. Plain browser JavaScript, no library, no build step. */
/* global document, window, fetch, setTimeout, clearTimeout, URLSearchParams */
'use strict';

(function () {
  var REFRESH_MS = 5000;
  var FAILS_SHOWN = 50;
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

  function renderAgents(summary) {
    var bodies = summary.agents.map(function (agent) {
      var scorers = agent.scorers.length > 0 ? agent.scorers : [null];
      var body = el('tbody');
      scorers.forEach(function (s, i) {
        var cells = [];
        if (i === 0) {
          cells.push(el('th', { scope: 'rowgroup', rowSpan: scorers.length }, [agent.name]));
          cells.push(el('td', { className: 'num', rowSpan: scorers.length }, [num(agent.runsPerMinute, 1)]));
          cells.push(el('td', { className: 'num', rowSpan: scorers.length }, [String(agent.runs)]));
        }
        if (s === null) {
          cells.push(el('td', { colSpan: 6, className: 'empty' }, ['no evaluation (not sampled or not applicable)']));
        } else {
          var when = failsWhen(s);
          cells.push(el('td', null, [s.name, when ? el('br') : null, when ? el('small', null, [when]) : null]));
          cells.push(el('td', { className: 'num' }, [String(s.evaluations)]));
          cells.push(el('td', { className: 'num' }, [num(s.mean, 2)]));
          var failText = percent(s.failRate) + (s.fails > 0 ? ' (' + s.fails + ')' : '');
          cells.push(el('td', { className: 'num' + (s.fails > 0 ? ' label-fail' : '') }, [failText]));
          var unverifiedText = s.unverified > 0 && s.scored > 0 ? percent(s.unverified / s.scored) + ' (' + s.unverified + ')' : '–';
          cells.push(el('td', { className: 'num', title: 'scored runs whose answer has specifics no tool result could confirm or contradict' }, [unverifiedText]));
          cells.push(el('td', null, [sparkline(s.trend)]));
        }
        body.appendChild(el('tr', null, cells));
      });
      return body;
    });
    replaceBody(document.getElementById('agents'), bodies, 'No agent runs in the window yet.', 9);
  }

  function toolList(tools) {
    if (!tools || tools.length === 0) return ['–'];
    return tools.map(function (t) {
      var status = t.state === 'error' ? ' failed: ' : t.state === 'call' ? ' (no result)' : ': ';
      return el('span', { className: 'tool' + (t.state === 'error' ? ' tool-error' : '') }, [el('span', { className: 'tool-name' }, [t.name]), status + (t.text || '')]);
    });
  }

  function traceCell(e) {
    var parts = [el('code', { title: 'trace id' }, [e.traceId])];
    if (typeof e.traceUrl === 'string' && /^https?:\/\//i.test(e.traceUrl)) {
      parts.push(el('br'));
      parts.push(el('a', { href: e.traceUrl, target: '_blank', rel: 'noopener noreferrer' }, ['open trace']));
    }
    return el('td', null, parts);
  }

  function renderFails(list) {
    var body = el('tbody');
    list.forEach(function (e) {
      var run = e.run || { input: '', output: '', tools: [] };
      var score = [num(e.score, 2), ' ', el('span', { className: 'label-fail' }, ['fail'])];
      if (typeof e.threshold === 'number') score.push(el('br'), el('small', null, ['threshold ' + e.threshold]));
      body.appendChild(
        el('tr', { 'data-evaluation': e.evaluationId }, [
          el('td', null, [el('time', { datetime: e.timestamp }, [time(e.timestamp)])]),
          el('td', null, [e.agent]),
          el('td', null, [e.scorer]),
          el('td', null, score),
          el('td', { className: 'reason' }, [e.reason !== undefined ? e.reason : el('i', null, ['no reason given (this scorer has no reason step)'])]),
          el('td', { className: 'input' }, [run.input || '–']),
          el('td', { className: 'output' }, [run.output || '–']),
          el('td', { className: 'tools' }, toolList(run.tools)),
          traceCell(e),
        ]),
      );
    });
    replaceBody(document.getElementById('fails'), list.length > 0 ? [body] : [], 'No failing evaluation in the window.', 9);
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
    summary.agents.forEach(function (agent) {
      agent.scorers.forEach(function (s) {
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
    var ids = fails.map(function (e) { return e.evaluationId; });
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

  function refresh() {
    var query = new URLSearchParams({ label: 'fail', limit: String(FAILS_SHOWN) });
    return Promise.all([getJson('api/summary'), getJson('api/evaluations?' + query.toString())])
      .then(function (both) {
        var summary = both[0];
        var fails = both[1].evaluations;
        fill(summary);
        renderAgents(summary);
        renderFails(fails);
        renderSampling(summary);
        announce(fails);
        problem('');
        document.getElementById('updated').textContent =
          'Updated ' + time(summary.generatedAt) + ' · ' + summary.totals.runs + ' runs and ' + summary.totals.evaluations + ' evaluations in the window';
        document.body.setAttribute('data-loaded', String(Number(document.body.getAttribute('data-loaded') || '0') + 1));
      })
      .catch(function (err) {
        problem('Could not refresh: ' + (err && err.message ? err.message : String(err)) + '. Retrying.');
      })
      .then(schedule);
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
    refresh();
  });
  window.tracejudgeLive = { refresh: refresh };
})();
