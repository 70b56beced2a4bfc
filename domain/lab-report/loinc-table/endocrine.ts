/** Thyroid, sex and adrenal hormones, vitamins, trace elements. */
import { type LoincEntry, row } from './entry.js';

const TSH = ['TSH|Thyroid stimulating hormone|Thyrotropin|Thyroid-stimulating hormone|TSH 3rd generation|TSH (ultrasensitive)|Sensitive TSH', 'TSH|Thyreotropin|TSH basal|Thyreoidea-stimulierendes Hormon|TSH basal (3. Generation)', 'TSH|Thyréostimuline|TSH ultrasensible|TSHus|Hormone thyréostimulante'] as const;
const FT4 = ['Free T4|T4 free|FT4|Free thyroxine|Thyroxine free|T4, free (direct)', 'fT4|FT4|Freies T4|Freies Thyroxin|T4 frei', 'T4 libre|T4L|Thyroxine libre|FT4'] as const;
const T4 = ['T4|Total T4|Thyroxine|T4 total|Thyroxine total|Thyroxine (T4)', 'T4|Gesamt-T4|Thyroxin|T4 gesamt', 'T4 totale|Thyroxine totale|T4'] as const;
const FT3 = ['Free T3|T3 free|FT3|Free triiodothyronine|Triiodothyronine free', 'fT3|FT3|Freies T3|Freies Trijodthyronin|T3 frei', 'T3 libre|T3L|Triiodothyronine libre|FT3'] as const;
const T3 = ['T3|Total T3|Triiodothyronine|T3 total|Triiodothyronine total|Triiodothyronine (T3)', 'T3|Gesamt-T3|Trijodthyronin|T3 gesamt', 'T3 totale|Triiodothyronine totale|T3'] as const;
const TESTO = ['Testosterone|Total testosterone|Testosterone total|Testosterone, total', 'Testosteron|Gesamttestosteron|Testosteron gesamt', 'Testostérone|Testostérone totale'] as const;
const FREE_TESTO = ['Free testosterone|Testosterone free|Testosterone, free', 'Freies Testosteron|Testosteron frei', 'Testostérone libre'] as const;
const E2 = ['Estradiol|E2|Oestradiol|Estradiol (E2)', 'Östradiol|Estradiol|E2|Oestradiol', 'Estradiol|Œstradiol|Oestradiol|E2'] as const;
const PROG = ['Progesterone', 'Progesteron', 'Progestérone'] as const;
const DHEAS = ['DHEA-S|DHEA sulfate|DHEA-sulfate|Dehydroepiandrosterone sulfate|DHEAS|DHEA-SO4', 'DHEA-S|DHEAS|Dehydroepiandrosteronsulfat', 'SDHEA|DHEA-S|Sulfate de déhydroépiandrostérone'] as const;
const CORT = ['Cortisol|Serum cortisol|Cortisol AM|Cortisol total', 'Cortisol|Kortisol', 'Cortisol|Cortisolémie'] as const;
const PTH = ['PTH|Parathyroid hormone|PTH intact|Intact PTH|Parathyroid hormone intact|Parathormone', 'PTH|Parathormon|intaktes PTH|PTH intakt', 'PTH|Parathormone|PTH intacte|Hormone parathyroïdienne'] as const;
const ACTH = ['ACTH|Adrenocorticotropic hormone|Corticotropin', 'ACTH|Adrenocorticotropes Hormon|Corticotropin', 'ACTH|Corticotrophine|Hormone corticotrope'] as const;
const ALDO = ['Aldosterone', 'Aldosteron', 'Aldostérone'] as const;
const ANDRO = ['Androstenedione|Androstenedione (A4)', 'Androstendion', 'Androstènedione|Delta-4-androstènedione'] as const;
const OHP = ['17-OH progesterone|17-Hydroxyprogesterone|17-OHP|17 OH progesterone', '17-OH-Progesteron|17-Hydroxyprogesteron', '17-OH progestérone|17-hydroxyprogestérone'] as const;
const B12 = ['Vitamin B12|B12|Cobalamin|Vitamin B-12|Cyanocobalamin', 'Vitamin B12|Cobalamin|B12', 'Vitamine B12|Cobalamine|B12'] as const;
const FOLATE = ['Folate|Folic acid|Folate serum|Serum folate|Vitamin B9', 'Folsäure|Folat|Vitamin B9', 'Folates|Acide folique|Folates sériques|Vitamine B9'] as const;
const VITD = ['Vitamin D|25-OH vitamin D|Vitamin D 25-OH|25-Hydroxyvitamin D|Vitamin D, 25-hydroxy|25(OH)D|Vitamin D 25-hydroxy total|Vitamin D total|25-OH-D|Calcidiol', 'Vitamin D|25-OH-Vitamin D|25-Hydroxy-Vitamin D|Vitamin D3 (25-OH)|25-OH-Vitamin D3|Calcidiol|25(OH)D', 'Vitamine D|25-OH vitamine D|25-hydroxyvitamine D|Vitamine D totale|25(OH)D|Calcidiol'] as const;
const VITD3 = ['25-Hydroxyvitamin D3|Vitamin D3|25-OH vitamin D3|25-Hydroxy D3', '25-OH-Vitamin D3|Vitamin D3|25-Hydroxy-Vitamin D3', '25-OH vitamine D3|Vitamine D3'] as const;

export const ENDOCRINE: LoincEntry[] = [
  // Thyroid
  row('3016-3', 'Thyrotropin [Units/volume] in Serum or Plasma', 'TSH', 'Ser/Plas', 'mIU/L|uIU/mL|mU/L|uU/mL', ...TSH, 'thyroid'),
  row('11580-8', 'Thyrotropin [Units/volume] in Serum or Plasma by Detection limit <= 0.005 mIU/L', 'TSH (high sensitivity)', 'Ser/Plas', 'mIU/L|uIU/mL', ...TSH, 'thyroid', 2),
  row('3024-7', 'Thyroxine (T4) free [Mass/volume] in Serum or Plasma', 'Free T4', 'Ser/Plas', 'ng/dL|ng/L|pg/mL', ...FT4, 'thyroid'),
  row('14920-3', 'Thyroxine (T4) free [Moles/volume] in Serum or Plasma', 'Free T4', 'Ser/Plas', 'pmol/L', ...FT4, 'thyroid'),
  row('3026-2', 'Thyroxine (T4) [Mass/volume] in Serum or Plasma', 'T4, total', 'Ser/Plas', 'ug/dL|ug/L', ...T4, 'thyroid'),
  row('14921-1', 'Thyroxine (T4) [Moles/volume] in Serum or Plasma', 'T4, total', 'Ser/Plas', 'nmol/L', ...T4, 'thyroid'),
  row('3051-0', 'Triiodothyronine (T3) free [Mass/volume] in Serum or Plasma', 'Free T3', 'Ser/Plas', 'pg/mL|ng/L', ...FT3, 'thyroid'),
  row('14928-6', 'Triiodothyronine (T3) free [Moles/volume] in Serum or Plasma', 'Free T3', 'Ser/Plas', 'pmol/L', ...FT3, 'thyroid'),
  row('3053-6', 'Triiodothyronine (T3) [Mass/volume] in Serum or Plasma', 'T3, total', 'Ser/Plas', 'ng/dL|ug/L', ...T3, 'thyroid'),
  row('14930-2', 'Triiodothyronine (T3) [Moles/volume] in Serum or Plasma', 'T3, total', 'Ser/Plas', 'nmol/L', ...T3, 'thyroid'),
  row('8099-4', 'Thyroperoxidase Ab [Units/volume] in Serum or Plasma', 'TPO antibodies', 'Ser/Plas', 'IU/mL|U/mL|kIU/L|kU/L', 'TPO antibodies|Anti-TPO|TPO Ab|Thyroid peroxidase antibodies|Thyroperoxidase antibodies|Antithyroid peroxidase|TPO-Ab|Thyroid peroxidase Ab', 'Anti-TPO|TPO-AK|TPO-Antikörper|Thyreoperoxidase-Antikörper|MAK', 'Anticorps anti-TPO|Anti-TPO|Ac anti-thyroperoxydase|Anticorps anti-thyroperoxydase', 'thyroid|immunology'),
  row('8098-6', 'Thyroglobulin Ab [Units/volume] in Serum or Plasma', 'Thyroglobulin antibodies', 'Ser/Plas', 'IU/mL|U/mL|kIU/L|kU/L', 'Thyroglobulin antibodies|Anti-Tg|TgAb|Thyroglobulin Ab|Antithyroglobulin antibodies|Anti-thyroglobulin', 'Anti-Tg|TAK|Tg-AK|Thyreoglobulin-Antikörper', 'Anticorps anti-thyroglobuline|Anti-Tg|Ac anti-thyroglobuline', 'thyroid|immunology'),
  row('3013-0', 'Thyroglobulin [Mass/volume] in Serum or Plasma', 'Thyroglobulin', 'Ser/Plas', 'ng/mL|ug/L', 'Thyroglobulin|Tg', 'Thyreoglobulin|Tg', 'Thyroglobuline|Tg', 'thyroid|tumor'),

  // Sex, adrenal, pituitary and other hormones
  row('2986-8', 'Testosterone [Mass/volume] in Serum or Plasma', 'Testosterone', 'Ser/Plas', 'ng/dL|ng/mL|ug/L', ...TESTO, 'hormone'),
  row('14913-8', 'Testosterone [Moles/volume] in Serum or Plasma', 'Testosterone', 'Ser/Plas', 'nmol/L', ...TESTO, 'hormone'),
  row('2991-8', 'Testosterone Free [Mass/volume] in Serum or Plasma', 'Free testosterone', 'Ser/Plas', 'pg/mL|ng/dL|ng/L', ...FREE_TESTO, 'hormone'),
  row('14914-6', 'Testosterone Free [Moles/volume] in Serum or Plasma', 'Free testosterone', 'Ser/Plas', 'pmol/L|nmol/L', ...FREE_TESTO, 'hormone'),
  row('2243-4', 'Estradiol (E2) [Mass/volume] in Serum or Plasma', 'Estradiol', 'Ser/Plas', 'pg/mL|ng/L', ...E2, 'hormone'),
  row('14715-7', 'Estradiol (E2) [Moles/volume] in Serum or Plasma', 'Estradiol', 'Ser/Plas', 'pmol/L', ...E2, 'hormone'),
  row('2258-2', 'Estrone (E1) [Mass/volume] in Serum or Plasma', 'Estrone', 'Ser/Plas', 'pg/mL|ng/L', 'Estrone|E1|Oestrone', 'Östron|Estron', 'Estrone|Œstrone', 'hormone'),
  row('15067-2', 'Follitropin [Units/volume] in Serum or Plasma', 'FSH', 'Ser/Plas', 'mIU/mL|IU/L|U/L', 'FSH|Follicle stimulating hormone|Follitropin|Follicle-stimulating hormone', 'FSH|Follikelstimulierendes Hormon|Follitropin', 'FSH|Hormone folliculostimulante|Folliculostimuline', 'hormone'),
  row('10501-5', 'Lutropin [Units/volume] in Serum or Plasma', 'LH', 'Ser/Plas', 'mIU/mL|IU/L|U/L', 'LH|Luteinizing hormone|Lutropin|Luteinising hormone', 'LH|Luteinisierendes Hormon|Lutropin', 'LH|Hormone lutéinisante|Lutéinostimuline', 'hormone'),
  row('2842-3', 'Prolactin [Mass/volume] in Serum or Plasma', 'Prolactin', 'Ser/Plas', 'ng/mL|ug/L', 'Prolactin|PRL', 'Prolaktin|Prolactin|PRL', 'Prolactine|PRL', 'hormone'),
  row('2839-9', 'Progesterone [Mass/volume] in Serum or Plasma', 'Progesterone', 'Ser/Plas', 'ng/mL|ug/L', ...PROG, 'hormone'),
  row('14890-8', 'Progesterone [Moles/volume] in Serum or Plasma', 'Progesterone', 'Ser/Plas', 'nmol/L', ...PROG, 'hormone'),
  row('2191-5', 'Dehydroepiandrosterone sulfate [Mass/volume] in Serum or Plasma', 'DHEA-S', 'Ser/Plas', 'ug/dL|ug/mL|mg/L', ...DHEAS, 'hormone'),
  row('14688-6', 'Dehydroepiandrosterone sulfate [Moles/volume] in Serum or Plasma', 'DHEA-S', 'Ser/Plas', 'umol/L', ...DHEAS, 'hormone'),
  row('2143-6', 'Cortisol [Mass/volume] in Serum or Plasma', 'Cortisol', 'Ser/Plas', 'ug/dL|ug/L', ...CORT, 'hormone'),
  row('14675-3', 'Cortisol [Moles/volume] in Serum or Plasma', 'Cortisol', 'Ser/Plas', 'nmol/L', ...CORT, 'hormone'),
  row('13967-5', 'Sex hormone binding globulin [Moles/volume] in Serum or Plasma', 'SHBG', 'Ser/Plas', 'nmol/L', 'SHBG|Sex hormone binding globulin|Sex-hormone-binding globulin', 'SHBG|Sexualhormon-bindendes Globulin', 'SHBG|Protéine porteuse des hormones sexuelles|TeBG', 'hormone'),
  row('2484-4', 'Insulin-like growth factor-I [Mass/volume] in Serum or Plasma', 'IGF-1', 'Ser/Plas', 'ng/mL|ug/L', 'IGF-1|IGF-I|Insulin-like growth factor 1|Somatomedin C|Insulin-like growth factor I', 'IGF-1|IGF-I|Somatomedin C', 'IGF-1|IGF-I|Somatomédine C', 'hormone'),
  row('2963-7', 'Somatotropin [Mass/volume] in Serum or Plasma', 'Growth hormone', 'Ser/Plas', 'ng/mL|ug/L', 'Growth hormone|GH|HGH|Somatotropin|Human growth hormone', 'Wachstumshormon|STH|Somatotropin|HGH', 'Hormone de croissance|GH|Somatotropine|STH', 'hormone'),
  row('2731-8', 'Parathyrin.intact [Mass/volume] in Serum or Plasma', 'PTH, intact', 'Ser/Plas', 'pg/mL|ng/L', ...PTH, 'hormone'),
  row('14866-8', 'Parathyrin.intact [Moles/volume] in Serum or Plasma', 'PTH, intact', 'Ser/Plas', 'pmol/L', ...PTH, 'hormone'),
  row('2141-0', 'Corticotropin [Mass/volume] in Plasma', 'ACTH', 'Plas', 'pg/mL|ng/L', ...ACTH, 'hormone'),
  row('14674-6', 'Corticotropin [Moles/volume] in Plasma', 'ACTH', 'Plas', 'pmol/L', ...ACTH, 'hormone'),
  row('1763-2', 'Aldosterone [Mass/volume] in Serum or Plasma', 'Aldosterone', 'Ser/Plas', 'ng/dL|pg/mL|ng/L', ...ALDO, 'hormone'),
  row('14586-2', 'Aldosterone [Moles/volume] in Serum or Plasma', 'Aldosterone', 'Ser/Plas', 'pmol/L', ...ALDO, 'hormone'),
  row('1854-9', 'Androstenedione [Mass/volume] in Serum or Plasma', 'Androstenedione', 'Ser/Plas', 'ng/mL|ng/dL|ug/L', ...ANDRO, 'hormone'),
  row('14603-5', 'Androstenedione [Moles/volume] in Serum or Plasma', 'Androstenedione', 'Ser/Plas', 'nmol/L', ...ANDRO, 'hormone'),
  row('1668-3', '17-Hydroxyprogesterone [Mass/volume] in Serum or Plasma', '17-OH progesterone', 'Ser/Plas', 'ng/dL|ng/mL|ug/L', ...OHP, 'hormone'),
  row('14569-8', '17-Hydroxyprogesterone [Moles/volume] in Serum or Plasma', '17-OH progesterone', 'Ser/Plas', 'nmol/L', ...OHP, 'hormone'),
  row('19080-1', 'Choriogonadotropin [Units/volume] in Serum or Plasma', 'hCG', 'Ser/Plas', 'mIU/mL|IU/L|U/L', 'hCG|Human chorionic gonadotropin|Total hCG|Chorionic gonadotropin|Quantitative hCG', 'hCG|Humanes Choriongonadotropin|Beta-hCG gesamt', 'hCG|Gonadotrophine chorionique|hCG totale', 'hormone'),
  row('21198-7', 'Choriogonadotropin.beta subunit [Units/volume] in Serum or Plasma', 'beta-hCG', 'Ser/Plas', 'mIU/mL|IU/L|U/L', 'beta-hCG|Beta hCG|hCG beta|b-hCG|Beta human chorionic gonadotropin|hCG beta subunit', 'Beta-hCG|β-hCG|hCG-beta', 'bêta-hCG|β-hCG|hCG bêta|Beta HCG', 'hormone'),

  // Vitamins
  row('2132-9', 'Cobalamin (Vitamin B12) [Mass/volume] in Serum or Plasma', 'Vitamin B12', 'Ser/Plas', 'pg/mL|ng/L', ...B12, 'vitamin'),
  row('14685-2', 'Cobalamin (Vitamin B12) [Moles/volume] in Serum or Plasma', 'Vitamin B12', 'Ser/Plas', 'pmol/L', ...B12, 'vitamin'),
  row('2284-8', 'Folate [Mass/volume] in Serum or Plasma', 'Folate', 'Ser/Plas', 'ng/mL|ug/L', ...FOLATE, 'vitamin'),
  row('14732-2', 'Folate [Moles/volume] in Serum or Plasma', 'Folate', 'Ser/Plas', 'nmol/L', ...FOLATE, 'vitamin'),
  row('2283-0', 'Folate [Mass/volume] in Red Blood Cells', 'Folate, RBC', 'RBC', 'ng/mL|ug/L', 'RBC folate|Folate RBC|Red cell folate|Erythrocyte folate|Folate, RBC', 'Erythrozyten-Folsäure|Folsäure in Erythrozyten', 'Folates érythrocytaires', 'vitamin'),
  row('62292-8', '25-Hydroxyvitamin D2+25-Hydroxyvitamin D3 [Mass/volume] in Serum or Plasma', 'Vitamin D, 25-OH', 'Ser/Plas', 'ng/mL|ug/L', ...VITD, 'vitamin'),
  row('1989-3', '25-Hydroxyvitamin D3 [Mass/volume] in Serum or Plasma', 'Vitamin D3, 25-OH', 'Ser/Plas', 'ng/mL|ug/L', `${VITD3[0]}|${VITD[0]}`, `${VITD3[1]}|${VITD[1]}`, `${VITD3[2]}|${VITD[2]}`, 'vitamin', 2),
  row('14635-7', '25-Hydroxyvitamin D3 [Moles/volume] in Serum or Plasma', 'Vitamin D3, 25-OH', 'Ser/Plas', 'nmol/L', `${VITD3[0]}|${VITD[0]}`, `${VITD3[1]}|${VITD[1]}`, `${VITD3[2]}|${VITD[2]}`, 'vitamin'),
  row('1649-3', '1,25-Dihydroxyvitamin D3 [Mass/volume] in Serum or Plasma', '1,25-(OH)2 vitamin D3', 'Ser/Plas', 'pg/mL|ng/L', '1,25-Dihydroxyvitamin D|1,25-(OH)2 vitamin D|Calcitriol|1,25-Dihydroxy vitamin D3|Vitamin D 1,25-dihydroxy', '1,25-Dihydroxy-Vitamin D3|1,25-(OH)2-Vitamin D|Calcitriol', '1,25-dihydroxyvitamine D|Calcitriol|1,25-(OH)2 vitamine D', 'vitamin'),
  row('14566-4', '1,25-Dihydroxyvitamin D3 [Moles/volume] in Serum or Plasma', '1,25-(OH)2 vitamin D3', 'Ser/Plas', 'pmol/L', '1,25-Dihydroxyvitamin D|1,25-(OH)2 vitamin D|Calcitriol', '1,25-Dihydroxy-Vitamin D3|Calcitriol', '1,25-dihydroxyvitamine D|Calcitriol', 'vitamin'),
  row('2923-1', 'Retinol [Mass/volume] in Serum or Plasma', 'Vitamin A', 'Ser/Plas', 'ug/dL|ug/mL|mg/L', 'Vitamin A|Retinol', 'Vitamin A|Retinol', 'Vitamine A|Rétinol', 'vitamin'),
  row('14905-4', 'Retinol [Moles/volume] in Serum or Plasma', 'Vitamin A', 'Ser/Plas', 'umol/L', 'Vitamin A|Retinol', 'Vitamin A|Retinol', 'Vitamine A|Rétinol', 'vitamin'),
  row('1823-4', 'Alpha tocopherol [Mass/volume] in Serum or Plasma', 'Vitamin E', 'Ser/Plas', 'mg/L|mg/dL|ug/mL', 'Vitamin E|Alpha tocopherol|Alpha-tocopherol|Tocopherol', 'Vitamin E|Alpha-Tocopherol|Tocopherol', 'Vitamine E|Alpha-tocophérol|Tocophérol', 'vitamin'),
  row('1903-4', 'Ascorbate [Mass/volume] in Serum or Plasma', 'Vitamin C', 'Ser/Plas', 'mg/dL|mg/L', 'Vitamin C|Ascorbic acid|Ascorbate', 'Vitamin C|Ascorbinsäure', 'Vitamine C|Acide ascorbique', 'vitamin'),
  row('2900-9', 'Pyridoxal phosphate [Mass/volume] in Serum or Plasma', 'Vitamin B6', 'Ser/Plas', 'ng/mL|ug/L', 'Vitamin B6|Pyridoxal phosphate|PLP|Pyridoxal 5-phosphate|Pyridoxal-5-phosphate', 'Vitamin B6|Pyridoxalphosphat', 'Vitamine B6|Phosphate de pyridoxal', 'vitamin'),
  row('39786-9', 'Pyridoxal phosphate [Moles/volume] in Serum or Plasma', 'Vitamin B6', 'Ser/Plas', 'nmol/L', 'Vitamin B6|Pyridoxal phosphate|PLP', 'Vitamin B6|Pyridoxalphosphat', 'Vitamine B6|Phosphate de pyridoxal', 'vitamin'),

  // Trace elements, metabolic markers
  row('5763-8', 'Zinc [Mass/volume] in Serum or Plasma', 'Zinc', 'Ser/Plas', 'ug/dL|ug/mL|mg/L', 'Zinc|Zn', 'Zink|Zn', 'Zinc|Zn', 'vitamin'),
  row('14955-9', 'Zinc [Moles/volume] in Serum or Plasma', 'Zinc', 'Ser/Plas', 'umol/L', 'Zinc|Zn', 'Zink|Zn', 'Zinc|Zn', 'vitamin'),
  row('5631-7', 'Copper [Mass/volume] in Serum or Plasma', 'Copper', 'Ser/Plas', 'ug/dL|mg/L', 'Copper|Cu', 'Kupfer|Cu', 'Cuivre|Cu', 'vitamin'),
  row('14665-4', 'Copper [Moles/volume] in Serum or Plasma', 'Copper', 'Ser/Plas', 'umol/L', 'Copper|Cu', 'Kupfer|Cu', 'Cuivre|Cu', 'vitamin'),
  row('5724-0', 'Selenium [Mass/volume] in Serum or Plasma', 'Selenium', 'Ser/Plas', 'ng/mL|ug/L', 'Selenium|Se', 'Selen|Se', 'Sélénium|Se', 'vitamin'),
  row('25521-6', 'Selenium [Moles/volume] in Serum or Plasma', 'Selenium', 'Ser/Plas', 'umol/L', 'Selenium|Se', 'Selen|Se', 'Sélénium|Se', 'vitamin'),
  row('5671-3', 'Lead [Mass/volume] in Blood', 'Lead', 'Bld', 'ug/dL|ug/L', 'Lead|Blood lead|Pb|Lead, blood', 'Blei|Pb|Blei im Blut', 'Plomb|Plombémie|Pb', 'vitamin'),
  row('5685-3', 'Mercury [Mass/volume] in Blood', 'Mercury', 'Bld', 'ug/L|ug/dL', 'Mercury|Blood mercury|Hg|Mercury, blood', 'Quecksilber|Hg|Quecksilber im Blut', 'Mercure|Hg|Mercure sanguin', 'vitamin'),
  row('13965-9', 'Homocysteine [Moles/volume] in Serum or Plasma', 'Homocysteine', 'Ser/Plas', 'umol/L', 'Homocysteine|Hcy|Homocysteine total|Total homocysteine', 'Homocystein|Hcy', 'Homocystéine|Hcy', 'cardiac|vitamin'),
  row('13964-2', 'Methylmalonate [Moles/volume] in Serum or Plasma', 'Methylmalonic acid', 'Ser/Plas', 'nmol/L|umol/L', 'Methylmalonic acid|MMA|Methylmalonate', 'Methylmalonsäure|MMA', 'Acide méthylmalonique|MMA', 'vitamin'),
  row('2064-4', 'Ceruloplasmin [Mass/volume] in Serum or Plasma', 'Ceruloplasmin', 'Ser/Plas', 'mg/dL|g/L', 'Ceruloplasmin|Caeruloplasmin', 'Coeruloplasmin|Caeruloplasmin|Zöruloplasmin', 'Céruloplasmine', 'vitamin|liver'),
];
