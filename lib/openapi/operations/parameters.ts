import { MAX_PAGE_OFFSET } from '#domain/pagination';

// Parameter descriptions several areas' list routes share.

export const LIST = {
  index: `Zero-based page number (docs/api.md#lists). A page may start at most ${MAX_PAGE_OFFSET.toLocaleString('en-US')} entries into the list: \`index × size\` above that answers \`400 invalid_index\`; narrow the list with \`start_time\`/\`end_time\` or a filter instead.`,
  size: 'Page length; `0` answers an empty page.',
  start_time: 'Created at or after this time (any offset; compared in UTC).',
  end_time: 'Created before this time; must be after `start_time`.',
};
export const ARRAY = 'Repeat the parameter or separate values with commas; values are ORed.';
