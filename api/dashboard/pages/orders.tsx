import type { FC } from 'hono/jsx';
import type { OrderSearchRow } from '../../../db/queries/dashboard/orders.js';
import { COLLECTION_METHODS, TOP_LEVEL_STATUSES } from '../../../domain/orders/status.js';
import { Select, StatusBadge, fmt } from '../layout.js';
import { cursorOf } from '../params.js';
import { BASE } from '../session.js';

export interface OrderFilters {
  q?: string | undefined;
  team?: string | undefined;
  status?: string | undefined;
  method?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  limit?: string | undefined;
}

export const OrderSearchForm: FC<{ f: OrderFilters; teams: { id: string; name: string }[] }> = ({ f, teams }) => (
  <form class="filters" method="get" action={`${BASE}/orders`} hx-get={`${BASE}/orders`} hx-target="#results" hx-push-url="true">
    <label for="q">
      Search orders
      <input id="q" name="q" value={f.q ?? ''} size={40} placeholder="order id, sample id, user id, client_user_id, patient name" />
    </label>
    <Select name="team" label="Team" options={teams.map((t) => [t.id, t.name] as [string, string])} value={f.team} />
    <Select name="status" label="Status" options={TOP_LEVEL_STATUSES} value={f.status} />
    <Select name="method" label="Collection method" options={COLLECTION_METHODS} value={f.method} />
    <label>
      From
      <input type="date" name="from" value={f.from ?? ''} />
    </label>
    <label>
      To
      <input type="date" name="to" value={f.to ?? ''} />
    </label>
    <button type="submit">Search</button>
  </form>
);

export const OrderResults: FC<{ rows: OrderSearchRow[]; f: OrderFilters; pageSize: number }> = ({ rows, f, pageSize }) => {
  const last = rows.length === pageSize ? rows[rows.length - 1] : undefined;
  const params = new URLSearchParams(Object.entries(f).filter((e): e is [string, string] => Boolean(e[1])));
  if (last) params.set('before', cursorOf(last));
  return (
    <div id="results">
      <table>
        <thead>
          <tr>
            <th>Created</th>
            <th>Order</th>
            <th>Team</th>
            <th>Patient</th>
            <th>client_user_id</th>
            <th>Sample</th>
            <th>Method</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr>
              <td class="mono">{fmt(r.createdAt)}</td>
              <td class="mono">
                <a href={`${BASE}/orders/${r.id}`}>{r.id}</a>
              </td>
              <td>{r.teamName}</td>
              <td>{[r.patientFirst, r.patientLast].filter(Boolean).join(' ') || <span class="muted">—</span>}</td>
              <td class="mono">{r.clientUserId}</td>
              <td class="mono">{r.sampleId ?? '—'}</td>
              <td>{r.method}</td>
              <td>
                <StatusBadge value={r.status} /> <span class="muted">{r.lowLevelStatus}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p class="muted">No orders match.</p>}
      {last && (
        <p>
          <a href={`${BASE}/orders?${params.toString()}`} hx-get={`${BASE}/orders?${params.toString()}`} hx-target="#results" hx-push-url="true">
            Next page →
          </a>
        </p>
      )}
    </div>
  );
};
