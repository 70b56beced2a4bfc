/**
 * Custom search attributes of the service's workflows, defined once: registered on the dev server
 * (lib/temporal-dev-server.ts), in the compose file's Temporal, and set by the workflows so operators
 * can list them by team, status, collection method or user (the dashboard's Workflows view).
 */
export const SEARCH_ATTRIBUTES = {
  team: { name: 'LabflowTeamId', type: 'Keyword' },
  status: { name: 'LabflowStatus', type: 'Keyword' },
  method: { name: 'LabflowCollectionMethod', type: 'Keyword' },
  user: { name: 'LabflowUserId', type: 'Keyword' },
} as const;

export type SearchAttributeKey = keyof typeof SEARCH_ATTRIBUTES;

/** `--search-attribute Name=Type` flags for `temporal server start-dev`. */
export const searchAttributeFlags = (): string[] =>
  Object.values(SEARCH_ATTRIBUTES).flatMap((a) => ['--search-attribute', `${a.name}=${a.type}`]);
