/** Inflammation, coagulation, cardiac markers, tumour markers, immunology, serology, blood gases. */
import { type LoincEntry, row } from './entry.js';

const INR = ['INR|International normalized ratio|PT INR|Prothrombin INR|International normalised ratio', 'INR|International Normalized Ratio', 'INR|Rapport international normalisé'] as const;
const APTT = ['aPTT|APTT|PTT|Activated partial thromboplastin time|Partial thromboplastin time|Activated PTT', 'aPTT|PTT|Aktivierte partielle Thromboplastinzeit|Partielle Thromboplastinzeit', 'TCA|Temps de céphaline activée|Temps de céphaline avec activateur|aPTT'] as const;
const DDIMER = ['D-dimer|D dimer|D-dimers|Fibrin D-dimer|D-Dimer quantitative', 'D-Dimer|D-Dimere|Fibrin-D-Dimer', 'D-dimères|D-dimère|D-Dimères'] as const;

export const IMMUNOLOGY: LoincEntry[] = [
  // Inflammation
  row('1988-5', 'C reactive protein [Mass/volume] in Serum or Plasma', 'CRP', 'Ser/Plas', 'mg/L|mg/dL', 'CRP|C-reactive protein|C reactive protein|CRP quantitative', 'CRP|C-reaktives Protein|C-reaktives Protein (CRP)', 'CRP|PCR|Protéine C réactive|Protéine C-réactive|Protéine C réactive (PCR)', 'inflammation'),
  row('30522-7', 'C reactive protein [Mass/volume] in Serum or Plasma by High sensitivity method', 'hs-CRP', 'Ser/Plas', 'mg/L|mg/dL', 'hs-CRP|hsCRP|High sensitivity CRP|C-reactive protein high sensitivity|Cardio CRP|CRP high sensitivity|C-reactive protein, cardiac|hs CRP', 'hs-CRP|hochsensitives CRP|CRP hochsensitiv', 'CRP ultrasensible|CRPus|hs-CRP', 'inflammation|cardiac'),
  row('76485-2', 'C reactive protein [Moles/volume] in Serum or Plasma', 'CRP', 'Ser/Plas', 'nmol/L', 'CRP|C-reactive protein', 'CRP|C-reaktives Protein', 'CRP|Protéine C réactive', 'inflammation', 3),
  row('33959-8', 'Procalcitonin [Mass/volume] in Serum or Plasma', 'Procalcitonin', 'Ser/Plas', 'ng/mL|ug/L', 'Procalcitonin|PCT', 'Procalcitonin|PCT', 'Procalcitonine|PCT', 'inflammation'),
  row('26881-3', 'Interleukin 6 [Mass/volume] in Serum or Plasma', 'Interleukin-6', 'Ser/Plas', 'pg/mL|ng/L', 'Interleukin 6|IL-6|IL6|Interleukin-6', 'Interleukin 6|IL-6', 'Interleukine 6|IL-6', 'inflammation'),

  // Coagulation
  row('5902-2', 'Prothrombin time (PT)', 'Prothrombin time', 'PPP', 's', 'Prothrombin time|PT|Protime|Pro time|PT seconds', 'Prothrombinzeit|Thromboplastinzeit|PT|TPZ (sek)', 'Temps de prothrombine|Temps de Quick|TP (secondes)', 'coag'),
  row('5894-1', 'Prothrombin time (PT) actual/Normal', 'Quick (%)', 'PPP', '%', 'Prothrombin activity|PT activity|Quick|Quick value|Prothrombin ratio percent', 'Quick|Quick-Wert|Thromboplastinzeit nach Quick|TPZ|Quick (%)', 'Taux de prothrombine|TP|Taux de prothrombine (%)', 'coag'),
  row('6301-6', 'INR in Platelet poor plasma by Coagulation assay', 'INR', 'PPP', 'ratio|INR', ...INR, 'coag'),
  row('34714-6', 'INR in Blood by Coagulation assay', 'INR (blood)', 'Bld', 'ratio|INR', `${INR[0]}|INR point of care|POC INR`, INR[1], INR[2], 'coag', 3),
  row('38875-1', 'INR in Platelet poor plasma or Blood by Coagulation assay', 'INR', 'PPP', 'ratio|INR', ...INR, 'coag', 2),
  row('14979-9', 'aPTT in Platelet poor plasma by Coagulation assay', 'aPTT', 'PPP', 's', ...APTT, 'coag'),
  row('3173-2', 'aPTT in Blood by Coagulation assay', 'aPTT (blood)', 'Bld', 's', ...APTT, 'coag', 2),
  row('3255-7', 'Fibrinogen [Mass/volume] in Platelet poor plasma by Coagulation assay', 'Fibrinogen', 'PPP', 'mg/dL|g/L', 'Fibrinogen|Fibrinogen activity|Fibrinogen (Clauss)', 'Fibrinogen|Fibrinogen nach Clauss', 'Fibrinogène|Fibrinémie', 'coag'),
  row('48065-7', 'Fibrin D-dimer FEU [Mass/volume] in Platelet poor plasma', 'D-dimer (FEU)', 'PPP', 'ug/mL|mg/L|ng/mL|ug/L', `${DDIMER[0]}|D-dimer FEU`, `${DDIMER[1]}|D-Dimer FEU`, `${DDIMER[2]}|D-dimères FEU`, 'coag'),
  row('48066-5', 'Fibrin D-dimer DDU [Mass/volume] in Platelet poor plasma', 'D-dimer (DDU)', 'PPP', 'ng/mL|ug/L|mg/L', `${DDIMER[0]}|D-dimer DDU`, `${DDIMER[1]}|D-Dimer DDU`, `${DDIMER[2]}|D-dimères DDU`, 'coag', 2),
  row('3243-3', 'Thrombin time', 'Thrombin time', 'PPP', 's', 'Thrombin time|TT|Thrombin clotting time', 'Thrombinzeit|TZ', 'Temps de thrombine|TT', 'coag'),

  // Cardiac
  row('10839-9', 'Troponin I.cardiac [Mass/volume] in Serum or Plasma', 'Troponin I', 'Ser/Plas', 'ng/mL|ug/L', 'Troponin I|cTnI|TnI|Cardiac troponin I', 'Troponin I|cTnI', 'Troponine I|cTnI', 'cardiac'),
  row('89579-7', 'Troponin I.cardiac [Mass/volume] in Serum or Plasma by High sensitivity method', 'hs-Troponin I', 'Ser/Plas', 'ng/L|pg/mL', 'hs-Troponin I|High sensitivity troponin I|hs-cTnI|Troponin I high sensitivity|Troponin I|hsTnI', 'hs-Troponin I|Troponin I hochsensitiv|Troponin I', 'Troponine I ultrasensible|Troponine I hs|Troponine I', 'cardiac'),
  row('6598-7', 'Troponin T.cardiac [Mass/volume] in Serum or Plasma', 'Troponin T', 'Ser/Plas', 'ng/mL|ug/L', 'Troponin T|cTnT|TnT|Cardiac troponin T', 'Troponin T|cTnT', 'Troponine T|cTnT', 'cardiac'),
  row('67151-1', 'Troponin T.cardiac [Mass/volume] in Serum or Plasma by High sensitivity method', 'hs-Troponin T', 'Ser/Plas', 'ng/L|pg/mL', 'hs-Troponin T|High sensitivity troponin T|hs-cTnT|Troponin T high sensitivity|Troponin T|hsTnT', 'hs-Troponin T|Troponin T hochsensitiv|Troponin T|hsTnT', 'Troponine T ultrasensible|Troponine T hs|Troponine T', 'cardiac'),
  row('30934-4', 'Natriuretic peptide B [Mass/volume] in Serum or Plasma', 'BNP', 'Ser/Plas', 'pg/mL|ng/L', 'BNP|B-type natriuretic peptide|Brain natriuretic peptide|Natriuretic peptide B', 'BNP|Natriuretisches Peptid Typ B', 'BNP|Peptide natriurétique de type B', 'cardiac'),
  row('33762-6', 'Natriuretic peptide.B prohormone N-Terminal [Mass/volume] in Serum or Plasma', 'NT-proBNP', 'Ser/Plas', 'pg/mL|ng/L', 'NT-proBNP|NT proBNP|N-terminal pro-BNP|N-terminal pro B-type natriuretic peptide|proBNP|NTproBNP', 'NT-proBNP|NT-pro-BNP', 'NT-proBNP|NT-pro-BNP|Fragment N-terminal du pro-BNP', 'cardiac'),
  row('13969-1', 'Creatine kinase.MB [Mass/volume] in Serum or Plasma', 'CK-MB mass', 'Ser/Plas', 'ng/mL|ug/L', 'CK-MB mass|CK-MB|CKMB mass|Creatine kinase MB mass', 'CK-MB Masse|CK-MB', 'CK-MB masse|CK-MB', 'cardiac'),
  row('2639-3', 'Myoglobin [Mass/volume] in Serum or Plasma', 'Myoglobin', 'Ser/Plas', 'ng/mL|ug/L', 'Myoglobin', 'Myoglobin', 'Myoglobine', 'cardiac'),

  // Tumour markers
  row('2857-1', 'Prostate specific Ag [Mass/volume] in Serum or Plasma', 'PSA', 'Ser/Plas', 'ng/mL|ug/L', 'PSA|Prostate specific antigen|Total PSA|PSA total|Prostate-specific antigen', 'PSA|Prostataspezifisches Antigen|Gesamt-PSA|PSA gesamt|tPSA', 'PSA|Antigène prostatique spécifique|PSA total|Antigène spécifique de la prostate', 'tumor'),
  row('10886-0', 'Prostate Specific Ag Free [Mass/volume] in Serum or Plasma', 'PSA, free', 'Ser/Plas', 'ng/mL|ug/L', 'Free PSA|PSA free|fPSA|PSA, free', 'freies PSA|fPSA|PSA frei', 'PSA libre', 'tumor'),
  row('12841-3', 'Prostate Specific Ag Free/Prostate specific Ag.total in Serum or Plasma', 'PSA free/total', 'Ser/Plas', '%', 'PSA free/total|% Free PSA|Free PSA %|PSA ratio|Free/total PSA|Percent free PSA', 'fPSA/tPSA|Quotient freies/Gesamt-PSA|PSA-Quotient', 'Rapport PSA libre/total|PSA libre/PSA total', 'tumor'),
  row('2039-6', 'Carcinoembryonic Ag [Mass/volume] in Serum or Plasma', 'CEA', 'Ser/Plas', 'ng/mL|ug/L', 'CEA|Carcinoembryonic antigen', 'CEA|Carcinoembryonales Antigen', 'ACE|Antigène carcino-embryonnaire|CEA', 'tumor'),
  row('1834-1', 'Alpha-1-Fetoprotein [Mass/volume] in Serum or Plasma', 'AFP', 'Ser/Plas', 'ng/mL|ug/L|IU/mL', 'AFP|Alpha-fetoprotein|Alpha fetoprotein|Alpha-1-fetoprotein', 'AFP|Alpha-Fetoprotein|Alpha-1-Fetoprotein', 'AFP|Alpha-fœtoprotéine|Alpha-foetoprotéine|Alphafœtoprotéine', 'tumor'),
  row('10334-1', 'Cancer Ag 125 [Units/volume] in Serum or Plasma', 'CA 125', 'Ser/Plas', 'U/mL|kU/L', 'CA 125|CA-125|CA125|Cancer antigen 125', 'CA 125|CA-125', 'CA 125|CA-125|Antigène CA 125', 'tumor'),
  row('6875-9', 'Cancer Ag 15-3 [Units/volume] in Serum or Plasma', 'CA 15-3', 'Ser/Plas', 'U/mL|kU/L', 'CA 15-3|CA15-3|CA 153|Cancer antigen 15-3', 'CA 15-3|CA15-3', 'CA 15-3|CA15-3', 'tumor'),
  row('24108-3', 'Cancer Ag 19-9 [Units/volume] in Serum or Plasma', 'CA 19-9', 'Ser/Plas', 'U/mL|kU/L', 'CA 19-9|CA19-9|CA 199|Cancer antigen 19-9', 'CA 19-9|CA19-9', 'CA 19-9|CA19-9', 'tumor'),
  row('1952-1', 'Beta-2-Microglobulin [Mass/volume] in Serum or Plasma', 'Beta-2 microglobulin', 'Ser/Plas', 'mg/L|ug/mL', 'Beta-2 microglobulin|B2M|Beta 2 microglobulin|β2-microglobulin', 'Beta-2-Mikroglobulin|β2-Mikroglobulin', 'Bêta-2 microglobuline|β2-microglobuline', 'tumor'),

  // Immunoglobulins, complement, autoimmunity
  row('2465-3', 'IgG [Mass/volume] in Serum or Plasma', 'IgG', 'Ser/Plas', 'mg/dL|g/L', 'IgG|Immunoglobulin G|Immunoglobulin G total', 'IgG|Immunglobulin G', 'IgG|Immunoglobulines G', 'immunology'),
  row('2458-8', 'IgA [Mass/volume] in Serum or Plasma', 'IgA', 'Ser/Plas', 'mg/dL|g/L', 'IgA|Immunoglobulin A', 'IgA|Immunglobulin A', 'IgA|Immunoglobulines A', 'immunology'),
  row('2472-9', 'IgM [Mass/volume] in Serum or Plasma', 'IgM', 'Ser/Plas', 'mg/dL|g/L', 'IgM|Immunoglobulin M', 'IgM|Immunglobulin M', 'IgM|Immunoglobulines M', 'immunology'),
  row('19113-0', 'IgE [Units/volume] in Serum or Plasma', 'IgE', 'Ser/Plas', 'IU/mL|kU/L|kIU/L', 'IgE|Immunoglobulin E|Total IgE|IgE total', 'IgE|Gesamt-IgE|Immunglobulin E', 'IgE totales|IgE|Immunoglobulines E', 'immunology'),
  row('4485-9', 'Complement C3 [Mass/volume] in Serum or Plasma', 'Complement C3', 'Ser/Plas', 'mg/dL|g/L', 'Complement C3|C3|C3 complement', 'Komplement C3|C3', 'Complément C3|C3', 'immunology'),
  row('4498-2', 'Complement C4 [Mass/volume] in Serum or Plasma', 'Complement C4', 'Ser/Plas', 'mg/dL|g/L', 'Complement C4|C4|C4 complement', 'Komplement C4|C4', 'Complément C4|C4', 'immunology'),
  row('11572-5', 'Rheumatoid factor [Units/volume] in Serum or Plasma', 'Rheumatoid factor', 'Ser/Plas', 'IU/mL|U/mL|kIU/L', 'Rheumatoid factor|RF|RA factor|Rheumatoid factor quantitative', 'Rheumafaktor|RF', 'Facteur rhumatoïde|FR|Facteurs rhumatoïdes', 'immunology'),
  row('32218-0', 'Cyclic citrullinated peptide Ab [Units/volume] in Serum by Immunoassay', 'Anti-CCP', 'Ser', 'U/mL|EU/mL', 'Anti-CCP|CCP antibodies|Cyclic citrullinated peptide antibody|Anti-CCP antibodies|CCP Ab', 'Anti-CCP|CCP-Antikörper|Antikörper gegen cyclisches citrulliniertes Peptid', 'Anti-CCP|Anticorps anti-CCP|Anticorps anti-peptides cycliques citrullinés', 'immunology'),
  row('5130-0', 'DNA double strand Ab [Units/volume] in Serum', 'Anti-dsDNA', 'Ser', 'IU/mL|U/mL', 'Anti-dsDNA|dsDNA antibodies|Double stranded DNA antibody|Anti-double stranded DNA', 'Anti-dsDNA|dsDNA-Antikörper|Doppelstrang-DNA-Antikörper', 'Anti-ADN natif|Anticorps anti-ADN double brin|Anti-ADNdb', 'immunology'),
  row('31017-7', 'Tissue transglutaminase IgA Ab [Units/volume] in Serum', 'tTG IgA', 'Ser', 'U/mL|CU', 'tTG IgA|Tissue transglutaminase IgA|Anti-tTG IgA|Transglutaminase IgA|TTG antibody IgA', 'Transglutaminase-IgA-AK|tTG-IgA|Gewebstransglutaminase IgA', 'Anticorps anti-transglutaminase IgA|tTG IgA', 'immunology'),

  // Serology
  row('5196-1', 'Hepatitis B virus surface Ag [Presence] in Serum or Plasma by Immunoassay', 'HBsAg', 'Ser/Plas', '', 'HBsAg|Hepatitis B surface antigen|Hep B surface Ag|HBV surface antigen', 'HBs-Ag|HBsAg|Hepatitis-B-Oberflächenantigen', 'Ag HBs|AgHBs|Antigène HBs', 'serology'),
  row('5195-3', 'Hepatitis B virus surface Ag [Presence] in Serum', 'HBsAg', 'Ser', '', 'HBsAg|Hepatitis B surface antigen|Hep B surface Ag', 'HBs-Ag|HBsAg', 'Ag HBs|Antigène HBs', 'serology', 2),
  row('16935-9', 'Hepatitis B virus surface Ab [Units/volume] in Serum', 'Anti-HBs (quant)', 'Ser', 'mIU/mL|IU/L', 'Anti-HBs|HBsAb|Hepatitis B surface antibody|Hep B surface Ab|Anti-HBs quantitative', 'Anti-HBs|HBs-Antikörper', 'Ac anti-HBs|Anticorps anti-HBs|Anti-HBs', 'serology'),
  row('22322-2', 'Hepatitis B virus surface Ab [Presence] in Serum', 'Anti-HBs', 'Ser', '', 'Anti-HBs|HBsAb|Hepatitis B surface antibody', 'Anti-HBs', 'Ac anti-HBs|Anti-HBs', 'serology', 2),
  row('16933-4', 'Hepatitis B virus core Ab [Presence] in Serum', 'Anti-HBc', 'Ser', '', 'Anti-HBc|HBcAb|Hepatitis B core antibody|Hep B core Ab total|Anti-HBc total', 'Anti-HBc|HBc-Antikörper', 'Ac anti-HBc|Anticorps anti-HBc|Anti-HBc', 'serology'),
  row('13955-0', 'Hepatitis C virus Ab [Presence] in Serum or Plasma by Immunoassay', 'Anti-HCV', 'Ser/Plas', '', 'Anti-HCV|HCV antibody|Hepatitis C antibody|Hep C Ab|HCV Ab', 'Anti-HCV|HCV-Antikörper', 'Ac anti-VHC|Anticorps anti-VHC|Sérologie hépatite C', 'serology'),
  row('16128-1', 'Hepatitis C virus Ab [Presence] in Serum', 'Anti-HCV', 'Ser', '', 'Anti-HCV|HCV antibody|Hepatitis C antibody', 'Anti-HCV', 'Ac anti-VHC', 'serology', 2),
  row('56888-1', 'HIV 1+2 Ab+HIV1 p24 Ag [Presence] in Serum or Plasma by Immunoassay', 'HIV Ag/Ab', 'Ser/Plas', '', 'HIV Ag/Ab|HIV 1/2 Ag/Ab combo|HIV-1/2 antibody and p24 antigen|HIV screen|HIV 4th generation|HIV 1+2 Ab + p24 Ag', 'HIV-Ag/AK|HIV-1/2-Antikörper und p24-Antigen|HIV-Suchtest', 'Sérologie VIH|VIH 1/2 Ag/Ac|Dépistage VIH|Ac anti-VIH et Ag p24', 'serology'),
  row('20507-0', 'Reagin Ab [Presence] in Serum by RPR', 'RPR', 'Ser', '', 'RPR|Rapid plasma reagin|Reagin antibody|Syphilis RPR', 'RPR|Reagin-Test', 'RPR|Test RPR', 'serology'),
  row('7852-7', 'Cytomegalovirus IgG Ab [Units/volume] in Serum or Plasma', 'CMV IgG', 'Ser/Plas', 'AU/mL|U/mL|IU/mL', 'CMV IgG|Cytomegalovirus IgG|CMV IgG antibody', 'CMV-IgG|Zytomegalievirus IgG', 'CMV IgG|Cytomégalovirus IgG', 'serology'),
  row('7853-5', 'Cytomegalovirus IgM Ab [Units/volume] in Serum or Plasma', 'CMV IgM', 'Ser/Plas', 'AU/mL|U/mL|IU/mL', 'CMV IgM|Cytomegalovirus IgM|CMV IgM antibody', 'CMV-IgM|Zytomegalievirus IgM', 'CMV IgM|Cytomégalovirus IgM', 'serology'),

  // Blood gases (arterial unless said otherwise)
  row('2744-1', 'pH of Arterial blood', 'pH (arterial)', 'BldA', '', 'pH arterial|Arterial pH|pH', 'pH arteriell|pH', 'pH artériel|pH', 'blood-gas'),
  row('11558-4', 'pH of Blood', 'pH (blood)', 'Bld', '', 'pH|Blood pH|pH venous', 'pH|pH venös', 'pH|pH veineux', 'blood-gas', 2),
  row('2019-8', 'Carbon dioxide [Partial pressure] in Arterial blood', 'pCO2 (arterial)', 'BldA', 'mmHg|kPa', 'pCO2|PaCO2|Arterial pCO2|Partial pressure of carbon dioxide', 'pCO2|Kohlendioxidpartialdruck', 'pCO2|PaCO2|Pression partielle en CO2', 'blood-gas'),
  row('11557-6', 'Carbon dioxide [Partial pressure] in Blood', 'pCO2 (blood)', 'Bld', 'mmHg|kPa', 'pCO2|Venous pCO2', 'pCO2|pCO2 venös', 'pCO2|pCO2 veineux', 'blood-gas', 2),
  row('2703-7', 'Oxygen [Partial pressure] in Arterial blood', 'pO2 (arterial)', 'BldA', 'mmHg|kPa', 'pO2|PaO2|Arterial pO2|Partial pressure of oxygen', 'pO2|Sauerstoffpartialdruck', 'pO2|PaO2|Pression partielle en O2', 'blood-gas'),
  row('11556-8', 'Oxygen [Partial pressure] in Blood', 'pO2 (blood)', 'Bld', 'mmHg|kPa', 'pO2|Venous pO2', 'pO2|pO2 venös', 'pO2|pO2 veineux', 'blood-gas', 2),
  row('1960-4', 'Bicarbonate [Moles/volume] in Arterial blood', 'HCO3 (arterial)', 'BldA', 'mmol/L|mEq/L', 'HCO3|Bicarbonate|Actual bicarbonate|Arterial bicarbonate', 'HCO3|Bicarbonat|aktuelles Bicarbonat', 'HCO3|Bicarbonates', 'blood-gas'),
  row('1925-7', 'Base excess in Arterial blood by calculation', 'Base excess (arterial)', 'BldA', 'mmol/L|mEq/L', 'Base excess|BE|Base excess arterial|ABE', 'Basenüberschuss|BE|Base Excess', 'Excès de base|EB|BE', 'blood-gas'),
  row('11555-0', 'Base excess in Blood by calculation', 'Base excess', 'Bld', 'mmol/L|mEq/L', 'Base excess|BE', 'Basenüberschuss|BE', 'Excès de base|BE', 'blood-gas', 2),
  row('2708-6', 'Oxygen saturation in Arterial blood', 'O2 saturation (arterial)', 'BldA', '%', 'O2 saturation|Oxygen saturation|SaO2|sO2|O2 sat', 'Sauerstoffsättigung|sO2|SaO2|O2-Sättigung', 'Saturation en oxygène|SaO2|SO2', 'blood-gas'),
];
