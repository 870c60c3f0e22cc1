import { expect } from 'chai';
import { Board, DEFAULT_BOARD_COLUMNS } from '../../../domain/board/board.js';
import { ConflictError } from '../../../domain/shared/domain-error.js';
import { pointersOf, thrownBy } from '../../support/catching.js';

describe('Board', () => {
  it('starts with the columns NEW, AI_DIALOG, INTERVIEW, OFFER, ONBOARDING, REJECTION', () => {
    const board = Board.create('co-1', 'vac-1');
    expect(board.columns).to.deep.equal(['NEW', 'AI_DIALOG', 'INTERVIEW', 'OFFER', 'ONBOARDING', 'REJECTION']);
    expect(DEFAULT_BOARD_COLUMNS).to.deep.equal(board.columns);
  });

  it('lets new cards land in its first column, whatever that column is called', () => {
    expect(Board.create('co-1', 'vac-1').firstColumn).to.equal('NEW');
    expect(Board.create('co-1', 'vac-1', ['Отклик', 'Интервью']).firstColumn).to.equal('Отклик');
    const board = Board.create('co-1', 'vac-1');
    board.setColumns(['INTERVIEW', 'NEW'], []);
    expect(board.firstColumn).to.equal('INTERVIEW');
  });

  it('tells which columns it has, and refuses a missing one with ConflictError', () => {
    const board = Board.create('co-1', 'vac-1', ['A', 'B']);
    expect(board.has('B')).to.equal(true);
    expect(board.has('b')).to.equal(false);
    expect(() => board.requireColumn('A')).to.not.throw();
    const error = thrownBy(() => board.requireColumn('OFFER'));
    expect(error).to.be.instanceOf(ConflictError);
    expect((error as Error).message).to.contain('OFFER');
  });

  describe('setColumns', () => {
    it('renames, adds and reorders columns that hold no cards', () => {
      const board = Board.create('co-1', 'vac-1');
      board.setColumns(['Скрининг', 'NEW', 'INTERVIEW', 'Тестовое', 'OFFER'], ['NEW', 'INTERVIEW']);
      expect(board.columns).to.deep.equal(['Скрининг', 'NEW', 'INTERVIEW', 'Тестовое', 'OFFER']);
    });

    it('refuses to drop a column that still holds cards, names it, and keeps the columns', () => {
      const board = Board.create('co-1', 'vac-1');
      const error = thrownBy(() => board.setColumns(['NEW', 'OFFER'], ['NEW', 'INTERVIEW']));
      expect(error).to.be.instanceOf(ConflictError);
      expect((error as Error).message).to.contain('INTERVIEW');
      expect(board.columns).to.deep.equal([...DEFAULT_BOARD_COLUMNS]);
    });

    it('refuses an empty list, naming /columns', () => {
      expect(pointersOf(thrownBy(() => Board.create('co-1', 'vac-1').setColumns([], [])))).to.include('/columns');
    });

    it('refuses a repeated column, naming the repeat', () => {
      expect(pointersOf(thrownBy(() => Board.create('co-1', 'vac-1').setColumns(['NEW', 'OFFER', 'NEW'], [])))).to.deep.equal(['/columns/2']);
    });

    it('refuses blank columns and columns padded with spaces', () => {
      for (const [columns, pointer] of [
        [['NEW', ''], '/columns/1'],
        [['   ', 'NEW'], '/columns/0'],
        [[' NEW'], '/columns/0'],
        [['NEW '], '/columns/0'],
      ] as const) {
        expect(pointersOf(thrownBy(() => Board.create('co-1', 'vac-1', columns))), JSON.stringify(columns)).to.include(pointer);
      }
    });

    it('takes up to 50 columns of up to 100 characters', () => {
      const fifty = Array.from({ length: 50 }, (_, i) => `C${i}`);
      expect(Board.create('co-1', 'vac-1', fifty).columns).to.have.length(50);
      expect(pointersOf(thrownBy(() => Board.create('co-1', 'vac-1', [...fifty, 'C50'])))).to.deep.equal(['/columns']);
      expect(Board.create('co-1', 'vac-1', ['я'.repeat(100)]).firstColumn).to.have.length(100);
      expect(pointersOf(thrownBy(() => Board.create('co-1', 'vac-1', ['я'.repeat(101)])))).to.deep.equal(['/columns/0']);
    });
  });

  it('hands out copies of its columns', () => {
    const board = Board.create('co-1', 'vac-1', ['A']);
    (board.columns as string[]).push('B');
    (board.toSnapshot().columns as string[]).push('C');
    expect(board.columns).to.deep.equal(['A']);
  });
});
