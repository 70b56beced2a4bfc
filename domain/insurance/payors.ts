/**
 * Insurance payors. The service's own list ("platform" payors, the same on every install) is a small,
 * realistic set of US payors with their electronic payer ids at each clearinghouse; a team adds its
 * own with POST /v3/payor (`source: "team"`). Orders billed to `commercial_insurance` name a payor by
 * `payor_code`.
 */
export const PAYOR_PROVIDERS = ['change_healthcare', 'availity', 'stedi', 'waystar', 'claim_md'] as const;
export type PayorProvider = (typeof PAYOR_PROVIDERS)[number];

export interface PayorAddress {
  first_line: string;
  second_line?: string | null;
  country: string;
  zip: string;
  city: string;
  state: string;
}

export interface Payor {
  payorCode: string;
  name: string;
  aliases: string[];
  address: PayorAddress;
  source: 'platform' | 'team';
  /** The payor's id at each clearinghouse. */
  providerIds: Partial<Record<PayorProvider, string>>;
}

const addr = (first_line: string, city: string, state: string, zip: string): PayorAddress => ({ first_line, city, state, zip, country: 'US' });

export const PLATFORM_PAYORS: readonly Payor[] = [
  { payorCode: 'AETNA', name: 'Aetna', aliases: ['Aetna Health', 'Aetna Better Health'], address: addr('PO Box 981106', 'El Paso', 'TX', '79998'), source: 'platform', providerIds: { change_healthcare: '60054', availity: '60054', stedi: '60054', waystar: '60054', claim_md: '60054' } },
  { payorCode: 'BCBSTX', name: 'Blue Cross Blue Shield of Texas', aliases: ['BCBS Texas', 'BCBSTX'], address: addr('PO Box 660044', 'Dallas', 'TX', '75266'), source: 'platform', providerIds: { change_healthcare: '84980', availity: 'G84980', stedi: '84980', waystar: '84980' } },
  { payorCode: 'ANTHEMCA', name: 'Anthem Blue Cross of California', aliases: ['Anthem', 'Anthem Blue Cross'], address: addr('PO Box 60007', 'Los Angeles', 'CA', '90060'), source: 'platform', providerIds: { change_healthcare: '47198', availity: '47198', stedi: '47198' } },
  { payorCode: 'CIGNA', name: 'Cigna Healthcare', aliases: ['Cigna', 'CIGNA Health and Life'], address: addr('PO Box 188061', 'Chattanooga', 'TN', '37422'), source: 'platform', providerIds: { change_healthcare: '62308', availity: '62308', stedi: '62308', waystar: '62308', claim_md: '62308' } },
  { payorCode: 'UHC', name: 'UnitedHealthcare', aliases: ['United Healthcare', 'UHC', 'United Health Care'], address: addr('PO Box 740800', 'Atlanta', 'GA', '30374'), source: 'platform', providerIds: { change_healthcare: '87726', availity: '87726', stedi: '87726', waystar: '87726', claim_md: '87726' } },
  { payorCode: 'HUMANA', name: 'Humana', aliases: ['Humana Health Plan'], address: addr('PO Box 14601', 'Lexington', 'KY', '40512'), source: 'platform', providerIds: { change_healthcare: '61101', availity: '61101', stedi: '61101' } },
  { payorCode: 'KAISERNC', name: 'Kaiser Permanente Northern California', aliases: ['Kaiser', 'KP Northern California'], address: addr('PO Box 12923', 'Oakland', 'CA', '94604'), source: 'platform', providerIds: { change_healthcare: '94135', availity: '94135' } },
  { payorCode: 'EMPIRENY', name: 'Empire BlueCross BlueShield', aliases: ['Empire BCBS', 'Anthem Empire'], address: addr('PO Box 1407', 'Church Street Station', 'NY', '10008'), source: 'platform', providerIds: { change_healthcare: '803', availity: '803' } },
  { payorCode: 'OSCAR', name: 'Oscar Health', aliases: ['Oscar'], address: addr('PO Box 52146', 'Phoenix', 'AZ', '85072'), source: 'platform', providerIds: { change_healthcare: 'OSCAR', stedi: 'OSCAR' } },
  { payorCode: 'MEDICARECA', name: 'Medicare Part B (California, Noridian JE)', aliases: ['Medicare', 'Noridian'], address: addr('PO Box 6775', 'Fargo', 'ND', '58108'), source: 'platform', providerIds: { change_healthcare: '01112', availity: '01112' } },
];

/** Payors whose name or an alias contains the query (case-insensitive), or with this id at a clearinghouse. */
export function matchPayors(
  payors: readonly Payor[],
  query: { insuranceName?: string | undefined; provider?: PayorProvider | undefined; providerPayorId?: string | undefined },
): Payor[] {
  const name = query.insuranceName?.trim().toLowerCase();
  return payors.filter((p) => {
    if (name && ![p.name, ...p.aliases, p.payorCode].some((n) => n.toLowerCase().includes(name))) return false;
    if (query.providerPayorId) {
      const ids = query.provider ? [p.providerIds[query.provider]] : Object.values(p.providerIds);
      if (!ids.includes(query.providerPayorId)) return false;
    } else if (query.provider && !p.providerIds[query.provider]) {
      return false;
    }
    return true;
  });
}
