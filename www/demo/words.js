// Field errors in the words of the form: the field named as its label says, the
// value as typed, and what the field takes, from the parameter table's rule
// ("Time step: 1e400 is too large; it must be between 0.000001 and 1 s").
// The Errors themselves (with their `field` and `code`) are the API's; only the
// text shown under a field is written here.

import { PARAMETERS } from '../lib/parameters.js';
import { quoteForMessage } from '../lib/options.js';

const BY_NAME = new Map(PARAMETERS.map((parameter) => [parameter.name, parameter]));

/** A limit as people write it: 0.000001, 1000, 1e15. */
function limit(value) {
  return Math.abs(value) >= 1e7 ? value.toExponential().replace('e+', 'e') : String(value);
}

/** What a number field takes, as the end of a sentence: "between 1 and 1000". */
export function ruleWords({ rule, unit }) {
  const unitText = unit && unit !== 'particles' ? ` ${unit}` : '';
  switch (rule.kind) {
    case 'whole':
      return `a whole number between ${limit(rule.min)} and ${limit(rule.max)}${unit === 'particles' ? ' particles' : ''}`;
    case 'range':
    case 'positive':
      return `between ${limit(rule.min)} and ${limit(rule.max)}${unitText}`;
    case 'offOrAbove':
      return `0 (off) or above ${limit(rule.above)}, up to ${limit(rule.max)}${unitText}`;
    case 'oneOf':
      return `one of ${rule.values.join(', ')}`;
    default:
      return 'on or off';
  }
}

/** What is wrong with `text` for `parameter`, or '' when the rule does not say. */
function reason(parameter, text) {
  const { rule } = parameter;
  if (text === '') return 'enter a number';
  const value = Number(text);
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return `${quoteForMessage(text)} is not a number`;
  if (!Number.isFinite(value) || ('max' in rule && value > rule.max)) return `${text} is too large`;
  if ('min' in rule && value < rule.min) return `${text} is too small`;
  if (rule.kind === 'offOrAbove' && value !== 0 && value <= rule.above) return `${text} is too small`;
  if (rule.kind === 'whole' && !Number.isInteger(value)) return `${text} is not a whole number`;
  return '';
}

/**
 * The message shown under field `id` for `error`, raised by the typed `text`:
 * in the label's words, with what the field takes. An error the rule does not
 * explain (a work limit, say) keeps its own words, after the label.
 */
export function fieldMessage(id, error, text) {
  const parameter = BY_NAME.get(id);
  if (!parameter) return error.message;
  const { label } = parameter;
  const trimmed = String(text ?? '').trim();
  const number = parameter.type === 'number' && parameter.rule.kind !== 'oneOf';
  const why = number ? reason(parameter, trimmed) : '';
  if (why) return `${label}: ${why}; it must be ${ruleWords(parameter)}.`;
  const own = error.message.replace(new RegExp(`^invalid ${id}: `), '');
  return `${label}: ${own}`;
}
