import { Command } from 'commander';
import { integerOption } from '../context';
import type { AnswerOf } from '../../shared/contract/client';
import { Output } from '../output/output';
import { PAGE_MAX, PAGE_SIZE_MAX } from '../../shared/policy';

export interface PageOptions {
  page?: number;
  pageSize?: number;
}

export function withPageOptions(command: Command): Command {
  return command
    .option('--page <n>', 'page number, from 1', integerOption('--page', 1, PAGE_MAX))
    .option('--page-size <n>', `items per page (1-${PAGE_SIZE_MAX}, default 20)`, integerOption('--page-size', 1, PAGE_SIZE_MAX));
}

export function pageFooter(output: Output, pagination: AnswerOf<'listApplications'>['pagination'], noun: string): void {
  output.line(`page ${pagination.page} of ${Math.max(pagination.totalPages, 1)}, ${pagination.total} ${noun}`);
}
