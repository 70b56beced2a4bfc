/** Blood count, differential (absolute and %), reticulocytes, ESR, blood group. */
import { type LoincEntry, row } from './entry.js';

// Aliases shared by an analyte's variants (automated count vs method-less, % vs absolute).
const WBC = ['WBC|White blood cells|White blood cell count|White cell count|WBC count|Leukocytes|Leucocytes|Leukocyte count|Leucocyte count|Total leukocyte count|Total leucocyte count|TLC|White count|WCC|White cell count (WCC)', 'Leukozyten|Leukozytenzahl|Leukos|Leukocyten', 'Leucocytes|Globules blancs|GB|Numération leucocytaire|Numération des leucocytes'] as const;
const RBC = ['RBC|Red blood cells|Red blood cell count|Red cell count|RBC count|Erythrocytes|Erythrocyte count|RCC|Red cell count (RCC)', 'Erythrozyten|Erythrozytenzahl|Erys|Erythrocyten', 'Hématies|Globules rouges|GR|Érythrocytes|Numération des hématies'] as const;
const HGB = ['Hemoglobin|Haemoglobin|Hgb|Hb|HGB', 'Hämoglobin|Haemoglobin|Hb', 'Hémoglobine|Hb|HGB'] as const;
const HCT = ['Hematocrit|Haematocrit|Hct|HCT|PCV|Packed cell volume', 'Hämatokrit|Haematokrit|Hkt|HKT', 'Hématocrite|Ht|HCT'] as const;
const MCV = ['MCV|Mean corpuscular volume|Mean cell volume', 'MCV|Mittleres Erythrozytenvolumen|Mittleres korpuskuläres Volumen|Mittl. Erythrozytenvolumen', 'VGM|Volume globulaire moyen|MCV'] as const;
const MCH = ['MCH|Mean corpuscular hemoglobin|Mean corpuscular haemoglobin|Mean cell hemoglobin|Mean cell haemoglobin', 'MCH|HbE|Mittleres korpuskuläres Hämoglobin|Hb pro Erythrozyt', 'TCMH|Teneur corpusculaire moyenne en hémoglobine|MCH'] as const;
const MCHC = ['MCHC|Mean corpuscular hemoglobin concentration|Mean corpuscular haemoglobin concentration|Mean cell hemoglobin concentration|Mean cell haemoglobin concentration', 'MCHC|Mittlere korpuskuläre Hämoglobinkonzentration|Mittlere Hb-Konzentration', 'CCMH|Concentration corpusculaire moyenne en hémoglobine|MCHC'] as const;
const PLT = ['Platelets|Platelet count|PLT|Platelet|Thrombocytes|Thrombocyte count|Platelet number', 'Thrombozyten|Thrombozytenzahl|Thrombos|Blutplättchen|Thrombocyten', 'Plaquettes|Numération plaquettaire|Thrombocytes|PLT|Numération des plaquettes'] as const;
const MPV = ['MPV|Mean platelet volume', 'MPV|Mittleres Thrombozytenvolumen|Mittleres Plättchenvolumen', 'VPM|Volume plaquettaire moyen|MPV'] as const;
const NEUT = ['Neutrophils|Neutrophil|Neut|Neutrophil count|Neutrophilic granulocytes|Polys|Polymorphonuclear neutrophils|Neutrophil granulocytes', 'Neutrophile|Neutrophile Granulozyten|Neutrophile Gran.|Neutrophil|Neutrophile Gesamt', 'Polynucléaires neutrophiles|Neutrophiles|PNN|Polynucléaire neutrophile'] as const;
const LYMPH = ['Lymphocytes|Lymphs|Lymphocyte|Lymph|Lymphocyte count', 'Lymphozyten|Lymphos|Lymphocyten', 'Lymphocytes|Lymphocyte'] as const;
const MONO = ['Monocytes|Monos|Monocyte|Mono|Monocyte count', 'Monozyten|Monos|Monocyten', 'Monocytes|Monocyte'] as const;
const EOS = ['Eosinophils|Eos|Eosinophil|Eosinophil count|Eosinophilic granulocytes', 'Eosinophile|Eosinophile Granulozyten|Eosinophile Gran.|Eos', 'Polynucléaires éosinophiles|Éosinophiles|PNE|Polynucléaire éosinophile'] as const;
const BASO = ['Basophils|Basos|Basophil|Baso|Basophil count|Basophilic granulocytes', 'Basophile|Basophile Granulozyten|Basophile Gran.|Basos', 'Polynucléaires basophiles|Basophiles|PNB|Polynucléaire basophile'] as const;
const RETIC = ['Reticulocytes|Retic|Retics|Reticulocyte count|Reticulocyte', 'Retikulozyten|Retis', 'Réticulocytes'] as const;
const ESR = ['ESR|Sed rate|Sed rate by modified Westergren|Erythrocyte sedimentation rate|Sedimentation rate|Westergren ESR', 'BSG|BKS|Blutsenkung|Blutsenkungsgeschwindigkeit|Blutkörperchensenkungsgeschwindigkeit', 'VS|Vitesse de sédimentation|Vitesse de sédimentation globulaire'] as const;

const COUNT_K = '10^3/uL|10^9/L|G/L|/nL|K/uL|cells/uL';
const COUNT_M = '10^6/uL|10^12/L|T/L|/pL|M/uL|Mio/uL';

export const HEMATOLOGY: LoincEntry[] = [
  row('6690-2', 'Leukocytes [#/volume] in Blood by Automated count', 'WBC', 'Bld', COUNT_K, ...WBC, 'cbc'),
  row('26464-8', 'Leukocytes [#/volume] in Blood', 'WBC', 'Bld', COUNT_K, ...WBC, 'cbc', 2),
  row('804-5', 'Leukocytes [#/volume] in Blood by Manual count', 'WBC (manual)', 'Bld', COUNT_K, 'WBC manual count|Manual WBC', 'Leukozyten manuell', 'Leucocytes manuel', 'cbc', 3),
  row('789-8', 'Erythrocytes [#/volume] in Blood by Automated count', 'RBC', 'Bld', COUNT_M, ...RBC, 'cbc'),
  row('26453-1', 'Erythrocytes [#/volume] in Blood', 'RBC', 'Bld', COUNT_M, ...RBC, 'cbc', 2),
  row('718-7', 'Hemoglobin [Mass/volume] in Blood', 'Hemoglobin', 'Bld', 'g/dL|g/L', ...HGB, 'cbc'),
  row('59260-0', 'Hemoglobin [Moles/volume] in Blood', 'Hemoglobin', 'Bld', 'mmol/L', ...HGB, 'cbc'),
  row('4544-3', 'Hematocrit [Volume Fraction] of Blood by Automated count', 'Hematocrit', 'Bld', '%|L/L', ...HCT, 'cbc'),
  row('20570-8', 'Hematocrit [Volume Fraction] of Blood', 'Hematocrit', 'Bld', '%|L/L', ...HCT, 'cbc', 2),
  row('787-2', 'MCV [Entitic volume] by Automated count', 'MCV', 'RBC', 'fL', ...MCV, 'cbc'),
  row('30428-7', 'MCV [Entitic volume]', 'MCV', 'RBC', 'fL', ...MCV, 'cbc', 2),
  row('785-6', 'MCH [Entitic mass] by Automated count', 'MCH', 'RBC', 'pg', ...MCH, 'cbc'),
  row('28539-5', 'MCH [Entitic mass]', 'MCH', 'RBC', 'pg', ...MCH, 'cbc', 2),
  row('786-4', 'MCHC [Mass/volume] by Automated count', 'MCHC', 'RBC', 'g/dL|g/L', ...MCHC, 'cbc'),
  row('28540-3', 'MCHC [Mass/volume]', 'MCHC', 'RBC', 'g/dL|g/L', ...MCHC, 'cbc', 2),
  row('788-0', 'Erythrocyte distribution width [Ratio] by Automated count', 'RDW-CV', 'RBC', '%', 'RDW|RDW-CV|RDW CV|Red cell distribution width|Red blood cell distribution width|Red cell distribution width CV', 'RDW|RDW-CV|Erythrozytenverteilungsbreite|EVB', 'IDR|IDR-CV|Indice de distribution des globules rouges|Indice de distribution des hématies|RDW', 'cbc'),
  row('30385-9', 'Erythrocyte distribution width [Ratio]', 'RDW-CV', 'RBC', '%', 'RDW|RDW-CV|Red cell distribution width', 'RDW|Erythrozytenverteilungsbreite', 'IDR|RDW', 'cbc', 2),
  row('21000-5', 'Erythrocyte distribution width [Entitic volume] by Automated count', 'RDW-SD', 'RBC', 'fL', 'RDW-SD|RDW SD|Red cell distribution width SD|RDW|Red cell distribution width', 'RDW-SD|RDW|Erythrozytenverteilungsbreite', 'IDR-SD|RDW-SD|IDR', 'cbc'),
  row('30384-2', 'Erythrocyte distribution width [Entitic volume]', 'RDW-SD', 'RBC', 'fL', 'RDW-SD|RDW SD', 'RDW-SD', 'IDR-SD|RDW-SD', 'cbc', 2),
  row('777-3', 'Platelets [#/volume] in Blood by Automated count', 'Platelets', 'Bld', COUNT_K, ...PLT, 'cbc'),
  row('26515-7', 'Platelets [#/volume] in Blood', 'Platelets', 'Bld', COUNT_K, ...PLT, 'cbc', 2),
  row('778-1', 'Platelets [#/volume] in Blood by Manual count', 'Platelets (manual)', 'Bld', COUNT_K, 'Platelets manual count|Manual platelet count', 'Thrombozyten manuell', 'Plaquettes manuel', 'cbc', 3),
  row('32623-1', 'Platelet mean volume [Entitic volume] in Blood by Automated count', 'MPV', 'Bld', 'fL', ...MPV, 'cbc'),
  row('28542-9', 'Platelet mean volume [Entitic volume] in Blood', 'MPV', 'Bld', 'fL', ...MPV, 'cbc', 2),
  row('32207-3', 'Platelet distribution width [Entitic volume] in Blood by Automated count', 'PDW', 'Bld', 'fL', 'PDW|Platelet distribution width', 'PDW|Thrombozytenverteilungsbreite', 'IDP|Indice de distribution plaquettaire|PDW', 'cbc'),

  // Differential: absolute counts (automated, then method-less) and fractions of leukocytes.
  row('751-8', 'Neutrophils [#/volume] in Blood by Automated count', 'Neutrophils #', 'Bld', COUNT_K, `${NEUT[0]}|ANC|Absolute neutrophil count|Absolute neutrophils`, NEUT[1], NEUT[2], 'diff|cbc'),
  row('26499-4', 'Neutrophils [#/volume] in Blood', 'Neutrophils #', 'Bld', COUNT_K, `${NEUT[0]}|ANC|Absolute neutrophil count`, NEUT[1], NEUT[2], 'diff|cbc', 2),
  row('753-4', 'Neutrophils [#/volume] in Blood by Manual count', 'Neutrophils # (manual)', 'Bld', COUNT_K, 'Neutrophils manual count', 'Neutrophile manuell', 'Neutrophiles manuel', 'diff', 3),
  row('770-8', 'Neutrophils/100 leukocytes in Blood by Automated count', 'Neutrophils %', 'Bld', '%', ...NEUT, 'diff|cbc'),
  row('26511-6', 'Neutrophils/100 leukocytes in Blood', 'Neutrophils %', 'Bld', '%', ...NEUT, 'diff|cbc', 2),
  row('23761-0', 'Neutrophils/100 leukocytes in Blood by Manual count', 'Neutrophils % (manual)', 'Bld', '%', 'Neutrophils manual differential', 'Neutrophile manuell', 'Neutrophiles manuel', 'diff', 3),
  row('731-0', 'Lymphocytes [#/volume] in Blood by Automated count', 'Lymphocytes #', 'Bld', COUNT_K, `${LYMPH[0]}|ALC|Absolute lymphocyte count`, LYMPH[1], LYMPH[2], 'diff|cbc'),
  row('26474-7', 'Lymphocytes [#/volume] in Blood', 'Lymphocytes #', 'Bld', COUNT_K, ...LYMPH, 'diff|cbc', 2),
  row('732-8', 'Lymphocytes [#/volume] in Blood by Manual count', 'Lymphocytes # (manual)', 'Bld', COUNT_K, 'Lymphocytes manual count', 'Lymphozyten manuell', 'Lymphocytes manuel', 'diff', 3),
  row('736-9', 'Lymphocytes/100 leukocytes in Blood by Automated count', 'Lymphocytes %', 'Bld', '%', ...LYMPH, 'diff|cbc'),
  row('26478-8', 'Lymphocytes/100 leukocytes in Blood', 'Lymphocytes %', 'Bld', '%', ...LYMPH, 'diff|cbc', 2),
  row('737-7', 'Lymphocytes/100 leukocytes in Blood by Manual count', 'Lymphocytes % (manual)', 'Bld', '%', 'Lymphocytes manual differential', 'Lymphozyten manuell', 'Lymphocytes manuel', 'diff', 3),
  row('742-7', 'Monocytes [#/volume] in Blood by Automated count', 'Monocytes #', 'Bld', COUNT_K, ...MONO, 'diff|cbc'),
  row('26484-6', 'Monocytes [#/volume] in Blood', 'Monocytes #', 'Bld', COUNT_K, ...MONO, 'diff|cbc', 2),
  row('5905-5', 'Monocytes/100 leukocytes in Blood by Automated count', 'Monocytes %', 'Bld', '%', ...MONO, 'diff|cbc'),
  row('26485-3', 'Monocytes/100 leukocytes in Blood', 'Monocytes %', 'Bld', '%', ...MONO, 'diff|cbc', 2),
  row('744-3', 'Monocytes/100 leukocytes in Blood by Manual count', 'Monocytes % (manual)', 'Bld', '%', 'Monocytes manual differential', 'Monozyten manuell', 'Monocytes manuel', 'diff', 3),
  row('711-2', 'Eosinophils [#/volume] in Blood by Automated count', 'Eosinophils #', 'Bld', COUNT_K, ...EOS, 'diff|cbc'),
  row('26449-9', 'Eosinophils [#/volume] in Blood', 'Eosinophils #', 'Bld', COUNT_K, ...EOS, 'diff|cbc', 2),
  row('713-8', 'Eosinophils/100 leukocytes in Blood by Automated count', 'Eosinophils %', 'Bld', '%', ...EOS, 'diff|cbc'),
  row('26450-7', 'Eosinophils/100 leukocytes in Blood', 'Eosinophils %', 'Bld', '%', ...EOS, 'diff|cbc', 2),
  row('714-6', 'Eosinophils/100 leukocytes in Blood by Manual count', 'Eosinophils % (manual)', 'Bld', '%', 'Eosinophils manual differential', 'Eosinophile manuell', 'Éosinophiles manuel', 'diff', 3),
  row('704-7', 'Basophils [#/volume] in Blood by Automated count', 'Basophils #', 'Bld', COUNT_K, ...BASO, 'diff|cbc'),
  row('26444-0', 'Basophils [#/volume] in Blood', 'Basophils #', 'Bld', COUNT_K, ...BASO, 'diff|cbc', 2),
  row('706-2', 'Basophils/100 leukocytes in Blood by Automated count', 'Basophils %', 'Bld', '%', ...BASO, 'diff|cbc'),
  row('30180-4', 'Basophils/100 leukocytes in Blood', 'Basophils %', 'Bld', '%', ...BASO, 'diff|cbc', 2),
  row('707-0', 'Basophils/100 leukocytes in Blood by Manual count', 'Basophils % (manual)', 'Bld', '%', 'Basophils manual differential', 'Basophile manuell', 'Basophiles manuel', 'diff', 3),
  row('764-1', 'Band form neutrophils/100 leukocytes in Blood by Manual count', 'Bands %', 'Bld', '%', 'Bands|Band neutrophils|Band forms|Band cells|Stabs|Band form neutrophils', 'Stabkernige|Stabkernige Granulozyten|Stabkernige Neutrophile|Stabkernige neutrophile Granulozyten', 'Polynucléaires non segmentés|Neutrophiles non segmentés', 'diff'),
  row('26508-2', 'Band form neutrophils/100 leukocytes in Blood', 'Bands %', 'Bld', '%', 'Bands|Band neutrophils|Band forms|Stabs', 'Stabkernige|Stabkernige Granulozyten', 'Polynucléaires non segmentés', 'diff', 2),
  row('26507-4', 'Band form neutrophils [#/volume] in Blood', 'Bands #', 'Bld', COUNT_K, 'Bands|Band neutrophils|Band forms|Absolute bands', 'Stabkernige|Stabkernige Granulozyten', 'Polynucléaires non segmentés', 'diff'),
  row('769-0', 'Segmented neutrophils/100 leukocytes in Blood by Manual count', 'Segmented neutrophils %', 'Bld', '%', 'Segmented neutrophils|Segs|Segmented|Neutrophils segmented|Segmented neutrophil', 'Segmentkernige|Segmentkernige Granulozyten|Segmentkernige Neutrophile|Segmentkernige neutrophile Granulozyten', 'Polynucléaires neutrophiles segmentés|Neutrophiles segmentés', 'diff'),
  row('26505-8', 'Segmented neutrophils/100 leukocytes in Blood', 'Segmented neutrophils %', 'Bld', '%', 'Segmented neutrophils|Segs|Segmented', 'Segmentkernige|Segmentkernige Granulozyten', 'Neutrophiles segmentés', 'diff', 2),
  row('30451-9', 'Segmented neutrophils [#/volume] in Blood', 'Segmented neutrophils #', 'Bld', COUNT_K, 'Segmented neutrophils|Segs|Absolute segs', 'Segmentkernige|Segmentkernige Granulozyten', 'Neutrophiles segmentés', 'diff'),
  row('71695-1', 'Immature granulocytes/100 leukocytes in Blood by Automated count', 'Immature granulocytes %', 'Bld', '%', 'Immature granulocytes|IG|Imm granulocytes|Immature grans|Immature granulocyte', 'Unreife Granulozyten|IG|Unreife Gran.', 'Granulocytes immatures|Myélémie', 'diff|cbc'),
  row('53115-2', 'Immature granulocytes [#/volume] in Blood by Automated count', 'Immature granulocytes #', 'Bld', COUNT_K, 'Immature granulocytes|IG|Imm granulocytes|Immature grans|Absolute immature granulocytes', 'Unreife Granulozyten|IG|Unreife Gran.', 'Granulocytes immatures|Myélémie', 'diff|cbc'),
  row('58413-6', 'Nucleated erythrocytes/100 leukocytes [Ratio] in Blood by Automated count', 'NRBC %', 'Bld', '%|/100 WBC', 'NRBC|Nucleated RBC|Nucleated red blood cells|Nucleated red cells|Nucleated erythrocytes', 'Normoblasten|Kernhaltige Erythrozyten|NRBC|Kernhaltige rote Vorstufen', 'Érythroblastes|Erythroblastes|NRBC', 'cbc|diff'),
  row('771-6', 'Nucleated erythrocytes [#/volume] in Blood by Automated count', 'NRBC #', 'Bld', COUNT_K, 'NRBC|Nucleated RBC|Nucleated red blood cells|Absolute NRBC', 'Normoblasten|Kernhaltige Erythrozyten|NRBC', 'Érythroblastes|Erythroblastes', 'cbc|diff'),
  row('26446-5', 'Blasts/100 leukocytes in Blood', 'Blasts %', 'Bld', '%', 'Blasts|Blast cells', 'Blasten', 'Blastes|Cellules blastiques', 'diff'),
  row('28541-1', 'Metamyelocytes/100 leukocytes in Blood', 'Metamyelocytes %', 'Bld', '%', 'Metamyelocytes|Metas', 'Metamyelozyten', 'Métamyélocytes', 'diff'),
  row('26498-6', 'Myelocytes/100 leukocytes in Blood', 'Myelocytes %', 'Bld', '%', 'Myelocytes|Myelos', 'Myelozyten', 'Myélocytes', 'diff'),
  row('13046-8', 'Variant lymphocytes/100 leukocytes in Blood', 'Variant lymphocytes %', 'Bld', '%', 'Variant lymphocytes|Atypical lymphocytes|Reactive lymphocytes|Atypical lymphs', 'Atypische Lymphozyten|Reaktive Lymphozyten', 'Lymphocytes atypiques|Lymphocytes hyperbasophiles', 'diff'),
  row('17849-1', 'Reticulocytes/100 erythrocytes in Blood by Automated count', 'Reticulocytes %', 'Bld', '%|‰', ...RETIC, 'cbc'),
  row('4679-7', 'Reticulocytes/100 erythrocytes in Blood', 'Reticulocytes %', 'Bld', '%|‰', ...RETIC, 'cbc', 2),
  row('60474-4', 'Reticulocytes [#/volume] in Blood by Automated count', 'Reticulocytes #', 'Bld', `${COUNT_K}|10^12/L|T/L`, `${RETIC[0]}|Absolute reticulocyte count|Absolute reticulocytes`, RETIC[1], RETIC[2], 'cbc'),
  row('14196-0', 'Reticulocytes [#/volume] in Blood', 'Reticulocytes #', 'Bld', `${COUNT_K}|10^12/L|T/L`, ...RETIC, 'cbc', 2),
  row('4537-7', 'Erythrocyte sedimentation rate by Westergren method', 'ESR', 'Bld', 'mm/h', ...ESR, 'inflammation|cbc'),
  row('30341-2', 'Erythrocyte sedimentation rate', 'ESR', 'Bld', 'mm/h', ...ESR, 'inflammation|cbc', 2),
  row('883-9', 'ABO group [Type] in Blood', 'ABO group', 'Bld', '', 'ABO group|Blood group|Blood type|ABO|ABO type', 'Blutgruppe|AB0-Blutgruppe|ABO-Blutgruppe', 'Groupe sanguin|Groupe ABO', ''),
  row('10331-7', 'Rh [Type] in Blood', 'Rh type', 'Bld', '', 'Rh type|Rh factor|Rhesus|Rh(D)|RhD|Rh', 'Rhesusfaktor|Rhesus-Faktor|Rh-Faktor|Rhesus', 'Rhésus|Facteur rhésus|Rhésus D', ''),
  row('882-1', 'ABO and Rh group [Type] in Blood', 'ABO/Rh', 'Bld', '', 'ABO and Rh|ABO/Rh|Blood group and Rh|Blood type and Rh', 'Blutgruppe und Rhesusfaktor|Blutgruppe/Rhesus', 'Groupe sanguin et rhésus|Groupe ABO-RhD', ''),
];
