import type { Command } from 'commander';
import { presentCandidate } from '../../presenters/candidate.presenter.js';
import type { AdminContext } from '../admin-context.js';
import { readCandidateFile, readResumeFile } from '../candidate-file.js';
import { readJsonInput } from '../json-input.js';

interface CardOptions {
  readonly company: string;
  readonly id: string;
}

export function registerCandidateCommands(program: Command, ctx: AdminContext): void {
  const candidate = program.command('candidate').description('candidate cards of a company');

  candidate
    .command('add')
    .description(
      'add a recruiter\'s manual cards (source "manual"). The file holds one card or an array, each with vacancyId, ' +
        'candidate, resume, optional referral and stage; all or nothing. Prints the cards, in file order',
    )
    .requiredOption('--company <id>', 'the company')
    .requiredOption('--file <path>', 'JSON file, or - for standard input')
    .action(async (options: { company: string; file: string }) => {
      const services = await ctx.forCompany(options.company);
      const candidates = readCandidateFile(await readJsonInput(ctx.io, options.file));
      const cards = await services.addCandidates.execute({ companyId: options.company, candidates });
      ctx.print(cards.map(presentCandidate));
    });

  candidate
    .command('update-resume')
    .description("replace a card's resume with the file's (one resume object, fields as the API's resume). Prints the card")
    .requiredOption('--company <id>', 'the company')
    .requiredOption('--id <candidateId>', 'the card')
    .requiredOption('--file <path>', 'JSON file, or - for standard input')
    .action(async (options: CardOptions & { file: string }) => {
      const services = await ctx.forCompany(options.company);
      const resume = readResumeFile(await readJsonInput(ctx.io, options.file));
      ctx.print(presentCandidate(await services.updateResume.execute({ companyId: options.company, id: options.id, resume })));
    });

  candidate
    .command('move')
    .description("move a card to another column of its vacancy's board. Prints the card")
    .requiredOption('--company <id>', 'the company')
    .requiredOption('--id <candidateId>', 'the card')
    .requiredOption('--stage <column>', 'a column of the board')
    .action(async (options: CardOptions & { stage: string }) => {
      const services = await ctx.forCompany(options.company);
      ctx.print(presentCandidate(await services.moveCandidate.execute({ companyId: options.company, id: options.id, stage: options.stage })));
    });

  candidate
    .command('transfer')
    .description('transfer a card to another vacancy: a technical card appears on its board and is never listed. Prints {"technicalCardId"}')
    .requiredOption('--company <id>', 'the company')
    .requiredOption('--id <candidateId>', 'the card')
    .requiredOption('--vacancy <vacancyId>', 'the vacancy to transfer to')
    .action(async (options: CardOptions & { vacancy: string }) => {
      const services = await ctx.forCompany(options.company);
      ctx.print(await services.transferCandidate.execute({ companyId: options.company, id: options.id, vacancyId: options.vacancy }));
    });

  candidate
    .command('delete')
    .description('delete a card for good, with its technical cards. Prints {"id","deleted":true}')
    .requiredOption('--company <id>', 'the company')
    .requiredOption('--id <candidateId>', 'the card')
    .action(async (options: CardOptions) => {
      const services = await ctx.forCompany(options.company);
      ctx.print(await services.deleteCandidate.execute({ companyId: options.company, id: options.id }));
    });
}
