import { PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../../shared/policy';
import { queryInteger } from './validate';

/** The query fields of every paged listing. */
export const pageFields = {
  page: queryInteger(1, PAGE_MAX, 1),
  pageSize: queryInteger(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
};
