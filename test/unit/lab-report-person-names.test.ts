import { describe, expect, it } from 'vitest';
import { splitOrderedName, splitPersonName } from '../../domain/lab-report/metadata.js';
import { isGivenName, splitByGivenNames } from '../../domain/lab-report/person-names.js';

describe('given-name list', () => {
  it('knows given names whatever their case, accents and hyphens', () => {
    expect(isGivenName('JOSÉ')).toBe(true);
    expect(isGivenName('jose')).toBe(true);
    expect(isGivenName('Jean-Pierre')).toBe(true);
    expect(isGivenName('MARIE-CLAIRE')).toBe(true);
    expect(isGivenName('Jiménez')).toBe(false);
    expect(isGivenName('Jean-Dupont')).toBe(false);
  });

  it('reads family name first when the given names close the name', () => {
    expect(splitByGivenNames(['FERNÁNDEZ', 'LÓPEZ', 'MARÍA', 'ELENA'])).toEqual({ first: 'MARÍA ELENA', last: 'FERNÁNDEZ LÓPEZ' });
    expect(splitByGivenNames(['Bianchi', 'Giulia'])).toEqual({ first: 'Giulia', last: 'Bianchi' });
  });

  it('reads given names first when they open the name, keeping a double family name whole', () => {
    expect(splitByGivenNames(['Ana', 'Sofia', 'Pereira', 'Costa'])).toEqual({ first: 'Ana Sofia', last: 'Pereira Costa' });
  });

  it('reads an East Asian family name first in a name in capitals', () => {
    expect(splitByGivenNames(['TAN', 'BEE', 'LENG'])).toEqual({ first: 'BEE LENG', last: 'TAN' });
    expect(splitByGivenNames(['NGUYEN', 'THI', 'HUONG'])).toEqual({ first: 'THI HUONG', last: 'NGUYEN' });
  });

  it('says nothing when the list cannot tell', () => {
    expect(splitByGivenNames(['Maria', 'Anna'])).toBeNull(); // both given names
    expect(splitByGivenNames(['Okonkwo', 'Adebayo'])).toBeNull(); // neither known
    expect(splitByGivenNames(['Peter', 'Okafor', 'Paul'])).toBeNull(); // given names at both ends
    expect(splitByGivenNames(['Kayden', 'Thomas'])).toBeNull(); // the closing given name is a common family name too
    expect(splitByGivenNames(['Tan', 'Bee', 'Leng'])).toBeNull(); // not in capitals: no East Asian reading
    expect(splitByGivenNames(['LIM', 'WEI', 'TAN'])).toBeNull(); // family names at both ends
  });
});

describe('person names without any cue on the page', () => {
  it('splits a name in capitals by the given-name list', () => {
    expect(splitPersonName('GARCÍA MORALES ANA LUCÍA')).toEqual({ first: 'ANA LUCÍA', last: 'GARCÍA MORALES' });
    expect(splitPersonName('ROSSI MARCO')).toEqual({ first: 'MARCO', last: 'ROSSI' });
    expect(splitPersonName('CHUA MEI LING')).toEqual({ first: 'MEI LING', last: 'CHUA' });
  });

  it('keeps the cues it had: a comma, capitals beside lower case, the last word by default', () => {
    expect(splitPersonName('GARCÍA MORALES, Ana Lucía')).toEqual({ first: 'Ana Lucía', last: 'GARCÍA MORALES' });
    expect(splitPersonName('DUBOIS Claire')).toEqual({ first: 'Claire', last: 'DUBOIS' });
    expect(splitPersonName('Chidi Okonkwo')).toEqual({ first: 'Chidi', last: 'Okonkwo' });
    expect(splitPersonName('Brian Thomas')).toEqual({ first: 'Brian', last: 'Thomas' });
  });

  it('places the cut of a long name under a label that gives the order, when the list agrees with it', () => {
    expect(splitOrderedName('GARCÍA MORALES ANA LUCÍA', 'lastFirst')).toEqual({ first: 'ANA LUCÍA', last: 'GARCÍA MORALES' });
    expect(splitOrderedName('Ana Lucía García Morales', 'firstLast')).toEqual({ first: 'Ana Lucía', last: 'García Morales' });
    // The list reads it the other way round from the label: no name rather than a wrong one.
    expect(splitOrderedName('Ana Lucía García Morales', 'lastFirst')).toEqual({ first: '', last: '' });
  });
});

describe('family-name particles in either case', () => {
  it('keeps Arabic and European particles with the family name', () => {
    expect(splitPersonName('HALA EL MASRI')).toEqual({ first: 'HALA', last: 'EL MASRI' });
    expect(splitPersonName('Karim bin Laden')).toEqual({ first: 'Karim', last: 'bin Laden' });
    expect(splitPersonName('PIETER VAN DEN BOSCH')).toEqual({ first: 'PIETER', last: 'VAN DEN BOSCH' });
  });
});
