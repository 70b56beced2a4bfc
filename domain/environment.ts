export const SERVICE_ENVIRONMENTS = ['sandbox', 'production'] as const;
export type ServiceEnvironment = (typeof SERVICE_ENVIRONMENTS)[number];

export const SERVICE_REGIONS = ['us', 'eu'] as const;
export type ServiceRegion = (typeof SERVICE_REGIONS)[number];
