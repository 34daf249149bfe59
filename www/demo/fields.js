// The demo page's parameter fields, built from the parameter table.
//
// Every parameter with a page group gets one field inside
// `<fieldset data-parameter-group="GROUP">`: a text input (numbers), a select
// (a choice of values) or a checkbox (a flag), with id = the parameter's name,
// a label with its unit, its meaning as a tooltip, the default as its value, and
// an error line `NAME-error` that www/demo/app.js fills. A new parameter in the
// table gets its field here without touching index.html.

import { PARAMETERS, PRESETS } from '../lib/parameters.js';

/** The text a select shows for a value: a scene's name for people ("Double pendulum"), else the value. */
function optionText(parameter, value) {
  if (parameter.name === 'preset') return PRESETS.find((preset) => preset.name === value)?.title ?? String(value);
  return String(value);
}

/** The label text: "Stiffness (N/m, 0 means PBD)". */
function labelText({ label, unit, remark }) {
  const notes = [unit, remark].filter(Boolean).join(', ');
  return notes ? `${label} (${notes})` : label;
}

/** Which on-screen keyboard suits a number field (a minus sign needs the full one). */
function inputMode({ rule }) {
  if (rule.kind === 'whole' && rule.min >= 0) return 'numeric';
  if ('min' in rule && rule.min < 0) return null;
  return 'decimal';
}

function control(parameter) {
  const { name, rule, defaultValue } = parameter;
  if (rule.kind === 'flag') {
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = defaultValue;
    return box;
  }
  if (rule.kind === 'oneOf') {
    const select = document.createElement('select');
    for (const value of rule.values) select.add(new Option(optionText(parameter, value), String(value), false, value === defaultValue));
    return select;
  }
  const input = document.createElement('input');
  input.type = 'text';
  input.autocomplete = 'off';
  input.value = String(defaultValue);
  const mode = inputMode(parameter);
  if (mode) input.inputMode = mode;
  input.name = name;
  return input;
}

function field(parameter) {
  const wrapper = document.createElement('div');
  wrapper.className = parameter.rule.kind === 'flag' ? 'field field-checkbox' : 'field';
  const input = control(parameter);
  input.id = parameter.name;
  input.name = parameter.name;
  input.title = parameter.meaning;
  input.setAttribute('aria-describedby', `${parameter.name}-error`);
  const label = document.createElement('label');
  label.htmlFor = parameter.name;
  label.textContent = labelText(parameter);
  const error = document.createElement('p');
  error.id = `${parameter.name}-error`;
  error.className = 'field-error';
  error.setAttribute('aria-live', 'polite');
  // a checkbox stands before its label, every other control after it
  if (parameter.rule.kind === 'flag') wrapper.append(input, label, error);
  else wrapper.append(label, input, error);
  return wrapper;
}

/** Fills every `[data-parameter-group]` of `root` with its parameters' fields. */
export function buildParameterFields(root = document) {
  for (const fieldset of root.querySelectorAll('[data-parameter-group]')) {
    const group = fieldset.dataset.parameterGroup;
    fieldset.append(...PARAMETERS.filter((parameter) => parameter.group === group).map(field));
  }
}
