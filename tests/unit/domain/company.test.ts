import { expect } from 'chai';
import { Company } from '../../../domain/company/company.js';
import { T0 } from '../../support/builders.js';
import { pointersOf, thrownBy } from '../../support/catching.js';

describe('Company', () => {
  it('is created with its name and the moment of creation', () => {
    expect(Company.create({ id: 'co-1', name: 'ТОО «Каспиан»', now: T0 }).toSnapshot()).to.deep.equal({
      id: 'co-1',
      name: 'ТОО «Каспиан»',
      createdAt: T0,
    });
  });

  it('wants a name of 1..200 characters that is not blank', () => {
    expect(Company.create({ id: 'co-1', name: 'я'.repeat(200), now: T0 }).id).to.equal('co-1');
    for (const name of ['', '   ', 'я'.repeat(201)]) {
      expect([...new Set(pointersOf(thrownBy(() => Company.create({ id: 'co-1', name, now: T0 }))))], JSON.stringify(name)).to.deep.equal(['/name']);
    }
  });

  it('restores a snapshot and hands out copies', () => {
    const snapshot = { id: 'co-2', name: 'Uzcard', createdAt: new Date(T0) };
    const company = Company.restore(snapshot);
    snapshot.createdAt.setTime(0);
    company.toSnapshot().createdAt.setTime(0);
    expect(company.toSnapshot()).to.deep.equal({ id: 'co-2', name: 'Uzcard', createdAt: T0 });
  });
});
