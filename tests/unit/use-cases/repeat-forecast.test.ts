import { expect } from 'chai';
import { BOARD_REPOSITORY } from '../../../application/ports/board-repository.port.js';
import { CANDIDATE_REPOSITORY } from '../../../application/ports/candidate-repository.port.js';
import { ID_GENERATOR } from '../../../application/ports/id-generator.port.js';
import { SECRETS } from '../../../application/ports/secrets.port.js';
import { UNIT_OF_WORK } from '../../../application/ports/unit-of-work.port.js';
import { DEFAULT_REPEAT_FORECAST, RepeatForecast } from '../../../application/use-cases/repeat-forecast.js';
import { SubmitApplication } from '../../../application/use-cases/submit-application.use-case.js';
import { NotFoundError, ValidationError } from '../../../domain/shared/domain-error.js';
import { resolve } from '../../../infrastructure/container/typed-binding.js';
import { anApplication } from '../../support/builders.js';
import { rejectionOf } from '../../support/catching.js';
import { countingLookups, REPEAT_WAYS } from '../../support/repeat-ways.js';
import { withWorld } from '../../support/use-case-world.js';

describe('RepeatForecast (ADR 21)', () => {
  const repeats = (forecast: RepeatForecast, companyId: string, times: number, repeated = true) => {
    for (let i = 0; i < times; i++) forecast.record(companyId, repeated);
  };

  it('expects a new application from a company it has not seen', () => {
    const forecast = new RepeatForecast();
    expect(forecast.expectsRepeat('company-a')).to.equal(false);
    expect(forecast.shareOf('company-a')).to.equal(0);
  });

  it('expects a repeat after four repeats in a row, not after three', () => {
    const forecast = new RepeatForecast();
    repeats(forecast, 'company-a', 3);
    expect(forecast.expectsRepeat('company-a')).to.equal(false);
    forecast.record('company-a', true);
    expect(forecast.expectsRepeat('company-a')).to.equal(true);
    expect(forecast.shareOf('company-a')).to.be.closeTo(1 - (15 / 16) ** 4, 1e-12);
  });

  it('expects new applications again after 25 new ones, not after 24', () => {
    const forecast = new RepeatForecast();
    repeats(forecast, 'company-a', 400);
    repeats(forecast, 'company-a', 24, false);
    expect(forecast.expectsRepeat('company-a')).to.equal(true);
    forecast.record('company-a', false);
    expect(forecast.expectsRepeat('company-a')).to.equal(false);
  });

  it('keeps each company to itself', () => {
    const forecast = new RepeatForecast();
    repeats(forecast, 'company-a', 10);
    repeats(forecast, 'company-b', 10, false);
    expect(forecast.expectsRepeat('company-a')).to.equal(true);
    expect(forecast.expectsRepeat('company-b')).to.equal(false);
  });

  it('forgets the company whose last application is oldest when it holds as many as it may', () => {
    const forecast = new RepeatForecast({ ...DEFAULT_REPEAT_FORECAST, maxCompanies: 2 });
    repeats(forecast, 'company-a', 10);
    repeats(forecast, 'company-b', 10);
    repeats(forecast, 'company-a', 1);
    repeats(forecast, 'company-c', 10);
    expect(forecast.shareOf('company-b')).to.equal(0);
    expect(forecast.expectsRepeat('company-a')).to.equal(true);
    expect(forecast.expectsRepeat('company-c')).to.equal(true);
  });

  it('refuses settings that cannot work', () => {
    expect(() => new RepeatForecast({ ...DEFAULT_REPEAT_FORECAST, weight: 0 })).to.throw(RangeError, /weight/);
    expect(() => new RepeatForecast({ ...DEFAULT_REPEAT_FORECAST, weight: 1.5 })).to.throw(RangeError, /weight/);
    expect(() => new RepeatForecast({ ...DEFAULT_REPEAT_FORECAST, threshold: Number.NaN })).to.throw(RangeError, /threshold/);
    expect(() => new RepeatForecast({ ...DEFAULT_REPEAT_FORECAST, maxCompanies: 0 })).to.throw(RangeError, /companies/);
  });
});

describe('SubmitApplication with the repeat forecast (ADR 21)', () => {
  const world = withWorld();

  /** A SubmitApplication on the world's in-memory stores, counting the lookups and the units of work it starts. */
  function submitter(forecast: RepeatForecast) {
    const { container } = world();
    const counts = { lookups: 0, unitsOfWork: 0 };
    const candidates = resolve(container, CANDIDATE_REPOSITORY);
    const unitOfWork = resolve(container, UNIT_OF_WORK);
    const countedCandidates = countingLookups(candidates, () => counts.lookups++);
    const countedUnitOfWork: typeof unitOfWork = {
      run: (...args: Parameters<typeof unitOfWork.run>) => {
        counts.unitsOfWork++;
        return unitOfWork.run(...args);
      },
    } as typeof unitOfWork;
    const use = new SubmitApplication(resolve(container, BOARD_REPOSITORY), countedCandidates, countedUnitOfWork, resolve(container, ID_GENERATOR), resolve(container, SECRETS), { forecast });
    return { use, counts };
  }

  // Five applications of one externalId: the first is new, then four repeats (two of them to a vacancy missing here).
  // Looked up first: five lookups, and a unit of work for the first only. Told by the insert: a unit of work each, and
  // a lookup only for the two whose vacancy the batch finds missing (the batch's own repeat check, ADR 10).
  for (const { name, forecast, lookedUp } of REPEAT_WAYS) {
    const expected = lookedUp ? { lookups: 5, unitsOfWork: 1 } : { lookups: 2, unitsOfWork: 5 };
    it(`answers a repeat the same when it is ${name}: the earlier id, whether the body differs, also after the vacancy was deleted and to another company's vacancy`, async () => {
      const companyId = await world().company();
      const vacancy = await world().vacancy(companyId);
      const other = await world().company('Other');
      const foreign = await world().vacancy(other);
      const { use, counts } = submitter(forecast());
      const send = (externalId: string, coverLetter: string) => use.execute({ companyId, application: anApplication({ vacancyId: vacancy.id, externalId, coverLetter }) });
      const first = await send('portal-1', 'Письмо');
      const before = await world().allCandidates(companyId);
      expect(await send('portal-1', 'Письмо')).to.deep.equal({ status: 'duplicate', id: first.id, bodyDiffers: false });
      expect(await send('portal-1', 'Другое письмо')).to.deep.equal({ status: 'duplicate', id: first.id, bodyDiffers: true });
      expect(await world().allCandidates(companyId)).to.deep.equal(before);
      await world().use('deleteVacancy').execute({ companyId, id: vacancy.id });
      expect(await send('portal-1', 'Письмо')).to.deep.equal({ status: 'duplicate', id: first.id, bodyDiffers: false });
      const toForeign = await use.execute({ companyId, application: anApplication({ vacancyId: foreign.id, externalId: 'portal-1', coverLetter: 'Письмо' }) });
      expect(toForeign).to.deep.equal({ status: 'duplicate', id: first.id, bodyDiffers: true });
      expect((await world().allCandidates(companyId)).map((card) => card.id)).to.deep.equal([first.id]);
      expect(await world().allCandidates(other)).to.deep.equal([]);
      // The way named is the way taken.
      expect(counts).to.deep.equal(expected);
    });
  }

  it('records nothing for an application that fails: a missing vacancy, a broken rule', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const forecast = new RepeatForecast();
    const { use } = submitter(forecast);
    await use.execute({ companyId, application: anApplication({ vacancyId: vacancy.id, externalId: 'portal-1' }) });
    forecast.record(companyId, true);
    const share = forecast.shareOf(companyId);
    expect(await rejectionOf(use.execute({ companyId, application: anApplication({ vacancyId: 'no-such-vacancy', externalId: 'portal-2' }) }))).to.be.instanceOf(NotFoundError);
    expect(await rejectionOf(use.execute({ companyId, application: anApplication({ vacancyId: vacancy.id, externalId: '' }) }))).to.be.instanceOf(ValidationError);
    expect(forecast.shareOf(companyId)).to.equal(share);
  });

  it('stores new applications without a lookup, and looks repeats up once they are frequent', async () => {
    const companyId = await world().company();
    const vacancy = await world().vacancy(companyId);
    const { use, counts } = submitter(new RepeatForecast());
    const send = (externalId: string) => use.execute({ companyId, application: anApplication({ vacancyId: vacancy.id, externalId }) });
    for (let i = 0; i < 3; i++) expect((await send(`new-${i}`)).status).to.equal('created');
    expect(counts).to.deep.equal({ lookups: 0, unitsOfWork: 3 });
    // Four repeats told by the insert (each a unit of work), then the fifth answered by a lookup alone.
    for (let i = 0; i < 4; i++) expect((await send('new-0')).status).to.equal('duplicate');
    expect(counts).to.deep.equal({ lookups: 0, unitsOfWork: 7 });
    expect((await send('new-1')).status).to.equal('duplicate');
    expect(counts).to.deep.equal({ lookups: 1, unitsOfWork: 7 });
    // A new application while repeats are expected: looked up, then stored.
    expect((await send('new-9')).status).to.equal('created');
    expect(counts).to.deep.equal({ lookups: 2, unitsOfWork: 8 });
  });
});
