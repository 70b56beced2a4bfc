/**
 * Which end of a person's name is the family name, when nothing on the page says so: no comma, no word in
 * capitals beside words in lower case, no label giving the order. Reports print names both ways ("José Luis
 * Jiménez Ortiz", "JIMÉNEZ ORTIZ JOSÉ LUIS" on a Mexican form, "ROSSI MARIO" on an Italian one, "KOH KOK WAI"
 * in Singapore), so the words themselves are asked: a run of common given names at one end and none at the other
 * is the given names. The lists are general knowledge (frequent given names of the languages reports come in,
 * and the commonest East Asian family names, which are written first), not any one document's names.
 */

import { foldText } from './text.js';

const GIVEN = new Set(
  `
  aaron abdul adam adrian adriana agnes agustin ahmad ahmed aisha alan albert alberto aleksandra alessandro alessandra
  alex alexander alexandra alexandre alfonso alfred alfredo ali alice alicia alina alison amanda amelia amy ana andre
  andrea andreas andres andrew andrzej angela angelica angelo anita ann anna anne annette antoine anton antonia antonio
  ariana arturo astrid barbara beatrice beatriz ben benjamin bernard bernd bertrand betty bianca bob brandon brenda brian
  bruno camila camille carl carla carlos carmen carol carolina caroline catalina catherine cecilia celine charles charlotte
  chiara christian christina christine christoph christopher claire clara claudia claudio colin cristina cristian daniel
  daniela danielle david debora deborah denis diana diego dieter dimitri dolores dominik dominique donald dorothy eduardo
  edward elena eleni elisa elisabeth elizabeth ellen elsa emil emilia emily emma emmanuel enrique eric erik ernesto esther
  eva fabian fatima federico felipe felix fernanda fernando filip florian frances francesca francesco francisco francois
  frank franz frederic frederik gabriel gabriela gabriele georg george georges gerhard gianluca gilles giorgio giovanni
  giulia giuseppe gloria gonzalo grace gregory guadalupe guillaume gunter gustavo hana hannah hans harry hector heinz helen
  helena helmut henri henrik henry hugo ian ines ingrid irene isabel isabella isabelle ivan jack jacob jacqueline jakob
  james jan jana jane janet janina jason javier jean jennifer jens jerome jesus joan joana joao joaquin johan johann johanna
  john jorge jose josef joseph josephine juan juana judith julia julian julie julien julio jurgen karen karin karina karl
  katarina katharina katherine kathleen katrin kenneth kevin klaus kristina laura laurent lea leon leonardo leticia linda
  lisa lorenzo louis louise lourdes lucas lucia luciana luis luisa lukas luke magdalena maja manuel manuela marc marcel
  marcela marco marcos margaret margarita maria mariana marie marina mario marion mark marta martha martin martina mary
  mateo mathieu matteo matthew matthias mauricio max maximilian melanie mercedes michael michel michele miguel mikhail
  milan miriam monica monika nadia natalia nathalie nicolas nicole nikolai nina noah nora olga oliver olivia oscar pablo
  paola patricia patrick paul paula paulo pedro peter petra philip philippe pierre pietro piotr rafael raquel raul rebecca
  regina reinhard ricardo richard rita robert roberto rocio rodrigo roger rosa rosario ruth sabine salvatore samuel sandra
  sara sarah sebastian sergio silvia simon simone sofia sophie stefan stefano stephane stephanie steven susan susanne sven
  sylvie teresa thomas tobias tomas tomasz ursula valentina valeria vanessa veronica victor victoria vincent virginia
  walter werner william wolfgang xavier yolanda yvonne zoe
  abdullah amal fatma faisal hamza hassan huda hussein ibrahim ismail khaled khalid layla leila mariam maryam mohamed
  mohammed muhammad mustafa nasser noor noura omar rashid reem saeed salma sultan tariq yasmin yousef youssef zainab
  alois anja birgit brigitte christa doris elfriede elke erich gertrud gudrun heike herbert hildegard horst ingeborg
  johannes jutta kurt leopold manfred rainer renate silke sonja tanja theresa ulrike uwe veronika waltraud
  amit anil anjali arjun deepak kavita neha pooja priya rahul raj rajesh ramesh ravi sanjay sunil sunita suresh vijay vikram
  `
    .split(/\s+/)
    .filter(Boolean),
);

/** The commonest Chinese, Korean and Vietnamese family names, in their usual romanisations (Vietnamese unaccented): written before the given names. */
const EAST_ASIAN_FAMILY = new Set(
  `
  ang bai cai cao chan chang chen cheng cheong cheung chia chiu choi chong chow chu chua chung cui deng ding dong du fang
  feng foo fu gao goh guo han heng ho hoang hu huang huynh jiang jin kang koh kwok lai lam lau lee leong leung li liang lim
  lin liu loh low lu luo ma nguyen ng ong pan park peng pham phan quek seah shen sim soh song su sun tan tang tay teo tian
  toh tran tse vo vu wang wei wong wu xiao xie xu yang yao yap ye yeo yip yu yuan zeng zhang zhao zheng zhou zhu
  bui dang dinh do duong ha ngo ly thai trinh truong vuong
  `
    .split(/\s+/)
    .filter(Boolean),
);

/** Given names that are common family names too ("Kayden Thomas"): two mixed-case words ending in one are left to the caller. */
const ALSO_FAMILY = new Set(['allen', 'francis', 'george', 'grace', 'henry', 'james', 'john', 'lewis', 'martin', 'paul', 'rose', 'scott', 'thomas', 'william']);

/** A word as the lists hold it: folded (lower case, no accents) and without points or apostrophes ("O'Neil", "Ma."). */
const fold = (w: string): string => foldText(w).replace(/[.']/g, '');

/** A common given name; a hyphenated one ("Jean-Pierre", "MARIE-CLAIRE") when each part is. */
export function isGivenName(word: string): boolean {
  const parts = fold(word).split('-').filter(Boolean);
  return parts.length > 0 && parts.every((p) => GIVEN.has(p));
}

/**
 * The given and family names of a name written without any cue, decided by the given-name list: given names at
 * the end and none before them is family name first ("JIMÉNEZ ORTIZ JOSÉ LUIS", "Rossi Mario"); given names at the
 * start and none after is given names first ("José Luis Jiménez Ortiz": both family names kept, where the last
 * word alone would lose one). A name in capitals opening with an East Asian family name and no Western given name
 * after it is family name first ("KOH KOK WAI", "NGUYEN VAN AN"). Null when the list cannot tell (both ends given
 * names, none at all, or given names in the middle): the caller keeps its own rule.
 */
export function splitByGivenNames(words: readonly string[]): { first: string; last: string } | null {
  const n = words.length;
  if (n < 2) return null;
  const given = words.map(isGivenName);
  const firstFamily = given.indexOf(true);
  const allCaps = words.every((w) => w === w.toUpperCase());
  const ambiguous = n === 2 && !allCaps && ALSO_FAMILY.has(fold(words[1]!));
  if (firstFamily > 0 && given.slice(firstFamily).every(Boolean) && !ambiguous) {
    return { first: words.slice(firstFamily).join(' '), last: words.slice(0, firstFamily).join(' ') };
  }
  const lastGiven = given.lastIndexOf(true);
  if (given[0] && lastGiven < n - 1 && given.slice(0, lastGiven + 1).every(Boolean) && n > 2) {
    return { first: words.slice(0, lastGiven + 1).join(' '), last: words.slice(lastGiven + 1).join(' ') };
  }
  const rest = words.slice(1).map(fold);
  if (allCaps && n >= 3 && !given.some(Boolean) && EAST_ASIAN_FAMILY.has(fold(words[0]!)) && !EAST_ASIAN_FAMILY.has(rest[rest.length - 1]!)) {
    return { first: words.slice(1).join(' '), last: words[0]! };
  }
  return null;
}
