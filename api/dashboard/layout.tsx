import type { Child, FC } from 'hono/jsx';
import type { SessionOperator } from '../../db/queries/dashboard/operators.js';
import { BASE, CSRF_FIELD } from './session.js';

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;display:flex;gap:18px;align-items:center;padding:8px 18px}
header a{color:#cfd6e4;text-decoration:none}header a.on,header a:hover{color:#fff}
header .who{margin-left:auto;display:flex;gap:10px;align-items:center;color:#9aa4b8}
main{padding:16px 20px;max-width:1280px}
h1{font-size:20px;margin:4px 0 12px}h2{font-size:16px;margin:18px 0 8px}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border-bottom:1px solid #e3e6eb;padding:5px 8px;text-align:left;vertical-align:top}
th{background:#eef0f4;font-weight:600}
code,.mono{font-family:ui-monospace,monospace;font-size:12px}
.badge{display:inline-block;padding:0 6px;border-radius:8px;background:#e3e6eb;font-size:12px}
.ok{background:#d7f2df}.bad{background:#fbd9d9}.warn{background:#fdf0c8}
form.inline{display:inline}
.filters{display:flex;flex-wrap:wrap;gap:8px;align-items:end;margin-bottom:12px}
.filters label{display:flex;flex-direction:column;font-size:12px;color:#4a5468}
input,select,button{font:inherit;padding:4px 6px}
button{cursor:pointer;border:1px solid #8a94a8;border-radius:4px;background:#fff}
button.danger,.btn.danger{border-color:#c0392b;color:#c0392b}
.btn{display:inline-block;white-space:nowrap;margin-right:10px;padding:4px 8px;border:1px solid #8a94a8;border-radius:4px;background:#fff;color:inherit;text-decoration:none}
.panel{background:#fff;border:1px solid #e3e6eb;border-radius:6px;padding:10px 14px;margin:10px 0}
.grid{display:grid;grid-template-columns:1fr 1fr;gap:14px}
.src-event{color:#1565c0}.src-workflow{color:#6a1b9a}.src-webhook{color:#2e7d32}
.muted{color:#6b7487}.err{color:#b3261e}
.btn.on{background:#1d2330;color:#fff}
figure.chart{background:#fff;border:1px solid #e3e6eb;border-radius:6px;padding:8px 10px;margin:8px 0;max-width:780px}
figure.chart svg{max-width:100%;height:auto}
figcaption{display:flex;flex-wrap:wrap;gap:12px;font-size:12px;margin-top:4px}
.legend{display:inline-flex;gap:4px;align-items:center}.swatch{display:inline-block;width:10px;height:10px;border-radius:2px}
table.chart-data{font-size:12px;width:auto}
`;

const NAV: [string, string][] = [
  ['overview', 'Overview'],
  ['orders', 'Orders'],
  ['workflows', 'Workflows'],
  ['webhooks', 'Webhooks'],
  ['parsing', 'Parsing jobs'],
  ['teams', 'Teams and keys'],
  ['audit', 'Audit log'],
];

export const Layout: FC<{ title: string; operator?: SessionOperator; section?: string; children?: Child }> = ({ title, operator, section, children }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <title>{`${title} · labflow operations`}</title>
      <style>{STYLE}</style>
      <script src={`${BASE}/static/htmx.min.js`} defer></script>
    </head>
    <body hx-headers={operator ? JSON.stringify({ 'x-csrf-token': operator.csrfToken }) : undefined}>
      <header>
        <strong>labflow ops</strong>
        {operator &&
          NAV.map(([key, label]) => (
            <a href={`${BASE}/${key}`} class={section === key ? 'on' : ''}>
              {label}
            </a>
          ))}
        {operator && (
          <span class="who">
            {operator.email} <span class="badge">{operator.role}</span>
            <form method="post" action={`${BASE}/logout`} class="inline">
              <input type="hidden" name={CSRF_FIELD} value={operator.csrfToken} />
              <button type="submit">Log out</button>
            </form>
          </span>
        )}
      </header>
      <main>
        <h1>{title}</h1>
        {children}
      </main>
    </body>
  </html>
);

/** A POST form carrying the session's CSRF token. */
export const PostForm: FC<{ action: string; operator: SessionOperator; children?: Child; class?: string }> = (p) => (
  <form method="post" action={p.action} class={p.class}>
    <input type="hidden" name={CSRF_FIELD} value={p.operator.csrfToken} />
    {p.children}
  </form>
);

export const fmt = (d: Date | null | undefined): string => (d ? d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—');

export const StatusBadge: FC<{ value: string | null | undefined }> = ({ value }) => {
  const v = value ?? '—';
  const cls = /fail|error|cancel|lost|expired|disabled|terminated|timed/.test(v) ? 'bad' : /complete|deliver|approved|ok|running/.test(v) ? 'ok' : 'warn';
  return <span class={`badge ${cls}`}>{v}</span>;
};

/** A filter's drop-down: '' means any; options are values or [value, label] pairs. */
export const Select: FC<{ name: string; label: string; options: readonly (string | [string, string])[]; value: string | undefined }> = (p) => (
  <label>
    {p.label}
    <select name={p.name}>
      <option value="">any</option>
      {p.options.map((o) => {
        const [v, l] = typeof o === 'string' ? [o, o] : o;
        return (
          <option value={v} selected={p.value === v}>
            {l}
          </option>
        );
      })}
    </select>
  </label>
);
