/// The dashboard, served whole by the binary (no build step, no asset from elsewhere): one page, its
/// script and its style. The script builds every element with `textContent` and attributes, never HTML
/// text, so a device's label or any other supplied string is shown as text, never run (and the page's
/// Content-Security-Policy allows only these files).
enum DashboardAssets {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>matter-emu</title>
        <link rel="stylesheet" href="dashboard.css">
        <script src="dashboard.js" defer></script>
        </head>
        <body>
        <header>
          <h1>matter-emu</h1>
          <span id="connection" class="offline">connecting</span>
        </header>
        <form id="filters" autocomplete="off">
          <input id="search" type="search" placeholder="search label, type or index" aria-label="search">
          <select id="type" aria-label="device type">
            <option value="">every type</option>
          </select>
          <select id="online" aria-label="online state">
            <option value="">online and offline</option><option value="true">online</option>
            <option value="false">offline</option>
          </select>
          <button id="prev" type="button">previous</button>
          <span id="page"></span>
          <button id="next" type="button">next</button>
        </form>
        <p id="status" role="status"></p>
        <table>
          <thead><tr><th>#</th><th>label</th><th>type</th><th>state</th><th>fabrics</th><th>attributes</th>
          <th>commissioning</th><th>controls</th><th>events</th></tr></thead>
          <tbody id="devices"></tbody>
        </table>
        </body>
        </html>
        """#

    static let style = #"""
        body { font: 14px system-ui, sans-serif; margin: 1rem; color: #222; }
        header { display: flex; align-items: center; gap: 1rem; }
        h1 { font-size: 1.3rem; margin: 0; }
        #connection { padding: 0.1rem 0.5rem; border-radius: 0.5rem; background: #eee; }
        #connection.live { background: #c8f0c8; }
        #filters { display: flex; gap: 0.5rem; align-items: center; margin: 0.8rem 0; flex-wrap: wrap; }
        #status { color: #a00; min-height: 1.2em; margin: 0.2rem 0; }
        table { border-collapse: collapse; width: 100%; }
        th, td { border-bottom: 1px solid #ddd; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
        .online { color: #070; } .offline { color: #a00; }
        .attribute { display: inline-block; margin-right: 0.8rem; font-family: monospace; }
        .qr { width: 120px; height: 120px; display: block; }
        .controls button, .controls input { margin: 0 0.2rem 0.2rem 0; }
        .code { font-family: monospace; }
        .controls label { display: inline-block; margin: 0 0.4rem 0.2rem 0; font-size: 0.9em; }
        .controls input[type=number] { width: 6rem; }
        .log ol { margin: 0.2rem 0; padding-left: 1.2rem; font-family: monospace; font-size: 0.85em; max-width: 28rem; }
        """#

    static let script = #"""
        'use strict';
        const token = new URLSearchParams(location.search).get('token');
        const view = { q: '', type: '', online: '', offset: 0, limit: 50, total: 0 };
        const devices = new Map();
        const windows = new Map();

        function withToken(url) {
          return token ? url + (url.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token) : url;
        }

        async function api(method, path, body) {
          const headers = {};
          if (token) headers['Authorization'] = 'Bearer ' + token;
          if (body !== undefined) headers['Content-Type'] = 'application/json';
          const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
          const answer = await response.json().catch(() => ({}));
          if (!response.ok) throw new Error(answer.error || ('HTTP ' + response.status));
          return answer;
        }

        // Elements from text only: strings become text nodes, so nothing supplied is ever parsed as HTML.
        function el(tag, props, ...children) {
          const element = document.createElement(tag);
          for (const [key, value] of Object.entries(props || {})) {
            if (key.startsWith('data-') || key === 'aria-label') element.setAttribute(key, value);
            else element[key] = value;
          }
          for (const child of children) if (child !== null && child !== undefined) element.append(child);
          return element;
        }

        function report(error) { document.getElementById('status').textContent = error ? String(error.message || error) : ''; }

        function act(promise) { promise.then(() => report(null), report); }

        function devicePath(device) { return '/api/devices/' + device; }

        function attributePath(device, cluster, attribute) {
          return devicePath(device) + '/endpoints/1/clusters/' + cluster + '/attributes/' + attribute;
        }

        function commandPath(device, cluster, command) {
          return devicePath(device) + '/endpoints/1/clusters/' + cluster + '/commands/' + command;
        }

        function value(d, cluster, attribute) { return ((d.attributes || {})[cluster] || {})[attribute]; }

        // One control as the server composed it from the clusters the device serves (docs/HTTP.md).
        function control(d, c) {
          const i = d.device;
          const current = value(d, c.cluster, c.attribute);
          const put = (v) => act(api('PUT', attributePath(i, c.cluster, c.attribute), { value: v }));
          const button = (text, onclick) => el('button', { className: c.name, type: 'button', onclick }, text);
          switch (c.kind) {
            case 'toggle': return button(current ? c.labels[1] : c.labels[0], () => put(!current));
            case 'set': return button(c.label, () => put(c.value));
            case 'command': return button(c.label, () => act(api('POST', commandPath(i, c.cluster, c.command), { fields: c.fields || {} })));
            case 'action': return button(c.label, () => act(api('POST', devicePath(i) + '/actions/' + c.op, c.fields || {})));
            case 'range': {
              const min = c.minAttribute ? value(d, c.cluster, c.minAttribute) : c.min;
              const max = c.maxAttribute ? value(d, c.cluster, c.maxAttribute) : c.max;
              const send = (v) => c.command
                ? act(api('POST', commandPath(i, c.cluster, c.command), { fields: { [c.field]: v } }))
                : put(v);
              return el('label', {}, c.attribute + ' ', el('input', { className: c.name, type: 'range', min: min ?? 0, max: max ?? 254,
                value: current ?? min ?? 0, 'aria-label': c.attribute, onchange: (e) => send(Number(e.target.value)) }));
            }
            case 'number': {
              const input = el('input', { className: c.name, type: 'number', value: current ?? '', 'aria-label': c.attribute,
                onchange: (e) => put(e.target.value === '' && c.nullable ? null : Number(e.target.value)) });
              if (c.min !== undefined) input.min = c.min;
              if (c.max !== undefined) input.max = c.max;
              return el('label', {}, c.attribute + ' ', input);
            }
            case 'enum': {
              const select = el('select', { className: c.name, 'aria-label': c.attribute, onchange: (e) => put(Number(e.target.value)) });
              for (const option of c.options) select.append(el('option', { value: option.value, selected: option.value === current }, option.name));
              return el('label', {}, c.attribute + ' ', select);
            }
            default: return null;
          }
        }

        function controls(d) {
          const box = el('div', { className: 'controls' });
          const i = d.device;
          for (const c of d.controls || []) box.append(control(d, c));
          box.append(el('button', { className: 'open-window', type: 'button', onclick: () =>
            act(api('POST', devicePath(i) + '/actions/open-window', {}).then((w) => { windows.set(i, w); refresh(i); })) }, 'open window'));
          box.append(el('button', { className: 'network', type: 'button', onclick: () =>
            act(api('POST', devicePath(i) + '/actions/' + (d.online ? 'offline' : 'online'), {})) }, d.online ? 'go offline' : 'go online'));
          box.append(el('button', { className: 'reboot', type: 'button', onclick: () =>
            act(api('POST', devicePath(i) + '/actions/reboot', {})) }, 'reboot'));
          box.append(el('button', { className: 'factory-reset', type: 'button', onclick: () =>
            act(api('POST', devicePath(i) + '/actions/factory-reset', {})) }, 'factory reset'));
          return box;
        }

        // One event-log entry as a line: a cluster's event with its fields, else the kind and its fields.
        function logLine(e) {
          const time = e.time ? new Date(e.time).toLocaleTimeString() + ' ' : '';
          if (e.event === 'cluster-event') return time + e.cluster + '.' + e.name + ' #' + e.number + ' ' + JSON.stringify(e.fields);
          const rest = Object.fromEntries(Object.entries(e).filter(([k]) => !['device', 'time', 'event'].includes(k)));
          return time + e.event + ' ' + JSON.stringify(rest);
        }

        const openLogs = new Set();

        function eventLog(d) {
          const log = d.log || [];
          const details = el('details', { className: 'log', open: openLogs.has(d.device) },
            el('summary', {}, log.length ? log.length + ' recent' : 'none'),
            el('ol', {}, ...log.map((e) => el('li', { className: 'log-entry' }, logLine(e)))));
          details.addEventListener('toggle', () => { if (details.open) openLogs.add(d.device); else openLogs.delete(d.device); });
          return details;
        }

        function commissioning(d) {
          const opened = windows.get(d.device);
          const qr = d.qrCode || (d.commissionable && opened ? opened.qrCode : null);
          const manual = d.manualCode || (d.commissionable && opened ? opened.manualCode : null);
          if (!d.commissionable || !qr) return d.commissionable ? 'window open' : '';
          return el('div', {},
            el('img', { className: 'qr', alt: qr, src: withToken('/api/qr.svg?payload=' + encodeURIComponent(qr)) }),
            el('div', { className: 'code manual-code' }, manual || ''),
            el('div', { className: 'code qr-payload' }, qr));
        }

        function row(d) {
          const attributes = el('td', {});
          for (const [cluster, values] of Object.entries(d.attributes || {})) {
            for (const [name, v] of Object.entries(values)) {
              attributes.append(el('span', { className: 'attribute', 'data-attribute': cluster + '.' + name, title: cluster },
                name + ' ', el('b', {}, JSON.stringify(v))));
            }
          }
          return el('tr', { id: 'device-' + d.device, 'data-device': d.device },
            el('td', {}, String(d.device)),
            el('td', { className: 'label' }, d.label),
            el('td', { className: 'type' }, d.type),
            el('td', { className: 'state ' + (d.online ? 'online' : 'offline') }, d.online ? 'online' : 'offline'),
            el('td', { className: 'fabrics' }, d.fabrics.length ? d.fabrics.join(', ') : 'none'),
            attributes,
            el('td', { className: 'commissioning' }, commissioning(d)),
            el('td', {}, controls(d)),
            el('td', {}, eventLog(d)));
        }

        function show(d) {
          devices.set(d.device, d);
          const old = document.getElementById('device-' + d.device);
          if (old) old.replaceWith(row(d));
        }

        async function refresh(i) {
          if (!document.getElementById('device-' + i)) return;
          try {
            const d = await api('GET', '/api/devices/' + i);
            if (!d.commissionable) windows.delete(i);
            show(d);
          } catch (error) { report(error); }
        }

        async function load() {
          const query = new URLSearchParams({ q: view.q, type: view.type, online: view.online, offset: view.offset, limit: view.limit });
          try {
            const page = await api('GET', '/api/devices?' + query);
            view.total = page.total;
            devices.clear();
            for (const d of page.devices) {
              devices.set(d.device, d);
              if (!d.commissionable) windows.delete(d.device);
            }
            document.getElementById('devices').replaceChildren(...page.devices.map(row));
            const last = Math.min(view.offset + view.limit, view.total);
            document.getElementById('page').textContent = (view.total ? view.offset + 1 : 0) + '-' + last + ' of ' + view.total;
            document.getElementById('prev').disabled = view.offset === 0;
            document.getElementById('next').disabled = last >= view.total;
            report(null);
          } catch (error) { report(error); }
        }

        function listen() {
          const stream = new EventSource(withToken('/api/events'));
          const state = document.getElementById('connection');
          stream.onopen = () => { state.textContent = 'live'; state.className = 'live'; };
          stream.onerror = () => { state.textContent = 'reconnecting'; state.className = 'offline'; };
          stream.onmessage = (message) => {
            const event = JSON.parse(message.data);
            const d = devices.get(event.device);
            if (!d) return;
            const values = (d.attributes || {})[event.cluster];
            if (event.event === 'attribute' && event.endpoint === 1 && values && event.attribute in values) {
              values[event.attribute] = event.value;
              show(d);
              return;
            }
            if (event.event !== 'attribute') {
              d.log = (d.log || []).concat([Object.assign({ time: Date.now() }, event)]).slice(-10);
              show(d);
            }
            if (['network', 'commissioning-window', 'fabrics', 'rebooted'].includes(event.event) ||
                (event.event === 'attribute' && event.cluster === 'BasicInformation')) {
              // The device's state decides (refresh), not the event: a close that arrives late must not
              // hide the codes of the window opened after it.
              refresh(event.device);
            }
          };
        }

        document.addEventListener('DOMContentLoaded', () => {
          let timer = null;
          document.getElementById('search').addEventListener('input', (e) => {
            clearTimeout(timer);
            timer = setTimeout(() => { view.q = e.target.value; view.offset = 0; load(); }, 200);
          });
          document.getElementById('type').addEventListener('change', (e) => { view.type = e.target.value; view.offset = 0; load(); });
          document.getElementById('online').addEventListener('change', (e) => { view.online = e.target.value; view.offset = 0; load(); });
          document.getElementById('prev').addEventListener('click', () => { view.offset = Math.max(0, view.offset - view.limit); load(); });
          document.getElementById('next').addEventListener('click', () => { view.offset += view.limit; load(); });
          document.getElementById('filters').addEventListener('submit', (e) => e.preventDefault());
          api('GET', '/api/types').then((answer) => {
            const select = document.getElementById('type');
            for (const t of answer.types) select.append(el('option', { value: t.type }, t.type + ' (' + t.count + ')'));
          }, report);
          load();
        });
        // The stream opens after the page has loaded (a stream open before would hold the load event).
        window.addEventListener('load', listen);
        """#
}
